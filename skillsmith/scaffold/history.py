"""The version history of the Copier templates, shipped as small git bundles.

``skillsmith update`` needs what Copier's 3-way merge needs: the template as a git repository
with PEP 440 tags, holding both the version a skill was generated from and the current one.
A packaged template is only a folder, so each template's history is kept in the repository as
``templates/history/<name>.bundle`` (with ``<name>.tag`` naming its newest version) and cloned
into the cache when an update needs it.

``new`` renders the packaged folder, which is the newest version (a test fails otherwise), and
records that version as ``_commit``. The answers file records ``_src_path`` as the clone's
folder *name* (relative), and Copier updates run with the cache folder as their working
directory, so an answers file written on one machine works on any other.

Regenerate a bundle after changing a template (a test fails while one is stale)::

    python -m skillsmith.scaffold.history            # append a version when a template changed
    python -m skillsmith.scaffold.history --check    # exit 10 when a bundle is stale
"""

from __future__ import annotations

import argparse
import contextlib
import filecmp
import hashlib
import os
import shutil
import sys
import tempfile
from pathlib import Path

from skillsmith.discovery.git import Git
from skillsmith.exitcodes import FINDINGS, ExitCode

#: templates whose history is kept (the others are rendered from their folder and cannot be updated)
HISTORY_TEMPLATES = ("skill", "kvist")
#: overrides the folder holding ``<name>.bundle`` (used to try a history before shipping it)
HISTORY_ENV = "SKILLSMITH_TEMPLATE_HISTORY"
#: files of a template folder that are not part of the template
IGNORED = {"__pycache__", ".DS_Store"}
#: a fixed identity, so the history does not depend on who regenerates it
GIT_IDENTITY = {
    "GIT_AUTHOR_NAME": "skillsmith", "GIT_AUTHOR_EMAIL": "skillsmith@localhost",
    "GIT_COMMITTER_NAME": "skillsmith", "GIT_COMMITTER_EMAIL": "skillsmith@localhost",
}


def templates_root() -> Path:
    """The folder of the installed ``skillsmith.templates`` package."""
    from importlib.resources import files

    return Path(str(files("skillsmith.templates")))


def bundle_path(name: str) -> Path:
    override = os.environ.get(HISTORY_ENV)
    folder = Path(override) if override else templates_root() / "history"
    return folder / f"{name}.bundle"


def tag_path(bundle: Path) -> Path:
    """The file next to a bundle that names its newest tag (so ``new`` needs no git)."""
    return bundle.with_suffix(".tag")


def current_tag(name: str) -> str | None:
    """The newest version in template *name*'s history, or None when it has none."""
    try:
        return tag_path(bundle_path(name)).read_text(encoding="utf-8").strip() or None
    except OSError:
        return None


def source_name(name: str) -> str:
    """What the answers file records as ``_src_path``: a folder name inside :func:`clones_dir`."""
    return f"skillsmith-template-{name}"


def clones_dir() -> Path:
    from skillsmith.rules.cache import cache_dir

    return cache_dir() / "templates"


def git(folder: Path, env: dict[str, str] | None = None) -> Git:
    """git in *folder* with the safe options of :mod:`skillsmith.discovery.git`; a missing git is exit 5."""
    return Git(folder, needed_by="the template history", env=env)


def sorted_tags(repo: Path) -> list[str]:
    """The repository's PEP 440 tags, oldest first."""
    from packaging.version import InvalidVersion, Version

    versions = []
    for tag in git(repo).out("tag", "--list").split():
        try:
            versions.append((Version(tag), tag))
        except InvalidVersion:
            continue
    return [tag for _, tag in sorted(versions)]


def file_digest(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 16), b""):
            h.update(chunk)
    return h.hexdigest()


def clone(name: str) -> tuple[Path, str]:
    """The cached clone of template *name*'s history (refreshed when the bundle changes) and its newest tag."""
    bundle = bundle_path(name).resolve()
    if not bundle.is_file():
        raise FileNotFoundError(bundle)
    digest = file_digest(bundle)
    target = clones_dir() / source_name(name)
    stamp = target / ".git" / "skillsmith-bundle"
    with contextlib.suppress(OSError):
        if stamp.read_text() == digest:
            return target, sorted_tags(target)[-1]
    clones_dir().mkdir(parents=True, exist_ok=True)
    fresh = Path(tempfile.mkdtemp(prefix=f".{target.name}-", dir=clones_dir()))
    git(fresh).run("clone", "--quiet", str(bundle), ".")
    # tags are what Copier reads; fetch them all (a bundle clone only tracks branches)
    git(fresh).run("fetch", "--quiet", "--tags", str(bundle))
    (fresh / ".git" / "skillsmith-bundle").write_text(digest)
    old = None
    if target.exists():
        old = Path(tempfile.mkdtemp(prefix=f".{target.name}-old-", dir=clones_dir()))
        os.replace(target, old / "clone")
    try:
        os.replace(fresh, target)
    except OSError:
        shutil.rmtree(fresh, ignore_errors=True)  # another process put its clone there first
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)
    return target, sorted_tags(target)[-1]


@contextlib.contextmanager
def in_clones_dir():
    """Run Copier with the clones folder as working directory, so relative ``_src_path`` resolves."""
    previous = os.getcwd()
    os.chdir(clones_dir())
    try:
        yield
    finally:
        os.chdir(previous)


# -- maintenance: regenerate and verify the bundles -----------------------------------------


def template_files(folder: Path) -> dict[str, Path]:
    """Relative path -> file, for every file of a template folder or a checkout of its history.

    The walk is :func:`~skillsmith.discovery.walk.walk_files`: ``.git`` and caches such as
    ``__pycache__`` are skipped, and so are the files named in :data:`IGNORED`.
    """
    from skillsmith.discovery.walk import walk_files

    return {rel: path for rel, path, _st in sorted(walk_files(folder))
            if not IGNORED.intersection(rel.split("/"))}


def differences(folder: Path, repo: Path) -> list[str]:
    """Files that differ (content or executable bit) between a template folder and a checkout."""
    mine, theirs = template_files(folder), template_files(repo)
    out = sorted(set(mine) ^ set(theirs))
    for rel in sorted(set(mine) & set(theirs)):
        a, b = mine[rel], theirs[rel]
        if not filecmp.cmp(a, b, shallow=False) or os.access(a, os.X_OK) != os.access(b, os.X_OK):
            out.append(rel)
    return sorted(out)


def stale(folder: Path, bundle: Path) -> list[str]:
    """Why *bundle* does not end with the template in *folder* (an empty list when it does)."""
    bundle = bundle.resolve()
    if not bundle.is_file():
        return [f"{bundle} does not exist"]
    with tempfile.TemporaryDirectory() as tmp:
        repo = Path(tmp) / "repo"
        git(Path(tmp)).run("clone", "--quiet", str(bundle), str(repo))
        git(repo).run("fetch", "--quiet", "--tags", str(bundle))
        tags = sorted_tags(repo)
        if not tags:
            return [f"{bundle} has no PEP 440 tag"]
        git(repo).run("checkout", "--quiet", tags[-1])
        found = differences(folder, repo)
        try:
            recorded = tag_path(bundle).read_text(encoding="utf-8").strip()
        except OSError:
            recorded = None
        if recorded != tags[-1]:
            found.append(f"{tag_path(bundle).name} says {recorded!r}, the newest tag is {tags[-1]!r}")
        return found


def next_version(tags: list[str], version: str) -> str:
    """*version* when it is newer than every tag, else the newest tag's next post-release."""
    from packaging.version import Version

    if not tags or Version(version) > Version(tags[-1]):
        return version
    newest = Version(tags[-1])
    post = (newest.post or 0) + 1
    return f"{newest.base_version}.post{post}"


def regenerate(folder: Path, bundle: Path, version: str) -> str | None:
    """Append *folder* as a new tagged version to *bundle* if it changed; return the new tag or None."""
    bundle = bundle.resolve()
    with tempfile.TemporaryDirectory() as tmp:
        repo = Path(tmp) / "repo"
        if bundle.is_file():
            git(Path(tmp)).run("clone", "--quiet", str(bundle), str(repo))
            git(repo).run("fetch", "--quiet", "--tags", str(bundle))
            tags = sorted_tags(repo)
            if tags and not differences(folder, repo):
                return None
        else:
            repo.mkdir()
            git(repo).run("init", "--quiet", "--initial-branch=main")
            tags = []
        for entry in repo.iterdir():
            if entry.name != ".git":
                shutil.rmtree(entry) if entry.is_dir() else entry.unlink()
        for rel, path in template_files(folder).items():
            (repo / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(path, repo / rel)
        tag = next_version(tags, version)
        git(repo).run("add", "--all")
        git(repo, env=GIT_IDENTITY).run("commit", "--quiet", "--no-gpg-sign", "-m", f"{folder.name} template {tag}")
        git(repo).run("tag", tag)
        bundle.parent.mkdir(parents=True, exist_ok=True)
        partial = bundle.with_suffix(".tmp")
        git(repo).run("bundle", "create", "--quiet", str(partial), "--all")
        os.replace(partial, bundle)
        tag_path(bundle).write_text(tag + "\n", encoding="utf-8")
        return tag


def main(argv: list[str] | None = None) -> int:
    from skillsmith import __version__

    parser = argparse.ArgumentParser(
        prog="python -m skillsmith.scaffold.history",
        description="Append the current templates to their history bundles, or check that they are up to date.",
        epilog="examples:\n  python -m skillsmith.scaffold.history\n  python -m skillsmith.scaffold.history --check\n",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--check", action="store_true", help="write nothing; exit 10 when a bundle is stale")
    parser.add_argument("--version", default=__version__, help="tag for a new version (default: skillsmith's version)")
    args = parser.parse_args(argv)
    root = Path(__file__).resolve().parents[2] / "templates"  # the source tree's templates/
    status = ExitCode.SUCCESS
    for name in HISTORY_TEMPLATES:
        folder, bundle = root / name, root / "history" / f"{name}.bundle"
        if args.check:
            problems = stale(folder, bundle)
            for rel in problems:
                print(f"{name}: {rel}")
            if problems:
                status = FINDINGS
        else:
            tag = regenerate(folder, bundle, args.version)
            print(f"{name}: {'added version ' + tag if tag else 'up to date'}", file=sys.stderr)
    return status


if __name__ == "__main__":
    sys.exit(main())
