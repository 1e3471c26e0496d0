"""Progress on stderr for long runs on a terminal; nothing without one, with --quiet or --json.

The runs are made slow for real: a ``bash`` first on ``PATH`` that sleeps before it runs the
real one, so every ``bash -n`` the check shares among a batch of skills takes 0.2 s.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import sys
from pathlib import Path

import pexpect
import pytest
from conftest import run_cli, write_tree

BAR = re.compile(r"(Checking|Fixing) .*?(\d+)/(\d+)")


def slow_path(tmp_path: Path) -> str:
    """A PATH whose ``bash`` sleeps 0.2 s, then runs the real bash."""
    bin_dir = tmp_path / "slowbin"
    bin_dir.mkdir()
    bash = bin_dir / "bash"
    bash.write_text(f'#!/bin/sh\nsleep 0.2\nexec {shutil.which("bash")} "$@"\n')
    bash.chmod(0o755)
    return f"{bin_dir}:{os.environ['PATH']}"


def skills(root: Path, count: int) -> Path:
    for i in range(count):
        write_tree(root / f"s{i:02d}", {
            "SKILL.md": f"---\nname: s{i:02d}\ndescription: Says hi. Use in tests.\n---\n\nRun `scripts/hi.sh`.\n",
            "scripts/hi.sh": "#!/usr/bin/env bash\necho hi\n",
        })
    return root


def on_terminal(tmp_path: Path, *args: str) -> tuple[str, int, str]:
    """Run the CLI with stderr on a real pty and stdout to a file: (what the terminal showed, exit code, stdout)."""
    out = tmp_path / "stdout.txt"
    command = f"{shlex.quote(sys.executable)} -m skillsmith {' '.join(map(shlex.quote, args))} > {shlex.quote(str(out))}"
    env = {**os.environ, "PATH": slow_path(tmp_path), "TERM": "xterm", "COLUMNS": "120",
           "SKILLSMITH_CACHE_DIR": str(tmp_path / "cache")}
    env.pop("NO_COLOR", None)
    child = pexpect.spawn("/bin/sh", ["-c", command], cwd=str(tmp_path), env=env, encoding="utf-8",
                          timeout=120, dimensions=(30, 120))
    child.expect(pexpect.EOF)
    child.close()
    return child.before, child.exitstatus, out.read_text()


def test_check_shows_progress_on_a_terminal_and_nothing_on_stdout(tmp_path):
    skills(tmp_path / "many", 30)
    screen, code, stdout = on_terminal(tmp_path, "check", "many", "--no-cache", "--jobs", "2")
    assert code == 10
    counts = [(int(done), int(total)) for _, done, total in BAR.findall(screen)]
    assert counts, screen
    assert all(total == 30 for _, total in counts) and counts[0][0] < 30
    assert [done for done, _ in counts] == sorted(done for done, _ in counts)  # it only goes forward
    assert re.search(r"many/s\d\d", screen)  # the skill just finished
    assert "30 skills checked" in screen  # the summary comes after the bar
    assert "Checking" not in stdout and "\x1b" not in stdout
    assert stdout.startswith("many/s00/")


def test_fix_shows_progress_on_a_terminal(tmp_path):
    skills(tmp_path / "many", 12)
    screen, code, _ = on_terminal(tmp_path, "fix", "many", "--diff")
    assert code == 10
    assert any(done != total for _, done, total in BAR.findall(screen)), screen
    assert "Fixing" in screen and "would fix 12 files" in screen


@pytest.mark.parametrize("option", ["--json", "--quiet", "--format=github"])
def test_no_progress_on_a_terminal_for_data_or_quiet(tmp_path, option):
    skills(tmp_path / "many", 30)
    screen, code, stdout = on_terminal(tmp_path, "check", "many", "--no-cache", "--jobs", "2", option)
    assert code == 10
    assert "Checking" not in screen and "\x1b[?25l" not in screen, screen  # no bar, no hidden cursor
    assert stdout.strip()


def test_no_progress_without_a_terminal(tmp_path):
    skills(tmp_path / "many", 30)
    r = run_cli("check", "many", "--no-cache", "--jobs", "2", cwd=tmp_path, env={"PATH": slow_path(tmp_path)})
    assert r.code == 10
    assert "Checking" not in r.stderr and "\x1b" not in r.stderr
    assert "findings (" in r.stderr and "; 30 skills checked." in r.stderr
    assert "\x1b" not in r.stdout and r.stdout.startswith("many/s00/")


def test_a_short_run_draws_nothing(tmp_path):
    skills(tmp_path / "few", 2)
    screen, code, _ = on_terminal(tmp_path, "check", "few/s00")
    assert code == 10
    assert "Checking" not in screen
