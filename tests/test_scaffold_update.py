"""`skillsmith update` in real git repositories, and the template history it relies on."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from conftest import ROOT, run_cli

from skillsmith.scaffold import history as template_history

TEMPLATES = ROOT / "templates"
GIT_ENV = {
    "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com",
    "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.com",
}
OLD_LINE = "Run `bash tests/run.sh` after changing a script; it works offline and prints"
NEW_LINE = "Run `bash tests/run.sh` after every change to a script; it works offline and prints"


def git(*args: str, cwd: Path) -> str:
    import os

    return subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, text=True,
                          env={**os.environ, **GIT_ENV}).stdout


def test_history_bundle_is_up_to_date():
    """Fails when a template changed without `python -m skillsmith.scaffold.history`."""
    for name in template_history.HISTORY_TEMPLATES:
        problems = template_history.stale(TEMPLATES / name, TEMPLATES / "history" / f"{name}.bundle")
        assert problems == [], f"run 'python -m skillsmith.scaffold.history': {problems}"


def test_history_check_command_finds_the_templates(tmp_path):
    """`python -m skillsmith.scaffold.history --check` finds the templates wherever it is run from."""
    import sys

    proc = subprocess.run([sys.executable, "-m", "skillsmith.scaffold.history", "--check"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert (proc.returncode, proc.stdout) == (0, ""), proc.stdout + proc.stderr


@pytest.fixture
def history(tmp_path, monkeypatch) -> Path:
    """A template history with version 1.0.0 (the current template) and 2.0.0 (one line changed)."""
    folder = tmp_path / "history"
    assert template_history.regenerate(TEMPLATES / "skill", folder / "skill.bundle", "1.0.0") == "1.0.0"
    monkeypatch.setenv(template_history.HISTORY_ENV, str(folder))
    monkeypatch.setenv("SKILLSMITH_CACHE_DIR", str(tmp_path / "cache"))
    return folder


def add_version_b(history: Path, tmp_path: Path) -> None:
    changed = tmp_path / "skill-b"
    shutil.copytree(TEMPLATES / "skill", changed)
    md = changed / "SKILL.md.jinja"
    assert OLD_LINE in md.read_text()
    md.write_text(md.read_text().replace(OLD_LINE, NEW_LINE))
    assert template_history.regenerate(changed, history / "skill.bundle", "2.0.0") == "2.0.0"


@pytest.fixture
def repo(tmp_path, history) -> Path:
    """A git repository holding the skill `demo`, generated from version 1.0.0 and committed."""
    repo = tmp_path / "repo"
    repo.mkdir()
    git("init", "--quiet", cwd=repo)
    r = run_cli("new", "demo", "--defaults", "--script", "tool.sh", cwd=repo)
    assert r.code == 0, r.stderr
    assert "_commit: 1.0.0" in (repo / "demo" / ".skillsmith-answers.yml").read_text()
    git("add", "-A", cwd=repo)
    git("commit", "--quiet", "-m", "generated", cwd=repo)
    return repo


def commit_edit(repo: Path, old: str, new: str) -> None:
    md = repo / "demo" / "SKILL.md"
    assert old in md.read_text()
    md.write_text(md.read_text().replace(old, new))
    git("commit", "--quiet", "-am", "edit", cwd=repo)


def test_update_keeps_edits_and_brings_template_changes(repo, history, tmp_path):
    commit_edit(repo, "Describe what demo does and when an agent should use it.\n\n## Scripts",
                "Counts words in the user's drafts.\n\n## Scripts")
    assert run_cli("update", "demo", cwd=repo).stderr.count("up to date") == 1
    add_version_b(history, tmp_path)
    r = run_cli("update", "demo", cwd=repo)
    assert r.code == 0, r.stderr
    assert r.stdout.splitlines() == ["updated\t.skillsmith-answers.yml", "updated\tSKILL.md"]
    text = (repo / "demo" / "SKILL.md").read_text()
    assert "Counts words in the user's drafts." in text
    assert NEW_LINE in text and OLD_LINE not in text
    assert "_commit: 2.0.0" in (repo / "demo" / ".skillsmith-answers.yml").read_text()
    assert "<<<<<<<" not in text
    assert run_cli("check", str(repo / "demo")).code == 0


def test_update_conflict_is_marked_and_exit_10(repo, history, tmp_path):
    commit_edit(repo, OLD_LINE, "Run the suite before every commit; it works offline and prints")
    add_version_b(history, tmp_path)
    r = run_cli("update", str(repo / "demo"), "--json")
    assert r.code == 10, r.stderr
    assert {"path": "SKILL.md", "status": "conflict"} in r.json()["data"]
    assert r.json()["meta"]["to"] == "2.0.0"
    text = (repo / "demo" / "SKILL.md").read_text()
    assert "<<<<<<< before updating" in text and ">>>>>>> after updating" in text
    assert "Run the suite before every commit" in text and NEW_LINE in text
    assert "SKILL.md" in r.stderr and "markers" in r.stderr


def test_pretend_shows_the_diff_and_changes_nothing(repo, history, tmp_path):
    add_version_b(history, tmp_path)
    before = (repo / "demo" / "SKILL.md").read_text()
    r = run_cli("update", "--pretend", "demo", cwd=repo)
    assert r.code == 10, r.stderr
    assert f"+{NEW_LINE}" in r.stdout and f"-{OLD_LINE}" in r.stdout
    assert (repo / "demo" / "SKILL.md").read_text() == before
    assert git("status", "--porcelain", cwd=repo) == ""


def test_update_refuses_a_dirty_tree(repo, history, tmp_path):
    add_version_b(history, tmp_path)
    (repo / "demo" / "notes.txt").write_text("draft\n")
    r = run_cli("update", "demo", cwd=repo)
    assert r.code == 5 and r.stdout == ""
    assert "uncommitted changes" in r.stderr and "commit or stash" in r.stderr
    assert OLD_LINE in (repo / "demo" / "SKILL.md").read_text()


def test_update_outside_git_says_what_to_do(tmp_path, history):
    assert run_cli("new", "demo", "--defaults", cwd=tmp_path).code == 0
    r = run_cli("update", str(tmp_path / "demo"), "--json")
    assert r.code == 5
    assert r.json()["error"]["code"] == "MISSING_DEPENDENCY"
    assert "not in a git repository" in r.stderr and "git init" in r.stderr


def test_update_needs_an_answers_file(tmp_path):
    (tmp_path / "SKILL.md").write_text("---\nname: x\ndescription: y\n---\n")
    r = run_cli("update", str(tmp_path))
    assert r.code == 4 and "skillsmith new" in r.stderr
    assert run_cli("update", str(tmp_path / "nope")).code == 3


def test_update_rejects_an_unknown_template_version(repo, tmp_path, monkeypatch):
    # the packaged history does not have the test's 1.0.0
    monkeypatch.delenv(template_history.HISTORY_ENV)
    r = run_cli("update", "demo", cwd=repo)
    assert r.code == 4 and "'1.0.0' is not in this skillsmith's template history" in r.stderr


def test_history_appends_only_when_the_template_changed(tmp_path):
    bundle = tmp_path / "skill.bundle"
    assert template_history.regenerate(TEMPLATES / "skill", bundle, "0.1.0") == "0.1.0"
    assert template_history.regenerate(TEMPLATES / "skill", bundle, "0.1.0") is None
    changed = tmp_path / "changed"
    shutil.copytree(TEMPLATES / "skill", changed)
    (changed / "copier.yml").write_text((changed / "copier.yml").read_text() + "\n# changed\n")
    assert template_history.stale(changed, bundle) == ["copier.yml"]
    # same skillsmith version, new template: a post-release keeps the tags in PEP 440 order
    assert template_history.regenerate(changed, bundle, "0.1.0") == "0.1.0.post1"
    assert template_history.stale(changed, bundle) == []
    assert template_history.tag_path(bundle).read_text().strip() == "0.1.0.post1"
    assert template_history.next_version(["0.1.0", "0.1.0.post1"], "0.2.0") == "0.2.0"


def arm_repository_config(repo: Path, tmp_path: Path) -> Path:
    """Point the repository's own config at programs that leave a marker when git runs them."""
    marker = tmp_path / "ran"
    program = tmp_path / "program.sh"
    program.write_text(f"#!/bin/sh\necho \"$0\" >> '{marker}'\nexit 1\n")
    program.chmod(0o755)
    hooks = tmp_path / "hooks"
    hooks.mkdir()
    for name in ("post-index-change", "post-checkout", "pre-commit", "post-commit", "reference-transaction"):
        (hooks / name).symlink_to(program)
    git("config", "core.fsmonitor", str(program), cwd=repo)
    git("config", "core.hooksPath", str(hooks), cwd=repo)
    return marker


@pytest.mark.parametrize("pretend", [False, True])
def test_update_runs_no_program_from_the_repository_config(repo, history, tmp_path, pretend):
    """The user's repository may name an fsmonitor or hooks; git runs none of them for `update`
    (neither skillsmith's own git calls nor Copier's)."""
    add_version_b(history, tmp_path)
    marker = arm_repository_config(repo, tmp_path)
    r = run_cli("update", *(["--pretend"] if pretend else []), "demo", cwd=repo)
    assert r.code == (10 if pretend else 0), r.stderr
    assert not marker.exists(), marker.read_text()
    if not pretend:
        assert NEW_LINE in (repo / "demo" / "SKILL.md").read_text()
