"""Inline suppression comments.

``# skillsmith: ignore[ID, ID]`` in scripts and ``<!-- skillsmith: ignore[ID] -->`` in
Markdown silence those rules on the comment's own line and the line after it;
``ignore-file[ID]`` anywhere silences them for the whole file. IDs may be family prefixes
(``SEC``), rule names, ShellCheck codes (``SC2086``) or ``ALL``; one that names no rule is a
warning (:func:`unknown_rules`), never silently nothing. Text after
the ``]`` is free: the reason (:func:`ignore_comment` writes one).
"""

from __future__ import annotations

import re

from skillsmith.rules.registry import did_you_mean, matches, selectors, unknown_selector

_COMMENT = re.compile(r"skillsmith:\s*(ignore|ignore-file)\[([A-Za-z0-9_,\s-]*)\]")


def parse(lines: list[str]) -> tuple[dict[int, set[str]], set[str]]:
    """(line -> selectors, whole-file selectors) for a file's lines."""
    by_line: dict[int, set[str]] = {}
    whole: set[str] = set()
    for number, text in enumerate(lines, 1):
        if "skillsmith:" not in text:
            continue
        for m in _COMMENT.finditer(text):
            ids = set(selectors(m.group(2)))
            if m.group(1) == "ignore-file":
                whole |= ids
            else:
                by_line.setdefault(number, set()).update(ids)
                by_line.setdefault(number + 1, set()).update(ids)
    return by_line, whole


def suppressed(rule_id: str, line: int, table: tuple[dict[int, set[str]], set[str]], code: str | None = None) -> bool:
    """Whether a finding of *rule_id* (under the external *code*, if any) on *line* is silenced."""
    by_line, whole = table
    return matches(rule_id, whole | by_line.get(line, set()), code)


def unknown_rules(files) -> list[dict]:
    """``{"path", "line", "message"}`` for each selector in an inline ignore of *files* that names no rule.

    *files* are ``SourceFile``s; only those whose text holds ``skillsmith:`` are looked at.
    """
    out = []
    for f in files:
        text = f.text
        if not text or "skillsmith:" not in text:
            continue
        for number, line in enumerate(f.lines, 1):
            if "skillsmith:" not in line:
                continue
            for m in _COMMENT.finditer(line):
                for sel in selectors(m.group(2)):
                    if unknown_selector([sel]) is not None:
                        out.append({"path": f.path.as_posix(), "line": number, "message":
                                    f"unknown rule {sel!r} in `skillsmith: {m.group(1)}[...]`{did_you_mean(sel)}; it silences nothing"})
    return out


def ignore_comment(ids: list[str], reason: str, markdown: bool = False) -> str:
    """The inline comment that silences *ids* on its line and the next, with *reason* after it.

    ``# skillsmith: ignore[CON014, SHL051] reason`` for scripts and YAML, or the same inside
    ``<!-- ... -->`` for Markdown; *reason* must not hold ``-->`` or a newline.
    """
    body = f"skillsmith: ignore[{', '.join(ids)}] {reason}".rstrip()
    return f"<!-- {body} -->" if markdown else f"# {body}"
