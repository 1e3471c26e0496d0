"""Claude Code: the Agent Skills specification plus the frontmatter fields Claude Code reads.

The fields and their values are the "Frontmatter reference" of Claude Code's skills
documentation, https://code.claude.com/docs/en/skills#frontmatter-reference (``when_to_use``,
``argument-hint``, ``arguments``, ``disable-model-invocation``, ``user-invocable``,
``disallowed-tools``, ``model``, ``effort``, ``context``, ``agent``, ``background``, ``hooks``,
``paths``, ``shell``), and the fields its changelog adds,
https://github.com/anthropics/claude-code/blob/main/CHANGELOG.md (2.1.186: ``display-name``,
``default-enabled`` and ``fallback``, which it reads in kebab-case, snake_case and camelCase).
``allowed-tools`` is the specification's (``SPC014``, which takes Claude Code's YAML list too).

A skill is a Claude Code skill (:func:`is_claude_code_skill`) when it lives where only Claude
Code looks for skills: a ``.claude/skills/`` folder (a project's or the user's), the ``skills/``
folder of a Claude Code plugin (``.claude-plugin/plugin.json`` at the plugin's root, or an entry
of a marketplace's ``.claude-plugin/marketplace.json`` whose ``source`` is the plugin's folder: a
plugin the marketplace defines, ``"strict": false``, or a folder one of its plugins lists in
its ``skills``), a skill folder that is a plugin itself
(its own ``.claude-plugin/plugin.json``), or a ``skills/`` folder the project's ``.claude/skills``
links to (``.claude/skills -> ../skills``, or one link per skill).
"""

from __future__ import annotations

import os
from pathlib import Path

from skillsmith.model.frontmatter import yaml_type
from skillsmith.targets import Target

PLUGIN_MANIFEST = ".claude-plugin/plugin.json"
MARKETPLACE = ".claude-plugin/marketplace.json"
#: where a marketplace may stand, from a skill folder: beside ``skills/`` (the marketplace is the
#: plugin, ``"source": "./"``) or at the root of ``plugins/NAME/skills/`` (each plugin a folder)
MARKETPLACE_PLACES = ("../../" + MARKETPLACE, "../../../../" + MARKETPLACE)
#: a marketplace larger than this is not read (untrusted input)
MARKETPLACE_MAX_BYTES = 1024 * 1024

#: what each field's value must be: "text" a string, "flag" a boolean, "names" a string or a
#: list of strings, "mapping" a mapping, a tuple the strings it may be, None anything
KINDS: dict[str, object] = {
    "when_to_use": "text",
    "argument-hint": "text",
    "arguments": "names",
    "disable-model-invocation": "flag",
    "user-invocable": "flag",
    "disallowed-tools": "names",
    "model": "text",
    "effort": ("low", "medium", "high", "xhigh", "max"),
    "context": "text",
    "agent": "text",
    "background": "flag",
    "hooks": "mapping",
    "paths": "names",
    "shell": ("bash", "powershell"),
    "display-name": "text",
    "default-enabled": "flag",
    "fallback": None,
}
#: the 2.1.186 fields, in the other casings Claude Code reads them
ALIASES = {
    "display_name": "display-name", "displayName": "display-name",
    "default_enabled": "default-enabled", "defaultEnabled": "default-enabled",
}


def field_problem(key: str, value: object) -> str | None:
    """Why *value* is not what Claude Code reads in the frontmatter field *key* (``SPC031``), or None."""
    kind = KINDS.get(ALIASES.get(key, key))
    if kind is None or value is None or value == "":  # a field left empty (``argument-hint: ""``) is as good as absent
        return None
    if kind == "flag":
        return None if isinstance(value, bool) else f"'{key}' must be true or false, not a {yaml_type(value)}"
    if kind == "mapping":
        return None if isinstance(value, dict) else f"'{key}' must be a mapping of hook events, not a {yaml_type(value)}"
    if kind == "names":
        if isinstance(value, str) and value.strip():
            return None
        if isinstance(value, list) and value and all(isinstance(v, str) and v.strip() for v in value):
            return None
        return f"'{key}' must be a string or a list of strings, not {_shown(value)}"
    if not isinstance(value, str) or not value.strip():
        return f"'{key}' must be a string, not {_shown(value)}"
    if isinstance(kind, tuple) and value not in kind:
        return f"'{key}' is {value!r}; Claude Code reads {', '.join(kind)}"
    return None


def _shown(value: object) -> str:
    if isinstance(value, (str, list)) and not value:
        return "empty"
    if isinstance(value, str):
        return "blank"
    return f"a {yaml_type(value)}"


def is_claude_code_skill(model) -> bool:
    """Whether *model* is a skill in a ``.claude/skills/`` folder or in a Claude Code plugin."""
    from skillsmith.model.skill import Skill  # the skill model loads the language facts: not for --help

    if not isinstance(model, Skill):
        return False
    if PLUGIN_MANIFEST in model.files:
        return True
    root = Path(os.path.abspath(model.root))
    parts = root.parts
    if any(parts[i] == ".claude" and parts[i + 1] == "skills" for i in range(len(parts) - 1)):
        return True
    if listed_with(root):
        return True  # a marketplace plugin's "skills": ["./01-model-architecture/nanogpt", ...]
    if root.parent.name != "skills":
        return False
    plugin = root.parent.parent
    project = plugin.parent if plugin.name.startswith(".") else plugin  # PROJECT/.agents/skills/x: PROJECT
    if _linked_from_claude_skills(project / ".claude" / "skills", root):
        return True  # .claude/skills -> ../skills, or .claude/skills/x -> ../../.agents/skills/x
    return (plugin / PLUGIN_MANIFEST).is_file() or any(
        _lists_plugin(Path(os.path.normpath(root / place)), plugin) for place in MARKETPLACE_PLACES)


def _linked_from_claude_skills(link: Path, root: Path) -> bool:
    """Whether the project's ``.claude/skills`` is a link to the skill's ``skills/`` folder
    (``.claude/skills -> ../skills``), or holds a link to the skill itself (``x -> ../../skills/x``):
    Claude Code loads the skill through it. Only the links are read, never what they point to."""
    try:
        if link.is_symlink():
            return os.path.realpath(link) == os.path.realpath(root.parent)
        entry = link / root.name
        return entry.is_symlink() and os.path.realpath(entry) == os.path.realpath(root)
    except OSError:
        return False


def _lists_plugin(marketplace: Path, plugin: Path) -> bool:
    """Whether the *marketplace* file has a plugin whose ``source`` is the folder *plugin*."""
    return any(os.path.normpath(source) == str(plugin) for source, _entry in _marketplace_plugins(marketplace))


def listed_with(root: Path) -> set[str]:
    """The skill folders (normalised absolute paths) that a plugin of the skill's marketplace lists
    in its ``skills`` beside the skill at *root*, *root* among them (paths from the plugin's
    ``source``: ``"source": "./", "skills": ["./10-optimization/gptq"]``); empty when none lists it."""
    found: set[str] = set()
    for place in MARKETPLACE_PLACES:
        for source, entry in _marketplace_plugins(Path(os.path.normpath(root / place))):
            skills = entry.get("skills")
            listed = {os.path.normpath(source / s) for s in skills if isinstance(s, str) and not os.path.isabs(s)} \
                if isinstance(skills, list) else set()
            if str(root) in listed:
                found |= listed
    return found


def _marketplace_plugins(marketplace: Path) -> list[tuple[Path, dict]]:
    """(folder of its ``source``, entry) of each plugin the *marketplace* file defines with a
    relative source; none for a missing, oversized or unreadable file."""
    try:
        if not marketplace.is_file() or marketplace.stat().st_size > MARKETPLACE_MAX_BYTES:
            return []
        import json

        data = json.loads(marketplace.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    entries = data.get("plugins") if isinstance(data, dict) else None
    if not isinstance(entries, list):
        return []
    home = marketplace.parent.parent
    return [(home / entry["source"], entry) for entry in entries
            if isinstance(entry, dict) and isinstance(entry.get("source"), str) and not os.path.isabs(entry["source"])]


TARGET = Target(
    name="claude-code",
    title="Claude Code",
    summary="Claude Code: the specification plus the frontmatter fields Claude Code reads; "
            "skills in .claude/skills/ and in Claude Code plugins",
    detect=is_claude_code_skill,
    priority=4,
    fields=frozenset(KINDS),
    spellings=frozenset(ALIASES),
    field_problem=field_problem,
    evidence=("../../" + PLUGIN_MANIFEST, *MARKETPLACE_PLACES),
)
