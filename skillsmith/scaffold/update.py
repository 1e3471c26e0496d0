"""``update``: bring a skill up to a newer template version with Copier's 3-way merge."""

from __future__ import annotations

import contextlib
import warnings
from dataclasses import dataclass
from pathlib import Path

from skillsmith.errors import (
    InvalidInputError,
    MissingDependencyError,
    NotFoundError,
)
from skillsmith.scaffold.add import read_answers
from skillsmith.scaffold.answers import ANSWERS_FILE
from skillsmith.scaffold.render import copier_errors, copier_settings

# -- update ------------------------------------------------------------------------------


@dataclass
class Updated:
    root: Path
    old_version: str | None
    new_version: str
    changed: list[str]
    conflicts: list[str]
    diff: str = ""

    def to_json(self) -> list[dict]:
        return [
            {"path": rel, "status": "conflict" if rel in self.conflicts else "updated"} for rel in self.changed
        ]


def git_status(root: Path) -> list[str]:
    """``git status --porcelain`` lines for the paths below *root*."""
    from skillsmith.scaffold.history import git

    out = git(root).out("status", "--porcelain", "--untracked-files=all", "--", ".")
    return [line for line in out.splitlines() if line.strip()]


@contextlib.contextmanager
def copier_git_env():
    """Copier runs git in the user's repository too: give those calls :func:`~skillsmith.discovery.git.safe_env`.

    Copier runs commands through plumbum, whose environment is a copy of ``os.environ`` taken
    when plumbum is imported; its ``local.env`` context is where a change reaches Copier's git.
    """
    from plumbum import local

    from skillsmith.discovery.git import safe_env

    with local.env():
        local.env.clear()
        local.env.update(safe_env())
        yield


def update(skill_dir: str | Path = ".", *, pretend: bool = False) -> Updated:
    """Bring a generated skill up to the current skill template with Copier's 3-way merge.

    The skill must be in a clean git work tree. Changes are left uncommitted for review;
    conflicts are marked inline. With *pretend*, the update runs in a temporary clone of the
    repository and only the diff is returned.
    """
    import shutil
    import tempfile

    from skillsmith.scaffold import history

    root = Path(skill_dir).resolve()
    if not root.is_dir():
        raise NotFoundError(f"{skill_dir}: no such skill folder")
    answers = read_answers(root)
    if not answers:
        raise InvalidInputError(
            f"{skill_dir}: no {ANSWERS_FILE}; only skills made with 'skillsmith new' can be updated"
        )
    if not answers.get("_src_path") or not answers.get("_commit"):
        raise InvalidInputError(f"{root / ANSWERS_FILE}: '_src_path' or '_commit' is missing; cannot tell which template version made this skill")
    template = str(answers["_src_path"])
    names = {history.source_name(n): n for n in history.HISTORY_TEMPLATES}
    if template not in names:
        raise InvalidInputError(f"{root / ANSWERS_FILE}: _src_path {template!r} is not a skillsmith template with history")
    top = history.git(root).top()
    if top is None:
        raise MissingDependencyError(
            f"{skill_dir} is not in a git repository; run 'git init && git add -A && git commit -m skill' in it first, "
            "so the update can be reviewed and undone"
        )
    dirty = git_status(root)
    if dirty:
        raise MissingDependencyError(
            f"{skill_dir} has uncommitted changes ({len(dirty)} path(s)); commit or stash them, then retry"
        )
    with copier_errors():
        repo, tag = history.clone(names[template])
        known = history.sorted_tags(repo)
    old = str(answers["_commit"])
    if old not in known:
        raise InvalidInputError(
            f"{root / ANSWERS_FILE}: template version {old!r} is not in this skillsmith's template history "
            f"(versions {known[0]} to {tag}); update skillsmith, or regenerate the skill"
        )
    if known.index(old) > known.index(tag):
        raise InvalidInputError(f"the skill was made with template {old}, newer than this skillsmith's {tag}; update skillsmith")
    if old == tag:
        return Updated(root=root, old_version=old, new_version=tag, changed=[], conflicts=[])
    if not pretend:
        return run_copier_update(root, tag, old)
    with tempfile.TemporaryDirectory(prefix="skillsmith-update-") as tmp:
        copy = Path(tmp) / "repo"
        history.git(Path(tmp)).run("clone", "--quiet", "--shared", str(top), str(copy))
        sub = copy / root.relative_to(top.resolve())
        result = run_copier_update(sub, tag, old)
        result.diff = history.git(sub).out("diff", "--no-color", "--no-ext-diff", "--no-textconv", "--", ".")
        result.root = root
        shutil.rmtree(copy, ignore_errors=True)
        return result


def run_copier_update(root: Path, tag: str, old: str) -> Updated:
    from copier import run_update

    from skillsmith.scaffold import history

    with copier_errors(), warnings.catch_warnings(), copier_git_env():
        warnings.simplefilter("ignore")
        with history.in_clones_dir():
            run_update(
                root, answers_file=ANSWERS_FILE, vcs_ref=tag, settings=copier_settings(), defaults=True,
                overwrite=True, conflict="inline", quiet=True, unsafe=False, skip_answered=True,
            )
    changed = [line[3:] for line in git_status(root)]
    prefix = history.git(root).out("rev-parse", "--show-prefix").strip()
    changed = sorted(rel[len(prefix):] if rel.startswith(prefix) else rel for rel in changed)
    conflicts = [rel for rel in changed if has_markers(root / rel)]
    return Updated(root=root, old_version=old, new_version=tag, changed=changed, conflicts=conflicts)


def has_markers(path: Path) -> bool:
    try:
        data = path.read_bytes()
    except OSError:
        return False
    return b"\n<<<<<<< " in b"\n" + data and b"\n>>>>>>> " in data
