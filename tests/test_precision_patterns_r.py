"""False findings seen on real public skills (set R, after its sample), each beside the rule's own case.

Every test writes a small skill with the pattern that used to give a wrong finding (no finding
now) and the pattern the rule is for (still a finding), and runs ``check`` on it.
"""

from __future__ import annotations

import subprocess

from conftest import run_cli
from test_precision_contract import skill
from test_precision_patterns_p import lines_of


def test_placeholder_links_and_another_named_skills_files_are_not_missing(tmp_path):
    """RES002 on real skills: uploading-files says "no `[link](...)`" (a placeholder link);
    claude-skills shows `<CLAUDE_SKILL_DIR>/scripts/foo.sh`-style names (`scripts/foo.sh`); the git
    skill points at "`/core:agent-loop`'s `references/dispatch-discipline.md`", a file of another skill."""
    body = "\n".join([
        "Show the URL bare: no `**bold**`, no [link](...), no backticks.",  # 5
        "",
        "Run `bash scripts/foo.sh` from your own skill to see the pattern.",  # 7
        "",
        "See `/core:agent-loop`'s `references/dispatch-discipline.md` for read-only agents.",  # 9
        "",
        "Read `references/gone.md` before you start, then [the guide](references/also-gone.md).",  # 11
    ])
    root = skill(tmp_path, "placeholders", body, {})
    assert lines_of(root, "RES002") == [("SKILL.md", 11), ("SKILL.md", 11)]


def test_a_file_of_a_drawn_project_tree_is_the_projects(tmp_path):
    """RES002 on real skills: environment-bootstrap draws ``project/`` over ``├── scripts/`` and
    ``│   └── init.sh``, then says "Run `./scripts/init.sh`": the user's project's script. A tree of
    the skill itself still counts."""
    body = "\n".join([
        "```",
        "project/",
        "├── scripts/",
        "│   └── init.sh    ← Standard location",
        "└── package.json",
        "```",
        "",
        "Run `./scripts/init.sh` after every pull.",  # 12
        "",
        "```",
        "tree-skill/",
        "├── SKILL.md",
        "└── scripts/",
        "    └── build.sh",
        "```",
        "",
        "Run `./scripts/build.sh` to build.",  # 21
    ])
    root = skill(tmp_path, "tree-skill", body, {})
    assert lines_of(root, "RES002") == [("SKILL.md", 21)]


def test_installation_docs_upgrades_and_ci_files_shown_are_no_unpinned_or_piped_runs(tmp_path):
    """SEC002 on real skills: ars's ``docs/SETUP.md`` shows tectonic's installer,
    ``curl --proto '=https' -fsSL https://drop-sh.fullyjustified.net | sh``. SEC004:
    sentry-setup-logging says ``pip install --upgrade sentry-sdk`` under "SDK version too old"; a
    design note shows a CI workflow (a ``yaml`` block) that runs ``pip install pytest``."""
    files = {
        "references/SETUP.md": "# Setup\n\n```bash\ncurl --proto '=https' -fsSL https://drop-sh.fullyjustified.net | sh\n```\n",
        "references/usage.md": "# Usage\n\n```bash\ncurl -fsSL https://drop-sh.fullyjustified.net | sh\n```\n",
    }
    body = "\n".join([
        "If the SDK is too old: `pip install --upgrade sentry-sdk`.",  # 5
        "",
        "```yaml",
        "steps:",
        "  - run: pip install pytest",  # 9
        "```",
        "",
        "Then run `pip install requests` and go on.",  # 12
    ])
    root = skill(tmp_path, "installs", body, files)
    assert lines_of(root, "SEC002") == [("references/usage.md", 4)]
    assert lines_of(root, "SEC004") == [("SKILL.md", 12)]


def test_a_hosts_own_metadata_map_is_its_documented_form(tmp_path):
    """SPC013 on real skills: last30days declares ``metadata: openclaw: requires: env: [...]``, the
    map OpenClaw documents (aliases ``clawdbot``, ``clawdis``); a list under any other key is still
    no string."""
    root = tmp_path / "meta"
    root.mkdir()
    (root / "SKILL.md").write_text(
        "---\nname: meta\ndescription: Reads metadata. Use when testing.\nmetadata:\n  openclaw:\n    requires:\n"
        "      env: [API_KEY]\n---\n# Meta\n")
    other = tmp_path / "labels"
    other.mkdir()
    (other / "SKILL.md").write_text(
        "---\nname: labels\ndescription: Has labels. Use when testing.\nmetadata:\n  labels: [a, b]\n---\n# Labels\n")
    assert lines_of(root, "SPC013") == []
    assert lines_of(other, "SPC013") == [("SKILL.md", 4)]


def test_a_bundled_packages_readme_and_test_data_are_no_documents_for_people(tmp_path):
    """RES006 on real skills: course-lab-plotting bundles matplotlib under ``vendor/`` with its
    ``mpl-data/sample_data/README.txt``; a fixture folder holds a README of its case. The skill's
    own README is still flagged."""
    files = {"vendor/matplotlib/mpl-data/sample_data/README.txt": "Sample data.\n",
             "tests/fixtures/plate/README.md": "# Plate case\n", "README.md": "# My skill\n"}
    root = skill(tmp_path, "plots", "Plot the data.", files)
    assert lines_of(root, "RES006") == [("README.md", 1)]


def test_a_codex_or_claude_code_skill_does_not_hear_of_the_uploader_or_of_its_version(tmp_path):
    """SPC011, SPC018, SPC030 on real skills: ask-claude is a Codex skill (``name: ask-claude``),
    ci-verify-and-summarize's description names ``<RUN_ID>``, and a Claude Code plugin skill records
    ``version: 1.0.0``: Codex and Claude Code load them as they are, and a version changes nothing.
    The portable skill still hears all three."""
    text = ("---\nname: ask-claude\ndescription: Summarise run <RUN_ID>. Use when CI fails.\nversion: 1.0.0\n---\n"
            "# Ask\n")
    for where in ("codex/ask-claude", ".claude/skills/ask-claude", "portable/ask-claude"):
        folder = tmp_path / where
        folder.mkdir(parents=True)
        (folder / "SKILL.md").write_text(text)
    (tmp_path / "codex/ask-claude/agents").mkdir()
    (tmp_path / "codex/ask-claude/agents/openai.yaml").write_text("interface:\n  display_name: Ask\n")

    def rules_on(where):
        data = run_cli("check", where, "--json", "--no-cache", "--select", "ALL,SPC011,SPC018,SPC030", cwd=tmp_path).json()["data"]
        return sorted(f["rule"] for f in data if f["rule"] in ("SPC011", "SPC018", "SPC030"))

    assert rules_on("codex/ask-claude") == []
    assert rules_on(".claude/skills/ask-claude") == []
    assert rules_on("portable/ask-claude") == ["SPC011", "SPC018"]  # SPC030 runs under a named target
    data = run_cli("check", "portable/ask-claude", "--json", "--no-cache", "--target", "agentskills", cwd=tmp_path).json()["data"]
    assert "SPC030" in {f["rule"] for f in data}


def test_written_out_shell_commands_prose_help_and_a_listings_tail(tmp_path):
    """PYS004 on real skills: setup_webctl.py's ``run(cmd)`` hands ``cmd`` to ``shell=True`` and is
    only ever called as ``run("webctl setup")``. PYS003: plan_account_names.py's
    ``description=__doc__`` is two paragraphs of prose, which read the same rewrapped. PYS053:
    sketch_ops.py ends a listing with ``f"  ... {n} more"``. Each rule's own case stays."""
    script = "\n".join([
        '#!/usr/bin/env python3',
        '"""Build account-name plans.',
        '',
        'The script only reads redacted responses.',
        'It never connects to a database.',
        '"""',
        'import argparse',
        'import subprocess',
        'import sys',
        '',
        '',
        'def run(cmd):',
        '    return subprocess.run(cmd, shell=True).returncode',  # 13: only literals reach it
        '',
        '',
        'def grep(pattern):',
        '    return subprocess.run(f"grep {pattern} .", shell=True).returncode',  # 17
        '',
        '',
        'def main():',
        '    parser = argparse.ArgumentParser(description=__doc__)',  # 21: prose only
        '    other = argparse.ArgumentParser(epilog="Examples:\\n  x.py a\\n  x.py b")',  # 22
        '    parser.add_argument("pattern"); parser.add_argument("--json", action="store_true")',
        '    args = parser.parse_args()',
        '    run("webctl setup")',
        '    run("pip list")',
        '    rows = ["a", "b"]',
        '    for row in rows[:1]:',
        '        print(f"  {row}")',
        '    print(f"  ... {len(rows) - 1} more")',  # 30
        '    print(f"Processing {args.pattern}...")',  # 31
        '    return grep(args.pattern)',
        '',
        '',
        'if __name__ == "__main__":',
        '    sys.exit(main())',
    ]) + "\n"
    root = skill(tmp_path, "plans", "Run `python scripts/plan.py foo`.", {"scripts/plan.py": script})
    assert lines_of(root, "PYS004") == [("scripts/plan.py", 17)]
    assert lines_of(root, "PYS003") == [("scripts/plan.py", 22)]
    assert lines_of(root, "PYS053") == [("scripts/plan.py", 31)]


#: a plan script's text report beside its --json one (plan-sub2api-upgrade.sh in WesPerez/codex-skills)
PLAN_SH = """#!/usr/bin/env bash
# Plan an upgrade. Usage: plan.sh [--json]
set -euo pipefail
format=text
case "${1:-}" in
  --json) format=json ;;
  -*) echo "unknown option: $1" >&2; exit 2 ;;
esac
if [[ "$format" == json ]]; then
  jq -n --arg sha abc '{running: $sha}'
  exit 0
fi
printf 'running=%s version=%s\\n' abc 1.2
printf 'running_customization_files:\\n'
printf 'Running the planner...\\n'
"""


def test_a_status_word_glued_to_a_key_is_report_data(tmp_path):
    """SHL052 on real skills: sub2api-upgrade's text report prints ``running=%s version=%s`` and the
    section header ``running_customization_files:``: the data, not a "Running..." status line."""
    root = skill(tmp_path, "plan", "Run `scripts/plan.sh --json`.\n", {"scripts/plan.sh": PLAN_SH}, mode=0o755)
    assert lines_of(root, "SHL052") == [("scripts/plan.sh", 15)]


#: peeks at --session, then hands every argument to the CLI (playwright_cli.sh in thinkycz/codex-skills)
WRAPPER_SH = """#!/usr/bin/env bash
# Run the Playwright CLI. Usage: cli.sh [ARG...]
set -euo pipefail
has_session=false
for arg in "$@"; do
  case "$arg" in
    --session|--session=*) has_session=true; break ;;
  esac
done
cmd=(npx --yes --package @playwright/cli playwright-cli)
if [[ "$has_session" != true && -n "${CLI_SESSION:-}" ]]; then
  cmd+=(--session "$CLI_SESSION")
fi
cmd+=("$@")
exec "${cmd[@]}"
"""
#: a directory argument refused with exit 2 when it is none (skill-health.sh in kiku-jw/codex-skills)
HEALTH_SH = """#!/usr/bin/env bash
# Check a skill folder. Usage: health.sh [DIR]
set -euo pipefail
skill_dir="${1:-.}"
[[ -d "$skill_dir" ]] || { echo "Missing skill dir: $skill_dir" >&2; exit 2; }
ls "$skill_dir"
"""


def test_arguments_handed_on_through_an_array_or_refused_as_no_directory_need_no_option_branch(tmp_path):
    """SHL003 on real skills: playwright_cli.sh only peeks at ``--session`` and hands every argument on
    (``cmd+=("$@"); exec "${cmd[@]}"``); skill-health.sh takes a directory and exits 2 when it is none,
    ``--anything`` included. A loop that keeps some arguments, a directory refused with exit 1, or one
    not tested at all, still ignores an option; so does a peek before handing the arguments to a
    function of the script that refuses them with exit 1 (setup_pentest_env.sh's ``main "$@"``) or to
    one of a sourced file (mac-ops' ``parse_common_flags "$@"``, which ignores what it does not know)."""
    filtered = WRAPPER_SH.replace('cmd+=("$@")\n', "").replace("break ;;", "break ;;\n    *) cmd+=(\"$arg\") ;;")
    to_main = ('#!/usr/bin/env bash\n# Set up. Usage: main.sh [--venv]\nset -euo pipefail\nmain() {\n'
               '  for arg in "$@"; do\n    case "$arg" in\n      --venv) venv=1 ;;\n'
               '      *) echo "unknown: $arg" >&2; exit 1 ;;\n    esac\n  done\n}\nmain "$@"\n')
    to_sourced = WRAPPER_SH.replace('cmd+=("$@")\nexec "${cmd[@]}"\n', 'source "$(dirname "$0")/lib.sh"\nparse_flags "$@"\n')
    scripts = {"scripts/cli.sh": WRAPPER_SH, "scripts/health.sh": HEALTH_SH, "scripts/filtered.sh": filtered,
               "scripts/health1.sh": HEALTH_SH.replace("exit 2", "exit 1"),
               "scripts/untested.sh": HEALTH_SH.replace("[[ -d", "[[ -n"),
               "scripts/main.sh": to_main, "scripts/sourced.sh": to_sourced}
    body = "".join(f"Run `{rel} x`.\n" for rel in scripts)
    lib = {"scripts/lib.sh": 'parse_flags() { for a in "$@"; do [[ "$a" == --json ]] && JSON=1; done; }\n'}
    root = skill(tmp_path, "handed", body, {**scripts, **lib}, mode=0o755)
    assert subprocess.run(["bash", str(root / "scripts/health.sh"), "--dry-run"], capture_output=True).returncode == 2
    assert lines_of(root, "SHL003") == [("scripts/filtered.sh", 1), ("scripts/health1.sh", 1), ("scripts/main.sh", 1),
                                        ("scripts/sourced.sh", 1), ("scripts/untested.sh", 1)]


#: an adapter its runner dispatches, with jq checked by the runner (sub2api-upgrade's debug-canary-adapters)
ADAPTER_SH = """#!/usr/bin/env bash
# Print the candidate's run id.
set -euo pipefail
(( $# == 0 )) || { echo "takes no arguments" >&2; exit 2; }
jq -r '.run_id' "$ADAPTER_INPUT"
"""
RUNNER_SH = """#!/usr/bin/env bash
# Run an adapter. Usage: run.sh [--help]
set -euo pipefail
case "${1:-}" in
  -h|--help) echo "Usage: run.sh"; exit 0 ;;
  -*) echo "unknown option: $1" >&2; exit 2 ;;
esac
require_command() { command -v "$1" >/dev/null 2>&1 || { echo "needs $1" >&2; exit 5; }; }
require_command jq
bash "$(dirname "$0")/adapters/identity.sh"
"""


def test_a_script_run_only_by_a_sibling_that_guards_the_tool_needs_no_guard_of_its_own(tmp_path):
    """SHL053 on real skills: sub2api-upgrade's ``candidate-identity.sh`` takes no arguments and is run
    only by ``run-debug-adapter.sh``, which calls ``require_command jq`` first. Its runner without the
    guard, one that only names the tool (collect-metrics.sh's runner: ``[ "$BUILD_TOOL" = "npm" ]``),
    or the skill telling the agent to run the adapter itself, leave the finding."""
    scripts = {"scripts/run.sh": RUNNER_SH, "scripts/adapters/identity.sh": ADAPTER_SH}
    root = skill(tmp_path, "runner", "Run `scripts/run.sh`.\n", scripts, mode=0o755)
    assert lines_of(root, "SHL053") == []
    bare = {**scripts, "scripts/run.sh": RUNNER_SH.replace("require_command jq\n", "")}
    root = skill(tmp_path, "bare", "Run `scripts/run.sh`.\n", bare, mode=0o755)
    assert lines_of(root, "SHL053") == [("scripts/adapters/identity.sh", 5)]
    named = {**scripts, "scripts/run.sh": RUNNER_SH.replace("require_command jq\n", '[ "${TOOL:-}" = jq ] && echo "uses jq"\n')}
    root = skill(tmp_path, "named", "Run `scripts/run.sh`.\n", named, mode=0o755)
    assert lines_of(root, "SHL053") == [("scripts/adapters/identity.sh", 5)]
    root = skill(tmp_path, "told", "Run `scripts/run.sh`, or `scripts/adapters/identity.sh` alone.\n", scripts, mode=0o755)
    assert lines_of(root, "SHL053") == [("scripts/adapters/identity.sh", 5)]
