"""Scaffolding from the installed wheel: `new`, `add script` and `update` work without the source tree.

The templates and their history bundle must reach the wheel as the package
``skillsmith.templates``. The wheel is built and installed in a fresh venv once per session
(``tests/conftest.py``); the commands run from a folder outside the source tree.
"""

from __future__ import annotations

import os
import zipfile

from conftest import run_ok

GIT_ENV = {
    "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com",
    "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.com",
}
sh = run_ok


def test_wheel_ships_templates_and_history(built_wheel):
    names = set(zipfile.ZipFile(built_wheel).namelist())
    for rel in ("copier.yml", "SKILL.md.jinja", "_partials/python.py.jinja", "{{ _copier_conf.answers_file }}.jinja"):
        assert f"skillsmith/templates/skill/{rel}" in names, rel
    assert "skillsmith/templates/skill/{% if part == 'script' %}cases.sh{% endif %}.jinja" in names  # add script
    assert {"skillsmith/templates/history/skill.bundle", "skillsmith/templates/history/skill.tag"} <= names


def test_new_add_update_from_the_wheel(wheel_venv, tmp_path):
    exe = wheel_venv / "bin" / "skillsmith"
    env = {**os.environ, **GIT_ENV, "SKILLSMITH_CACHE_DIR": str(tmp_path / "cache")}
    env.pop("PYTHONPATH", None)
    env.pop("SKILLSMITH_TEMPLATE_HISTORY", None)
    work = tmp_path / "work"
    work.mkdir()
    where = sh(wheel_venv / "bin" / "python", "-c",
               "import skillsmith.templates as t; print(t.__file__)", cwd=work, env=env)
    assert where.stdout.startswith(str(wheel_venv)), where.stdout

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
from skillsmith.scaffold import history as h
folder, version = Path(sys.argv[1]), sys.argv[2]
source = h.templates_root() / "skill"
if version != "1.0.0":
    shutil.copytree(source, folder / "changed")
    md = folder / "changed" / "SKILL.md.jinja"
    md.write_text(md.read_text().replace("## Tests", "## Tests (offline)"))
    source = folder / "changed"
print(h.regenerate(source, folder / "skill.bundle", version))
"""


def test_update_from_the_wheel(wheel_venv, tmp_path):
    """A two-version history made from the installed templates: update merges version 2.0.0 in."""
    exe, python = wheel_venv / "bin" / "skillsmith", wheel_venv / "bin" / "python"
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
