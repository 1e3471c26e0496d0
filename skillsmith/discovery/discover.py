"""From the paths a user gives to the units rules run on: skills and loose scripts.

The walks are :func:`skillsmith.discovery.walk.walk_tree`: they never follow symlinks, skip
``.git``, ``node_modules``, virtualenvs, ``__pycache__``, gitignored and excluded paths. A
folder that holds ``SKILL.md`` is a skill; a ``SKILL.md`` below it is a skill of its own
(a unit, whose files the outer skill does not list) unless it lies in a template, example or
test folder of the outer skill (:func:`skillsmith.model.skill.is_own_skill`). A ``SKILL.md`` in
a folder of test data (``tests/fixtures/``) is a test's fixture, checked only when given.
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from skillsmith.config import Config, config_for
from skillsmith.discovery.walk import READ_FIRST, Ignorer, walk_tree
from skillsmith.errors import InvalidInputError, NotFoundError
from skillsmith.model.skill import Loose, Skill, Unread, is_own_skill, script_language
from skillsmith.model.sourcefile import SourceFile
from skillsmith.targets.sucoder import Project, is_project_root


@dataclass
class Unit:
    """What one worker checks: a skill or a set of loose scripts, with its config."""

    kind: str  # "skill" | "loose" | "project"
    root: Path
    config: Config
    files: list[tuple[str, Path]] = field(default_factory=list)  # loose: (rel, path)
    ignorer: Ignorer | None = None  # shared by every unit found under one given path
    unread: Unread | None = None  # loose: what the search for scripts could not look at
    top: Path | None = None  # the folder the unit was found from (a given path, or a given file's folder)
    part: int = 0  # loose scripts of one folder come in parts of LOOSE_UNIT: which one this is


#: the most loose scripts in one unit: a ``scripts/`` tree of thousands is many units, spread over
#: the workers and freed one by one (their rules look at one script at a time)
LOOSE_UNIT = 32


def discover(paths: list[str | Path], skills_of: Callable | None = None) -> list[Unit]:
    """Units for *paths*. A missing path raises :class:`NotFoundError` (exit 3).

    *skills_of* ``(top, ignorer)`` answers as :func:`find_skills` does (the default); the
    engine passes one that remembers the answer while the tree's layout is unchanged.
    """
    skills_of = skills_of or find_skills
    units: list[Unit] = []
    seen: set[Path] = set()
    for given in paths:
        p = Path(given)
        if not os.path.lexists(p):
            raise NotFoundError(f"{given}: no such file or folder", {"path": str(given)})
        p = p.absolute()
        if p.is_dir():
            try:
                os.scandir(p).close()
                os.lstat(p / "SKILL.md")  # searchable too (x), not only listable (r)
            except FileNotFoundError:
                pass
            except OSError as exc:  # named on the command line: the caller's input is unusable
                raise InvalidInputError(f"{given}: cannot read: {exc.strerror}", {"path": str(given)})
        config = config_for(p)
        if p.is_file():
            try:
                os.close(os.open(p, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0)))
            except OSError as exc:  # named on the command line: the caller's input is unusable
                raise InvalidInputError(f"{given}: cannot read: {exc.strerror}", {"path": str(given)})
            if p.name == "SKILL.md":
                add(units, seen, p, Unit("skill", p.parent, config))
            elif not checkable_file(p):
                raise InvalidInputError(
                    f"{given}: neither a skill nor a script; give a skill folder (with a SKILL.md), a script "
                    "(.py, .sh, or a shebang) or a Markdown or text file", {"path": str(given)})
            else:
                add(units, seen, p, Unit("loose", p.parent, config, [(p.name, p)]))
            continue
        if not p.is_dir():
            what = "a broken symbolic link" if p.is_symlink() else "not a regular file or folder"
            raise InvalidInputError(f"{given}: {what}", {"path": str(given)})
        ignorer = Ignorer(p, config)
        real = p.resolve()  # walks follow no links, so a skill's real path is below the top's
        if has_skill_md(p):
            add(units, seen, p, Unit("skill", p, config, ignorer=ignorer))
            for root in skills_of(p, ignorer)[0]:  # the skills nested in it
                add(units, seen, p, Unit("skill", root, config_for(root, real / root.relative_to(p)), ignorer=ignorer))
            continue
        if is_project_root(p):
            # AGENT.md, CLAUDE.md, .skills/ or .claude/ here: project-scope rules run on it too
            add(units, seen, p, Unit("project", p, config))
        found, unlisted = skills_of(p, ignorer)
        for root in found:
            add(units, seen, p, Unit("skill", root, config_for(root, real / root.relative_to(p)), ignorer=ignorer))
        if not found and any((p / d).is_dir() and not ignorer.skip(str(p / d), True) for d in ("references", "assets")):
            # a skill's folders without the SKILL.md that makes it a skill
            add(units, seen, p, Unit("skill", p, config, ignorer=ignorer))
        elif not found:
            loose, unread = loose_scripts(p, ignorer)
            if loose or unread.count or unread.unlisted:
                for part, start in enumerate(range(0, max(len(loose), 1), LOOSE_UNIT)):
                    # the first part reports what could not be read; each part is checked on its own
                    add(units, seen, p, Unit("loose", p, config, loose[start:start + LOOSE_UNIT], ignorer=ignorer,
                                             unread=unread if part == 0 else Unread(), part=part))
        elif unlisted:  # folders the search for skills could not look into: reported, not passed over
            add(units, seen, p, Unit("loose", p, config, ignorer=ignorer, unread=Unread(unlisted=unlisted)))
    return units


#: what a file given on its own may be besides a script: prose the text rules read
PROSE_SUFFIXES = (".md", ".markdown", ".txt", ".org", ".rst")


def checkable_file(path: Path) -> bool:
    """Whether a file given on its own is something ``check`` reads: a script, or Markdown or text."""
    if path.suffix.lower() in PROSE_SUFFIXES:
        return True
    return script_language(SourceFile.from_path(path, path.name, path.stat())) is not None


def skill_root_of(path: str | Path) -> Path | None:
    """The skill that holds *path* (a file or folder), or None when no skill does.

    That is the unit a walk from the repository root (the nearest folder above holding
    ``.git``) puts *path* in: the innermost folder at or above it with a ``SKILL.md`` that is
    a skill of its own, not data (a template, example or test) of the skill around it. The
    path is made absolute, not resolved, so a skill reached through a link is named as given.
    """
    p = Path(os.path.abspath(path))
    folder = p if p.is_dir() and not p.is_symlink() else p.parent
    candidates = []  # innermost first
    for candidate in (folder, *folder.parents):
        if has_skill_md(candidate):
            candidates.append(candidate)
        if os.path.lexists(candidate / ".git"):
            break
    found = None
    for candidate in reversed(candidates):
        if found is None or is_own_skill(candidate.relative_to(found).as_posix()):
            found = candidate
    return found


def has_skill_md(folder: Path) -> bool:
    """Whether *folder* holds a ``SKILL.md`` (a file, or a link to one)."""
    marker = folder / "SKILL.md"
    return marker.is_file() or marker.is_symlink()


def add(units: list[Unit], seen: set[Path], given: Path, unit: Unit) -> None:
    unit.top = given if given.is_dir() else given.parent
    if unit.kind == "project":
        key = ("project", unit.root)
    else:
        key = unit.root if unit.kind == "skill" else unit.root / "\0".join(r for r, _ in unit.files)
    if key not in seen:
        seen.add(key)
        units.append(unit)


#: folders of test data: a SKILL.md found below one (not given itself) is a test's fixture, not a skill
FIXTURE_FOLDERS = frozenset({"fixtures", "__fixtures__", "test-fixtures", "test_fixtures", "testdata"})


def find_skills(top: Path, ignorer: Ignorer) -> tuple[list[Path], dict[str, str]]:
    """The skill folders at or below *top* (each folder holding SKILL.md, a file or a link), and
    the folders outside them that could not be listed (rel -> why), which may hold more.

    A skill below another is one of these when it is a skill of its own (:func:`is_own_skill`
    of its path below the nearest skill around it); a SKILL.md in the outer skill's templates,
    examples or tests is its data, and so is one below a test-data folder (:data:`FIXTURE_FOLDERS`,
    ``tests/fixtures/bad-name/SKILL.md``) unless the folder is given. *top* itself is a skill
    when it holds SKILL.md, even when it is gitignored.
    """
    skills: list[Path] = []
    unlisted: dict[str, str] = {}
    around: list[str] = []  # the skills the walk is inside, outermost first (the walk is depth first)

    def note_skill(folder: str, entries: list[os.DirEntry]) -> bool:
        while around and not folder.startswith(around[-1] + os.sep):
            around.pop()
        if any(e.name == "SKILL.md" and (e.is_file(follow_symlinks=False) or e.is_symlink()) for e in entries):
            if not FIXTURE_FOLDERS.isdisjoint(Path(os.path.relpath(folder, top)).parts):
                return False  # tools/validate/tests/fixtures/bad_naming/SKILL.md: a test's data, wrong on purpose
            if not around or is_own_skill(Path(os.path.relpath(folder, around[-1])).as_posix()):
                skills.append(Path(folder))
                around.append(folder)
        return False

    for entry in walk_tree(top, ignorer, limit=None, stop=note_skill):
        if entry.kind == "unlisted" and not any(entry.path.startswith(f"{s}{os.sep}") for s in around):
            unlisted[entry.rel] = entry.error or "cannot be listed"  # (a skill's own folders are its unit's to report)
    return sorted(skills), unlisted


def loose_scripts(top: Path, ignorer: Ignorer) -> tuple[list[tuple[str, Path]], Unread]:
    """The scripts below *top* (a folder without skills), and the files past the limit that were not looked at."""
    found = []
    unread = Unread()
    for e in walk_tree(top, ignorer):
        if e.kind == "file":
            f = SourceFile.from_path(Path(e.path), e.rel, e.st)
            if script_language(f):
                found.append((e.rel, Path(e.path)))
        elif e.kind == "truncated":
            unread.add_file(e.rel)
        elif e.kind == "unlisted":
            unread.unlisted[e.rel] = e.error or "cannot be listed"
    return found, unread


def load_skill(root: Path, config: Config, max_bytes: int, ignorer: Ignorer | None = None) -> Skill:
    """The skill at *root*: its files listed (read later, each at most once), ``SKILL.md`` and ``scripts/`` first.

    A skill nested in it (:func:`is_own_skill`) is a unit of its own: its folder is in
    :attr:`Skill.nested` and its files are not listed. What the walk saw but no rule may read
    is kept in :attr:`Skill.unread`: special files, folders that could not be listed, files
    past the limit, and a broken config of its own.
    """
    if ignorer is None and root.exists():
        ignorer = Ignorer(root, config)
    skill = Skill(root=root, files={}, unread=Unread(config=config.problem))
    top = os.fspath(root)

    def nested(folder: str, entries: list[os.DirEntry]) -> bool:
        """Whether *folder* is a skill of its own below the skill (then its files are not the skill's)."""
        if folder == top or not any(e.name == "SKILL.md" and (e.is_file(follow_symlinks=False) or e.is_symlink())
                                    for e in entries):
            return False
        rel = Path(os.path.relpath(folder, top)).as_posix()
        if is_own_skill(rel):
            skill.nested.append(rel)
            return True
        return False

    for kind, rel, path, st, error in walk_tree(root, ignorer, first=READ_FIRST, stop=nested):
        if kind == "file":
            skill.files[rel] = SourceFile.from_path(Path(path), rel, st, max_bytes)
        elif kind == "symlink":
            try:
                skill.symlinks[rel] = os.readlink(path)
            except OSError:
                skill.symlinks[rel] = ""
        elif kind == "dir":
            skill.dirs.append(rel)
        elif kind == "truncated":
            skill.unread.add_file(rel)
        elif kind == "unlisted":
            skill.unread.unlisted[rel] = error or "cannot be listed"
        elif kind == "other":
            skill.unread.special[rel] = special_kind(st.st_mode)
    return skill


def special_kind(mode: int) -> str:
    """What a file that is not regular, a folder or a link is: ``FIFO``, ``socket`` or ``device``."""
    if stat.S_ISFIFO(mode):
        return "FIFO"
    if stat.S_ISSOCK(mode):
        return "socket"
    return "device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode) else "special file"


def load_project(unit: Unit) -> Project:
    return Project(unit.root)


def load_loose(unit: Unit, max_bytes: int) -> Loose:
    files = {}
    for rel, path in unit.files:
        try:
            st = path.stat()
        except OSError:
            continue
        files[rel] = SourceFile.from_path(path, rel, st, max_bytes)
    unread = unit.unread or Unread()
    unread.config = unit.config.problem
    return Loose(root=unit.root, files=files, unread=unread)
