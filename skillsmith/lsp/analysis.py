"""A document's unit checked and fixed as the editor holds it, in memory (no pygls here).

The engine is ``check``'s (:mod:`skillsmith.rules.engine`): the unit that holds a document is
the nearest folder above it with a ``SKILL.md`` (on disk or open in the editor), else the
document alone as a loose script, as ``check FILE`` sees it. The unit is loaded as ``check``
loads it (its files listed and stat'ed), every file open in the editor is replaced by a
:class:`~skillsmith.model.sourcefile.SourceFile` built from the editor's text (the saved file
is not read; its mode is kept), and the rules run with the cache off. A file the walk leaves
out (gitignored, excluded by the config, a symbolic link, inside ``node_modules``) is left out
here too, as ``check`` leaves it out.

Fixes come from :func:`skillsmith.fix.engine.fix_file` on those in-memory files and the checked
unit; nothing is written.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Mapping

from skillsmith.config import config_for
from skillsmith.discovery.discover import Unit
from skillsmith.fix.engine import FileFix, fix_file
from skillsmith.model.skill import script_language
from skillsmith.model.sourcefile import SourceFile
from skillsmith.rules import engine, registry
from skillsmith.rules.finding import Finding

#: files a loose unit (a document outside any skill) is checked for, besides scripts
LOOSE_FILES = {"manifest.json"}


@dataclass
class Analysis:
    """The findings of one unit with the editor's texts in place, and the model they came from."""

    prepared: engine.Prepared
    findings: list[Finding]
    notes: list[str]
    opened: dict[Path, SourceFile]  # the documents open in the editor that the rules saw

    @property
    def target(self) -> str:
        return self.prepared.target

    def findings_for(self, path: Path) -> list[Finding]:
        """The findings located in the file at *path* (the unit's other files have their own)."""
        key = path.as_posix()
        return [f for f in self.findings if f.path == key]

    def covers(self, path: Path) -> bool:
        """Whether *path* is an open document the rules checked: any file of a skill; outside a
        skill, only a script or a ``manifest.json`` (``check FILE`` would check any file)."""
        f = self.opened.get(path)
        if f is None:
            return False
        return self.prepared.unit.kind == "skill" or f.rel in LOOSE_FILES or script_language(f) is not None

    def fix(self, path: Path, rules: set[str], unsafe: bool) -> FileFix | None:
        """The fix engine's result for the open document at *path* (in memory), or None when it
        is not one of the unit's open documents."""
        f = self.opened.get(path)
        if f is None:
            return None
        return fix_file(f, rules, unsafe, self.prepared.model)


def analyse(path: Path, texts: Mapping[Path, str]) -> Analysis:
    """Check the unit that holds the document at *path*, with the editor's *texts* (absolute
    path -> text of every open document) in place of those files on disk.

    Raises :class:`~skillsmith.errors.SkillsmithError` for a config that cannot be read.
    """
    options = engine.Options(use_cache=False)
    registry.load_rules()
    unit = unit_for(path, texts)
    model = engine.load_model(unit, options)
    files = dict(model.files)
    opened: dict[Path, SourceFile] = {}
    for doc, text in texts.items():
        rel = member(unit, doc)
        if rel is None:
            continue
        disk = files.get(rel)
        if disk is None and os.path.lexists(doc):
            continue  # on disk but not walked: ignored, excluded or a link
        f = editor_file(doc, rel, text, disk.mode if disk is not None else 0o644, options.max_bytes)
        files[rel] = opened[doc] = f
    prepared = engine.resolve(engine.Prepared(unit, model.with_files(files), "", [], None, None), options)
    result = engine.evaluate_unit(prepared, options)
    findings = sorted(Finding(**f) for f in result["findings"])
    return Analysis(prepared, findings, result["notes"], opened)


def unit_for(path: Path, texts: Mapping[Path, str]) -> Unit:
    """The skill that holds *path*, else *path* alone as loose scripts (as ``check`` would see them)."""
    root = skill_root(path, texts)
    if root is not None:
        return Unit("skill", root, config_for(root))
    return Unit("loose", path.parent, config_for(path), [(path.name, path)])


def skill_root(path: Path, texts: Mapping[Path, str]) -> Path | None:
    """The nearest folder above *path* with a ``SKILL.md`` on disk or open in the editor.

    The search stops at a repository's top folder (one holding ``.git``): a skill does not
    reach beyond its repository.
    """
    if path.name == "SKILL.md":
        return path.parent
    for folder in path.parents:
        md = folder / "SKILL.md"
        if md in texts or md.is_file() or md.is_symlink():
            return folder
        if os.path.lexists(folder / ".git"):
            return None
    return None


def member(unit: Unit, path: Path) -> str | None:
    """*path* relative to *unit* (POSIX) when it belongs to the unit, else None."""
    if unit.kind == "loose":
        return next((rel for rel, p in unit.files if p == path), None)
    try:
        return path.relative_to(unit.root).as_posix()
    except ValueError:
        return None


def editor_file(path: Path, rel: str, text: str, mode: int, max_bytes: int) -> SourceFile:
    """The file as the editor would save *text*: UTF-8, or the encoding a Python coding cookie
    names. Past *max_bytes* it is left unread, as ``check`` leaves such a file."""
    f = SourceFile.from_bytes(path, rel, text.encode("utf-8", "surrogatepass"), mode)
    if f.encoding != "utf-8":
        try:
            f = SourceFile.from_bytes(path, rel, text.encode(f.encoding), mode)
        except (UnicodeEncodeError, LookupError):
            pass  # not representable: checked as UTF-8, which the check reports
    if f.size > max_bytes:
        return SourceFile(path, rel, f.size, mode, max_bytes)
    return f
