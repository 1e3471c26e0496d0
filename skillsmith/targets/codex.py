"""Codex: the Agent Skills specification plus the skill's ``agents/openai.yaml``.

Codex reads a skill's ``name``, ``description`` and ``metadata`` from SKILL.md and nothing else
of its frontmatter; what it shows and how it may invoke the skill lives beside it in
``agents/openai.yaml``, with three sections (https://developers.openai.com/codex/skills, and
the file's reference in OpenAI's skill creator,
https://github.com/openai/skills/blob/main/skills/.system/skill-creator/references/openai_yaml.md):

- ``interface``: ``display_name``, ``short_description``, ``icon_small``, ``icon_large``,
  ``brand_color``, ``default_prompt``;
- ``policy``: ``allow_implicit_invocation`` (a boolean) and ``products`` (a list);
- ``dependencies``: ``tools``, a list of ``type``, ``value``, ``description``, ``transport``,
  ``command``, ``url``.

Codex's loader (``codex-rs``, ``SkillMetadataFile``) reads the file strictly and fails open: a
file that is not YAML, not a mapping, or holds a known key with a value of the wrong type is
ignored whole (:attr:`Problem.whole`: every setting in it is lost, ``allow_implicit_invocation:
false`` included); a key it does not know is skipped silently, and a value it cannot use (an
empty string, one over its length, a colour that is not ``#RRGGBB``, an icon outside the
skill's ``assets/``, a tool without ``type`` or ``value``) is dropped alone.

A skill is a Codex skill (:func:`is_codex_skill`) when it has ``agents/openai.yaml``, lives in
a ``.codex/skills/`` folder, where only Codex looks, or in a Codex plugin's ``skills/``.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from skillsmith.model.frontmatter import MAX_FRONTMATTER_BYTES, load_yaml, yaml_type
from skillsmith.targets import Target

SIDECAR = "agents/openai.yaml"
NAME_MAX = 64
TEXT_MAX = 1024

#: each section's keys and what their values must be: "text" a string (with its longest
#: length), "icon" a path under the skill's assets/, "color" #RRGGBB, "flag" a boolean, "texts"
#: a list of strings, "tools" a list of tool mappings
SECTIONS: dict[str, dict[str, tuple[str, int]]] = {
    "interface": {
        "display_name": ("text", NAME_MAX),
        "short_description": ("text", TEXT_MAX),
        "icon_small": ("icon", 0),
        "icon_large": ("icon", 0),
        "brand_color": ("color", 0),
        "default_prompt": ("text", TEXT_MAX),
    },
    "policy": {"allow_implicit_invocation": ("flag", 0), "products": ("texts", 0)},
    "dependencies": {"tools": ("tools", 0)},
}
TOOL_KEYS: dict[str, int] = {
    "type": NAME_MAX, "value": TEXT_MAX, "description": TEXT_MAX, "transport": NAME_MAX, "command": TEXT_MAX,
    "url": TEXT_MAX,
}
TOOL_REQUIRED = ("type", "value")
_COLOR = re.compile(r"#[0-9A-Fa-f]{6}")


@dataclass(frozen=True)
class Problem:
    """One thing Codex does not take from ``agents/openai.yaml``, at a 1-based *line*."""

    line: int
    message: str
    whole: bool  # Codex ignores the whole file (else only this key or value)


def sidecar_problems(text: str, has_file=lambda rel: True) -> list[Problem]:
    """What Codex would not take from ``agents/openai.yaml`` holding *text*.

    *has_file(rel)* says whether the skill has the file at *rel* (an icon's path). A file that
    Codex ignores whole gives only the problems that make it so.
    """
    if len(text.encode("utf-8", "replace")) > MAX_FRONTMATTER_BYTES:
        return [Problem(1, f"{SIDECAR} is larger than {MAX_FRONTMATTER_BYTES} bytes; skillsmith does not read it", True)]
    data, _, error = load_yaml(text)
    if error is not None:
        return [Problem(error.line, f"{SIDECAR} is not valid YAML ({error.message}); Codex ignores the whole file", True)]
    if data is None:
        return []
    if not isinstance(data, dict):
        return [Problem(1, f"{SIDECAR} is a {yaml_type(data)}, not a mapping; Codex ignores the whole file", True)]
    lines = text.splitlines()
    whole: list[Problem] = []
    dropped: list[Problem] = []
    for section, value in data.items():
        line = _line_of(lines, [str(section)])
        keys = SECTIONS.get(section) if isinstance(section, str) else None
        if keys is None:
            home = next((name for name, known in SECTIONS.items() if section in known), None)
            hint = f"; it belongs under '{home}'" if home else _hint(section, SECTIONS)
            dropped.append(Problem(line, f"Codex does not read {section!r} in {SIDECAR}{hint}", False))
            continue
        if value is None:
            continue
        if not isinstance(value, dict):
            whole.append(Problem(line, f"'{section}' must be a mapping, not a {yaml_type(value)}; "
                                       "Codex ignores the whole file", True))
            continue
        for key, item in value.items():
            where = f"{section}.{key}"
            kline = _line_of(lines, [str(section), str(key)])
            kind = keys.get(key) if isinstance(key, str) else None
            if kind is None:
                dropped.append(Problem(kline, f"Codex does not read '{where}'{_hint(key, keys)}", False))
            elif item is not None:
                _check_value(where, kind, item, kline, lines, has_file, whole, dropped)
    return whole or dropped


def _check_value(where, kind, item, line, lines, has_file, whole, dropped) -> None:
    form, limit = kind
    if form == "flag":
        if not isinstance(item, bool):
            whole.append(Problem(line, f"'{where}' must be true or false, not a {yaml_type(item)}; "
                                       "Codex ignores the whole file", True))
    elif form == "texts":
        if not isinstance(item, list) or not all(isinstance(v, str) for v in item):
            whole.append(Problem(line, f"'{where}' must be a list of strings; Codex ignores the whole file", True))
    elif form == "tools":
        _check_tools(where, item, line, lines, whole, dropped)
    elif not isinstance(item, str):
        whole.append(Problem(line, f"'{where}' must be a string, not a {yaml_type(item)}; "
                                   "Codex ignores the whole file", True))
    else:
        why = _text_dropped(form, limit, item, has_file)
        if why:
            dropped.append(Problem(line, f"Codex ignores '{where}': {why}", False))


def _text_dropped(form: str, limit: int, value: str, has_file) -> str | None:
    text = " ".join(value.split())
    if not text:
        return "it is empty"
    if form == "text" and len(text) > limit:
        return f"it is {len(text)} characters long; the limit is {limit}"
    if form == "color" and not _COLOR.fullmatch(value.strip()):
        return f"{value!r} is not a #RRGGBB colour"
    if form == "icon":
        path = PurePosixPath(value.strip())
        parts = [p for p in path.parts if p != "."]
        if path.is_absolute() or ".." in parts or not parts or parts[0] != "assets":
            return f"{value!r} is not a path under the skill's assets/ folder"
        rel = "/".join(parts)
        if not has_file(rel):
            return f"the skill has no {rel}"
    return None


def _check_tools(where, item, line, lines, whole, dropped) -> None:
    if not isinstance(item, list):
        whole.append(Problem(line, f"'{where}' must be a list of tools, not a {yaml_type(item)}; "
                                   "Codex ignores the whole file", True))
        return
    for i, tool in enumerate(item):
        at = f"{where}[{i}]"
        if not isinstance(tool, dict):
            whole.append(Problem(line, f"'{at}' must be a mapping, not a {yaml_type(tool)}; "
                                       "Codex ignores the whole file", True))
            continue
        for key, value in tool.items():
            if key not in TOOL_KEYS:
                dropped.append(Problem(line, f"Codex does not read '{at}.{key}'{_hint(key, TOOL_KEYS)}", False))
            elif value is not None and not isinstance(value, str):
                whole.append(Problem(line, f"'{at}.{key}' must be a string, not a {yaml_type(value)}; "
                                           "Codex ignores the whole file", True))
        missing = [k for k in TOOL_REQUIRED if not isinstance(tool.get(k), str) or not tool[k].strip()]
        if missing:
            dropped.append(Problem(line, f"Codex ignores '{at}': it has no {' or '.join(repr(k) for k in missing)}", False))


def _line_of(lines: list[str], path: list[str]) -> int:
    """The 1-based line of a top-level key (*path* one long) or of a key in its block (two long).

    The section's own line when the key is not found on a line of its own (a flow mapping);
    1 when the section is not found either.
    """
    section = re.compile(r"^['\"]?" + re.escape(path[0]) + r"['\"]?\s*:")
    start = next((i for i, ln in enumerate(lines) if section.match(ln)), None)
    if start is None:
        return 1
    if len(path) == 1:
        return start + 1
    key = re.compile(r"^\s+['\"]?" + re.escape(path[1]) + r"['\"]?\s*:")
    for i in range(start + 1, len(lines)):
        ln = lines[i]
        if ln.strip() and not ln[0].isspace() and not ln.startswith("#"):
            break  # the next top-level key: the section's block is over
        if key.match(ln):
            return i + 1
    return start + 1


def _hint(key: object, known) -> str:
    import difflib

    close = difflib.get_close_matches(str(key), list(known), n=1, cutoff=0.75)
    return f"; did you mean {close[0]!r}?" if close else ""


#: a Codex plugin's manifest, in the plugin's root; its skills are in ``skills/`` beside it
#: (https://developers.openai.com/codex/plugins/build)
PLUGIN_MANIFEST = ".codex-plugin/plugin.json"


def is_codex_skill(model) -> bool:
    """Whether *model* is a skill with ``agents/openai.yaml``, one in a ``.codex/skills/`` folder, or one
    in the ``skills/`` of a Codex plugin (beside ``.codex-plugin/plugin.json``) that is not also a Claude
    Code plugin's."""
    from skillsmith.model.skill import Skill  # the skill model loads the language facts: not for --help

    if not isinstance(model, Skill):
        return False
    if SIDECAR in model.files:
        return True
    root = Path(os.path.abspath(model.root))
    parts = root.parts
    if any(parts[i] == ".codex" and parts[i + 1] == "skills" for i in range(len(parts) - 1)):
        return True
    if root.parent.name != "skills" or not (root.parent.parent / PLUGIN_MANIFEST).is_file():
        return False
    from skillsmith.targets.claude_code import is_claude_code_skill

    return not is_claude_code_skill(model)  # a plugin for both hosts: Claude Code's fields are the ones it adds


TARGET = Target(
    name="codex",
    title="Codex",
    summary="OpenAI Codex: the specification plus agents/openai.yaml (interface, policy, dependencies)",
    detect=is_codex_skill,
    priority=5,
)
