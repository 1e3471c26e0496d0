"""Frontmatter field names to complete in a ``SKILL.md``, per target.

The fields are the ones the skill's target reads: the specification's own, valid for every
host, then the host fields of the target (``Target.fields``; not their other ``spellings``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from skillsmith import targets
from skillsmith.model import frontmatter
from skillsmith.rules.spec import SPEC_FIELDS

_KEY_START = re.compile(r"[A-Za-z0-9_-]*")
_KEY = re.compile(r"([^\s:#'\"][^:]*?)\s*:")


@dataclass(frozen=True)
class Field:
    name: str
    detail: str  # where the field comes from
    order: int  # the spec's fields first, then the host's; alphabetically within each


def fields(target: str) -> list[Field]:
    """Every top-level field a ``SKILL.md`` for *target* may have."""
    spec = sorted(SPEC_FIELDS)
    host_target = targets.get(target)
    host = sorted(host_target.fields - SPEC_FIELDS)
    return [Field(name, "Agent Skills specification", i) for i, name in enumerate(spec)] + [
        Field(name, f"{host_target.title or target} host field", len(spec) + i) for i, name in enumerate(host)
    ]


def key_prefix(text: str, line: int, character: int) -> str | None:
    """What is typed of a top-level frontmatter key before (*line*, *character*) (0-based, code
    points), or None when the cursor is not at the start of a key inside the ``---`` block."""
    lines, close = frontmatter.split(text)
    if close is None or line < 1 or line > len(lines) or (close != -1 and line >= close):
        return None
    current = lines[line] if line < len(lines) else ""
    before, after = current[:character], current[character:]
    if not _KEY_START.fullmatch(before) or ":" in after:
        return None
    return before


def present_keys(text: str, skip_line: int) -> set[str]:
    """The top-level keys the frontmatter already has (the line being typed aside)."""
    lines, close = frontmatter.split(text)
    if close is None:
        return set()
    end = len(lines) if close == -1 else close
    keys = set()
    for i in range(1, end):
        if i == skip_line:
            continue
        m = _KEY.match(lines[i])
        if m:
            keys.add(m.group(1))
    return keys


def completions(text: str, line: int, character: int, target: str) -> tuple[str, list[Field]] | None:
    """(the typed prefix, the fields to offer) at the cursor, or None outside a key position.

    Fields the frontmatter already has are left out; the prefix filters nothing (the editor
    filters as the user types).
    """
    prefix = key_prefix(text, line, character)
    if prefix is None:
        return None
    have = present_keys(text, line)
    return prefix, [f for f in fields(target) if f.name not in have]
