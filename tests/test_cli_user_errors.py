"""Failures a user can cause in `check` and `fix` are clear messages with the protocol's exit code, never "internal error"."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest
from conftest import FIXTURES, run_cli, without_dac_override

SKILL = FIXTURES / "compliant" / "shell-counter"


def run_raw(*args: str, cwd, prefix=(), **kw) -> subprocess.CompletedProcess:
    env = {**os.environ, "SKILLSMITH_CACHE_DIR": str(cwd / ".cache")} if os.path.isdir(cwd) else dict(os.environ)
    return subprocess.run([*prefix, sys.executable, "-m", "skillsmith", *args], cwd=cwd, env=env, text=True,
                          capture_output=True, stdin=subprocess.DEVNULL, timeout=120, **kw)


def test_a_timeout_that_is_not_a_number_is_a_usage_error():
    r = run_cli("check", str(SKILL), "--run", "--timeout", "nan")
    assert r.code == 2 and r.stdout == ""
    assert r.stderr == "skillsmith: error: --timeout must be more than 0 seconds\n"


def test_a_deleted_current_folder_is_not_found(tmp_path):
    gone = tmp_path / "gone"
    gone.mkdir()
    # the child starts in the folder, which is removed before it looks at it
    proc = subprocess.run(
        ["/bin/sh", "-c", f'cd "{gone}" && rmdir "{gone}" && exec "{sys.executable}" -m skillsmith check "{SKILL}"'],
        capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=120,
        env={**os.environ, "SKILLSMITH_CACHE_DIR": str(tmp_path / "cache")})
    assert proc.returncode == 3, proc.stderr
    assert proc.stdout == ""
    assert proc.stderr == "skillsmith: error: the current folder no longer exists; cd to one that does\n"


def test_check_with_stdout_closed_still_exits_with_its_code(tmp_path):
    proc = subprocess.run(["/bin/sh", "-c", f'exec "{sys.executable}" -m skillsmith check "{SKILL}" --select CON >&-'],
                          capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=120,
                          env={**os.environ, "SKILLSMITH_CACHE_DIR": str(tmp_path / "cache")})
    assert proc.returncode == 0, proc.stderr
    assert "internal error" not in proc.stderr
    assert proc.stderr == "All checks passed (1 skill checked).\n"


@pytest.mark.parametrize("command", ["check", "fix"])
def test_an_unreadable_folder_given_by_name_is_invalid_input(tmp_path, command):
    skill = tmp_path / "locked"
    shutil.copytree(SKILL, skill)
    skill.chmod(0)
    try:
        proc = run_raw(command, "locked", "--json", cwd=tmp_path, prefix=without_dac_override())
    finally:
        skill.chmod(0o755)
    assert proc.returncode == 4, proc.stderr
    assert proc.stderr == "skillsmith: error: locked: cannot read: Permission denied\n"
    assert '"code": "INVALID_INPUT"' in proc.stdout
