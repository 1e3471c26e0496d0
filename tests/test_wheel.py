"""The wheel: built from the source, installed in a fresh venv, and working from there."""

from __future__ import annotations

import os
import subprocess
import zipfile
from pathlib import Path

import pytest
from conftest import ROOT


def sh(*cmd, **kw) -> subprocess.CompletedProcess:
    proc = subprocess.run([str(c) for c in cmd], capture_output=True, text=True, stdin=subprocess.DEVNULL,
                          timeout=300, **kw)
    assert proc.returncode == 0, f"{' '.join(map(str, cmd))} -> {proc.returncode}\n{proc.stdout}\n{proc.stderr}"
    return proc


@pytest.fixture
def wheel(built_wheel) -> Path:
    return built_wheel


@pytest.fixture
def installed(wheel_venv) -> Path:
    return wheel_venv


def test_wheel_holds_only_the_skillsmith_package(wheel):
    names = zipfile.ZipFile(wheel).namelist()
    top = {n.split("/")[0] for n in names}
    assert {t for t in top if not t.endswith(".dist-info")} == {"skillsmith"}
    assert "skillsmith/codemods/__init__.py" in names
    assert "skillsmith/templates/__init__.py" in names
    assert "skillsmith/rules/files.py" in names and "skillsmith/rules/run.py" in names
    assert "skillsmith/api.py" in names
    assert not any(n.startswith(("tests/", "codemods/", "templates/", "docs/")) for n in names)
    entry_points = next(n for n in names if n.endswith(".dist-info/entry_points.txt"))
    assert "skillsmith = skillsmith.cli.main:main" in zipfile.ZipFile(wheel).read(entry_points).decode()


def test_installed_wheel_runs(installed, tmp_path):
    exe = installed / "bin" / "skillsmith"
    env = dict(os.environ, SKILLSMITH_CACHE_DIR=str(tmp_path / "cache"))
    env.pop("PYTHONPATH", None)
    where = sh(installed / "bin" / "python", "-c", "import skillsmith; print(skillsmith.__file__)", cwd=tmp_path, env=env)
    assert where.stdout.startswith(str(installed)), where.stdout  # the wheel, not the work tree

    helped = sh(exe, "--help", cwd=tmp_path, env=env)
    assert "examples:" in helped.stdout.lower() and "check" in helped.stdout

    checked = sh(exe, "check", ROOT / "docs" / "examples" / "table-formatter", cwd=tmp_path, env=env)
    assert checked.stdout == ""
    assert "passed" in checked.stderr.lower()

    listed = sh(exe, "rules", "--json", cwd=tmp_path, env=env)
    assert '"FIL001"' in listed.stdout

    bad = tmp_path / "bad"
    bad.mkdir()
    (bad / "SKILL.md").write_text("---\nname: Bad\ndescription: x\n---\n")
    found = subprocess.run([exe, "check", bad, "--json"], capture_output=True, text=True, cwd=tmp_path, env=env,
                           stdin=subprocess.DEVNULL, timeout=120)
    assert found.returncode == 10
    assert "SPC007" in found.stdout
