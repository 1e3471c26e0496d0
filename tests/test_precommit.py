"""The pre-commit hooks (``.pre-commit-hooks.yaml``), run by the real pre-commit.

pre-commit clones a git repository made of this work tree's sources (``source_repo``),
builds its own virtualenv and pip-installs skillsmith there, offline (see
``offline_install_env``), then runs the hooks on ``git commit`` in a temporary repository.
The hook environment is built once for the module (``PRE_COMMIT_HOME`` is shared).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import FIXTURES, offline_install_env, run_cli, run_ok

BROKEN = FIXTURES / "rules" / "CON014" / "literal-exit"  # a skill whose only finding has a safe fix
HOOK_TIMEOUT = 900  # the first commit builds the hook environment


@pytest.fixture(scope="module")
def home(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("pre-commit-home")


def project(tmp_path: Path, source_repo, home: Path, hooks: list[str]):
    """A git repository with the skill under skills/ and pre-commit installed for *hooks*."""
    repo, sha = source_repo
    root = tmp_path / "project"
    root.mkdir()
    env = offline_install_env(tmp_path)
    env["PRE_COMMIT_HOME"] = str(home)
    git(root, env, "init", "-q")
    shutil.copytree(BROKEN, root / "skills" / "literal-exit")
    ids = "".join(f"      - id: {h}\n" for h in hooks)
    (root / ".pre-commit-config.yaml").write_text(f"repos:\n  - repo: {repo}\n    rev: {sha}\n    hooks:\n{ids}")
    run_ok(sys.executable, "-m", "pre_commit", "install", cwd=root, env=env)
    git(root, env, "add", ".pre-commit-config.yaml")
    assert commit(root, env, "config", "--no-verify").returncode == 0
    return root, env


def git(root: Path, env: dict, *args: str) -> subprocess.CompletedProcess:
    return run_ok("git", "-C", root, *args, env=env)


def commit(root: Path, env: dict, message: str, *extra: str) -> subprocess.CompletedProcess:
    return subprocess.run(["git", "-C", str(root), "commit", "-q", "-m", message, *extra], capture_output=True,
                          text=True, env=env, stdin=subprocess.DEVNULL, timeout=HOOK_TIMEOUT)


def skillsmith(root: Path, env: dict, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "skillsmith", *args], capture_output=True, text=True, cwd=root,
                          env=env, stdin=subprocess.DEVNULL, timeout=120)


def test_check_hook_fails_a_broken_skill_and_passes_it_after_fix(tmp_path, source_repo, home):
    root, env = project(tmp_path, source_repo, home, ["skillsmith-check"])
    git(root, env, "add", "skills")
    failed = commit(root, env, "add the skill")
    out = failed.stdout + failed.stderr
    assert failed.returncode != 0, out
    assert "skillsmith check" in out and "Failed" in out
    assert "skills/literal-exit/scripts/count.sh" in out and "CON014" in out
    assert git(root, env, "rev-list", "--count", "HEAD").stdout.strip() == "1"  # nothing was committed
    # the hook ran the skillsmith pre-commit installed from the source repository
    assert list(home.glob("repo*/py_env-*/lib/python*/site-packages/skillsmith/cli/check.py"))

    fixed = skillsmith(root, env, "fix", "skills/literal-exit")
    assert fixed.returncode == 0, fixed.stderr
    git(root, env, "add", "skills")
    passed = commit(root, env, "add the fixed skill")
    assert passed.returncode == 0, passed.stdout + passed.stderr
    assert "skillsmith check" in passed.stdout + passed.stderr
    assert git(root, env, "rev-list", "--count", "HEAD").stdout.strip() == "2"


def test_a_changed_file_stands_for_its_whole_skill(tmp_path, source_repo, home):
    root, env = project(tmp_path, source_repo, home, ["skillsmith-check"])
    git(root, env, "add", "skills")
    assert commit(root, env, "the skill as it is", "--no-verify").returncode == 0
    notes = root / "skills" / "literal-exit" / "references" / "notes.md"
    notes.parent.mkdir()
    notes.write_text("# Notes\n\nRows exclude the header.\n")
    git(root, env, "add", "skills")
    # only a reference is staged, but the skill's script still holds the finding
    failed = commit(root, env, "add notes")
    assert failed.returncode != 0
    assert "scripts/count.sh" in failed.stdout + failed.stderr


def test_scripts_outside_any_skill_are_left_alone(tmp_path, source_repo, home):
    root, env = project(tmp_path, source_repo, home, ["skillsmith-check"])
    tool = root / "scripts" / "release.sh"
    tool.parent.mkdir()
    tool.write_text("#!/bin/sh\necho release\nexit 1\n")  # no header, no --help: not a skill's script
    git(root, env, "add", "scripts")
    passed = commit(root, env, "a repository script")
    assert passed.returncode == 0, passed.stdout + passed.stderr


def test_fix_exits_non_zero_when_it_wrote_a_file_if_asked(tmp_path):
    a, b = tmp_path / "a" / BROKEN.name, tmp_path / "b" / BROKEN.name
    shutil.copytree(BROKEN, a)
    shutil.copytree(BROKEN, b)
    plain = run_cli("fix", str(a))
    asked = run_cli("fix", str(b), "--exit-non-zero-on-fix")
    assert (plain.code, asked.code) == (0, 10), plain.stderr + asked.stderr
    assert (a / "scripts" / "count.sh").read_bytes() == (b / "scripts" / "count.sh").read_bytes()
    again = run_cli("fix", str(b), "--exit-non-zero-on-fix")
    assert again.code == 0, again.stderr  # nothing left to write


def test_fix_hook_fails_when_it_changed_files_then_passes(tmp_path, source_repo, home):
    root, env = project(tmp_path, source_repo, home, ["skillsmith-fix"])
    script = root / "skills" / "literal-exit" / "scripts" / "count.sh"
    before = script.read_bytes()
    git(root, env, "add", "skills")
    failed = commit(root, env, "add the skill")
    out = failed.stdout + failed.stderr
    assert failed.returncode != 0, out
    assert "skillsmith fix" in out and "Failed" in out
    assert script.read_bytes() != before  # the fix is in the work tree, to be reviewed and staged
    assert "EXIT_" in git(root, env, "diff", "--", str(script)).stdout
    git(root, env, "add", "skills")
    passed = commit(root, env, "add the fixed skill")
    assert passed.returncode == 0, passed.stdout + passed.stderr
    assert skillsmith(root, env, "check", "skills", "--no-cache").returncode == 0
