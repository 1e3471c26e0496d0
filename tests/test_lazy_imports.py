"""`--help`, `rules` and a `check` that needs no fix never import the heavy libraries."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pexpect
import pytest
from conftest import EXAMPLE

HEAVY = ("copier", "libcst", "questionary", "ruamel", "prompt_toolkit", "pygls", "lsprotocol", "rich")


def imported_modules(*args: str, cwd=None) -> set[str]:
    """Top-level modules a real `python -X importtime -m skillsmith ARGS` imports."""
    env = dict(os.environ, SKILLSMITH_CACHE_DIR=os.environ.get("SKILLSMITH_CACHE_DIR", "/tmp/skillsmith-test-cache"))
    proc = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "skillsmith", *args],
        capture_output=True, text=True, env=env, cwd=cwd, stdin=subprocess.DEVNULL, timeout=120,
    )
    assert proc.returncode in (0, 10), proc.stderr[-2000:]
    names = re.findall(r"^import time:\s+\d+\s+\|\s+\d+\s+\|\s+(\S.*)$", proc.stderr, re.M)
    assert names, "no -X importtime output"
    return {n.strip().split(".")[0] for n in names}


@pytest.mark.parametrize("args", [
    ("--help",),
    ("check", "--help"),
    ("lsp", "--help"),
    ("rules",),
    ("rules", "SPC007", "--json"),
    ("check", str(EXAMPLE), "--no-cache"),
    ("check", str(EXAMPLE), "--format", "sarif"),
])
def test_no_heavy_imports(args):
    loaded = imported_modules(*args)
    assert "skillsmith" in loaded
    if "--no-cache" in args:
        assert "yaml" in loaded  # the probe sees modules imported lazily, mid-run
    assert not loaded & set(HEAVY), f"{' '.join(args)} imported {sorted(loaded & set(HEAVY))}"


def test_a_quick_check_on_a_terminal_does_not_import_rich(tmp_path):
    """Progress is drawn with rich only once a run has lasted a second; a cached check never waits that long."""
    env = {**os.environ, "SKILLSMITH_CACHE_DIR": str(tmp_path / "cache"), "TERM": "xterm"}
    for _ in range(2):  # the second run is answered by the cache
        child = pexpect.spawn(sys.executable, ["-X", "importtime", "-m", "skillsmith", "check", str(EXAMPLE)],
                              env=env, encoding="utf-8", timeout=120, dimensions=(30, 200))
        child.expect(pexpect.EOF)
        child.close()
        assert child.exitstatus == 0, child.before[-2000:]
        names = {n.strip().split(".")[0] for n in re.findall(r"import time:\s+\d+\s+\|\s+\d+\s+\|\s+(\S[^\r\n]*)", child.before)}
        assert "skillsmith" in names
        assert "rich" not in names


def imported_names(*args: str) -> set[str]:
    """Every module (dotted names too) a real `python -X importtime -m skillsmith ARGS` imports."""
    proc = subprocess.run([sys.executable, "-X", "importtime", "-m", "skillsmith", *args],
                          capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return {n.strip() for n in re.findall(r"^import time:\s+\d+\s+\|\s+\d+\s+\|\s+(\S.*)$", proc.stderr, re.M)}


@pytest.mark.parametrize("args", [("--help",), ("--version",)])
def test_help_builds_only_the_parser_it_shows(args):
    """`--help` imported the hosts (for `check --target`), the rule finding module and json: every
    command's parser was built although none is shown."""
    loaded = imported_names(*args)
    assert "skillsmith.cli.main" in loaded
    assert not loaded & {"json", "skillsmith.targets", "skillsmith.rules.finding", "skillsmith.rules.registry"}, \
        sorted(loaded & {"json", "skillsmith.targets", "skillsmith.rules.finding", "skillsmith.rules.registry"})
