"""The run scope: rules that see every skill of one ``check`` run at once (duplicate names).

Units are checked one at a time, in worker processes and from the cache, so a run-scope rule
cannot read the units themselves. Each unit's result carries instead a light summary of its
skill (:func:`summary_of`, stored with its findings, so a warm run has it too): the
frontmatter ``name`` and its line, and the run-scope rules that would report on that line
(enabled for the unit by ``--select``/``--ignore`` and its config, not dropped by a
per-file-ignore, not suppressed by an inline comment on the line). Once every unit is
checked, :func:`run_findings` gives each run-scope rule an :class:`Entry` per skill and
keeps the hits on the skills that would report them.

Which skills a host loads side by side (:func:`collection_of`): those of one skills folder
(the nearest folder above named ``skills``: ``skills/``, ``.claude/skills/``,
``.agents/skills/``, a plugin's ``skills/``), else those of one plugin (the nearest folder
above with ``.claude-plugin/plugin.json``), else the skill's siblings (the folders beside it:
a repository's other folders are not loaded with it, unless a host is pointed at a folder
that holds them all, which is then a skills folder).
Claude Code names a plugin's skills ``plugin:skill``, so skills of two plugins never
collide; copies of a skill for several hosts (``skills/x`` and ``.claude/skills/x``) are in
different skills folders and do not collide either.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from skillsmith.rules import registry
from skillsmith.rules.finding import printable

#: what makes a folder a Claude Code plugin
PLUGIN_MANIFEST = (".claude-plugin", "plugin.json")
#: the folder name hosts and installers load skills from
SKILLS_FOLDER = "skills"


@dataclass(frozen=True)
class Entry:
    """One skill of the run, as a run-scope rule sees it."""

    root: Path  # the skill's folder
    name: str  # its frontmatter name
    line: int  # the line of ``name:`` in SKILL.md
    collection: tuple[str, Path]  # ("skills folder" | "plugin" | "folder", where): see collection_of
    report: frozenset[str]  # the run-scope rules that report on this skill
    reported: frozenset[str] = frozenset()  # the rules the skill's own check reported on its name: line

    @property
    def skill_md(self) -> Path:
        return self.root / "SKILL.md"


def summary_of(model, reporting: list[str], reported: list[str]) -> dict | None:
    """A skill's summary for the run (``{"name", "line", "report", "reported"}``), or None when it has no string name.

    *reporting*: the IDs of the run-scope rules that would report on its ``name:`` line;
    *reported*: the rules of the unit's own findings on that line.
    """
    doc = getattr(model, "doc", None)
    if doc is None or not isinstance(doc.frontmatter.data, dict):
        return None
    name = doc.frontmatter.data.get("name")
    if not isinstance(name, str) or not name.strip():
        return None
    return {"name": name.strip(), "line": name_line(model), "report": sorted(reporting),
            "reported": sorted(set(reported))}


def name_line(model) -> int:
    """The line of ``name:`` in the skill's SKILL.md (the frontmatter's first line without one)."""
    fm = model.doc.frontmatter
    return fm.key_lines.get("name", fm.start_line)


def is_summary(doc) -> bool:
    """Whether *doc* has the shape :func:`summary_of` gives (a cached entry may be damaged)."""
    return doc is None or (
        isinstance(doc, dict) and isinstance(doc.get("name"), str) and isinstance(doc.get("line"), int)
        and all(isinstance(doc.get(k), list) and all(isinstance(r, str) for r in doc[k]) for k in ("report", "reported")))


def collection_of(root: Path, top: Path | None) -> tuple[str, Path]:
    """The skills a host loads beside the skill at *root*: ``(what, folder)``.

    Searched from *root*'s parent up to *top* (the folder the run was given): the nearest
    folder named ``skills`` (``what`` is ``"skills folder"``; a skill below a hidden folder in it,
    ``skills/app/.local/secondary_skills/x``, is among its siblings only), else the nearest plugin root
    (``"plugin"``), else its parent folder (``"folder"``): its siblings only. A repository
    that keeps ``utilities/x`` and ``skills-system/x`` apart never loads both side by side.
    """
    parent = root.parent
    if top is None or top == root or top not in root.parents:
        return ("skills folder" if parent.name == SKILLS_FOLDER else "folder", parent)
    folder = parent
    while True:
        if folder.name == SKILLS_FOLDER:
            # its skills, and those of its category folders (skills/office/pdf), which installers
            # flatten; not one below a hidden folder in it (skills/Lesson-Navigator/.local/secondary_skills/x,
            # a project snapshot's own), which no host or installer walks into: among its siblings only
            hidden = any(part.startswith(".") for part in parent.relative_to(folder).parts)
            return ("folder", parent) if hidden else ("skills folder", folder)
        if _is_plugin(folder):
            return ("plugin", folder)
        if folder == top or folder.parent == folder:
            return ("folder", parent)
        folder = folder.parent


@lru_cache(maxsize=4096)
def _is_plugin(folder: Path) -> bool:
    return os.path.isfile(folder.joinpath(*PLUGIN_MANIFEST))


def run_findings(units, results: list[dict]) -> list[dict]:
    """The findings of the run-scope rules over *units* (each with its result from the unit's check)."""
    entries = []
    for unit, result in zip(units, results):
        summary = result.get("skill") if unit.kind == "skill" else None
        if summary is None:
            continue
        entries.append(Entry(Path(unit.root), summary["name"], summary["line"],
                             collection_of(Path(unit.root), Path(unit.top) if unit.top is not None else None),
                             frozenset(summary["report"]), frozenset(summary["reported"])))
    wanted = set().union(*(e.report for e in entries)) if entries else set()
    by_path = {e.skill_md.as_posix(): e for e in entries}
    out = []
    for rule in registry.iter_rules("collection"):
        if rule.id not in wanted:
            continue
        for hit in rule.check(entries) or ():
            entry = by_path.get(Path(hit.path).as_posix())
            if entry is None or rule.id not in entry.report:
                continue
            out.append(dict(path=Path(hit.path).as_posix(), line=hit.line, column=hit.column, rule=rule.id,
                            message=printable(hit.message), severity=rule.severity, end_line=hit.end_line,
                            end_column=hit.end_column, fix=None))
    return out
