"""Paths written in a skill (a link in SKILL.md, a manifest field, a declared resource), read against the skill folder.

:func:`skill_path` is the one answer to "is this path inside the skill, and which path is it":
the path is read as a POSIX path relative to the skill folder, with ``\\`` taken as a
separator (hosts convert it), and normalised lexically: empty and ``.`` segments go, and
``a/../b`` is ``b``. It is outside the skill when it is absolute (``/x``, ``\\x``), starts
with ``~``, has a drive letter (``C:``), or climbs above the folder with ``..``.

The reading is lexical, as the hosts' checks are: it does not ask whether ``a`` in ``a/../b``
exists or is a link. A host may refuse more (StablEdge refuses any ``..``); that is its rule,
written where its other rules are.
"""

from __future__ import annotations

import re
from typing import NamedTuple

HOME = "starts with '~'"
ABSOLUTE = "is absolute"
DRIVE = "is a drive-letter path"
PARENT = "leaves the skill folder with '..'"

_DRIVE = re.compile(r"^[A-Za-z]:")


class SkillPath(NamedTuple):
    """Where a path written in a skill leads: *rel* inside the skill, or *why* it leaves it."""

    rel: str | None  # "/"-separated, normalised; "" for the skill folder itself; None when outside
    why: str | None  # HOME, ABSOLUTE, DRIVE or PARENT when outside, else None

    @property
    def inside(self) -> bool:
        return self.rel is not None


def skill_path(raw: str) -> SkillPath:
    """*raw* read relative to the skill folder: its normalised form, or why it is outside."""
    if raw.startswith("~"):
        return SkillPath(None, HOME)
    if raw.startswith(("/", "\\")):
        return SkillPath(None, ABSOLUTE)
    if _DRIVE.match(raw):
        return SkillPath(None, DRIVE)
    parts: list[str] = []
    for part in raw.replace("\\", "/").split("/"):
        if part in ("", "."):
            continue
        if part != "..":
            parts.append(part)
        elif parts:
            parts.pop()
        else:
            return SkillPath(None, PARENT)
    return SkillPath("/".join(parts), None)
