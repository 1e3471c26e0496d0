"""`skillsmith update` in real git repositories, and the template history it relies on."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml
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


def history_of(template: str, tmp_path: Path, monkeypatch) -> Path:
    """A history of *template* whose version 1.0.0 is the current template, used by `new` and `update`."""
    folder = tmp_path / "history"
    assert template_history.regenerate(TEMPLATES / template, folder / f"{template}.bundle", "1.0.0") == "1.0.0"
    monkeypatch.setenv(template_history.HISTORY_ENV, str(folder))
    monkeypatch.setenv("SKILLSMITH_CACHE_DIR", str(tmp_path / "cache"))
    return folder


@pytest.fixture
def history(tmp_path, monkeypatch) -> Path:
    """A template history with version 1.0.0 (the current template) and 2.0.0 (one line changed)."""
    return history_of("skill", tmp_path, monkeypatch)


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
    commit_edit(repo, "Counts the lines and words of a text file. Use when the user asks how long a file is.\n\n## Scripts",
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
    demo = repo / "demo"
    assert r.stderr.splitlines() == [
        "skillsmith: updated " + str(demo) + " from template 1.0.0 to 2.0.0: 2 file(s) changed, 1 conflict(s)",
        "skillsmith: conflicts in: SKILL.md",
        "skillsmith: to finish: edit each block from '<<<<<<< before updating' to '>>>>>>> after updating' into the "
        f"text you want, then run: git -C {demo} add -A -- . && git -C {demo} commit -m 'Update demo to template 2.0.0'",
        f"skillsmith: to undo the whole update instead: git -C {demo} checkout HEAD -- .",
    ]
    # what the update leaves: the markers in the work tree, the index as it was, no merge in progress
    assert " M demo/SKILL.md" in git("status", "--porcelain", cwd=repo).splitlines()
    assert git("diff", "--cached", "--name-only", cwd=repo) == ""
    assert not (repo / ".git" / "MERGE_HEAD").exists()


def said(stderr: str, prefix: str) -> str:
    """The command a note on stderr gives after *prefix*."""
    [line] = [line for line in stderr.splitlines() if prefix in line]
    return line.split(prefix, 1)[1]


def test_the_undo_command_after_a_conflict_restores_the_skill(repo, history, tmp_path):
    commit_edit(repo, OLD_LINE, "Run the suite before every commit; it works offline and prints")
    before = git("rev-parse", "HEAD", cwd=repo)
    add_version_b(history, tmp_path)
    r = run_cli("update", "demo", cwd=repo)
    assert r.code == 10, r.stderr
    undo = said(r.stderr, "to undo the whole update instead: ")
    ran = subprocess.run(["sh", "-c", undo], cwd=repo, capture_output=True, text=True, env={**os.environ, **GIT_ENV})
    assert ran.returncode == 0, ran.stderr
    assert git("status", "--porcelain", cwd=repo) == ""
    assert git("rev-parse", "HEAD", cwd=repo) == before
    assert "_commit: 1.0.0" in (repo / "demo" / ".skillsmith-answers.yml").read_text()


def test_the_finish_command_after_resolving_commits_the_update(repo, history, tmp_path):
    commit_edit(repo, OLD_LINE, "Run the suite before every commit; it works offline and prints")
    add_version_b(history, tmp_path)
    r = run_cli("update", "demo", cwd=repo)
    assert r.code == 10, r.stderr
    md = repo / "demo" / "SKILL.md"
    text = md.read_text()
    start, end = text.index("<<<<<<< before updating"), text.index(">>>>>>> after updating\n")
    md.write_text(text[:start] + NEW_LINE + "\n" + text[end + len(">>>>>>> after updating\n"):])
    finish = said(r.stderr, "into the text you want, then run: ")
    ran = subprocess.run(["sh", "-c", finish], cwd=repo, capture_output=True, text=True, env={**os.environ, **GIT_ENV})
    assert ran.returncode == 0, ran.stderr
    assert git("status", "--porcelain", cwd=repo) == ""
    assert git("log", "-1", "--format=%s", cwd=repo).strip() == "Update demo to template 2.0.0"
    assert run_cli("update", "demo", cwd=repo).stderr.endswith("is up to date (template 2.0.0)\n")
    assert run_cli("check", str(repo / "demo")).code == 0


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


def test_an_update_that_fails_inside_copier_changes_nothing(repo, history, tmp_path):
    """The answers file used to get the new `_commit` before Copier failed, so the next update said "up to date"."""
    changed = tmp_path / "skill-broken"
    shutil.copytree(TEMPLATES / "skill", changed)
    for name in ("aaa.md.jinja", "~zzz.md.jinja"):  # rendered before and after the answers file, whatever the order
        (changed / name).write_text("{{ 1 // 0 }}\n")
    assert template_history.regenerate(changed, history / "skill.bundle", "2.0.0") == "2.0.0"
    answers = (repo / "demo" / ".skillsmith-answers.yml").read_text()
    r = run_cli("update", "demo", cwd=repo)
    assert r.code != 0 and "ZeroDivisionError" in r.stderr
    assert git("status", "--porcelain", "--untracked-files=all", cwd=repo) == ""
    assert (repo / "demo" / ".skillsmith-answers.yml").read_text() == answers
    assert "up to date" not in run_cli("update", "demo", cwd=repo).stderr


# -- new answers: --data KEY=VALUE ----------------------------------------------------------


def test_data_answers_anew_even_at_the_current_version(repo, history):
    """`--data verifier=true` turns the verifier on in a skill made without it; the skill stays clean."""
    r = run_cli("update", "demo", "--data", "verifier=true", "--data", "license=mit", "--json", cwd=repo)
    assert r.code == 0, r.stderr
    doc = r.json()
    assert doc["meta"]["answers"] == {"verifier": True, "license": "MIT"}
    assert doc["meta"]["from"] == doc["meta"]["to"] == "1.0.0"
    assert {"path": "scripts/verify_facts.py", "status": "updated"} in doc["data"]
    assert r.stderr.splitlines()[0] == "skillsmith: updated demo at template 1.0.0 with new answers: " \
        f"{len(doc['data'])} file(s) changed, 0 conflict(s)"
    skill = repo / "demo"
    answers = yaml.safe_load((skill / ".skillsmith-answers.yml").read_text())
    assert answers["verifier"] is True and answers["license"] == "MIT" and answers["_commit"] == "1.0.0"
    assert 'license: "MIT"' in (skill / "SKILL.md").read_text()
    assert (skill / "scripts" / "verify_facts.py").is_file()
    check = run_cli("check", "--json", "--no-cache", str(skill))
    assert (check.code, check.json()["data"]) == (0, [])


@pytest.mark.parametrize("data, message", [
    ("verifier=maybe", "--data verifier=maybe: verifier is true or false"),
    ("description=Use for <x>.", "'description' contains '<' or '>', which Claude's uploader rejects"),
    ("license=Apache 2.0", "license 'Apache 2.0' is not an SPDX license expression"),
    ("scripts=a.rb", "script 'a.rb' must end in .py or .sh"),
    ("name=other", "--data name: a skill's name is its folder's name and cannot change in an update"),
    ("part=script", "--data part: the skill template asks no such question (it asks: kind, description, target, "),
    ("target=kvist", "--data target=kvist: a skill from the skill template is for agentskills or stabledge"),
    ("verifier", "--data 'verifier': write KEY=VALUE, e.g. --data verifier=true"),
])
def test_data_is_validated_like_new(repo, history, data, message):
    r = run_cli("update", "demo", "--data", data, "--json", cwd=repo)
    assert r.code == 2, r.stderr
    assert r.json()["error"]["code"] == "USAGE"
    assert r.stderr.startswith(f"skillsmith: error: {message}"), r.stderr
    assert git("status", "--porcelain", cwd=repo) == ""


# -- kvist skills -----------------------------------------------------------------------------

KVIST_OLD = "Echoes its `text` argument back unchanged. Use it to check that the skill is installed and"
KVIST_NEW = "Returns its `text` argument unchanged. Use it to check that the skill is installed and"


@pytest.fixture
def kvist_repo(tmp_path, monkeypatch) -> Path:
    """A git repository holding the kvist skill `demo_tool`, made from kvist template version 1.0.0."""
    history_of("kvist", tmp_path, monkeypatch)
    repo = tmp_path / "repo"
    repo.mkdir()
    git("init", "--quiet", cwd=repo)
    r = run_cli("new", "demo_tool", "--target", "kvist", "--defaults", cwd=repo)
    assert r.code == 0, r.stderr
    git("add", "-A", cwd=repo)
    git("commit", "--quiet", "-m", "generated", cwd=repo)
    return repo


def test_new_kvist_skill_records_a_template_version_it_can_update_from(kvist_repo):
    answers = yaml.safe_load((kvist_repo / "demo_tool" / ".skillsmith-answers.yml").read_text())
    assert answers["_src_path"] == "skillsmith-template-kvist" and answers["_commit"] == "1.0.0"
    r = run_cli("update", "demo_tool", cwd=kvist_repo)
    assert (r.code, r.stdout) == (0, ""), r.stderr
    assert r.stderr == "skillsmith: demo_tool is up to date (template 1.0.0)\n"


def test_update_brings_kvist_template_changes_and_keeps_edits(kvist_repo, tmp_path):
    md = kvist_repo / "demo_tool" / "SKILL.md"
    md.write_text(md.read_text().replace("## What this skill cannot do", "## Notes\n\nOurs.\n\n## What this skill cannot do"))
    git("commit", "--quiet", "-am", "edit", cwd=kvist_repo)
    changed = tmp_path / "kvist-b"
    shutil.copytree(TEMPLATES / "kvist", changed)
    template_md = changed / "SKILL.md.jinja"
    assert KVIST_OLD in template_md.read_text()
    template_md.write_text(template_md.read_text().replace(KVIST_OLD, KVIST_NEW))
    assert template_history.regenerate(changed, tmp_path / "history" / "kvist.bundle", "2.0.0") == "2.0.0"
    r = run_cli("update", "demo_tool", cwd=kvist_repo)
    assert r.code == 0, r.stderr
    assert r.stdout.splitlines() == ["updated\t.skillsmith-answers.yml", "updated\tSKILL.md"]
    text = md.read_text()
    assert KVIST_NEW in text and KVIST_OLD not in text and "## Notes\n\nOurs." in text
    assert "_commit: 2.0.0" in (kvist_repo / "demo_tool" / ".skillsmith-answers.yml").read_text()
    assert run_cli("check", str(kvist_repo / "demo_tool")).code == 0


def test_kvist_update_takes_a_new_summary(kvist_repo):
    r = run_cli("update", "demo_tool", "--data", "description=Digests logs. Use when a log is long.", cwd=kvist_repo)
    assert r.code == 0, r.stderr
    manifest = json.loads((kvist_repo / "demo_tool" / "manifest.json").read_text())
    assert manifest["summary"] == {"en": "Digests logs. Use when a log is long."}
    bad = run_cli("update", "demo_tool", "--data", "verifier=true", cwd=kvist_repo)
    assert bad.code == 2 and bad.stderr.startswith(
        "skillsmith: error: --data verifier: the kvist template asks no such question (it asks: description)")
