"""False findings seen on real public skills (sets U and V, after their samples, and set W), each
beside the rule's own case.

Every test writes a small skill with the pattern that used to give a wrong finding (no finding, or
the right one, now) and the pattern the rule is for (still a finding), and runs ``check``.
"""

from __future__ import annotations

import subprocess
import sys

from conftest import run_cli
from test_precision_contract import findings, skill
from test_precision_patterns_p import lines_of


def _messages(root, rule):
    data = run_cli("check", ".", "--json", "--no-cache", "--select", f"ALL,{rule}", cwd=root).json()["data"]
    return sorted((f["path"], f["line"], f["message"]) for f in data if f["rule"] == rule)


def test_a_catch_all_branch_on_the_first_argument_refuses_unknown_options(tmp_path):
    """SHL003 on real skills: brainstorming's start-server.sh loops `case "$1" in` with a last
    `*) echo '{"error": "Unknown argument: $1"}'; exit 1 ;;`; it refuses a made-up flag, with 1.
    The finding says so at that branch, not that no branch refuses them. A `*)` in a case on
    something else (the OS) is no branch for options."""
    refuses = ('#!/usr/bin/env bash\n# Start the server.\nset -uo pipefail\nwhile [[ $# -gt 0 ]]; do\n'
               '  case "$1" in\n    --host) host="$2"; shift 2 ;;\n'
               '    *) echo "unknown argument: $1" >&2; exit 1 ;;\n  esac\ndone\necho "${host:-}"\n')
    other = ('#!/usr/bin/env bash\n# Start the server.\nset -uo pipefail\nmode="${1:-}"\n'
             'case "$(uname)" in\n  Linux) echo linux ;;\n  *) echo "unsupported" >&2; exit 1 ;;\nesac\n'
             'echo "$mode"\n')
    root = skill(tmp_path, "server", "Start: `bash scripts/start.sh --host h` or `bash scripts/os.sh fast`.",
                 {"scripts/start.sh": refuses, "scripts/os.sh": other}, mode=0o755)
    got = _messages(root, "SHL003")
    assert [(p, ln) for p, ln, _ in got] == [("scripts/os.sh", 1), ("scripts/start.sh", 7)]
    assert got[1][2].startswith("the branch for unknown options exits 1, not 2")
    assert got[0][2].startswith("no case branch rejects unknown options")


def test_a_path_argument_refused_with_usage_beside_an_empty_test(tmp_path):
    """SHL003 on real skills: adr-madr-system's validate_adr.sh takes one path and says
    `if [ -z "$file" ] || [ ! -f "$file" ]; then echo "usage: ..." >&2; exit 2; fi`: `--anything`
    is no file, so it is refused with 2. The same test that exits 1 still leaves the finding."""
    def script(code):
        return ('#!/bin/sh\n# Validate an ADR.\nset -eu\nfile="${1:-}"\n'
                f'if [ -z "$file" ] || [ ! -f "$file" ]; then\n  echo "usage: $0 ADR.md" >&2\n  exit {code}\nfi\n'
                'grep -q Status "$file"\n')
    root = skill(tmp_path, "adr", "Check: `sh scripts/v2.sh docs/adr.md` and `sh scripts/v1.sh docs/adr.md`.",
                 {"scripts/v2.sh": script(2), "scripts/v1.sh": script(1)}, mode=0o755)
    assert findings(root, "SHL003") == [("scripts/v1.sh", "SHL003")]


def test_pipefail_alone_is_not_missing_where_no_pipeline_can_fail_before_its_end(tmp_path):
    """SHL001 on real skills: merge-guard-hook.sh says `set -uf` on purpose, and every pipeline
    starts `printf %s "$var" | grep -q ...`, which can fail only of SIGPIPE (pipefail would turn a
    match into a failure): there is nothing for pipefail to catch. A `curl ... | jq` pipeline
    still needs it, and a script missing nounset still hears of both."""
    head = '#!/usr/bin/env bash\n# Guard merges.\n'
    root = skill(tmp_path, "guard", "Run `bash scripts/a.sh x`, `bash scripts/b.sh x`, `bash scripts/c.sh x`.", {
        "scripts/a.sh": head + 'set -uf\ninput="${1:-}"\nif printf %s "$input" | grep -q merge; then echo block; fi\n',
        "scripts/b.sh": head + 'set -u\nurl="${1:-}"\ncurl -fsS "$url" | jq .name\n',
        "scripts/c.sh": head + 'input="${1:-}"\nprintf %s "$input" | grep -q merge && echo block\n',
    }, mode=0o755)
    got = _messages(root, "SHL001")
    assert [p for p, _, _ in got] == ["scripts/b.sh", "scripts/c.sh"]
    assert "missing pipefail" in got[0][2] and "missing nounset and pipefail" in got[1][2]


def test_status_lines_are_no_noise_where_stdout_carries_nothing_else(tmp_path):
    """PYS053 on real skills: pdf-files' extract_form_field_info.py writes its result to the JSON
    file named on the command line and prints `Wrote {n} fields to {path}`: no data on stdout for
    that line to spoil. The same line beside `print(json.dumps(info))` is still flagged."""
    def script(result):
        return ('#!/usr/bin/env python3\n"""Write the form fields of a PDF to a JSON file."""\nimport json\nimport sys\n\n\n'
                'def main():\n    info = {"fields": sys.argv[1]}\n    with open(sys.argv[2], "w") as f:\n'
                '        json.dump(info, f)\n'
                f'    {result}\n    print()\n    print(f"Wrote {{len(info)}} fields to {{sys.argv[2]}}")\n\n\n'
                'if __name__ == "__main__":\n    main()\n')
    root = skill(tmp_path, "forms", "Run `python3 scripts/x.py in.pdf out.json` and `python3 scripts/y.py in.pdf out.json`.",
                 {"scripts/x.py": script("pass"), "scripts/y.py": script("print(json.dumps(info))")})
    assert lines_of(root, "PYS053") == [("scripts/y.py", 13)]


def test_a_name_reused_in_another_function_is_not_the_parser(tmp_path):
    """CON013 on real skills: check_mfa_enforcement_strategy.py builds `p = argparse.ArgumentParser()`
    in `parse_args()` with three optional options, and another function says `p = skill_dir / rel;
    p.is_file()`. That other `p` is no use of the parser, which needs no argument: SKILL.md's bare
    `python3 skills/security/mfa/scripts/check.py` from the repository's root is a whole call. A
    parser with a required option is still asked for its arguments."""
    def script(required):
        return ('#!/usr/bin/env python3\n"""Validate the skill."""\nimport argparse\nfrom pathlib import Path\n\n\n'
                'def files(root):\n    for rel in ("SKILL.md",):\n        p = root / rel\n        if not p.is_file():\n'
                '            print(rel)\n\n\ndef parse_args():\n    p = argparse.ArgumentParser(description="Validate.")\n'
                f'    p.add_argument("--manifest-dir", type=Path, required={required})\n    return p.parse_args()\n\n\n'
                'if __name__ == "__main__":\n    files(parse_args().manifest_dir or Path("."))\n')
    root = skill(tmp_path, "mfa", "From the repository's root: `python3 skills/security/mfa/scripts/check.py`; "
                 "or `python3 skills/security/mfa/scripts/strict.py`.",
                 {"scripts/check.py": script(False), "scripts/strict.py": script(True)})
    assert findings(root, "CON013") == [("SKILL.md", "CON013")]
    assert "scripts/strict.py" in _messages(root, "CON013")[0][2]


def test_subcommand_parsers_assigned_in_turn_to_one_name_keep_their_own_options(tmp_path):
    """PYS002 and CON006 on real skills: azure-devops' attachments.py says `p =
    subparsers.add_parser("upload")`, `p.add_argument(...)`, then `p = subparsers.add_parser("attach")`
    and so on, and another function names a path `p`. Each command has the options added after its
    own `p = ...`, so SKILL.md's calls of both commands are accepted, and fix writes them into the
    epilog and the header; the fixed script answers --help with them."""
    script = ('#!/usr/bin/env python3\n"""Attach files to work items."""\nimport argparse\nimport sys\nfrom pathlib import Path\n\n\n'
              'def exists(name):\n    p = Path(name)\n    return p.is_file()\n\n\n'
              'def main():\n    parser = argparse.ArgumentParser(description="Attach files.")\n'
              '    sub = parser.add_subparsers(dest="command", required=True)\n'
              '    p = sub.add_parser("upload")\n    p.add_argument("--file", required=True)\n'
              '    p = sub.add_parser("attach")\n    p.add_argument("--id", required=True, type=int)\n'
              '    args = parser.parse_args()\n    print(args.command)\n    return 0\n\n\n'
              'if __name__ == "__main__":\n    sys.exit(main())\n')
    root = skill(tmp_path, "attach", "Upload: `python3 scripts/att.py upload --file a.pdf`.\n"
                 "Attach: `python3 scripts/att.py attach --id 12`.", {"scripts/att.py": script})
    assert not [m for _, _, m in _messages(root, "CON006") if "Usage: how to call it" in m]
    run_cli("fix", ".", cwd=root)
    text = (root / "scripts/att.py").read_text()
    assert "Usage:   att.py {upload,attach} ..." in text
    helped = subprocess.run([sys.executable, "scripts/att.py", "--help"], cwd=root, capture_output=True, text=True)
    assert helped.returncode == 0
    assert "python3 scripts/att.py upload --file a.pdf" in helped.stdout
    assert "python3 scripts/att.py attach --id 12" in helped.stdout
    for call in ("upload --file a.pdf", "attach --id 12"):
        ran = subprocess.run([sys.executable, "scripts/att.py", *call.split()], cwd=root, capture_output=True, text=True)
        assert ran.returncode == 0, ran.stderr


def test_an_exit_codes_literal_block_in_restructuredtext_is_the_exit_field(tmp_path):
    """CON010 on real skills: notebooklm-py's check_workflow_secret_gates.py documents `Exit codes::`,
    a blank line, then `0  All ... gated.`, `1  ...`, `2  Argument error` indented below (the
    reStructuredText literal block), and its `Usage::` block the same way. Exit 0, 1 and 2 are
    documented; an exit 3 it does not list is still reported."""
    def script(code):
        return ('#!/usr/bin/env python3\n"""Assert workflow jobs that consume secrets are gated.\n\nUsage::\n\n'
                '    python scripts/gates.py\n    python scripts/gates.py --workflow-dir custom/path\n\nExit codes::\n\n'
                '    0  All secret-consuming jobs are gated.\n    1  One or more jobs are not gated.\n'
                '    2  Argument error (missing directory, etc.).\n\nImplementation notes\n--------------------\n\n'
                'No YAML library.\n"""\nimport argparse\nimport sys\n\n\ndef main():\n'
                '    parser = argparse.ArgumentParser()\n    parser.add_argument("--workflow-dir", default=".github")\n'
                '    args = parser.parse_args()\n    if args.workflow_dir == "none":\n'
                f'        return {code}\n    return 0\n\n\nif __name__ == "__main__":\n    sys.exit(main())\n')
    root = skill(tmp_path, "gates", "Run `python scripts/gates.py --workflow-dir .github` or `python scripts/more.py --workflow-dir x`.",
                 {"scripts/gates.py": script(1), "scripts/more.py": script(3)})
    got = _messages(root, "CON010")
    assert [(p, m.partition(";")[0]) for p, _, m in got] == [
        ("scripts/more.py", "exit code 3 is used but the Exit: line does not document it")]
    assert not [m for _, _, m in _messages(root, "CON006") if "Usage" in m.partition("by hand")[0] and "gates.py" in m]


def test_the_skills_cli_internal_flag_is_a_boolean_on_purpose(tmp_path):
    """SPC013 on real skills: agent-skill-kit's skill-curator says `metadata: {internal: true}`, the
    flag the skills CLI tests as `metadata?.internal === true` to keep a skill out of its lists;
    quoting it as told would list the skill. Another boolean in metadata is still reported."""
    def md(meta):
        return f"---\nname: {{name}}\ndescription: Curates skills. Use when tidying a skills folder.\nmetadata:\n{meta}---\nBody.\n"
    for name, meta in (("hidden", "  internal: true\n"), ("other", "  beta: true\n")):
        (tmp_path / name).mkdir()
        (tmp_path / name / "SKILL.md").write_text(md(meta).replace("{name}", name))
    data = run_cli("check", ".", "--json", "--no-cache", cwd=tmp_path).json()["data"]
    assert [(f["path"], f["rule"]) for f in data if f["rule"] == "SPC013"] == [("other/SKILL.md", "SPC013")]


def test_a_variable_only_ever_set_to_one_word_splits_into_nothing(tmp_path):
    """SHL051 on real skills: artifacts-builder's init-artifact.sh sets `VITE_VERSION="latest"` or
    `VITE_VERSION="5.4.11"` and runs `pnpm add -D vite@$VITE_VERSION`: no value of it can split or
    glob. A variable also set from a command, read, or set to two words is still reported."""
    script = ('#!/usr/bin/env bash\n# Set up the project.\nset -uo pipefail\nnode_major="${1:-20}"\n'
              'if [ "$node_major" -ge 20 ]; then\n  VITE_VERSION="latest"\nelse\n  VITE_VERSION=\'5.4.11\'\nfi\n'
              'pnpm add -D vite@$VITE_VERSION\n'
              'LABEL="two words"\necho $LABEL\n'
              'STAMP=none\nSTAMP=$(date +%F)\necho $STAMP\n')
    root = skill(tmp_path, "init", "Run `bash scripts/init.sh 20`.", {"scripts/init.sh": script}, mode=0o755)
    assert lines_of(root, "SHL051") == [("scripts/init.sh", 12), ("scripts/init.sh", 15)]


def test_a_guard_for_npx_covers_npm_which_ships_with_it(tmp_path):
    """SHL053 on real skills: frontend-slides' deploy.sh checks `command -v npx` (exiting with
    "brew install node") before `npm install -g vercel`: npm and npx come in one package. A tool
    of another package is still reported."""
    script = ('#!/usr/bin/env bash\n# Deploy the slides.\nset -uo pipefail\n'
              'command -v npx >/dev/null 2>&1 || { echo "needs node: brew install node" >&2; exit 5; }\n'
              'npm install -g vercel\njq . package.json\nnpx vercel deploy "${1:-.}"\n')
    root = skill(tmp_path, "deploy", "Run `bash scripts/deploy.sh dist`.", {"scripts/deploy.sh": script}, mode=0o755)
    assert [m.split("`")[1] for _, _, m in _messages(root, "SHL053")] == ["jq"]


def test_a_bare_citation_of_a_tool_with_commands_still_asks_for_its_arguments(tmp_path):
    """CON013 on real skills (set X): google_calendar.py dispatches on `sys.argv[1]` and each command
    builds its own `argparse.ArgumentParser()` in its function, fed `sys.argv[2:]`; the first of them
    (all options optional) is not the script's command line, so the bare `scripts/gcal.py` in
    SKILL.md is still no worked call, and fix writes no Usage from that one parser. A bare
    bitbucket.py with subcommands (none required) is no whole call either; a parser whose every
    option is optional still is."""
    commands = ('#!/usr/bin/env python3\n"""Google Calendar from the command line."""\nimport argparse\nimport sys\n\n\n'
                'def list_events(args):\n    parser = argparse.ArgumentParser()\n'
                '    parser.add_argument("--max", type=int, default=10)\n    print(parser.parse_args(args).max)\n\n\n'
                'def add_event(args):\n    parser = argparse.ArgumentParser()\n'
                '    parser.add_argument("--title", required=True)\n    print(parser.parse_args(args).title)\n\n\n'
                'if __name__ == "__main__":\n    if len(sys.argv) < 2:\n        sys.exit(2)\n'
                '    {"list": list_events, "add": add_event}[sys.argv[1]](sys.argv[2:])\n')
    sub = ('#!/usr/bin/env python3\n"""Bitbucket from the command line."""\nimport argparse\n\n'
           'parser = argparse.ArgumentParser()\ncommands = parser.add_subparsers(dest="command")\n'
           'repos = commands.add_parser("repos")\nrepos.add_argument("--page", type=int)\n'
           'print(parser.parse_args().command)\n')
    optional = ('#!/usr/bin/env python3\n"""Report the browser sessions."""\nimport argparse\n\n'
                'parser = argparse.ArgumentParser()\nparser.add_argument("--limit", type=int, default=12)\n'
                'print(parser.parse_args().limit)\n')
    root = skill(tmp_path, "calendar", "Calendar: `scripts/gcal.py`. Bitbucket: `scripts/bb.py`. "
                 "Sessions: `scripts/sessions.py`.",
                 {"scripts/gcal.py": commands, "scripts/bb.py": sub, "scripts/sessions.py": optional})
    cited = sorted(m.split()[0] for _, _, m in _messages(root, "CON013"))
    assert cited == ["scripts/bb.py", "scripts/gcal.py"]
    run_cli("fix", ".", cwd=root)
    assert "--max" not in (root / "scripts/gcal.py").read_text().split('"""')[1]


def test_the_calls_of_a_script_with_a_parser_per_command_go_into_no_one_parser(tmp_path):
    """PYS002 on real skills (set X): health_advisor.py builds `p = argparse.ArgumentParser()` in each
    `if cmd == "tips":` branch and parses `sys.argv[2:]`; SKILL.md's `health_advisor.py briefing`
    is a call of the script, not of the "tips" parser, so fix writes it into no epilog and says why."""
    script = ('#!/usr/bin/env python3\n"""Health tips."""\nimport argparse\nimport sys\n\n\n'
              'def main():\n    cmd = sys.argv[1]\n    if cmd == "tips":\n        p = argparse.ArgumentParser()\n'
              '        p.add_argument("--member-id", required=True)\n        print(p.parse_args(sys.argv[2:]).member_id)\n'
              '    elif cmd == "briefing":\n        p = argparse.ArgumentParser()\n'
              '        p.add_argument("--member-id")\n        print(p.parse_args(sys.argv[2:]).member_id)\n\n\n'
              'if __name__ == "__main__":\n    main()\n')
    root = skill(tmp_path, "health", "Brief: `python3 scripts/advisor.py briefing --member-id 3`.",
                 {"scripts/advisor.py": script})
    before = (root / "scripts/advisor.py").read_text()
    got = _messages(root, "PYS002")
    assert len(got) == 2 and all("by hand: the script builds 2 parsers" in m for _, _, m in got)
    run_cli("fix", ".", "--select", "PYS002", cwd=root)
    assert (root / "scripts/advisor.py").read_text() == before


def test_a_main_that_only_returns_zero_loses_nothing_when_dropped(tmp_path):
    """PYS052 on real skills (set X): install_dependencies.py's `main()` returns 0 only on its
    `--version` path, and every failure calls `sys.exit(1)` itself; a bare `main()` drops no code.
    A `main` that returns 1 on failure is still reported."""
    def script(code):
        return ('#!/usr/bin/env python3\n"""Install the dependencies."""\nimport sys\n\n\n'
                f'def main():\n    if "--version" in sys.argv:\n        print("1.0")\n        return 0\n'
                f'    if len(sys.argv) > 2:\n        {code}\n    print("ok")\n\n\n'
                'if __name__ == "__main__":\n    main()\n')
    root = skill(tmp_path, "deps", "Run `python3 scripts/zero.py` or `python3 scripts/one.py`.",
                 {"scripts/zero.py": script("sys.exit(1)"), "scripts/one.py": script("return 1")})
    assert findings(root, "PYS052") == [("scripts/one.py", "PYS052")]
