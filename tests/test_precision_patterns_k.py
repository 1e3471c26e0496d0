"""False findings seen on real public skills (set K), each beside the rule's own case.

Every test writes a small skill with the pattern that used to give a wrong finding (no finding
now) and the pattern the rule is for (still a finding), and runs ``check`` on it.
"""

from __future__ import annotations

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
