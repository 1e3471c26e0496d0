"""Scaffolding from the installed wheel: `new`, `add script` and `update` work without the source tree.

The templates and their history bundle must reach the wheel as the package
``skillsmith.templates``; this builds the wheel once per session, installs it in a fresh venv
(its dependencies borrowed from this environment) and runs the commands from a folder outside
the source tree.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import venv
import zipfile
from pathlib import Path

import pytest

from conftest import ROOT

SOURCES = ("pyproject.toml", "README.md", "LICENSE", "skillsmith", "codemods", "templates")
GIT_ENV = {
    "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com",
    "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.com",
}


def sh(*cmd, **kw) -> subprocess.CompletedProcess:
    proc = subprocess.run([str(c) for c in cmd], capture_output=True, text=True, stdin=subprocess.DEVNULL,
                          timeout=300, **kw)
    assert proc.returncode == 0, f"{' '.join(map(str, cmd))} -> {proc.returncode}\n{proc.stdout}\n{proc.stderr}"
    return proc


@pytest.fixture(scope="session")
def scaffold_wheel(tmp_path_factory) -> Path:
    """The wheel, built once per session from a copy of the source (the work tree stays clean)."""
    base = tmp_path_factory.getbasetemp() / "scaffold-wheel"
    built = sorted((base / "dist").glob("skillsmith-*.whl"))
    if built:
        return built[0]
    src = base / "src"
    src.mkdir(parents=True)
    for name in SOURCES:
        path = ROOT / name
        if path.is_dir():
            shutil.copytree(path, src / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        elif path.exists():
            shutil.copy2(path, src / name)
    sh(sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir", base / "dist", src)
    [wheel] = (base / "dist").glob("skillsmith-*.whl")
    return wheel


@pytest.fixture(scope="session")
def scaffold_venv(scaffold_wheel, tmp_path_factory) -> Path:
    env_dir = tmp_path_factory.mktemp("scaffold-venv") / "env"
    venv.EnvBuilder(with_pip=False).create(env_dir)
    python = env_dir / "bin" / "python"
    site = Path(sh(python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])").stdout.strip())
    # dependencies from this environment, after the venv's own site-packages
    (site / "zz_test_dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    sh(sys.executable, "-m", "pip", "--python", python, "install", "--no-deps", "--no-index", "--quiet", scaffold_wheel)
    return env_dir


def test_wheel_ships_templates_and_history(scaffold_wheel):
    names = set(zipfile.ZipFile(scaffold_wheel).namelist())
    for rel in ("copier.yml", "SKILL.md.jinja", "_partials/python.py.jinja", "{{ _copier_conf.answers_file }}.jinja"):
        assert f"skillsmith/templates/skill/{rel}" in names, rel
    assert "skillsmith/templates/script/copier.yml" in names
    assert {"skillsmith/templates/history/skill.bundle", "skillsmith/templates/history/skill.tag"} <= names


def test_new_add_update_from_the_wheel(scaffold_venv, tmp_path):
    exe = scaffold_venv / "bin" / "skillsmith"
    env = {**os.environ, **GIT_ENV, "SKILLSMITH_CACHE_DIR": str(tmp_path / "cache")}
    env.pop("PYTHONPATH", None)
    env.pop("SKILLSMITH_TEMPLATE_HISTORY", None)
    work = tmp_path / "work"
    work.mkdir()
    where = sh(scaffold_venv / "bin" / "python", "-c",
               "import skillsmith.templates as t; print(t.__file__)", cwd=work, env=env)
    assert where.stdout.startswith(str(scaffold_venv)), where.stdout

    sh("git", "init", "--quiet", cwd=work, env=env)
    created = sh(exe, "new", "demo", "--defaults", "--script", "tool.sh", "--verifier", cwd=work, env=env)
    assert "demo/scripts/tool.sh" in created.stdout.splitlines()
    assert os.access(work / "demo" / "scripts" / "tool.sh", os.X_OK)
    added = sh(exe, "add", "script", "demo", "report.py", cwd=work, env=env)
    assert added.stdout.splitlines()[0] == "demo/scripts/report.py"
    sh(exe, "check", "demo", cwd=work, env=env)
    suite = sh("bash", "demo/tests/run.sh", cwd=work, env=env)
    assert suite.stdout.strip().endswith(" 0 failed")

    sh("git", "add", "-A", cwd=work, env=env)
    sh("git", "commit", "--quiet", "-m", "skill", cwd=work, env=env)
    current = sh(exe, "update", "demo", cwd=work, env=env)
    assert "up to date" in current.stderr and current.stdout == ""


MAKE_HISTORY = """
import shutil, sys
from pathlib import Path
from skillsmith import template_history as h
folder, version = Path(sys.argv[1]), sys.argv[2]
source = h.templates_root() / "skill"
if version != "1.0.0":
    shutil.copytree(source, folder / "changed")
    md = folder / "changed" / "SKILL.md.jinja"
    md.write_text(md.read_text().replace("## Tests", "## Tests (offline)"))
    source = folder / "changed"
print(h.regenerate(source, folder / "skill.bundle", version))
"""


def test_update_from_the_wheel(scaffold_venv, tmp_path):
    """A two-version history made from the installed templates: update merges version 2.0.0 in."""
    exe, python = scaffold_venv / "bin" / "skillsmith", scaffold_venv / "bin" / "python"
    history = tmp_path / "history"
    env = {**os.environ, **GIT_ENV, "SKILLSMITH_CACHE_DIR": str(tmp_path / "cache"), "SKILLSMITH_TEMPLATE_HISTORY": str(history)}
    env.pop("PYTHONPATH", None)
    work = tmp_path / "work"
    work.mkdir()
    assert sh(python, "-c", MAKE_HISTORY, history, "1.0.0", cwd=work, env=env).stdout.strip() == "1.0.0"
    sh("git", "init", "--quiet", cwd=work, env=env)
    sh(exe, "new", "demo", "--defaults", cwd=work, env=env)
    md = work / "demo" / "SKILL.md"
    md.write_text(md.read_text().replace("# Demo\n", "# Demo, edited\n"))
    sh("git", "add", "-A", cwd=work, env=env)
    sh("git", "commit", "--quiet", "-m", "skill", cwd=work, env=env)
    assert sh(python, "-c", MAKE_HISTORY, history, "2.0.0", cwd=work, env=env).stdout.strip() == "2.0.0"
    updated = sh(exe, "update", "demo", cwd=work, env=env)
    assert "updated\tSKILL.md" in updated.stdout.splitlines()
    text = md.read_text()
    assert "# Demo, edited\n" in text and "## Tests (offline)" in text
