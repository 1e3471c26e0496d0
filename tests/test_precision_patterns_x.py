"""False findings seen on real public skills (set X: a registry mirror of one-author skills), each
beside the rule's own case.

Every test writes a small skill with the pattern that used to give a wrong finding (no finding, or
the right one, now) and the pattern the rule is for (still a finding), and runs ``check`` (and
``fix``, where the wrong finding came with a fix that changed what the script does).
"""

from __future__ import annotations

import subprocess

from conftest import run_cli
from test_precision_contract import skill


def _messages(root, rule):
    data = run_cli("check", ".", "--json", "--no-cache", "--select", f"ALL,{rule}", cwd=root).json()["data"]
    return sorted((f["path"], f["line"], f["message"], f["fix"]) for f in data if f["rule"] == rule)


def test_a_help_range_piped_to_grep_for_comments_prints_no_code(tmp_path):
    """SHL050 on real skills: clawarr-suite's indexers.sh shows help with `head -n 11 "$0" |
    grep "^#"`; lines 9-11 past the header are blank and `set -euo pipefail`, which the grep drops.
    The same range without the grep prints that code; with the grep, a comment past the header
    still shows."""
    def script(help_cmd, extra=""):
        return ('#!/usr/bin/env bash\n# List indexers.\n# Usage: idx.sh list\n\nset -euo pipefail\n'
                f'{extra}\ncase "${{1:-}}" in\n  -h|--help) {help_cmd}; exit 0 ;;\n  *) echo "$1" ;;\nesac\n')
    root = skill(tmp_path, "idx", "Run `scripts/a.sh list`, `scripts/b.sh list`, `scripts/c.sh list`.", {
        "scripts/a.sh": script('head -n 6 "$0" | grep "^#" | sed "s/^# //"'),
        "scripts/b.sh": script('head -n 6 "$0"'),
        "scripts/c.sh": script('head -n 6 "$0" | grep "^#"', extra="# helper: call the API"),
    }, mode=0o755)
    got = _messages(root, "SHL050")
    assert [(p, m) for p, _, m, _ in got] == [
        ("scripts/b.sh", "help prints lines 1-6 of the script but the header block ends at line 3, so it prints code too"),
        ("scripts/c.sh", "help prints lines 1-6 of the script but the header block ends at line 3, "
                         "so it prints the comments after it too (line 6)")]


def test_a_help_range_past_a_header_written_after_set_names_that_block_and_is_not_fixed(tmp_path):
    """SHL050 on real skills: agent2rss.sh starts `set -euo pipefail`, then its comment block
    (which CON004 takes as the header), and prints `sed -n '1,60p' "$0"`. The finding said "the
    script has no header block", and its fix wrote an awk that stops at line 2: the help printed
    the shebang alone. Now it names the block and offers no fix; `fix` leaves the file as it was."""
    text = ('#!/usr/bin/env bash\nset -euo pipefail\n\n# Agent2RSS helper.\n# Usage: a2r.sh health\n\n'
            'url="${SERVER_URL:-x}"\nusage() { sed -n \'1,12p\' "$0"; }\n'
            'case "${1:-}" in\n  -h|--help) usage; exit 0 ;;\n  *) echo "$url" ;;\nesac\n')
    root = skill(tmp_path, "a2r", "Run `scripts/a2r.sh health`.", {"scripts/a2r.sh": text}, mode=0o755)
    got = _messages(root, "SHL050")
    assert got == [("scripts/a2r.sh", 8, "help prints lines 1-12 of the script but the comment block after `set` "
                                         "(line 4) ends at line 5, so it prints code too", None)]
    before = subprocess.run(["bash", str(root / "scripts/a2r.sh"), "--help"], capture_output=True, text=True).stdout
    run_cli("fix", str(root), "--select", "SHL050")
    assert (root / "scripts/a2r.sh").read_text() == text
    assert subprocess.run(["bash", str(root / "scripts/a2r.sh"), "--help"], capture_output=True, text=True).stdout == before


def test_a_shell_wrapper_keeps_the_json_promise_of_the_program_it_hands_its_arguments_to(tmp_path):
    """CON011 on real skills: input-guard's scan.sh promises `scan.sh --json "text"` and is only
    `exec python3 "${SCRIPT_DIR}/scan.py" "$@"`; scan.py adds `--json`. A wrapper of a script that
    has no --json, and a script that handles nothing, still break the promise."""
    def wrapper(target):
        return ('#!/usr/bin/env bash\n# Scan text.\n# Usage: scan.sh [--json] TEXT\nset -euo pipefail\n'
                f'DIR="$(cd "$(dirname "$0")" && pwd)"\nexec python3 "${{DIR}}/{target}" "$@"\n')
    py = ('#!/usr/bin/env python3\n"""Scan text."""\nimport argparse\n\nparser = argparse.ArgumentParser()\n'
          'parser.add_argument("text")\n{extra}print(parser.parse_args())\n')
    root = skill(tmp_path, "guard", "Run `scripts/scan.sh --json hi`, `scripts/plain.sh --json hi`, "
                 "`scripts/alone.sh --json hi`, `python3 scripts/scan.py hi`, `python3 scripts/plain.py hi`.", {
                     "scripts/scan.sh": wrapper("scan.py"),
                     "scripts/plain.sh": wrapper("plain.py"),
                     "scripts/alone.sh": '#!/usr/bin/env bash\n# Scan text.\n# Usage: alone.sh [--json] TEXT\n'
                                         'set -euo pipefail\necho "${1:-}"\n',
                     "scripts/scan.py": py.format(extra='parser.add_argument("--json", action="store_true")\n'),
                     "scripts/plain.py": py.format(extra=""),
                 }, mode=0o755)
    assert [p for p, *_ in _messages(root, "CON011")] == ["scripts/alone.sh", "scripts/plain.sh"]


def test_skills_inside_other_skills_are_their_data_and_share_no_name_with_the_collection(tmp_path):
    """SPC021 on real skills: two marketing skills of one author each keep modules as
    `references/seo-audit/SKILL.md`, which their SKILL.md tells the agent to read; a host lists
    the outer skills only, so the modules' names clash with nothing. Two skills of the skills
    folder itself, and two in a `skills/` folder of a pack that is a skill too, still clash."""
    from conftest import write_tree
    from test_collection import skill_md

    write_tree(tmp_path, {
        "skills/growth/SKILL.md": skill_md("growth"),
        "skills/growth/references/seo-audit/SKILL.md": skill_md("seo-audit"),
        "skills/marketing/SKILL.md": skill_md("marketing"),
        "skills/marketing/references/seo-audit/SKILL.md": skill_md("seo-audit"),
        "skills/a/pdf/SKILL.md": skill_md("pdf"),
        "skills/b/pdf/SKILL.md": skill_md("pdf"),
        "pack/SKILL.md": skill_md("pack"),
        "pack/skills/x/docx/SKILL.md": skill_md("docx"),
        "pack/skills/y/docx/SKILL.md": skill_md("docx"),
    })
    data = run_cli("check", ".", "--json", "--no-cache", "--select", "SPC021", cwd=tmp_path).json()["data"]
    assert sorted(f["path"] for f in data) == ["pack/skills/x/docx/SKILL.md", "pack/skills/y/docx/SKILL.md",
                                               "skills/a/pdf/SKILL.md", "skills/b/pdf/SKILL.md"]


def _skill_md(tmp_path, name, front):
    from conftest import write_tree
    return write_tree(tmp_path / name, {"SKILL.md": f"---\nname: {name}\n{front}---\n\n# {name}\n\nFollow the steps.\n"})


def test_a_description_that_says_what_it_is_useful_for_says_when(tmp_path):
    """SPC017 on real skills: bab-docs-explorer's description ends "Useful for debugging data
    discrepancies and resolving report bugs", and one in Chinese says 非常适合用于 ("well suited
    to"): both say when. A description of what alone is still told."""
    for name, text in (("lineage", "Trace data lineage across tables. Useful for debugging data discrepancies."),
                       ("affiliate", "查找和管理联盟营销计划。非常适合用于联盟营销计划的发现。"),
                       ("plain", "Trace data lineage across tables and views.")):
        _skill_md(tmp_path, name, f"description: {text}\n")
    data = run_cli("check", ".", "--json", "--no-cache", "--select", "SPC017", cwd=tmp_path).json()["data"]
    assert [f["path"] for f in data] == ["plain/SKILL.md"]


def test_moltbot_is_a_host_key_whose_map_is_documented(tmp_path):
    """SPC013 on real skills: ironclaw's `metadata.moltbot: {emoji: ..., category: ...}` is the
    host's own map under its name of early 2026 (Clawdbot, then Moltbot, now OpenClaw), like
    `clawdbot`. A map under another key is still no string."""
    _skill_md(tmp_path, "ironclaw", "description: Guard a bot. Use when a message looks unsafe.\n"
                                    "metadata:\n  moltbot:\n    emoji: x\n")
    _skill_md(tmp_path, "other", "description: Guard a bot. Use when a message looks unsafe.\n"
                                 "metadata:\n  mybot:\n    emoji: x\n")
    data = run_cli("check", ".", "--json", "--no-cache", "--select", "SPC013", cwd=tmp_path).json()["data"]
    assert [f["path"] for f in data] == ["other/SKILL.md"]


def test_exit_lines_one_per_command_document_their_codes_together(tmp_path):
    """CON010 on real skills: proactive-amcp's diagnose.sh has `# Exit codes (health): 0 =
    healthy, 1 = issues found` and `# Exit codes (claude): ... 2 = missing prereqs`, and exits 2
    when python3 is missing; only the first line was read. A code on neither line is still told."""
    def script(code):
        return ('#!/usr/bin/env bash\n# Diagnose the agent.\n#\n# Usage: diag.sh [health|claude]\n#\n'
                '# Exit codes (health): 0 = healthy, 1 = issues found\n'
                '# Exit codes (claude): 0 = healthy, 1 = issues, 2 = missing prereqs\n\nset -euo pipefail\n'
                f'command -v python3 >/dev/null || exit {code}\necho ok\n')
    root = skill(tmp_path, "diag", "Run `scripts/a.sh health` or `scripts/b.sh health`.",
                 {"scripts/a.sh": script(2), "scripts/b.sh": script(3)}, mode=0o755)
    assert [(p, ln) for p, ln, *_ in _messages(root, "CON010")] == [("scripts/b.sh", 10)]


def test_a_private_module_is_the_skills_own_file_not_a_package_to_declare(tmp_path):
    """PYS054 on real skills: skill-health's run_daily.py does `import _bootstrap` (its helper that
    puts the bundled pkg/ on sys.path, missing from the published skill); no requirements file
    can install that. `import requests` in the same script is still undeclared."""
    text = ('#!/usr/bin/env python3\n"""Run the daily check."""\nimport _bootstrap\nimport requests\n\n'
            'print(_bootstrap, requests)\n')
    root = skill(tmp_path, "health", "Run `python3 scripts/run.py`.", {"scripts/run.py": text})
    assert [m.split(",")[0] for _, _, m, _ in _messages(root, "PYS054")] == ["imports requests"]


def test_a_typescript_test_module_is_test_data_for_home_paths(tmp_path):
    """RES008 on real skills: orchestrating-long-tasks keeps `src/validation/analyzer.test.ts`,
    whose `it(...)` cases feed it `/Users/<name>/...` paths; they are samples for the code under
    test. The same path in the analyzer itself is still one machine's folder."""
    test = "import { analyze } from './analyzer';\ndescribe('analyze', () => {\n  it('reads', () => {\n" \
           "    expect(analyze('/Users/onur/project/a.md')).toBe(1);\n  });\n});\n"
    code = "export function analyze(p: string) {\n  return p === '/Users/onur/project/a.md' ? 1 : 0;\n}\n"
    root = skill(tmp_path, "tasks", "Run `npx tsx scripts/src/analyzer.ts`.",
                 {"scripts/src/analyzer.test.ts": test, "scripts/src/analyzer.ts": code})
    assert [p for p, *_ in _messages(root, "RES008")] == ["scripts/src/analyzer.ts"]


def test_a_skill_a_marketplace_plugin_lists_in_its_skills_is_a_claude_code_skill(tmp_path):
    """SPC030 on real skills: AI-Research-SKILLs' root `.claude-plugin/marketplace.json` defines
    plugins with `"source": "./"` and `"skills": ["./09-infrastructure/modal", ...]`; Claude Code
    loads those folders, so their Claude Code fields are no portability problem. A skill beside
    them that no plugin lists is still a portable skill."""
    import json

    from conftest import write_tree

    front = "description: Run jobs on Modal. Use when the user asks for GPUs.\ndisable-model-invocation: true\n"
    write_tree(tmp_path, {
        ".claude-plugin/marketplace.json": json.dumps({"name": "research", "plugins": [
            {"name": "infrastructure", "source": "./", "strict": False, "skills": ["./09-infrastructure/modal"]}]}),
        "09-infrastructure/modal/SKILL.md": f"---\nname: modal\n{front}---\n\n# Modal\n\nFollow the steps.\n",
        "09-infrastructure/ray/SKILL.md": f"---\nname: ray\n{front}---\n\n# Ray\n\nFollow the steps.\n",
    })
    data = run_cli("check", ".", "--json", "--no-cache", "--select", "SPC030", "--target", "agentskills", cwd=tmp_path).json()["data"]
    assert [f["path"] for f in data] == ["09-infrastructure/ray/SKILL.md"]
