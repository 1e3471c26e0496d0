"""What `fix` tells a person (like `ruff --fix --show-fixes`) and what its JSON says, and its exit codes."""

from __future__ import annotations

import os
import re
import shutil
import stat
import subprocess
import sys

import pytest
from conftest import FIXTURES, run_cli, without_dac_override

#: "Not fixed PATH:LINE:COL: RULE (name): reason"
NOT_FIXED = re.compile(r"^Not fixed (\S+):(\d+):(\d+): ([A-Z]{3}\d{3}) \([a-z0-9-]+\): (.+)$")


@pytest.fixture
def skill(tmp_path):
    copy = tmp_path / "report-tool"
    shutil.copytree(FIXTURES / "output" / "report-tool", copy)
    return copy


def test_fix_names_each_file_with_the_rules_it_fixed(skill):
    r = run_cli("fix", "report-tool", cwd=skill.parent, env={"PATH": "/usr/bin:/bin"})
    assert r.code == 10
    assert r.stdout == ""  # stdout is data only: nothing without --diff or --json
    lines = r.stderr.splitlines()
    assert any(line.startswith("Fixed report-tool/scripts/tool.py: ") and "CON004 (header-missing)" in line
               for line in lines)
    fixed_sh = next(line for line in lines if line.startswith("Fixed report-tool/scripts/tool.sh: "))
    assert "CON006 (header-field-missing)" in fixed_sh
    assert '"""Print a report of the arguments given.' in (skill / "scripts" / "tool.py").read_text()


def test_fix_gives_the_reason_for_each_fixable_finding_it_did_not_fix(skill):
    (skill / "scripts" / "tool.py").chmod(0o444)  # read-only: its fixes are not applied, and fix says why
    r = run_cli("fix", "report-tool", cwd=skill.parent, env={"PATH": "/usr/bin:/bin"})
    not_fixed = [m.groups() for m in map(NOT_FIXED.match, r.stderr.splitlines()) if m]
    summary = r.stderr.splitlines()[-1]
    count = int(re.search(r"\((\d+) with a fix that was not applied, listed above\)", summary).group(1))
    assert len(not_fixed) == count > 0
    assert all(reason.strip() for *_, reason in not_fixed)
    # the same findings remain for `check`, marked fixable there
    after = run_cli("check", "report-tool", "--json", cwd=skill.parent).json()["data"]
    remaining = {(f["path"], f["line"], f["column"], f["rule"]) for f in after if f["fix"] == "safe"}
    assert {(p, int(ln), int(col), rule) for p, ln, col, rule, _ in not_fixed} == remaining


def test_fix_json_carries_the_reasons(skill):
    text = run_cli("fix", "report-tool", "--diff", cwd=skill.parent, env={"PATH": "/usr/bin:/bin"})
    r = run_cli("fix", "report-tool", "--json", cwd=skill.parent, env={"PATH": "/usr/bin:/bin"})
    assert r.code == 10
    items = {item["path"]: item for item in r.json()["data"]}
    assert items["report-tool/scripts/tool.py"]["status"] == "fixed"
    assert items["report-tool/scripts/tool.py"]["rules"] == ["CON001", "CON004", "CON009"]
    reasons = [(item["path"], n["line"], n["column"], n["rule"], n["reason"])
               for item in items.values() for n in item["not_fixed"]]
    shown = [m.groups() for m in map(NOT_FIXED.match, r.stderr.splitlines()) if m]
    assert sorted(reasons) == sorted((p, int(ln), int(col), rule, why) for p, ln, col, rule, why in shown)
    assert all(set(n) == {"rule", "line", "column", "message", "reason"} for item in items.values() for n in item["not_fixed"])
    assert text.code == 10  # (the --diff run above wrote nothing)


def test_fix_counts_the_fixes_that_need_unsafe_fixes(skill):
    safe = run_cli("fix", "report-tool", "--check", cwd=skill.parent)
    assert safe.code == 10
    assert "; 1 more fix available with `--unsafe-fixes`" in safe.stderr.splitlines()[-1]
    unsafe = run_cli("fix", "report-tool", "--unsafe-fixes", cwd=skill.parent)
    assert "SHL051 (unquoted-expansion)" in unsafe.stderr
    assert "--unsafe-fixes`" not in unsafe.stderr
    assert 'echo "$1"' in (skill / "scripts" / "tool.sh").read_text()


def test_fix_quiet_says_nothing(skill):
    r = run_cli("fix", "report-tool", "--quiet", cwd=skill.parent, env={"PATH": "/usr/bin:/bin"})
    assert r.code == 10
    assert r.stdout == "" and r.stderr == ""
    assert '"""Print a report of the arguments given.' in (skill / "scripts" / "tool.py").read_text()


def test_fix_into_a_read_only_folder_reports_each_file_not_written(skill):
    scripts = skill / "scripts"
    before = {p.name: p.read_bytes() for p in scripts.iterdir()}
    scripts.chmod(stat.S_IRUSR | stat.S_IXUSR | stat.S_IRGRP | stat.S_IXGRP | stat.S_IROTH | stat.S_IXOTH)
    try:
        env = {**os.environ, "PATH": "/usr/bin:/bin", "SKILLSMITH_CACHE_DIR": str(skill.parent / "cache")}
        proc = subprocess.run([*without_dac_override(), sys.executable, "-m", "skillsmith", "fix", "report-tool"],
                              cwd=skill.parent, env=env, capture_output=True, text=True, stdin=subprocess.DEVNULL,
                              timeout=120)
    finally:
        scripts.chmod(0o755)
    assert proc.returncode == 5, proc.stderr  # the protocol's "missing dependency": a writable folder
    assert proc.stdout == ""
    lines = proc.stderr.splitlines()
    assert "Not written report-tool/scripts/tool.py: Permission denied" in lines
    assert "Not written report-tool/scripts/tool.sh: Permission denied" in lines
    assert "Not fixed report-tool/scripts/tool.py:1:1: CON004 (header-missing): not written: Permission denied" in lines
    assert lines[-1] == ("skillsmith: error: 2 fixed files could not be written; they are unchanged "
                         "(is the folder writable?)")
    assert "internal error" not in proc.stderr
    assert {p.name: p.read_bytes() for p in scripts.iterdir()} == before
