"""The one tree walk: what it skips, what git and the config ignore, and the walk itself.

Every walk of a user's tree goes through :func:`walk_tree`: discovering skills, loading a
skill's files, the whole-run cache key, the audit's permission walk, the files a template
rendered. A walk never follows symbolic links (so loops and escapes cannot happen): a link is
reported as a link and never entered or read. Callers differ only in parameters: which folders
are skipped (:func:`skip_dir` by default), whether gitignore and the config's ``exclude`` apply
(an :class:`Ignorer`), how many files are read, which entries come first, and where to stop
descending. Nothing is left out silently: a folder that cannot be listed and every file past
the limit are entries of their own (``unlisted``, ``truncated``).
"""

from __future__ import annotations

import operator
import os
import stat
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Iterator, NamedTuple

if TYPE_CHECKING:
    from skillsmith.config import Config

#: a skill's files past this many are listed, not read (a finding names them, FIL007)
MAX_FILES_PER_SKILL = 5000
#: the walk a skill's files are read in: these first, so the limit falls on the rest
READ_FIRST = ("SKILL.md", "scripts")

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
    """Paths under *root* that git ignores (relative to *root*, POSIX; folders end in /), or None.

    Only the repository the user runs skillsmith in decides: the work tree that holds the
    current directory. A tree outside it, or inside a repository of its own (a skill that
    carries its own ``.git``), has nothing ignored, so a downloaded skill cannot hide its files
    with its own ``.gitignore`` or ``.git/info/exclude``. None when nothing is ignored (no such
    repository, git missing or failing). Git runs with the safe options of
    :mod:`skillsmith.discovery.git`.
    """
    from skillsmith.discovery.git import Git
    from skillsmith.errors import SkillsmithError

    try:
        top = _work_tree_of(Path(os.getcwd()).resolve())
        real = root.resolve()
    except OSError:
        return None
    if top is None or (real != top and top not in real.parents):
        return None
    probe = real
    while probe != top:  # a repository of its own between the user's and the checked folder
        if (probe / ".git").exists():
            return None
        probe = probe.parent
    rel = real.relative_to(top).as_posix()
    args = ["ls-files", "--others", "--ignored", "--exclude-standard", "--directory", "-z"]
    try:
        proc = Git(top).run(*args, *(["--", f":(literal){rel}"] if rel != "." else []), check=False)
    except SkillsmithError:
        return None
    if proc.returncode != 0:
        return None
    prefix = "" if rel == "." else rel + "/"
    found = (p for p in proc.stdout.decode("utf-8", "replace").split("\0") if p)
    return {p[len(prefix):] for p in found if p.startswith(prefix) and p != prefix}


def _work_tree_of(folder: Path) -> Path | None:
    """The top of the git work tree holding *folder* (the nearest ``.git`` upward), or None."""
    for probe in (folder, *folder.parents):
        if (probe / ".git").exists():
            return probe
    return None


class Ignorer:
    """Decides whether a path below a walk root is left out: gitignore, then the config's ``exclude``.

    One ignorer serves every walk below the path the user gave (its *root*), so git runs once.
    The ``exclude`` of a config inside the checked tree does not hide files here (the engine
    keeps only the protected rules' findings on them, :mod:`skillsmith.rules.engine`), unless
    the user's own config allows the tree's to switch those off too.
    """

    def __init__(self, root: Path, config: Config) -> None:
        from skillsmith.config import guard_for

        self.root = root
        self.config = config
        self.ignored = git_ignored(root) or set()
        self._prefix = os.path.join(str(root), "")
        self._exclude = bool(config.exclude) and (config.trusted or guard_for(config).allow_security_ignores)

    def skip(self, path: str, is_dir: bool) -> bool:
        """Whether the file or folder at *path* (as the walk spells it) is left out."""
        if self.ignored and path.startswith(self._prefix):
            rel = path[len(self._prefix):].replace(os.sep, "/")
            if (rel + "/" if is_dir else rel) in self.ignored:
                return True
        return self._exclude and self.config.excluded(Path(path))


class Entry(NamedTuple):
    """One path below a walk's top.

    *kind* is ``file`` (regular), ``symlink`` (never followed), ``dir`` (a folder the walk
    enters), ``other`` (device, FIFO, socket), ``skipped`` (a folder the skip rule or the
    ignorer keeps the walk out of, or an ignored file), ``unlisted`` (a folder that could not
    be listed, after its ``dir`` entry; *error* says why) or ``truncated`` (a regular file past
    the limit: listed, not to be read). *path* is a string: building a ``Path`` per entry costs
    more than the ``stat``. *st* is the entry's own ``lstat``.
    """

    kind: str
    rel: str  # POSIX, relative to the top
    path: str
    st: os.stat_result
    error: str | None = None


_name = operator.attrgetter("name")


def walk_tree(
    top: Path | str,
    ignorer: Ignorer | None = None,
    limit: int | None = MAX_FILES_PER_SKILL,
    *,
    skip: Callable[[os.DirEntry], bool] = skip_dir,
    stop: Callable[[str, list[os.DirEntry]], bool] | None = None,
    first: tuple[str, ...] = (),
) -> Iterator[Entry]:
    """Every entry below *top*, depth first and in name order, never following links.

    - *skip* decides which folders are not entered (default :func:`skip_dir`);
    - *ignorer* leaves out gitignored and excluded paths (None: nothing is ignored);
    - after *limit* regular files every further one is a ``truncated`` entry (None: no limit);
    - *first* names entries of *top* walked (with everything below them) before the others, in
      that order, so the limit never falls on them before it falls on the rest;
    - *stop*, when given, sees each folder's path and listing (the top's too) before any of
      its entries is yielded; when it returns True the walk yields nothing below that folder.

    Only ``os.scandir`` and ``lstat``: no file is opened. Entries that vanish during the walk
    are left out; a folder that cannot be listed is an ``unlisted`` entry (the top's rel is "").
    """
    count = 0
    top = os.fspath(top)
    stack: list[tuple[str, str, list[os.DirEntry] | None]] = [(top, "", None)]
    is_file, is_dir, is_link = stat.S_ISREG, stat.S_ISDIR, stat.S_ISLNK  # the loop runs once per entry
    while stack:
        folder, prefix, entries = stack.pop()
        if entries is None:
            try:
                with os.scandir(folder) as it:
                    entries = sorted(it, key=_name)
            except OSError as exc:
                try:
                    yield Entry("unlisted", prefix[:-1], folder, os.lstat(folder), exc.strerror or str(exc))
                except OSError:
                    pass
                continue
            if stop is not None and stop(folder, entries):
                continue
            if first and not prefix:
                early = sorted((e for e in entries if e.name in first), key=lambda e: first.index(e.name))
                if len(early) < len(entries):
                    stack.append((folder, prefix, [e for e in entries if e.name not in first]))
                entries = early
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
                yield Entry("truncated" if limit is not None and count > limit else "file", rel, path, st)
            elif is_dir(mode):
                if skip(e) or (ignorer is not None and ignorer.skip(path, True)):
                    yield Entry("skipped", rel, path, st)
                    continue
                yield Entry("dir", rel, path, st)
                subdirs.append((path, rel + "/", None))
            elif is_link(mode):
                yield Entry("symlink", rel, path, st)
            else:
                yield Entry("other", rel, path, st)
        stack.extend(reversed(subdirs))


def walk_files(top: Path | str, ignorer: Ignorer | None = None,
               *, skip: Callable[[os.DirEntry], bool] = skip_dir) -> Iterator[tuple[str, Path, os.stat_result]]:
    """(rel, path, stat) of every regular file :func:`walk_tree` finds below *top* (no limit)."""
    for e in walk_tree(top, ignorer, None, skip=skip):
        if e.kind == "file":
            yield e.rel, Path(e.path), e.st
