"""The one tree walk: what it skips, what git and the config ignore, and the walk itself.

Every walk of a user's tree goes through :func:`walk_tree`: discovering skills, loading a
skill's files, the whole-run cache key, the audit's permission walk, the files a template
rendered. A walk never follows symbolic links (so loops and escapes cannot happen): a link is
reported as a link and never entered or read. Callers differ only in parameters: which folders
are skipped (:func:`skip_dir` by default), whether gitignore and the config's ``exclude`` apply
(an :class:`Ignorer`), how many files are enough, and where to stop descending.
"""

from __future__ import annotations

import operator
import os
import stat
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Iterator, NamedTuple

if TYPE_CHECKING:
    from skillsmith.config import Config

#: a skill with more files than this is cut short (and a finding says so)
MAX_FILES_PER_SKILL = 5000

SKIP_DIRS = frozenset(
    {".git", ".hg", ".svn", "node_modules", "__pycache__", ".venv", "venv", ".tox", ".nox",
     ".mypy_cache", ".pytest_cache", ".ruff_cache", ".hypothesis", "site-packages", ".eggs"}
)


def skip_dir(entry: os.DirEntry) -> bool:
    """Whether a walk should not enter the folder *entry* (by name, or a virtualenv by its pyvenv.cfg).

    It costs at most one ``stat``, so the cheap walks (the cache key) can use it too.
    """
    if entry.name in SKIP_DIRS:
        return True
    return os.path.exists(os.path.join(entry.path, "pyvenv.cfg"))


def git_ignored(root: Path) -> set[str] | None:
    """Paths under *root* that git ignores (relative, POSIX; folders end in /), or None.

    None when *root* is not in a git work tree, git is missing, or git fails: then nothing is
    ignored. Git runs with the safe options of :mod:`skillsmith.discovery.git`.
    """
    from skillsmith.discovery.git import Git
    from skillsmith.errors import SkillsmithError

    probe = root
    while not (probe / ".git").exists():  # no git process for a tree outside any repository
        if probe.parent == probe:
            return None
        probe = probe.parent
    try:
        proc = Git(root).run("ls-files", "--others", "--ignored", "--exclude-standard", "--directory", "-z",
                             check=False)
    except SkillsmithError:
        return None
    if proc.returncode != 0:
        return None
    return {p for p in proc.stdout.decode("utf-8", "replace").split("\0") if p}


class Ignorer:
    """Decides whether a path below a walk root is left out: gitignore, then the config's ``exclude``.

    One ignorer serves every walk below the path the user gave (its *root*), so git runs once.
    """

    def __init__(self, root: Path, config: Config) -> None:
        self.root = root
        self.config = config
        self.ignored = git_ignored(root) or set()
        self._prefix = os.path.join(str(root), "")

    def skip(self, path: str, is_dir: bool) -> bool:
        """Whether the file or folder at *path* (as the walk spells it) is left out."""
        if self.ignored and path.startswith(self._prefix):
            rel = path[len(self._prefix):].replace(os.sep, "/")
            if (rel + "/" if is_dir else rel) in self.ignored:
                return True
        return bool(self.config.exclude) and self.config.excluded(Path(path))


class Entry(NamedTuple):
    """One path below a walk's top.

    *kind* is ``file`` (regular), ``symlink`` (never followed), ``dir`` (a folder the walk
    enters), ``other`` (device, FIFO, socket), ``skipped`` (a folder the skip rule or the
    ignorer keeps the walk out of, or an ignored file) or ``truncated`` (the first file over
    the limit; the walk ends with it). *path* is a string: building a ``Path`` per entry costs
    more than the ``stat``. *st* is the entry's own ``lstat``.
    """

    kind: str
    rel: str  # POSIX, relative to the top
    path: str
    st: os.stat_result


_name = operator.attrgetter("name")


def walk_tree(
    top: Path | str,
    ignorer: Ignorer | None = None,
    limit: int | None = MAX_FILES_PER_SKILL,
    *,
    skip: Callable[[os.DirEntry], bool] = skip_dir,
    stop: Callable[[str, list[os.DirEntry]], bool] | None = None,
) -> Iterator[Entry]:
    """Every entry below *top*, depth first and in name order, never following links.

    - *skip* decides which folders are not entered (default :func:`skip_dir`);
    - *ignorer* leaves out gitignored and excluded paths (None: nothing is ignored);
    - after *limit* regular files the walk yields one ``truncated`` entry and ends (None: no limit);
    - *stop*, when given, sees each folder's path and listing (the top's too) before any of
      its entries is yielded; when it returns True the walk yields nothing below that folder.

    Only ``os.scandir`` and ``lstat``: no file is opened. Entries that vanish during the walk
    and folders that cannot be listed are left out (the folder's own entry shows its mode).
    """
    count = 0
    stack = [(os.fspath(top), "")]
    is_file, is_dir, is_link = stat.S_ISREG, stat.S_ISDIR, stat.S_ISLNK  # the loop runs once per entry
    while stack:
        folder, prefix = stack.pop()
        try:
            with os.scandir(folder) as it:
                entries = sorted(it, key=_name)
        except OSError:
            continue
        if stop is not None and stop(folder, entries):
            continue
        subdirs = []
        for e in entries:
            try:
                st = e.stat(follow_symlinks=False)
            except OSError:
                continue
            rel = prefix + e.name
            path = e.path
            mode = st.st_mode
            if is_file(mode):
                if ignorer is not None and ignorer.skip(path, False):
                    yield Entry("skipped", rel, path, st)
                    continue
                count += 1
                if limit is not None and count > limit:
                    yield Entry("truncated", rel, path, st)
                    return
                yield Entry("file", rel, path, st)
            elif is_dir(mode):
                if skip(e) or (ignorer is not None and ignorer.skip(path, True)):
                    yield Entry("skipped", rel, path, st)
                    continue
                yield Entry("dir", rel, path, st)
                subdirs.append((path, rel + "/"))
            elif is_link(mode):
                yield Entry("symlink", rel, path, st)
            else:
                yield Entry("other", rel, path, st)
        stack.extend(reversed(subdirs))


def walk_files(top: Path | str, ignorer: Ignorer | None = None, limit: int | None = MAX_FILES_PER_SKILL,
               *, skip: Callable[[os.DirEntry], bool] = skip_dir) -> Iterator[tuple[str, Path, os.stat_result]]:
    """(rel, path, stat) of the regular files :func:`walk_tree` finds below *top*."""
    for kind, rel, path, st in walk_tree(top, ignorer, limit, skip=skip):
        if kind == "file":
            yield rel, Path(path), st
