"""From the paths a user gives to the units rules run on: skills and loose scripts.

Walks never follow symlinks (so loops and escapes cannot happen), skip ``.git``,
``node_modules``, virtualenvs, ``__pycache__`` and gitignored paths, and stop descending at
a folder that holds ``SKILL.md``: that folder is a skill.
"""

from __future__ import annotations

import os
import re
import stat
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

from skillsmith.config import Config, config_for
from skillsmith.discovery.git import safe_options
from skillsmith.discovery.walk import SKIP_DIRS, skip_dir  # noqa: F401 (SKIP_DIRS is part of this module's interface)
from skillsmith.errors import InvalidInputError, NotFoundError
from skillsmith.model import frontmatter
from skillsmith.model.skill import Loose, Skill, script_language
from skillsmith.model.sourcefile import SourceFile
from skillsmith.targets.sucoder import Project, is_project_root

#: a skill with more files than this is cut short (and a finding says so)
MAX_FILES_PER_SKILL = 5000


@dataclass
class Unit:
    """What one worker checks: a skill or a set of loose scripts, with its config."""

    kind: str  # "skill" | "loose" | "project"
    root: Path
    config: Config
    files: list[tuple[str, Path]] = field(default_factory=list)  # loose: (rel, path)
    ignorer: "Ignorer | None" = None  # shared by every unit found under one given path


def git_ignored(root: Path) -> set[str] | None:
    """Paths under *root* that git ignores (relative, POSIX; folders end in /), or None."""
    probe = root
    while True:
        if (probe / ".git").exists():
            break
        if probe.parent == probe:
            return None
        probe = probe.parent
    try:
        out = subprocess.run(
            ["git", "-C", str(root), *safe_options(), "ls-files", "--others", "--ignored", "--exclude-standard", "--directory", "-z"],
            capture_output=True, timeout=60, check=False, stdin=subprocess.DEVNULL,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    if out.returncode != 0:
        return None
    return {p for p in out.stdout.decode("utf-8", "replace").split("\0") if p}


class Ignorer:
    """Decides whether a path below a walk root is skipped (gitignore, config exclude)."""

    def __init__(self, root: Path, config: Config) -> None:
        self.root = root
        self.config = config
        self.ignored = git_ignored(root) or set()

    def skip(self, path: Path, is_dir: bool) -> bool:
        if self.ignored:
            try:
                rel = path.relative_to(self.root).as_posix()
            except ValueError:
                return False
            if (rel + "/" if is_dir else rel) in self.ignored:
                return True
        return bool(self.config.exclude) and self.config.excluded(path)


def discover(paths: list[str | Path]) -> list[Unit]:
    """Units for *paths*. A missing path raises :class:`NotFoundError` (exit 3)."""
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
            except OSError as exc:  # named on the command line: the caller's input is unusable
                raise InvalidInputError(f"{given}: cannot read: {exc.strerror}", {"path": str(given)})
        config = config_for(p)
        if p.is_file():
            try:
                os.close(os.open(p, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0)))
            except OSError as exc:  # named on the command line: the caller's input is unusable
                raise InvalidInputError(f"{given}: cannot read: {exc.strerror}", {"path": str(given)})
            if p.name == "SKILL.md":
                add(units, seen, Unit("skill", p.parent, config))
            else:
                add(units, seen, Unit("loose", p.parent, config, [(p.name, p)]))
            continue
        if not p.is_dir():
            what = "a broken symbolic link" if p.is_symlink() else "not a regular file or folder"
            raise InvalidInputError(f"{given}: {what}", {"path": str(given)})
        ignorer = Ignorer(p, config)
        if (p / "SKILL.md").is_file() or (p / "SKILL.md").is_symlink():
            add(units, seen, Unit("skill", p, config, ignorer=ignorer))
            continue
        if is_project_root(p):
            # AGENT.md, CLAUDE.md, .skills/ or .claude/ here: project-scope rules run on it too
            add(units, seen, Unit("project", p, config))
        found = find_skills(p, ignorer)
        real = p.resolve()  # walks follow no links, so a skill's real path is below the top's
        for root in found:
            add(units, seen, Unit("skill", root, config_for(root, real / root.relative_to(p)), ignorer=ignorer))
        if not found and any((p / d).is_dir() for d in ("references", "assets")):
            # a skill's folders without the SKILL.md that makes it a skill
            add(units, seen, Unit("skill", p, config, ignorer=ignorer))
        elif not found:
            loose = loose_scripts(p, ignorer)
            if loose:
                add(units, seen, Unit("loose", p, config, loose, ignorer=ignorer))
    return units


def add(units: list[Unit], seen: set[Path], unit: Unit) -> None:
    if unit.kind == "project":
        key = ("project", unit.root)
    else:
        key = unit.root if unit.kind == "skill" else unit.root / "\0".join(r for r, _ in unit.files)
    if key not in seen:
        seen.add(key)
        units.append(unit)


def find_skills(top: Path, ignorer: Ignorer) -> list[Path]:
    skills: list[Path] = []
    stack = [top]
    while stack:
        folder = stack.pop()
        try:
            entries = sorted(os.scandir(folder), key=lambda e: e.name)
        except OSError:
            continue
        if any(e.name == "SKILL.md" and (e.is_file(follow_symlinks=False) or e.is_symlink()) for e in entries):
            if not ignorer.skip(folder, True) or folder == top:
                skills.append(folder)
            continue
        for e in reversed(entries):
            if e.is_dir(follow_symlinks=False) and not skip_dir(e) and not ignorer.skip(Path(e.path), True):
                stack.append(Path(e.path))
    return sorted(skills)


def loose_scripts(top: Path, ignorer: Ignorer) -> list[tuple[str, Path]]:
    found = []
    for rel, path, st in walk_files(top, ignorer):
        f = SourceFile.from_path(path, rel, st)
        if script_language(f):
            found.append((rel, path))
    return found


def walk_files(top: Path, ignorer: Ignorer | None = None, limit: int = MAX_FILES_PER_SKILL):
    """(rel, path, stat) of regular files below *top*, plus symlinks and folders via :func:`walk_tree`."""
    for kind, rel, path, st in walk_tree(top, ignorer, limit):
        if kind == "file":
            yield rel, path, st


def walk_tree(top: Path, ignorer: Ignorer | None = None, limit: int = MAX_FILES_PER_SKILL):
    """Yield ("file"|"symlink"|"dir"|"truncated", rel, path, stat) below *top*, never following links."""
    count = 0
    stack = [(top, "")]
    while stack:
        folder, prefix = stack.pop()
        try:
            entries = sorted(os.scandir(folder), key=lambda e: e.name)
        except OSError:
            continue
        subdirs = []
        for e in entries:
            rel = prefix + e.name
            path = Path(e.path)
            try:
                st = e.stat(follow_symlinks=False)
            except OSError:
                continue
            if stat.S_ISLNK(st.st_mode):
                yield "symlink", rel, path, st
            elif stat.S_ISDIR(st.st_mode):
                if skip_dir(e) or (ignorer and ignorer.skip(path, True)):
                    continue
                yield "dir", rel, path, st
                subdirs.append((path, rel + "/"))
            elif stat.S_ISREG(st.st_mode):
                if ignorer and ignorer.skip(path, False):
                    continue
                count += 1
                if count > limit:
                    yield "truncated", rel, path, st
                    return
                yield "file", rel, path, st
        stack.extend(reversed(subdirs))


def load_skill(root: Path, config: Config, max_bytes: int, ignorer: Ignorer | None = None) -> Skill:
    if ignorer is None and root.exists():
        ignorer = Ignorer(root, config)
    skill = Skill(root=root, files={})
    for kind, rel, path, st in walk_tree(root, ignorer):
        if kind == "file":
            skill.files[rel] = SourceFile.from_path(path, rel, st, max_bytes)
        elif kind == "symlink":
            try:
                skill.symlinks[rel] = os.readlink(path)
            except OSError:
                skill.symlinks[rel] = ""
        elif kind == "dir":
            skill.dirs.append(rel)
        elif kind == "truncated":
            skill.truncated = True  # type: ignore[attr-defined]
    return skill


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
    return Loose(root=unit.root, files=files)


_PROGRESSIVE = re.compile(r"^progressive\s*:", re.M)


def detect_target(skill: Skill) -> str:
    """kvist when a kvist manifest is present, stabledge for ``progressive:``, else agentskills."""
    manifest = skill.files.get("manifest.json")
    if manifest is not None and manifest.text and '"plugin_api"' in manifest.text:
        return "kvist"
    md = skill.skill_md
    if md is not None and md.text and "progressive" in md.text:
        # the frontmatter's lines only: no YAML parse, so a cached run stays cheap
        lines, close = frontmatter.split(md.text)
        if close and close > 0 and _PROGRESSIVE.search("\n".join(lines[1:close])):
            return "stabledge"
    return "agentskills"
