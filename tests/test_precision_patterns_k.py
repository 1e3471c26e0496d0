"""False findings seen on real public skills (set K), each beside the rule's own case.

Every test writes a small skill with the pattern that used to give a wrong finding (no finding
now) and the pattern the rule is for (still a finding), and runs ``check`` on it.
"""

from __future__ import annotations

import sys

from conftest import run_cli, write_tree  # noqa: F401  (write_tree: the style of the other pattern tests)
from test_precision_contract import PY, skill
from test_precision_contract import findings as unsorted_findings


def findings(root, *rules):
    return sorted(unsorted_findings(root, *rules))


def lines_of(root, rule):
    """(path, line) of the findings of *rule*."""
    data = run_cli("check", ".", "--json", "--no-cache", "--select", f"ALL,{rule}", cwd=root).json()["data"]
    return sorted((f["path"], f["line"]) for f in data if f["rule"] == rule)


def test_a_kind_of_person_is_an_example_user(tmp_path):
    """RES008 on real skills: econ_ra's sample Codebase Summary gives ``/Users/researcher/projects/minimum_wage_study``."""
    doc = "# Summary\n\n- Root directory: /Users/researcher/projects/minimum_wage_study\n"
    root = skill(tmp_path, "role", "See [the sample](references/summary.md).", {"references/summary.md": doc})
    assert findings(root, "RES008") == []
    doc = "# Summary\n\n- Root directory: /Users/luluywang/projects/minimum_wage_study\n"
    root = skill(tmp_path, "person", "See [the sample](references/summary.md).", {"references/summary.md": doc})
    assert findings(root, "RES008") == [("references/summary.md", "RES008")]


TEST_MODULE = '''#!/usr/bin/env python3
"""
Tests for transcriber.py

Test file: /Users/travis/Movies/2026-01-09 10-23-34.mov
"""
import pytest


def test_it_runs():
    assert True
'''


def test_a_test_module_outside_a_tests_folder_is_test_data(tmp_path):
    """RES008 on real skills: video-transcript's ``tools/test_whisperx_transcriber.py`` names its fixture
    ``/Users/travis/Movies/...``; the tool next to it that opens the same path keeps its finding."""
    tool = PY + 'DEFAULT = "/Users/travis/Movies/in.mov"\n'
    root = skill(tmp_path, "tools", "Run `python3 tools/transcriber.py in.mov`.",
                 {"tools/test_transcriber.py": TEST_MODULE, "tools/transcriber.py": tool})
    assert findings(root, "RES008") == [("tools/transcriber.py", "RES008")]


def test_a_quoted_error_in_a_code_block_is_output(tmp_path):
    """RES008 on real skills: deep-debug's TECHNIQUES.md observes the symptom
    ``Error: git init failed in /Users/jesse/project/packages/core`` in a code block; a command in a
    code block, and the same error in prose, keep their findings."""
    doc = ("# Tracing\n\n**1. Observe the symptom**\n```\nError: git init failed in /Users/jesse/project/packages/core\n```\n"
           "\n```bash\ncd /Users/jesse/project && git init\n```\n")
    root = skill(tmp_path, "trace", "See [tracing](TECHNIQUES.md).", {"TECHNIQUES.md": doc})
    assert lines_of(root, "RES008") == [("TECHNIQUES.md", 9)]  # the cd line
    doc = "# Tracing\n\nError: git init failed in /Users/jesse/project/packages/core\n"
    root = skill(tmp_path, "prose", "See [tracing](TECHNIQUES.md).", {"TECHNIQUES.md": doc})
    assert lines_of(root, "RES008") == [("TECHNIQUES.md", 3)]


RUN_PY = '''#!/usr/bin/env python3
"""Scaffold a one-pager from a brief."""
import sys
from pathlib import Path

PROMPTS_DIR = Path(__file__).parent / "prompts"


def load_scaffold_prompt() -> str:
    return (PROMPTS_DIR / "scaffold.md").read_text()


if __name__ == "__main__":
    print(load_scaffold_prompt() + " ".join(sys.argv[1:]))
'''


def test_a_prompt_a_script_loads_is_the_scripts_data(tmp_path):
    """RES001 on real skills: one-pager-skill's ``run.py`` loads ``PROMPTS_DIR / "scaffold.md"`` and sends it
    to a model; a prompt nothing loads keeps its finding."""
    files = {"run.py": RUN_PY, "prompts/scaffold.md": "# Scaffold\n\nWrite the draft.\n",
             "prompts/unused.md": "# Unused\n\nNothing reads this.\n"}
    root = skill(tmp_path, "onepager", "Run `python3 run.py scaffold company \"brief\"`.", files)
    assert findings(root, "RES001") == [("prompts/unused.md", "RES001")]
    # a test that reads a reference to check it, and a line that writes into an output folder, load nothing
    test = ('import os\nimport pytest\n\n\ndef test_guide():\n'
            '    assert open(os.path.join("references", "guide.md")).read()\n')
    run = RUN_PY.replace('return (PROMPTS_DIR / "scaffold.md").read_text()',
                         'out_dir = Path("out")\n    (out_dir / "scaffold.md").write_text("x")\n    return ""')
    files = {"run.py": run, "tests/test_guide.py": test, "references/guide.md": "# Guide\n",
             "prompts/scaffold.md": "# Scaffold\n"}
    root = skill(tmp_path, "unloaded", "Run `python3 run.py scaffold company \"brief\"`.", files)
    assert findings(root, "RES001") == [("prompts/scaffold.md", "RES001"), ("references/guide.md", "RES001")]


def test_a_file_the_skill_creates_when_missing_is_made_by_it(tmp_path):
    """RES002 on real skills: research's SKILL.md says "Append to `references/domains/_pending.json` (create if it
    doesn't exist)" and later "Load `references/domains/_pending.json`"; a typo'd path keeps its finding."""
    body = ("## Promotion\n\n1. Append to `references/domains/_pending.json` (create if it doesn't exist)\n\n"
            "## Review\n\n1. Load `references/domains/_pending.json`\n2. Read `references/domains/gnss.md`\n")
    root = skill(tmp_path, "research", body, {"references/domains/gnss-array.md": "# GNSS\n"})
    assert lines_of(root, "RES002") == [("SKILL.md", 12)]  # the gnss.md typo
    # each signal alone: the create-if-missing note, and appending to the file
    body = ("1. Record the item in `references/log.json` (created if missing)\n"
            "2. Append each finding to `references/findings.md`\n3. Load `references/log.json` and `references/findings.md`\n")
    root = skill(tmp_path, "alone", body, {})
    assert lines_of(root, "RES002") == []


#: Python in a .sh file, kept under its old name (find_skill_sessions.sh in luluywang/claude-skills)
PY_IN_SH = ('#!/usr/bin/env python3\n# sessions.sh: list the sessions of each skill, as JSON.\n'
            '# Usage: python3 sessions.sh [logs_dir]\n# Renamed .sh for backward compat.\n\n'
            'import sys\nfrom pathlib import Path\n\n'
            'LOGS = Path(sys.argv[1]) if len(sys.argv) > 1 else \\\n    Path.home() / "logs"\n'
            'print(sorted(p.name for p in LOGS.glob("*.jsonl")))\n')
#: a shell script with a syntax error and no strict mode
BAD_SH = '#!/usr/bin/env bash\n# List the logs.\n# Usage: logs.sh\nif [ -d logs ]; then\n  ls logs\n'


def test_a_sh_file_whose_shebang_runs_python_is_not_read_as_shell(tmp_path):
    """The shell rules leave a .sh file that ``#!/usr/bin/env python3`` runs; CON002 names the mismatch."""
    body = "Run `python3 scripts/sessions.sh ~/logs` and `bash scripts/logs.sh`.\n"
    root = skill(tmp_path, "pyinsh", body, {"scripts/sessions.sh": PY_IN_SH, "scripts/logs.sh": BAD_SH}, mode=0o755)
    got = findings(root, "CON002", "SHL001", "SHL002", "SHL003", "CON009")
    assert [f for f in got if f[0] == "scripts/sessions.sh"] == [("scripts/sessions.sh", "CON002")]
    # a real shell script with the same faults: the shell rules' own cases
    assert ("scripts/logs.sh", "SHL002") in got and ("scripts/logs.sh", "SHL001") in got


#: counts the entries it wrote with jq, "?" when jq is not there (gcloud-log-read.sh in felipeblassioli/agent-skills)
COUNT_SH = ('#!/usr/bin/env bash\n# Save the log entries read on stdin.\n# Usage: fetch.sh OUT\nset -euo pipefail\n'
            'OUTPUT="${1:-out.json}"\ncat > "$OUTPUT"\n'
            'ENTRY_COUNT=$(jq \'length\' "$OUTPUT" 2>/dev/null || echo "?")\n'
            'echo "# Written $ENTRY_COUNT entries to $OUTPUT" >&2\n')
#: the same count, but a missing jq stops the script (no fallback after it)
COUNT_BARE_SH = COUNT_SH.replace(' 2>/dev/null || echo "?"', "")


def test_a_tool_in_a_substitution_with_errors_discarded_and_a_fallback_needs_no_guard(tmp_path):
    """``$(jq 'length' "$OUTPUT" 2>/dev/null || echo "?")`` goes on with "?" when jq is missing."""
    body = "Run `scripts/fetch.sh out.json`.\n"
    root = skill(tmp_path, "fallback", body, {"scripts/fetch.sh": COUNT_SH}, mode=0o755)
    assert findings(root, "SHL053") == []
    root = skill(tmp_path, "bare", body, {"scripts/fetch.sh": COUNT_BARE_SH}, mode=0o755)
    assert findings(root, "SHL053") == [("scripts/fetch.sh", "SHL053")]
    # quip-to-obsidian's `http_code=$(curl ... 2>/dev/null || echo "000")`: a status the script acts on,
    # so a missing curl counts every download as failed, with no install hint
    status = COUNT_SH.replace("jq 'length' \"$OUTPUT\" 2>/dev/null || echo \"?\"",
                              "curl -s -w '%{http_code}' https://x.example 2>/dev/null || echo \"000\"")
    assert "curl" in status
    root = skill(tmp_path, "status", body, {"scripts/fetch.sh": status}, mode=0o755)
    assert findings(root, "SHL053") == [("scripts/fetch.sh", "SHL053")]


#: reads Jest's JSON results; its own usage is `parse-jest.sh INPUT` (parse-jest-results.sh in felipeblassioli/agent-skills)
JEST_SH = ('#!/usr/bin/env bash\n# parse-jest.sh - Extract a compact summary from Jest --json output.\n#\n'
           '# Usage:\n#   parse-jest.sh INPUT\n# Exit: 0 ok, 2 usage\nset -uo pipefail\n'
           'case "${1:-}" in\n  -h|--help) sed -n 2,6p "$0"; exit 0 ;;\n  -*) echo "unknown option" >&2; exit 2 ;;\nesac\n'
           'wc -c < "${1:--}"\n')


def test_another_programs_json_flag_named_as_the_input_is_no_promise(tmp_path):
    """"from Jest --json output" names what the script reads, not an option of its own."""
    body = "Run `scripts/parse-jest.sh results.json`.\n"
    root = skill(tmp_path, "jest", body, {"scripts/parse-jest.sh": JEST_SH}, mode=0o755)
    assert findings(root, "CON011") == []
    # the script's own --json, promised in its header and never handled: the rule's case
    own = JEST_SH.replace("Extract a compact summary from Jest --json output.", "Summarise a file; --json for JSON.")
    root = skill(tmp_path, "own", body, {"scripts/parse-jest.sh": own}, mode=0o755)
    assert findings(root, "CON011") == [("scripts/parse-jest.sh", "CON011")]


def test_an_invocation_in_a_prompt_file_counts_for_the_executable_bit(tmp_path):
    """SKILL.md names ``scripts/reflow.py``; the prompt it hands a subagent runs it with python3
    (``prompts/tasks/reflow.prompt`` in luluywang/claude-skills' copyedit)."""
    body = "- `prompts/reflow.prompt`: runs `scripts/reflow.py` to put one sentence per line\n"
    prompt = ("For each file run ONE bash call:\n\n```bash\npython3 {skill_dir}/scripts/reflow.py <absolute_file_path>\n```\n\n"
              "Where `{skill_dir}` is this skill's folder.\n")
    root = skill(tmp_path, "viaprompt", body, {"scripts/reflow.py": PY, "prompts/reflow.prompt": prompt})
    assert findings(root, "CON003") == []
    # the prompt runs it through its path: the bit is used, the rule's own case
    by_path = prompt.replace("python3 {skill_dir}", "{skill_dir}")
    root = skill(tmp_path, "bypath", body, {"scripts/reflow.py": PY, "prompts/reflow.prompt": by_path})
    assert findings(root, "CON003") == [("scripts/reflow.py", "CON003")]


def test_a_placeholder_file_name_a_template_script_and_a_quoted_installed_path(tmp_path):
    """RES002, CON003/SHL003/SHL055, CON013 and PYS058 on real skills (fresh set L): media-writer's execution
    template reads ``references/prompts/0X-xxx.md`` for its stages 01 to 08; diagnose ships
    ``scripts/hitl-loop.template.sh`` to copy, edit and run; codex-advisor shows
    ``"$HOME/.claude/skills/codex-advisor/scripts/ask.sh" \\`` with its arguments on the next line;
    credentials.py calls itself 交互式 (interactive). The rules' own cases are still reported."""
    from test_precision_contract import SKILL
    files = {"references/prompts/01-topic.md": "# Topic\n"}
    body = "Stages: `references/prompts/01-topic.md`. Each stage reads `references/prompts/0X-xxx.md`.\n"
    root = skill(tmp_path, "stages", body, files)
    assert findings(root, "RES002") == []
    root = skill(tmp_path, "typo", "Read `references/prompts/01-topik.md`.\n", files)
    assert findings(root, "RES002") == [("SKILL.md", "RES002")]

    loop = '#!/usr/bin/env bash\n# Copy this file, edit the steps, run it.\nread -r -p "Did it work? " answer\necho "$answer"\n'
    root = skill(tmp_path, "hitl", "Copy `scripts/hitl-loop.template.sh` and edit it.\n", {"scripts/hitl-loop.template.sh": loop})
    assert findings(root, "CON003", "SHL003", "SHL055") == []
    root = skill(tmp_path, "loop", "Run `scripts/hitl-loop.sh`.\n", {"scripts/hitl-loop.sh": loop})
    assert ("scripts/hitl-loop.sh", "SHL055") in findings(root, "SHL055")

    name = "advisor"
    body = (f'```bash\n"$HOME/.claude/skills/{name}/scripts/ask.py" \\\n  --slug task --phase review\n```\n')
    root = write_tree(tmp_path / name, {"SKILL.md": SKILL.format(name=name, body=body), "scripts/ask.py": PY})
    assert findings(root, "CON013") == []
    body = f'```bash\n"$HOME/.claude/skills/{name}/scripts/ask.py"\n```\n'
    root = write_tree(tmp_path / "bare" / name, {"SKILL.md": SKILL.format(name=name, body=body), "scripts/ask.py": PY})
    assert findings(root, "CON013") == [("SKILL.md", "CON013")]

    wizard = ('#!/usr/bin/env python3\n"""交互式配置 API Keys."""\nkey = input("API key: ")\nprint(len(key))\n')
    root = skill(tmp_path, "wizard", "Set up keys: `python3 scripts/credentials.py`.\n", {"scripts/credentials.py": wizard})
    assert findings(root, "PYS058") == []
    root = skill(tmp_path, "asks", "Set up keys: `python3 scripts/credentials.py`.\n",
                 {"scripts/credentials.py": wizard.replace("交互式配置", "配置")})
    assert findings(root, "PYS058") == [("scripts/credentials.py", "PYS058")]


def test_a_copy_inside_the_skill_is_no_duplicate_and_an_invalid_name_hears_of_its_folder(tmp_path):
    """SPC021 and SPC007 beside the peer linters (set K): npow keeps ``docx/docx/SKILL.md`` inside
    ``docx/``, which no host loads beside it; sparkry's ``research/plan`` skill is named 'Research
    Planning', and lowercasing it would still not match the folder. Two sibling skills with one
    name still clash."""
    head = "---\nname: {name}\ndescription: Edits documents. Use when asked to edit a .docx file.\n---\n# Docs\n"
    root = write_tree(tmp_path / "nested", {"skills/docx/SKILL.md": head.format(name="docx"),
                                            "skills/docx/docx/SKILL.md": head.format(name="docx")})
    assert findings(root, "SPC021") == []
    root = write_tree(tmp_path / "siblings", {"skills/docx/SKILL.md": head.format(name="docx"),
                                              "skills/word/SKILL.md": head.format(name="docx")})
    assert [rule for _, rule in findings(root, "SPC021")] == ["SPC021"]
    root = write_tree(tmp_path / "plan", {"SKILL.md": head.format(name="Research Planning")})
    data = run_cli("check", ".", "--json", "--no-cache", cwd=root).json()["data"]
    assert [f["message"] for f in data if f["rule"] == "SPC007"][0].endswith(
        "; the folder is 'plan', and the name must match it")


def test_sample_20_patterns_a_template_skill_windows_paths_cjk_examples_and_readme_variants(tmp_path):
    """SPC007/SPC011, RES008, PYS002, PYS058 and RES004/RES006 on real skills (fresh set M): Presto's
    ``templates/skill/SKILL.md`` says ``name: <skill-name>`` and ``description: <When should an agent use
    this skill?>``; a Git-Bash skill runs ``find "C:/Users/JulienFernandez/OneDrive"``; an epilog heads its
    calls 示例用法:; setup_channel.py calls itself "One-time channel setup wizards"; lobsterclause ships
    ``README_DELIVERY.md``, a note to a person. The rules' own cases are still reported."""
    head = "---\nname: {name}\ndescription: {description}\n---\n# Skill\n\n{body}\n"
    template = head.format(name="<skill-name>", description="<When should an agent use this skill?>", body="Fill me in.")
    root = write_tree(tmp_path / "templates" / "skill", {"SKILL.md": template})
    assert findings(root, "SPC007", "SPC011") == []
    real = head.format(name="Skill Name", description="Use for <file> conversions.", body="Convert.")
    root = write_tree(tmp_path / "real" / "skill-name", {"SKILL.md": real})
    assert findings(root, "SPC007", "SPC011") == [("SKILL.md", "SPC007"), ("SKILL.md", "SPC011")]

    body = 'List the files: `find "C:/Users/julien/OneDrive/Docs" -name "*.lock"`.'
    root = skill(tmp_path, "windows", body, {})
    assert findings(root, "RES008") == []
    root = skill(tmp_path, "mac", body.replace("C:/Users/", "/Users/"), {})
    assert findings(root, "RES008") == [("SKILL.md", "RES008")]

    cli = ('#!/usr/bin/env python3\n"""Identify categories."""\nimport argparse\n\n'
           'p = argparse.ArgumentParser(description="categories", formatter_class=argparse.RawDescriptionHelpFormatter,\n'
           '                            epilog="""\n示例用法:\n  python3 scripts/cat.py --input codes.json\n""")\n'
           'p.add_argument("--input", required=True)\nprint(p.parse_args().input)\n')
    body = "Run `python3 scripts/cat.py --input codes.json`."
    root = skill(tmp_path, "cjk", body, {"scripts/cat.py": cli})
    assert findings(root, "PYS002") == []
    root = skill(tmp_path, "noex", body, {"scripts/cat.py": cli.replace("示例用法:\n  python3 scripts/cat.py --input codes.json\n", "See the docs.\n")})
    assert findings(root, "PYS002") == [("scripts/cat.py", "PYS002")]

    wizard = '#!/usr/bin/env python3\n"""One-time channel setup wizards."""\ntoken = input("Token: ")\nprint(len(token))\n'
    root = skill(tmp_path, "wizards", "Set up: `python3 scripts/setup.py`.", {"scripts/setup.py": wizard})
    assert findings(root, "PYS058") == []

    long_note = "# Delivery\n\nSir, I've created the skill.\n" + "More detail.\n" * 400
    root = skill(tmp_path, "delivery", "Audit the agents.", {"README_DELIVERY.md": long_note})
    assert findings(root, "RES004", "RES006") == [("README_DELIVERY.md", "RES006")]


def test_a_parser_subclass_answers_help_and_a_field_across_lines_needs_python_312(tmp_path):
    """CON009 and PYS001 on real skills (fresh set M): assemble_markdown.py builds ``ContractParser(
    description=__doc__, add_help=True)``, its own ArgumentParser subclass; analyze_runs.py has
    ``f"{spec.get(`` with the call's arguments on the next lines (PEP 701, Python 3.12). A script
    without a parser, and an unclosed plain string, are still reported."""
    sub = ('#!/usr/bin/env python3\n"""Assemble the parts."""\nimport argparse\n\n\n'
           'class ContractParser(argparse.ArgumentParser):\n    pass\n\n\n'
           'p = ContractParser(description=__doc__, add_help=True)\np.add_argument("parts", nargs="+")\nprint(p.parse_args().parts)\n')
    body = "Run `python3 scripts/assemble.py a.md b.md`."
    root = skill(tmp_path, "sub", body, {"scripts/assemble.py": sub})
    assert findings(root, "CON009") == []
    plain = '#!/usr/bin/env python3\n"""Assemble the parts."""\nimport sys\n\nprint(sys.argv[1:])\n'
    root = skill(tmp_path, "plain", body, {"scripts/assemble.py": plain})
    assert findings(root, "CON009") == [("scripts/assemble.py", "CON009")]
    newer = plain + 'spec = {}\nprint(\n    f"{spec.get(\n        \'k\',\n        0,\n    )} cases"\n)\n'
    root = skill(tmp_path, "newer", body, {"scripts/assemble.py": newer})
    if sys.version_info < (3, 12):
        assert findings(root, "PYS001") == []
    broken = plain + 'print("unclosed\n'
    root = skill(tmp_path, "broken", body, {"scripts/assemble.py": broken})
    assert findings(root, "PYS001") == [("scripts/assemble.py", "PYS001")]


def test_examples_with_a_full_width_colon_are_examples(tmp_path):
    """RES002 on real skills (fresh set M): HsinPu's skill-creator-design lists
    "**範例（Examples）**：`assets/logo.png` 品牌素材" for what an assets/ folder may hold. A real
    citation after such words ("**详细模板和示例**：见 [references/x.md]") is still checked."""
    body = "- **範例（Examples）**：`assets/logo.png` 品牌素材、`assets/font.ttf` 字型。\n"
    root = skill(tmp_path, "examples", body, {})
    assert findings(root, "RES002") == []
    root = skill(tmp_path, "cited", "**详细模板和示例**：见 [references/identity.md](references/identity.md)\n", {})
    assert findings(root, "RES002") == [("SKILL.md", "RES002")]


def test_strict_mode_turned_on_by_a_sourced_library(tmp_path):
    """SHL001 on real skills (fresh set M): ios-remote-control's state.sh sources ``lib/common.sh``,
    whose top level says ``set -euo pipefail``. A script that sources a library without it is still told."""
    lib = "#!/usr/bin/env bash\n# Shared helpers.\nset -euo pipefail\n\nlog() { echo \"$*\" >&2; }\n"
    state = ('#!/usr/bin/env bash\n# Print the state.\n# Usage: state.sh\nHERE="$(cd "$(dirname "$0")" && pwd)"\n'
             'source "${HERE}/lib/common.sh"\nlog state\necho ok\n')
    body = "Run `bash scripts/state.sh`."
    root = skill(tmp_path, "strict", body, {"scripts/state.sh": state, "scripts/lib/common.sh": lib}, mode=0o755)
    assert findings(root, "SHL001") == []
    loose = lib.replace("set -euo pipefail\n", "")
    root = skill(tmp_path, "loose", body, {"scripts/state.sh": state, "scripts/lib/common.sh": loose}, mode=0o755)
    assert ("scripts/state.sh", "SHL001") in findings(root, "SHL001")


def test_docstring_calls_a_bracketed_skill_folder_and_a_package_module(tmp_path):
    """PYS002, CON012 and CON001 on real skills (fresh sets M and N): find.py's docstring, its
    description=__doc__, shows ``    python3 scripts/find.py "query" --domain x``; huashu-nuwa runs
    ``python3 [skill目录]/scripts/srt.py <input.srt>``; school_presentation/cli.py says ``from . import _engine``.
    A synopsis with placeholders is no example, and an uncited runnable script is still uncited."""
    doc = ('#!/usr/bin/env python3\n"""Find reference entries.\n\n    python3 scripts/find.py "slow images" --domain perf\n"""\n'
           'import argparse\n\np = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)\n'
           'p.add_argument("query", nargs="*")\nprint(p.parse_args().query)\n')
    body = 'Find: `python3 scripts/find.py "slow images"`.'
    root = skill(tmp_path, "calls", body, {"scripts/find.py": doc})
    assert findings(root, "PYS002") == []
    synopsis = doc.replace('python3 scripts/find.py "slow images" --domain perf', "python3 find.py <query> [--domain <d>]")
    root = skill(tmp_path, "synopsis", body, {"scripts/find.py": synopsis})
    assert findings(root, "PYS002") == [("scripts/find.py", "PYS002")]

    body = "```bash\npython3 [skill目录]/scripts/srt.py input.srt out.txt\n```\n"
    root = skill(tmp_path, "bracket", body, {"scripts/srt.py": PY})
    assert findings(root, "CON012") == []
    root = skill(tmp_path, "uncited", "Convert subtitles.\n", {"scripts/srt.py": PY})
    assert findings(root, "CON012") == [("scripts/srt.py", "CON012")]

    cli = '"""Build the presentation."""\nimport sys\n\nfrom . import _engine\n\n_engine.run(sys.argv[1:])\n'
    files = {"scripts/pres/cli.py": cli, "scripts/pres/_engine.py": "def run(a):\n    return a\n", "scripts/run.sh": "#!/usr/bin/env bash\n# Run it.\nset -euo pipefail\npython3 -m pres.cli \"$@\"\n"}
    root = skill(tmp_path, "package", "Run `bash scripts/run.sh deck.md`.\n", files)
    assert [f for f in findings(root, "CON001", "CON004", "CON012") if f[0] == "scripts/pres/cli.py"] == []


def test_a_shellcheck_directive_and_a_venv_the_first_run_builds(tmp_path):
    """SHL051 and RES002 on real skills (fresh set N): git-wt's header says ``# shellcheck disable=SC2086
    # $CMD intentionally word-splits for DEBUG mode``; claude-desktop's SKILL.md says "First run builds a
    private venv (`scripts/.venv`)". Without the directive the split is still reported, and a path the
    text only tells the agent to use is still checked."""
    wt = ('#!/usr/bin/env bash\n# shellcheck disable=SC2086  # $CMD word-splits on purpose\n# List branches.\n'
          'set -euo pipefail\nCMD="git"\n$CMD branch --list $1\n')
    body = "Run `bash scripts/wt.sh main`."
    root = skill(tmp_path, "directive", body, {"scripts/wt.sh": wt}, mode=0o755)
    assert findings(root, "SHL051") == []
    root = skill(tmp_path, "nodirective", body, {"scripts/wt.sh": wt.replace("# shellcheck disable=SC2086  # $CMD word-splits on purpose\n", "")}, mode=0o755)
    assert findings(root, "SHL051") == [("scripts/wt.sh", "SHL051")]

    root = skill(tmp_path, "venv", "First run builds a private venv (`scripts/.venv`), then reuses it.\n", {})
    assert findings(root, "RES002") == []
    root = skill(tmp_path, "use", "Activate the venv in `scripts/.venv` first.\n", {})
    assert findings(root, "RES002") == [("SKILL.md", "RES002")]


def test_sample_22_patterns_parentheses_in_a_link_a_korean_toc_turkish_and_shell_tests(tmp_path):
    """RES001, RES004, SPC017 and CON006/CON012 on real skills (fresh set O): tushare links
    ``references/因子(专业版).md``; a Korean guide opens with ``## 목차``; memex's description is Turkish
    ("v1'in" is not the English "in"); sultanxgokce ships ``scripts/cs-liste.test.sh`` beside the script it
    tests. An uncited reference, a guide with no contents, an English description with no "when" and an
    uncited script are still reported."""
    body = "Read [因子](references/因子(专业版).md) for the factors.\n"
    root = skill(tmp_path, "parens", body, {"references/因子(专业版).md": "# 因子\n"})
    assert findings(root, "RES001", "RES002") == []
    root = skill(tmp_path, "uncited", "Read the factors.\n", {"references/因子(专业版).md": "# 因子\n"})
    assert findings(root, "RES001") == [("references/因子(专业版).md", "RES001")]

    guide = "# 가이드\n\n## 목차\n\n1. 설치\n2. 사용\n\n" + "본문.\n" * 400
    root = skill(tmp_path, "toc", "Read `references/guide.md` before you start.\n", {"references/guide.md": guide})
    assert findings(root, "RES004") == []
    root = skill(tmp_path, "notoc", "Read `references/guide.md` before you start.\n",
                 {"references/guide.md": guide.replace("## 목차\n\n1. 설치\n2. 사용\n\n", "")})
    assert findings(root, "RES004") == [("references/guide.md", "RES004")]

    head = "---\nname: {name}\ndescription: {description}\n---\n# Skill\n"
    root = write_tree(tmp_path / "memex", {"SKILL.md": head.format(name="memex", description="Hafıza katmanı v1'in yerine geçer ve notları saklar.")})
    assert findings(root, "SPC017") == []
    root = write_tree(tmp_path / "slides", {"SKILL.md": head.format(name="slides", description="Toolkit for styling slides with a colour theme.")})
    assert findings(root, "SPC017") == [("SKILL.md", "SPC017")]

    sh = "#!/usr/bin/env bash\n# List the items.\nset -euo pipefail\necho items\n"
    files = {"scripts/cs-liste.sh": sh, "scripts/cs-liste.test.sh": sh.replace("List the items.", "Test cs-liste.sh.")}
    root = skill(tmp_path, "shtest", "List: `bash scripts/cs-liste.sh`.\n", files, mode=0o755)
    assert [f for f in findings(root, "CON006", "CON012") if "test" in f[0]] == []
    root = skill(tmp_path, "shplain", "List: `bash scripts/cs-liste.sh`.\n", {**files, "scripts/other.sh": sh}, mode=0o755)
    assert ("scripts/other.sh", "CON012") in findings(root, "CON012")


LIB_DEMO = '''"""CV matcher: load and match CVs."""
import sys


def load_user_cvs(base):
    return [base]


# Example usage
if __name__ == "__main__":
    print(load_user_cvs(sys.argv[1]))
'''
LIB_SELFTEST = '''"""YAML utilities: load, save and validate recipes."""


def validate(recipe):
    return [k for k in ("id", "name") if k not in recipe]


if __name__ == "__main__":
    # Test validation
    print(validate({"id": "x"}))
'''


def test_a_module_the_docs_import_with_a_demo_main_is_a_library(tmp_path):
    """CON001 on real skills: job-analyzer's references/analysis-workflow.md does ``from cv_matcher import
    load_user_cvs``, and cv_matcher.py's ``__main__`` is marked ``# Example usage``; recipe-manager's
    yaml_utils.py has only a ``# Test validation`` self-test under its ``__main__``."""
    doc = "# Workflow\n\n```python\nfrom cv_matcher import load_user_cvs\n```\n"
    root = skill(tmp_path, "demo", "See `references/workflow.md`.",
                 {"references/workflow.md": doc, "scripts/cv_matcher.py": LIB_DEMO, "scripts/yaml_utils.py": LIB_SELFTEST})
    assert findings(root, "CON001", "CON006", "CON012") == []
    # a main that reads its arguments with no mark, the docs importing nothing: an entry script
    command = LIB_DEMO.replace("# Example usage\n", "")
    root = skill(tmp_path, "command", "See `references/workflow.md`.",
                 {"references/workflow.md": "# Workflow\n", "scripts/cv_matcher.py": command})
    assert ("scripts/cv_matcher.py", "CON001") in findings(root, "CON001")


SH_WORK = "#!/usr/bin/env bash\n# Do the work.\n# Usage: mk.sh CMD\nset -u\necho \"$@\"\n"


def test_calls_that_name_the_interpreter_need_no_exec_bit(tmp_path):
    """CON003 on real skills: doc-refactor's "Run `scripts/diagnose.py` first" points to
    ``python3 scripts/diagnose.py doc.md``; maas-kapisi stores ``MK=.../scripts/mk.sh`` and runs ``bash $MK al``;
    end-of-term-teaching-materials names render_package.py only in ``python3 -m py_compile``."""
    body = ("Run `scripts/echo.py` first.\n\n```bash\npython3 scripts/echo.py doc.md\n```\n\n"
            "```bash\nMK=/config/.claude/skills/viaint/scripts/mk.sh\nbash $MK al 2026-07\n```\n\n"
            "- [ ] `python3 -m py_compile scripts/check.py`\n")
    files = {"scripts/echo.py": PY, "scripts/mk.sh": SH_WORK, "scripts/check.py": PY}
    root = skill(tmp_path, "viaint", body, files)
    assert findings(root, "CON003") == []
    # run through the path: the bare call, the variable run as a command, the path alone
    body = ("Run `scripts/echo.py` first.\n\n"
            "```bash\nMK=/config/.claude/skills/direct/scripts/mk.sh\n$MK al 2026-07\n```\n\n"
            "- [ ] `cat scripts/check.py`\n")
    root = skill(tmp_path, "direct", body, files)
    assert findings(root, "CON003") == [("scripts/check.py", "CON003"), ("scripts/echo.py", "CON003"),
                                        ("scripts/mk.sh", "CON003")]


JS_RUNNER = "#!/usr/bin/env node\nconst path = require('path');\nconst HELPER = path.join(__dirname, 'safe-fs.py');\n"
SH_NODE = '#!/usr/bin/env bash\n# Build the package.\n# Usage: build.sh IN\nset -u\nnode "$(dirname "$0")/publish.js" "$1"\n'


def test_a_helper_that_the_skills_javascript_starts_is_reached(tmp_path):
    """CON012 on real skills: teaching-design-package's cited build script runs ``node .../delivery-transaction.js``,
    which starts ``path.join(__dirname, 'delivery-safe-fs.py')``."""
    files = {"scripts/build.sh": SH_NODE, "scripts/publish.js": JS_RUNNER, "scripts/safe-fs.py": PY}
    root = skill(tmp_path, "viajs", "Build: `bash scripts/build.sh in.md`.", files)
    assert findings(root, "CON012") == []
    # the JavaScript no cited script runs, nor SKILL.md names: the helper is not reached
    root = skill(tmp_path, "unreached", "Build: `bash scripts/build.sh in.md`.",
                 {**files, "scripts/build.sh": SH_NODE.replace("publish.js", "other.js")})
    assert findings(root, "CON012") == [("scripts/safe-fs.py", "CON012")]


SH_DISPATCH = ('#!/usr/bin/env bash\n# Run one command.\n# Usage: ios CMD [ARGS]\nHERE="$(dirname "$0")"\n'
               'cmd="${1:-help}"; shift\nexec "${HERE}/${cmd}.sh" "$@"\n')


def test_a_command_of_a_cited_dispatcher_is_reached(tmp_path):
    """CON012 on real skills: ios-remote-control's ``scripts/ios`` runs ``"${HERE}/${cmd}.sh"``, and SKILL.md lists
    ``swipe X1 Y1 X2 Y2`` among its commands."""
    body = "Run `scripts/ios tap 1 2`.\n\n| Command | Purpose |\n| --- | --- |\n| `swipe X1 Y1 X2 Y2` | Swipe. |\n"
    files = {"scripts/ios": SH_DISPATCH, "scripts/swipe.sh": SH_WORK, "scripts/tap.sh": SH_WORK,
             "scripts/reset.sh": SH_WORK}
    root = skill(tmp_path, "dispatch", body, files, mode=0o755)
    # reset.sh: a command nothing names (neither SKILL.md nor the dispatcher)
    assert findings(root, "CON012") == [("scripts/reset.sh", "CON012")]


def test_a_doc_named_from_the_repository_root_is_linked(tmp_path):
    """CON012 on real skills: brainstorming's SKILL.md says read ``skills/brainstorming/visual-companion.md``,
    which runs ``scripts/start-server.sh --project-dir ...``."""
    doc = "# Companion\n\n```bash\nscripts/where.sh --project-dir /path/to/project\n```\n"
    body = "If they agree, read `skills/fromroot/companion.md` before proceeding.\n"
    root = skill(tmp_path, "fromroot", body, {"companion.md": doc, "scripts/where.sh": SH_WORK}, mode=0o755)
    assert findings(root, "CON012") == []
    body = "If they agree, read `skills/other/companion.md` before proceeding.\n"
    root = skill(tmp_path, "elsewhere", body, {"companion.md": doc, "scripts/where.sh": SH_WORK}, mode=0o755)
    assert findings(root, "CON012") == [("scripts/where.sh", "CON012")]


PY_NEEDS = ('#!/usr/bin/env python3\n"""Compare two cycles."""\nimport argparse\n\np = argparse.ArgumentParser()\n'
            'p.add_argument("plan")\nprint(p.parse_args().plan)\n')


def test_a_path_through_a_variable_named_after_the_skill_is_a_worked_invocation(tmp_path):
    """CON013 on real skills: skill-evaluator's link index cites ``scripts/compare_cycles.py``, and its linked reference
    runs ``python3 "$SKILL_EVALUATOR_DIR/scripts/compare_cycles.py" comparison-plan.json``."""
    doc = '# Cycles\n\n```bash\npython3 "$SKILL_EVAL_DIR/scripts/compare.py" comparison-plan.json\n```\n'
    body = "- Code: [comparator](scripts/compare.py); see [cycles](references/cycles.md).\n"
    root = skill(tmp_path, "skill-eval", body, {"references/cycles.md": doc, "scripts/compare.py": PY_NEEDS})
    assert findings(root, "CON013") == []
    # a variable named after another folder: not this skill's path
    root = skill(tmp_path, "other-skill", body, {"references/cycles.md": doc, "scripts/compare.py": PY_NEEDS})
    assert findings(root, "CON013") == [("SKILL.md", "CON013")]


def test_a_placeholder_for_the_skill_folder_is_the_skills_path(tmp_path):
    """CON013 on real skills: ppt-keycolor-changer runs ``python /abs/path/to/scripts/ppt_keycolor_changer.py discover
    --input "path/to/file.pptx"``."""
    body = ("The script is at `scripts/compare.py`.\n\n```bash\npython /abs/path/to/scripts/compare.py plan.json\n"
            "```\n")
    root = skill(tmp_path, "placeholder", body, {"scripts/compare.py": PY_NEEDS})
    assert findings(root, "CON013") == []
    # a project's folder is not the skill's
    body = body.replace("/abs/path/to/", "/path/to/project/")
    root = skill(tmp_path, "projectdir", body, {"scripts/compare.py": PY_NEEDS})
    assert findings(root, "CON013") == [("SKILL.md", "CON013")]
    # nor is a folder of skills (sumrae412's /path/to/claude-skills/scripts/build_doc_graph.py: the repository's)
    body = body.replace("/path/to/project/", "/path/to/claude-skills/")
    root = skill(tmp_path, "skillsrepo", body, {"scripts/compare.py": PY_NEEDS})
    assert findings(root, "CON013") == [("SKILL.md", "CON013")]


SH_NO_ARGS = ("#!/usr/bin/env bash\n#\n# fetch.sh - refresh the vendored sources.\n#\n# Usage:\n"
              "#   bash scripts/fetch.sh                 # pin to $TAG (default below)\n"
              "#   TAG=latest bash scripts/fetch.sh      # newest tag\n#\nset -u\n"
              'TAG="${TAG:-v1}"\necho "fetching $TAG"\n')


def test_a_usage_line_that_shows_the_bare_call_takes_nothing(tmp_path):
    """CON013 on real skills: akeneo-magento2-connector's fetch_docs.sh reads no arguments; its Usage shows
    ``bash scripts/akeneo-magento2/fetch_docs.sh   # pin to $CONNECTOR_TAG``."""
    body = "**Refresh:** `bash scripts/fetch.sh` (`TAG=latest` for the newest tag).\n"
    root = skill(tmp_path, "bare", body, {"scripts/fetch.sh": SH_NO_ARGS})
    assert findings(root, "CON013") == []
    needs = SH_NO_ARGS.replace("scripts/fetch.sh                 #", "scripts/fetch.sh DEST            #") \
        .replace("scripts/fetch.sh      #", "scripts/fetch.sh DEST #")
    root = skill(tmp_path, "needs", body, {"scripts/fetch.sh": needs})
    assert findings(root, "CON013") == [("SKILL.md", "CON013")]


SH_TIERS = ('#!/usr/bin/env bash\n# Map changed files to test tiers.\n# Usage: tiers.sh FILE...\nset -u\n'
            'if [ $# -gt 0 ]; then printf "%s\\n" "$@"; else cat; fi\n')


def test_a_call_fed_through_a_pipe_is_worked(tmp_path):
    """CON013 on real skills: test-verifier shows ``git diff --name-only HEAD | scripts/detect-tiers.sh``."""
    body = "The `scripts/tiers.sh` script maps them:\n\n```bash\ngit diff --name-only HEAD | scripts/tiers.sh\n```\n"
    root = skill(tmp_path, "piped", body, {"scripts/tiers.sh": SH_TIERS}, mode=0o755)
    assert findings(root, "CON013") == []
    root = skill(tmp_path, "barecite", "The `scripts/tiers.sh` script maps them.\n", {"scripts/tiers.sh": SH_TIERS},
                 mode=0o755)
    assert findings(root, "CON013") == [("SKILL.md", "CON013")]
