"""``bash -n`` in batches gives the same verdicts as one run per script; no verdict is never a pass."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from conftest import run_cli

from skillsmith.lang import bashcheck
from skillsmith.model.skill import Loose
from skillsmith.model.sourcefile import SourceFile

GOOD = b"#!/bin/bash\nif true; then\n  echo ok\nfi\ncat <<EOF\nunclosed ' quote in a heredoc is fine\nEOF\n"
BAD_IF = b"#!/bin/bash\nif true; then\n  echo missing fi\n"
# each alone is broken; naively concatenated, the second closes the first's quote
HALF_A = b'#!/bin/bash\necho "abc\n'
HALF_B = b'#!/bin/bash\necho def"\n'


def loose(files: dict[str, bytes]) -> Loose:
    return Loose(Path("/x"), {rel: SourceFile.from_bytes(Path("/x") / rel, rel, data) for rel, data in files.items()})


def errors(files):
    return bashcheck.syntax_errors(loose(files).scripts)


def test_clean_scripts_pass_together():
    assert errors({"a.sh": GOOD, "b.sh": GOOD, "c.sh": GOOD}) == {}


def test_only_the_broken_script_is_reported_with_its_line():
    found = errors({"a.sh": GOOD, "b.sh": BAD_IF, "c.sh": GOOD})
    assert set(found) == {"b.sh"}
    assert found["b.sh"][0] >= 3


def test_errors_cannot_cancel_out_across_scripts():
    assert set(errors({"a.sh": HALF_A, "b.sh": HALF_B})) == {"a.sh", "b.sh"}


# -- one policy: a check that could not run is not a pass -------------------------------------


def test_syntax_error_is_bashs_verdict():
    assert bashcheck.syntax_error(GOOD) is None
    line, message = bashcheck.syntax_error(BAD_IF)
    assert line >= 3 and message


def test_no_bash_on_path_is_not_checked_rather_than_passed(monkeypatch, tmp_path):
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(bashcheck.NotChecked, match="bash not found"):
        bashcheck.syntax_error(BAD_IF)
    found = errors({"a.sh": GOOD, "b.sh": BAD_IF})
    assert set(found) == {"a.sh", "b.sh"} and all(isinstance(v, bashcheck.NotChecked) for v in found.values())


def test_a_bash_n_that_hangs_is_not_checked_rather_than_passed(monkeypatch, tmp_path):
    hanging = tmp_path / "bash"
    hanging.write_text("#!/bin/sh\nexec sleep 30\n")
    hanging.chmod(0o755)
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(bashcheck.NotChecked, match="longer than 0.5 s"):
        bashcheck.syntax_error(GOOD, timeout=0.5)


def _without_bash(tmp_path: Path) -> dict:
    """An environment whose PATH holds no bash (and nothing else)."""
    empty = tmp_path / "no-bash"
    empty.mkdir()
    return {"PATH": str(empty), "SKILLSMITH_CACHE_DIR": str(tmp_path / "cache")}


STRICTLESS = b"#!/usr/bin/env bash\n# Greets.\necho hi\n"


def test_check_without_bash_says_shl002_was_skipped_and_reports_no_syntax_error(tmp_path):
    scripts = tmp_path / "scripts"
    scripts.mkdir()
    (scripts / "broken.sh").write_bytes(BAD_IF)
    r = run_cli("check", "scripts", "--json", "--select", "SHL002", cwd=tmp_path, env=_without_bash(tmp_path))
    assert r.code == 0, r.stdout + r.stderr
    assert r.json()["data"] == []
    assert "bash not found on PATH" in r.stderr and "SHL002" in r.stderr
    with_bash = run_cli("check", "scripts", "--json", "--select", "SHL002", cwd=tmp_path,
                        env={"SKILLSMITH_CACHE_DIR": str(tmp_path / "cache")})
    assert [f["rule"] for f in with_bash.json()["data"]] == ["SHL002"]  # the cache knows bash appeared


def test_fix_without_bash_writes_no_shell_script(tmp_path):
    scripts = tmp_path / "scripts"
    scripts.mkdir()
    target = scripts / "hi.sh"
    target.write_bytes(STRICTLESS)
    target.chmod(0o755)
    r = run_cli("fix", "scripts", "--json", cwd=tmp_path, env=_without_bash(tmp_path))
    assert target.read_bytes() == STRICTLESS
    rows = r.json()["data"]
    assert rows[0]["status"] == "skipped" and "could not check" in rows[0]["reason"], rows
    fixed = run_cli("fix", "scripts", "--json", cwd=tmp_path, env={"SKILLSMITH_CACHE_DIR": str(tmp_path / "cache")})
    assert fixed.json()["data"][0]["status"] == "fixed", fixed.stdout
    assert b"set -uo pipefail" in target.read_bytes()


def test_a_bash_n_that_could_not_run_is_tried_again_next_time(tmp_path):
    """A verdict that was not reached (bash failed to start) is not cached as the unit's answer."""
    scripts = tmp_path / "scripts"
    scripts.mkdir()
    (scripts / "broken.sh").write_bytes(BAD_IF)
    tools = tmp_path / "tools"
    tools.mkdir()
    fake = tools / "bash"
    fake.write_text("#!/nonexistent/interpreter\n")  # exec fails: bash -n could not run
    fake.chmod(0o755)
    stamp = fake.stat()
    env = {"PATH": f"{tools}:/usr/bin:/bin", "SKILLSMITH_CACHE_DIR": str(tmp_path / "cache")}
    first = run_cli("check", "scripts", "--json", "--select", "SHL002", cwd=tmp_path, env=env)
    assert first.json()["data"] == [] and "could not run" in first.stderr, first.stderr
    # the same bash (same path and times, so the cache key's tool state is unchanged) now works
    real = shutil.which("bash", path="/usr/bin:/bin")
    fake.write_text(f'#!/bin/sh\nexec {real} "$@"\n')
    os.utime(fake, ns=(stamp.st_atime_ns, stamp.st_mtime_ns))
    second = run_cli("check", "scripts", "--json", "--select", "SHL002", cwd=tmp_path, env=env)
    assert [f["rule"] for f in second.json()["data"]] == ["SHL002"], second.stderr
