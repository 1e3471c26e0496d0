"""The Agent Skills specification host, the default target: the spec plus the script contract.

A skill is named by its SKILL.md frontmatter; :func:`name_problem` is the specification's
name rule, which every target named that way shares (``SPC007``, ``new`` and the wizard), and
:func:`description_problem` and :func:`description_markup` are its description rules
(``SPC010``, ``SPC011``), which ``new`` applies together (:func:`new_description_problem`).
A field another host reads beyond the specification's (Claude Code's ``when_to_use``) is not
portable: under this target it is a portability warning (``SPC030``) naming that host.
Its file fixer repairs frontmatter that is not valid YAML (``SPC004``,
:mod:`skillsmith.model.frontmatter_repair`); the fix engine runs every target's file fixers, so
skills of every target get it.
"""

from __future__ import annotations

import re

from skillsmith.model.frontmatter import yaml_type
from skillsmith.model.frontmatter_repair import fixed_skill_md
from skillsmith.targets import FileFixer, Scaffold, Target

NAME_MAX = 64
DESCRIPTION_MAX = 1024
_NAME_CHARS = re.compile(r"^[a-z0-9-]+$")


def name_problem(name: object) -> str | None:
    """Why *name* is not a valid skill name, or None. Shared with ``new`` and the wizard."""
    if not isinstance(name, str):
        return f"'name' must be a string, not a {yaml_type(name)}"
    if not name:
        return "'name' is empty"
    if len(name) > NAME_MAX:
        return f"'name' is {len(name)} characters long; the limit is {NAME_MAX}"
    if not _NAME_CHARS.match(name):
        bad = sorted({ch for ch in name if not re.match(r"[a-z0-9-]", ch)})
        shown = ", ".join(repr(ch) for ch in bad[:5])
        return f"'name' {name!r} may use only lowercase letters, digits and hyphens (found {shown})"
    if name.startswith("-") or name.endswith("-"):
        return f"'name' {name!r} must not start or end with a hyphen"
    if "--" in name:
        return f"'name' {name!r} must not contain consecutive hyphens"
    return None


def description_problem(description: object) -> str | None:
    """Why *description* is not valid (``SPC010``), or None."""
    if not isinstance(description, str):
        return f"'description' must be a string, not a {yaml_type(description)}"
    if not description.strip():
        return "'description' is empty"
    if len(description) > DESCRIPTION_MAX:
        return f"'description' is {len(description)} characters long; the limit is {DESCRIPTION_MAX}"
    return None


def description_markup(description: str) -> str | None:
    """Why *description* would be refused as markup (``SPC011``): it holds ``<`` or ``>``; else None."""
    if "<" in description or ">" in description:
        return "'description' contains '<' or '>', which Claude's uploader rejects"
    return None


def new_description_problem(description: object) -> str | None:
    """What ``check`` would report about the description of a new skill (``SPC010``, ``SPC011``), or None."""
    return description_problem(description) or description_markup(description)  # type: ignore[arg-type]


TARGET = Target(
    name="agentskills",
    summary="The Agent Skills specification and the script contract; the default",
    new=Scaffold(template="skill", name_problem=name_problem, description_problem=new_description_problem),
    file_fixers=(
        FileFixer(
            "frontmatter-quote", rules=("SPC004",), safe=True, pattern="SKILL.md", fix=fixed_skill_md,
            description="Quote the frontmatter values YAML reads as structure, where the author meant text",
        ),
    ),
)
