"""The first-comment-block contract (Skill Resource Protocol §3).

A shell script's header is the comment block right after the shebang; a Python script's is
its module docstring. Both are read the same way: a one-line description ending in a period,
then ``Usage:``, ``Input:``, ``Output:``, ``Stderr:``, ``Exit:`` and ``Examples:`` fields.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

FIELDS = ("Usage", "Input", "Output", "Stderr", "Exit", "Examples")
#: the contract is read with ``head -25``
HEAD_LINES = 25

#: the spellings of each field a header may use (``Exit codes:`` is the Exit field)
SPELLINGS = {
    "Examples": ("examples of use", "example usage", "usage examples", "usage example", "examples", "example",
                 "使用示例", "示例", "用例", "使用例", "実行例"),
    "Usage": ("usage", "synopsis", "uso", "使用方法", "使用方式", "用法", "使い方"),
    "Input": ("inputs", "input", "arguments", "输入", "入力"),
    "Output": ("outputs", "output", "stdout", "输出", "出力"),
    "Stderr": ("stderr",),
    "Exit": ("exit codes", "exit code", "exit statuses", "exit status", "exit values", "return codes", "exit",
             "códigos de saída", "código de saída", "códigos de salida", "código de salida",
             "退出码", "返回码", "終了コード"),
}
_NAMES = {spelling: name for name, spellings in SPELLINGS.items() for spelling in spellings}
_FIELD = re.compile(
    r"^\s*(" + "|".join(sorted((re.escape(s).replace("\\ ", r"\s+") for s in _NAMES), key=len, reverse=True))
    + r")(?:\s*\([^()\n]{1,60}\))?\s*[:\uff1a]\s?(.*)$",  # an ASCII or a full-width colon (``使用方法：``), maybe after
    # a note in parentheses (``Usage (Copilot Studio code interpreter):``)
    re.IGNORECASE,
)
#: a numpy-style section: the field's name alone on its line, underlined on the next (``Examples`` / ``--------``)
_SECTION = re.compile(
    r"^\s*(" + "|".join(sorted((re.escape(s).replace("\\ ", r"\s+") for s in _NAMES), key=len, reverse=True))
    + r")\s*()$",
    re.IGNORECASE,
)
#: what ends a one-line description: a period, or the ideographic and full-width full stops (。, ．)
FULL_STOPS = (".", "\u3002", "\uff0e")
_EXIT_ENTRY = re.compile(r"^\d{1,3}\s*(?:=|:|-|\u2013|\u2014)\s*\S")
_UNDERLINE = re.compile(r"^\s*(?:-{3,}|={3,})\s*$")
#: first lines that are not a description: banners, tool directives, a bare file-name label
_NOT_PROSE = re.compile(r"^(shellcheck\s|vim?:|-\*-|SPDX-|@\w+|copyright\b|\(c\)|author:|license:)", re.IGNORECASE)
_LABEL = re.compile(r"^[\w.@/-]+(\s*::\s*[\w.@/-]+)*$")
#: ``Exit 0: all good. Exit 1: a failure.``: exit codes written as sentences
_EXIT_SENTENCE = re.compile(r"^\s*exit\s+(\d{1,3}\s*[:=-].*)$", re.IGNORECASE)
#: an ``Exit:`` field that starts inside another field's line (``stderr: chatter. Exit: 0 ok``)
_INLINE_EXIT = re.compile(r"(?<=[.;])\s+(exit(?:\s+(?:codes?|status))?)\s*:\s*(\S.*)$", re.IGNORECASE)
_CODE = re.compile(r"\b(\d{1,3})\b")
#: a line that runs a script, and notation that makes a usage line a synopsis rather than a call:
#: brackets, placeholders (``<file>``, ``FILE``, ``CONFIG.json``; ``SKILL.md`` is a real name), ellipses
_RUNS_SCRIPT = re.compile(r"(?:^|[\s/])[\w.-]+\.(?:py|sh|bash)(?:\s|$)")
_SYNOPSIS = re.compile(r"[<>\[\]{}]|\.\.\.|\u2026|(?<![\w.$-])[A-Z][A-Z0-9_]{2,}(?![\w-]|\.md\b)")
#: one documented exit code: ``2 usage``, ``- 2: usage``, ``2 = Not a git repo``, ``2 (usage)``
_CODE_MEANING = re.compile(r"^\W*?(?:exit\s+)?(\d{1,3})\b\s*(?:[-=:\u2013\u2014>]+|\bon\b|\bif\b|\bwhen\b)?\s*\(?\s*(.*?)\s*\)?[.;,]*$",
                           re.IGNORECASE)


@dataclass
class HeaderField:
    name: str
    line: int  # 1-based line in the file
    value: str  # text on the field's line and its continuation lines
    items: list[str] = field(default_factory=list)  # continuation lines (for Examples)
    label: str = ""  # the field's name as written: ``Exit codes``
    value_line: str = ""  # the text on the field's own line


@dataclass
class Header:
    kind: str  # "comment" | "docstring"
    start_line: int  # first line of the block in the file
    end_line: int  # last line of the block in the file
    lines: list[str]  # block text, comment markers removed
    description: str | None = None
    description_line: int | None = None
    fields: dict[str, HeaderField] = field(default_factory=dict)

    @property
    def exit_codes(self) -> set[int] | None:
        """Codes the ``Exit:`` field documents, or None when there is no such field."""
        exit_field = self.fields.get("Exit")
        if exit_field is None:
            return None
        return {int(c) for c in _CODE.findall(exit_field.value)}

    @property
    def exit_meanings(self) -> dict[int, str]:
        """What the ``Exit:`` field says each code means, as written: ``{2: "Not a git repo"}``.

        Entries are split at commas and semicolons on one line (``0 ok, 2 usage``) or come one
        per line (``  2 - Not a git repo``); text without a code of its own continues the entry
        before it.
        """
        exit_field = self.fields.get("Exit")
        if exit_field is None:
            return {}
        found: dict[int, str] = {}
        last: int | None = None
        for line in [exit_field.value_line] + exit_field.items:
            for chunk in re.split(r"[,;](?=\s*\W*\d{1,3}\b)|[,;]\s+(?=(?:exit\s+)?\d{1,3}\b)", line):
                m = _CODE_MEANING.match(chunk.strip())
                if m:
                    last = int(m.group(1))
                    found.setdefault(last, m.group(2).strip())
                elif last is not None and chunk.strip():
                    found[last] = (found[last] + " " + chunk.strip()).strip()
        return found

    @property
    def exit_words(self) -> dict[int, str]:
        """Codes the ``Exit:`` field names with one word: ``{10: "drift"}`` for ``10 drift``."""
        return {code: text.lower() for code, text in self.exit_meanings.items()
                if re.fullmatch(r"[A-Za-z][A-Za-z_-]*", text)}

    @property
    def examples(self) -> list[str]:
        ex = self.fields.get("Examples")
        if ex is None:
            return []
        items = [ex.value.strip()] if ex.value.strip() else []
        return items + [i.strip() for i in ex.items if i.strip()]

    @property
    def usage_examples(self) -> list[str]:
        """Whole command lines under the ``Usage:`` field (``python x.py --in a.csv``): the
        author's own examples. A synopsis (``x.py [--top N] <query>``) is not one."""
        usage = self.fields.get("Usage")
        if usage is None:
            return []
        found = []
        for line in [usage.value_line] + usage.items:
            command = re.sub(r"^\$\s+", "", re.sub(r"\s+#\s.*$", "", line).strip())
            if command and _RUNS_SCRIPT.search(command) and not _SYNOPSIS.search(command):
                found.append(command)
        return found

    @property
    def missing(self) -> list[str]:
        """The contract's fields the header lacks; whole commands under ``Usage:`` are its Examples."""
        return [name for name in FIELDS
                if name not in self.fields and not (name == "Examples" and self.usage_examples)]

    @property
    def text(self) -> str:
        return "\n".join(self.lines)


def parse_block(lines: list[str], first_line: int, kind: str) -> Header:
    """Read fields out of block *lines* (markers already removed), which start at *first_line*."""
    header = Header(kind=kind, start_line=first_line, end_line=first_line + len(lines) - 1, lines=lines)
    current: HeaderField | None = None
    underline = -1  # the offset of a section's underline, which is not part of its value
    below = False  # past a blank line under a field's name alone: only indented lines continue it
    for offset, text in enumerate(lines):
        lineno = first_line + offset
        if offset == underline:
            continue
        m = _FIELD.match(text)
        if m is None and offset + 1 < len(lines) and _UNDERLINE.match(lines[offset + 1]):
            m = _SECTION.match(text)
            underline = offset + 1 if m else underline
        sentence = _EXIT_SENTENCE.match(text) if m is None else None
        if sentence and "Exit" not in header.fields:
            value = re.sub(r"(?i)[.;]\s*exit\s+(?=\d)", "; ", sentence.group(1)).strip()
            current = HeaderField("Exit", lineno, value, label="Exit", value_line=value)
            header.fields["Exit"] = current
            continue
        if sentence and current is not None and current.name == "Exit":  # "# Exit 1 = ..." after "# Exit 0 = ..."
            current.items.append(text)
            current.value += "; " + sentence.group(1).strip()
            continue
        if m:
            name = _NAMES[" ".join(m.group(1).lower().split())]
            value = m.group(2).strip()
            value = "" if value == ":" else value  # reStructuredText's ``Exit codes::``, its block below
            inline = _INLINE_EXIT.search(value) if name != "Exit" else None
            if inline:
                value = value[:inline.start()].strip()
            if name == "Exit" and "Exit" in header.fields:  # "Exit codes (claude): ..." after "Exit codes (health): ..."
                current = header.fields["Exit"]
                current.items.append(text)
                current.value = f"{current.value}; {value}" if current.value else value
                continue
            current = HeaderField(name, lineno, value, label=m.group(1), value_line=value)
            header.fields.setdefault(name, current)
            if inline:
                current = HeaderField("Exit", lineno, inline.group(2).strip(), label=inline.group(1),
                                      value_line=inline.group(2).strip())
                header.fields.setdefault("Exit", current)
            continue
        if not text.strip():
            if current is not None and current.name != "Examples" and not current.value and not current.items:
                below = True  # a field's name alone (``Exit codes::``), its indented block after a blank line
                continue
            current = None if current is None or current.name != "Examples" or current.items else current
            continue
        if current is not None and below and not text[:1].isspace():
            current = None
        below = False
        if current is not None:
            indented = text[:1].isspace()
            # an Exit entry on a line of its own, unindented ("2 = network down ..."), continues the field,
            # and so does a wrapped sentence of codes ("Exit codes: 0 all passed, 1 issues found," / "2 usage")
            if indented or current.name == "Examples" or current.name == "Exit" and (
                    _EXIT_ENTRY.match(text) or _CODE.search(text) and not current.value.rstrip().endswith((".", ":"))):
                current.items.append(text)
                if current.name != "Examples":
                    current.value = f"{current.value} {text.strip()}".lstrip()
                continue
            current = None
        if header.description is None and not header.fields and describes(text):
            header.description = text.strip()
            header.description_line = lineno
    return header


def is_field_line(text: str) -> bool:
    """Whether a header line (markers removed) starts a field: ``Usage: ...``, ``Exit codes:``."""
    return _FIELD.match(text) is not None


def describes(text: str) -> bool:
    """Whether a header line can be the description: not a banner, a directive or a file-name label."""
    text = text.strip()
    if not re.search(r"[^\W_]", text) or _NOT_PROSE.match(text):  # a letter or digit of any script
        return False
    return not (_LABEL.match(text) and re.search(r"\.(sh|bash|py)\b|::", text))


def shell_header(lines: list[str]) -> Header | None:
    """The comment block after the shebang (or at the top when there is none); after a block
    that holds only a copyright and licence notice (``# Copyright IBM Corp. 2025`` /
    ``# SPDX-License-Identifier: MPL-2.0``), the block that blank lines part from it."""
    start = 1 if lines and lines[0].startswith("#!") else 0
    block = _comment_block(lines, start)
    if block and all(_LEGAL.match(text.strip()) or not text.strip() for text in block):
        after = start + len(block)
        while after < len(lines) and not lines[after].strip():
            after += 1
        if after > start + len(block) and (later := _comment_block(lines, after)):
            return parse_block(later, after + 1, "comment")
    if not block:
        return None
    return parse_block(block, start + 1, "comment")


#: a line of a copyright and licence notice
_LEGAL = re.compile(r"^(?:copyright\b|\(c\)|©|spdx-|licen[sc]ed\b|all rights reserved)", re.IGNORECASE)


def _comment_block(lines: list[str], start: int) -> list[str]:
    """The comment lines from line index *start* on, markers removed, up to the first other line."""
    block: list[str] = []
    for text in lines[start:]:
        stripped = text.lstrip()
        if not stripped.startswith("#") or stripped.startswith("#!"):
            break
        body = stripped[1:]
        block.append(body[1:] if body.startswith(" ") else body)
    return block


#: a module-level line that may come before a script's describing comment
_PREAMBLE = re.compile(r"^(?:import\s|from\s+\S+\s+import\s|#!|#.*coding[:=]|\s*$)")


def describing_comment(lines: list[str]) -> int | None:
    """The line of the comment that says what a Python script does when it stands after the
    imports instead of in a docstring (``# Converts each page of a PDF to a PNG image.``), or None.
    A block of comments that opens with a copyright notice (``# COPYRIGHT NOTICE`` / ``# This file is
    part of the "X" project.``) says whose the file is, not what it does; a description above a
    ``# Copyright`` line still is one."""
    notice = None  # whether the comment block the line is in opens with a copyright notice (None: not in one)
    for number, text in enumerate(lines[:60], 1):
        stripped = text.strip()
        if stripped.startswith("#") and not stripped.startswith("#!"):
            body = stripped.lstrip("#").strip()
            if notice is None:
                notice = bool(_LEGAL.match(body))
            if not notice and len(body.split()) >= 3 and describes(body):
                return number
            continue
        notice = None
        if not _PREAMBLE.match(text):
            return None
    return None


def python_header(docstring: str | None, first_line: int) -> Header | None:
    if docstring is None:
        return None
    lines = docstring.splitlines()
    # the opening quotes share the first line; strip common indentation of the rest
    rest = [ln for ln in lines[1:] if ln.strip()]
    indent = min((len(ln) - len(ln.lstrip()) for ln in rest), default=0)
    lines = [lines[0].strip()] + [ln[indent:] for ln in lines[1:]] if lines else []
    return parse_block(lines, first_line, "docstring")
