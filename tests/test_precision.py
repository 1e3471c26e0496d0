"""Patterns seen on real public skills: what a careful reviewer calls a problem, and only that.

Each case under ``tests/fixtures/precision/<case>/`` holds one or more skills and an
``expected.txt``: the findings ``check`` must give, one ``RULE path:line`` per line (path
relative to the fixtures folder), and nothing else. An empty ``expected.txt`` is a pattern
that used to be reported wrongly and must give no finding. An optional ``select.txt`` names
the opt-in rules the case runs too (``SEC050,SEC051``).
"""

from __future__ import annotations

import pytest
from conftest import FIXTURES, run_cli

CASES = FIXTURES / "precision"


def case_names():
    return sorted(p.name for p in CASES.iterdir() if (p / "expected.txt").is_file())


def findings(r) -> list[str]:
    return sorted(f"{f['rule']} {f['path']}:{f['line']}" for f in r.json()["data"])


@pytest.mark.parametrize("case", case_names())
def test_case_gives_exactly_the_expected_findings(case):
    opt_in = CASES / case / "select.txt"
    select = ("--select", "ALL," + opt_in.read_text().strip()) if opt_in.is_file() else ()
    r = run_cli("check", case, "--json", "--no-cache", *select, cwd=CASES)
    expected = sorted(line for line in (CASES / case / "expected.txt").read_text().splitlines() if line.strip())
    assert r.code == (10 if expected else 0), r.stdout + r.stderr
    assert findings(r) == expected


def test_a_file_that_is_neither_a_skill_nor_a_script_is_invalid_input(tmp_path):
    table = tmp_path / "passwd"
    table.write_text("root:x:0:0:root:/root:/bin/bash\n")
    r = run_cli("check", str(table))
    assert r.code == 4, r.stdout + r.stderr
    assert "All checks passed" not in r.stdout + r.stderr
    assert "neither a skill nor a script" in r.stderr
    r = run_cli("check", str(table), "--json")
    assert r.code == 4
    assert r.json()["error"]["code"] == "INVALID_INPUT"


def test_a_markdown_file_and_a_script_given_alone_are_still_checked(tmp_path):
    (tmp_path / "notes.md").write_text("# Notes\n\nNothing here.\n")
    (tmp_path / "tool").write_text("#!/bin/sh\necho hi\n")
    assert run_cli("check", str(tmp_path / "notes.md")).code == 0
    assert run_cli("check", str(tmp_path / "tool"), "--select", "CON001").code == 0


def test_an_excluded_folder_given_on_the_command_line_is_not_a_skill_missing_its_skill_md(tmp_path):
    (tmp_path / "pyproject.toml").write_text('[tool.skillsmith]\nexclude = ["vendor/**"]\n')
    messy = tmp_path / "vendor" / "messy"
    (messy / "references").mkdir(parents=True)
    (messy / "references" / "notes.md").write_text("# Notes\n")
    r = run_cli("check", "vendor/messy", "--json", cwd=tmp_path)
    assert r.code == 0, r.stdout + r.stderr
    assert r.json()["data"] == []


def test_a_flagged_prompt_fails_without_a_terminal_and_an_exempt_one_runs(tmp_path):
    """PYS058's claim, run for real: with no terminal (stdin closed, as an agent runs it) the
    flagged script dies at its prompt, and the one that asks isatty() takes its default."""
    import subprocess
    import sys

    scripts = CASES / "keyboard-prompts" / "setup-helper" / "scripts"
    flagged = subprocess.run([sys.executable, str(scripts / "enable_all.py"), "a", "b"], stdin=subprocess.DEVNULL,
                             capture_output=True, text=True, timeout=30, cwd=tmp_path)
    assert flagged.returncode == 1 and "EOFError" in flagged.stderr
    exempt = subprocess.run([sys.executable, str(scripts / "tty.py")], stdin=subprocess.DEVNULL,
                            capture_output=True, text=True, timeout=30, cwd=tmp_path)
    assert (exempt.returncode, exempt.stdout) == (0, "default\n")
