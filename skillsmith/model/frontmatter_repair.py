"""Repair of SKILL.md frontmatter that is not valid YAML, where the author's intent is unambiguous.

The common breakages are values YAML reads as structure although the author wrote text: a
``: `` inside a plain value (``description: Use when: the user asks``), a value that starts
with a character YAML reserves (``@``, a backtick, ``%``, ``*``), ``argument-hint: [file]
[options]`` (a flow list followed by more text), a quoted string followed by more text,
a value continued on an unindented line, and tabs used for indentation. :func:`repair`
quotes such a value (or turns the tabs of a block into spaces) and nothing else:

- the frontmatter is cut into its top-level entries (a ``key:`` line and the lines that
  belong to it); only an entry that does not parse on its own is touched, and only the
  lines of its value; every other byte of the file (BOM, CRLF or LF per line, comments, key
  order, the body) is kept;
- a value is quoted in single quotes unless it holds ``'`` and double quotes need fewer
  escapes (``\\`` and ``"``); single quotes write ``'`` as ``''``;
- the result must parse with the safe loader (:func:`skillsmith.model.frontmatter.parse`),
  have the same top-level keys, and give each repaired value the text the author wrote
  (the plain value's lines folded with single spaces, as YAML folds them).

Refused (the file stays as it is and ``SPC004`` says what broke and how to quote it): tags
(``!!python/...``), anchors and aliases, block scalars, a quoted value that does not close on
its line, a flow list or map in a field that is not text or whose brackets do not balance,
a ``#`` after a space (a comment or text?), a ``: `` after a known field name (a line
break lost: ``...text. license: MIT``), continuation lines that look like keys or list
items, indentation mixing tabs and spaces, control characters, text that is not UTF-8,
line separators other than LF and CRLF, and frontmatter over the size limit.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from skillsmith.model import frontmatter

#: fields whose value is text by definition: a value starting with ``[`` or ``{`` there is text
TEXT_FIELDS = frozenset({"name", "description", "license", "compatibility", "argument-hint", "when_to_use", "model"})
#: a ``: `` after one of these inside a value is a lost line break, not text (with the targets' fields)
_FIELD_WORDS = frozenset({"name", "description", "license", "compatibility", "metadata", "allowed-tools", "origin",
                          "author", "version", "tags"})
_KEY = re.compile(r"(?P<key>[A-Za-z0-9_][A-Za-z0-9_.\-]*)[ ]*:(?=[ \t]|$)")
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\ufeff\u2028\u2029]")
_WORD_BEFORE_COLON = re.compile(r"(?<![A-Za-z0-9_-])[A-Za-z_][A-Za-z0-9_-]*(?=:(?:[ \t]|$))")
#: a word glued to one of these before its ``:`` starts a field whose line break was lost
_SENTENCE_END = ".!?;,)]}\u3002\uff01\uff1f\uff1b\uff0c\u3001\uff09\u300d\u300f"
#: characters YAML reserves that cannot start a plain value, and that start no structure in a block value
_RESERVED_START = "@`%,]}"
#: at most this many entries are repaired in one file, in blocks nested at most this deep
MAX_REPAIRS = 32
MAX_DEPTH = 8


@dataclass(frozen=True)
class Repair:
    """What :func:`repair` decided for one SKILL.md whose frontmatter is broken YAML.

    ``data``: the repaired file's bytes, or None when the repair is refused; ``message``:
    which character broke the YAML (line, column) and what the repair does, or how to quote
    the value by hand when it is refused.
    """

    data: bytes | None
    message: str


class _Refused(Exception):
    pass


@dataclass
class _Entry:
    index: int  # index of the key line in the frontmatter's lines (0: the opening ---)
    indent: int
    key: str
    value_col: int  # 0-based column where the value starts on the key line
    value: str  # the key line's value, without trailing whitespace
    rest: list[int]  # indices of the lines that belong to the entry after the key line


def repair(md) -> Repair | None:
    """The repair of *md*'s frontmatter (a :class:`~skillsmith.model.sourcefile.SourceFile`), or None.

    None when *md* has no frontmatter that is broken YAML (it parses, is missing or unclosed,
    or is not text). Otherwise a :class:`Repair` whose ``data`` is None when the intent is
    not unambiguous. Never raises for any input; constructs nothing but safe YAML.
    """
    text = md.text
    if text is None:
        return None
    fm = frontmatter.parse(text)
    if fm.error is None or fm.error.kind != "yaml":
        return None
    where = f"line {fm.error.line}, column {fm.error.column}"
    if len(fm.raw.encode("utf-8", "replace")) > frontmatter.MAX_FRONTMATTER_BYTES:
        return Repair(None, "not repaired: the frontmatter is over the size limit")
    edits: dict[int, str] = {}
    checks: list[tuple[tuple[str, ...], str]] = []
    notes: list[tuple[str, str]] = []  # (what broke, what the fix does)
    try:
        lines, raw_lines, ends = _lines(md, fm.end_line)
        top = _entries(lines, 1, fm.end_line - 1, 0)
        for entry in top:
            _repair_entry(lines, entry, (), top, edits, checks, notes)
            if len(checks) + len(notes) > MAX_REPAIRS:
                raise _Refused(f"more than {MAX_REPAIRS} values are broken; not repaired")
        if not edits:
            raise _Refused(f"the YAML breaks at {where}; quote the value there, e.g. key: '...' "
                           "(in single quotes, write each ' as '')")
        data = _apply(md, raw_lines, ends, edits)
        _verify(data, md, top, checks)
    except RecursionError:
        return Repair(None, "not repaired: the frontmatter is nested too deeply")
    except _Refused as why:
        return Repair(None, "; ".join([*(note for note, _ in notes), str(why)]))
    return Repair(data, "; ".join(f"{note}; `fix` {does}" for note, does in notes))


# -- lines -------------------------------------------------------------------------------------


def _lines(md, end_line: int) -> tuple[list[str], list[bytes], list[bytes]]:
    """The file's lines as text, as bytes without their ending, and their endings (LF or CRLF).

    Refused when the frontmatter's lines are not exactly what the parse saw: other line
    separators (a lone CR, U+2028, form feeds) would make the lines the repair edits differ
    from the lines YAML reads.
    """
    data = md.data or b""
    if md.bom:
        data = data[3:]
    raw_lines, ends = [], []
    segments = data.split(b"\n")
    for n, segment in enumerate(segments):
        if segment.endswith(b"\r") and n < len(segments) - 1:
            raw_lines.append(segment[:-1])
            ends.append(b"\r\n")
        else:
            raw_lines.append(segment)
            ends.append(b"\n")
    ends[-1] = b""
    try:
        lines = [ln.decode("utf-8") for ln in raw_lines[:end_line]]
    except UnicodeDecodeError:
        raise _Refused("not repaired: the frontmatter is not UTF-8") from None
    if lines != md.text.splitlines()[:end_line] or any("\r" in ln for ln in lines):
        raise _Refused("not repaired: the frontmatter has line separators other than LF and CRLF")
    return lines, raw_lines, ends


def _indent(line: str) -> str:
    return line[:len(line) - len(line.lstrip(" \t"))]


def _is_blank_or_comment(line: str) -> bool:
    s = line.strip(" \t")
    return not s or s.startswith("#")


def _key_at(line: str, indent: int) -> re.Match | None:
    """The ``key:`` at exactly *indent* spaces on *line*, or None."""
    if len(_indent(line)) != indent or "\t" in _indent(line):
        return None
    return _KEY.match(line, indent)


def _entries(lines: list[str], start: int, end: int, indent: int) -> list[_Entry]:
    """The entries at *indent* among ``lines[start:end]``; lines before the first key must be blank or comments."""
    out: list[_Entry] = []
    for i in range(start, end):
        line = lines[i]
        m = _key_at(line, indent)
        if m is not None:
            after = line[m.end():]
            col = m.end() + (len(after) - len(after.lstrip(" \t")))
            out.append(_Entry(i, indent, m.group("key"), col, line[col:].rstrip(" \t"), []))
        elif out:
            out[-1].rest.append(i)
        elif not _is_blank_or_comment(line):
            raise _Refused(f"line {i + 1} is not a 'key: value' line; not repaired")
    return out


# -- one entry ---------------------------------------------------------------------------------


def _standalone_error(lines: list[str], entry: _Entry):
    """The parse error of *entry*'s lines alone (a FrontmatterError with file positions), or None."""
    last = max([entry.index, *entry.rest])
    chunk = "\n".join(lines[entry.index:last + 1])
    _, _, error = frontmatter.load_yaml(chunk, line_offset=entry.index)
    return error


def _at(lines: list[str], error) -> str:
    """"the 'X' at line L, column C" for the character a parse error points at."""
    line = lines[error.line - 1] if 0 < error.line <= len(lines) else ""
    ch = line[error.column - 1] if 0 < error.column <= len(line) else ""
    shown = {"\t": "tab", "": "end of the line"}.get(ch, repr(ch))
    return f"the {shown} at line {error.line}, column {error.column}"


def _how(key: str, value: str) -> str:
    """How to quote *value* by hand, shown on a short preview."""
    preview = value if len(value) <= 40 else value[:37] + "..."
    return f"quote it: {key}: '{preview.replace(chr(39), chr(39) * 2)}' (in single quotes, write each ' as '')"


def _how_item(lines: list[str], error) -> str:
    """How to quote the item of a flow list or map that the parse *error* points at
    (``keywords: [state, @riverpod]``: quote ``'@riverpod'``), or "" when it is not on one line."""
    line = lines[error.line - 1] if 0 < error.line <= len(lines) else ""
    at = error.column - 1
    if not 0 <= at < len(line) or line[at] in ",[]{}":
        return ""
    start = max(line.rfind(c, 0, at) for c in ",[{") + 1
    ends = [i for i in (line.find(c, at) for c in ",]}") if i != -1]
    if not start or not ends:
        return ""
    item = line[start:min(ends)].strip()
    if not item or "'" in item or '"' in item or ":" in item:
        return ""
    if item[0] in "@`%":  # characters that cannot start a plain value: every such item breaks it
        return f"quote each item that starts with '{item[0]}', as '{item}'"
    return f"quote the item that breaks it: '{item}'"


def _repair_entry(lines, entry: _Entry, parent: tuple[str, ...], siblings, edits, checks, notes) -> None:
    error = _standalone_error(lines, entry)
    if error is None:
        return
    path = (*parent, entry.key)
    at = _at(lines, error)
    v = entry.value
    name = "'" + ".".join(path) + "'"

    def refuse(why: str, text: str = v, how: str = "", instead: str = ""):
        """Refuse the repair: *how* leads the hint to quote *text*, which *instead* replaces."""
        raise _Refused(f"{at} breaks the value of {name}; not repaired: {why}; {instead or how + _how(entry.key, text)}")

    if not v:
        _repair_block(lines, entry, path, siblings, edits, checks, notes, error)
        return
    if v[0] in "|>":
        refuse("the YAML breaks inside a block scalar")
    if v[0] in "!&":
        refuse("tags and anchors are never reinterpreted")
    if v[0] in "\"'":
        close = _quote_end(v)
        if close is None:
            refuse("a quoted value that does not close on its line")
        tail = v[close + 1:]
        if not tail.strip() or tail.lstrip().startswith("#"):
            refuse("the quoted value is not what breaks")
        why = "a quoted string followed by more text"
    elif v[0] in "[{":
        if entry.key not in TEXT_FIELDS or not parent == ():
            refuse(f"'{v[0]}' starts a flow {'list' if v[0] == '[' else 'map'} that is not valid YAML",
                   instead=_how_item(lines, error))
        close = _bracket_end(v)
        if close is None or not v[close + 1:].strip():
            refuse(f"'{v[0]}' starts a flow {'list' if v[0] == '[' else 'map'} that is not valid YAML")
        why = f"text that starts with '{v[0]}' (not a list)"
    elif v[0] == "*":
        if not re.search(r"\s", v):
            refuse("an alias (aliases are not allowed in frontmatter)")
        why = "text that starts with '*' (an alias)"
    else:
        why = ""
    parts = _value_lines(lines, entry, refuse)
    scalar = [lines[parts[0]][entry.value_col:].rstrip(" \t")] + [lines[i].strip(" \t") for i in parts[1:]]
    joined = " ".join(scalar)
    if not why:
        stray = [i for i in parts[1:] if len(_indent(lines[i])) <= entry.indent]
        if v[0] in _RESERVED_START:
            why = f"'{v[0]}' cannot start a plain value"
        elif re.search(r":[ \t]", joined):
            why = "a ': ' inside a plain value starts a mapping"
        elif joined.endswith(":"):
            why = "a ':' at the end of a plain value starts a mapping"
        elif stray:
            at, why = f"line {stray[0] + 1}", "it continues the value on a line without indentation"
        else:
            refuse("the plain value does not parse", joined)
    for piece in scalar:
        if _CONTROL.search(piece):
            refuse("it holds a control character, which no quoting allows", joined)
        if re.search(r"[ \t]#", piece):
            refuse("' #' starts a comment in YAML: is the rest a comment or text?", joined)
    for m in _WORD_BEFORE_COLON.finditer(joined):
        word, before = m.group(), joined[m.start() - 1] if m.start() else " "
        if word in _field_words() or before in _SENTENCE_END or (not before.isascii() and before.isalnum()):
            refuse(f"'{word}:' inside it looks like a field whose line break was lost",
                   joined, f"put '{word}:' on its own line, or, if it is text, ")
    expected = " ".join(scalar)
    _quote(lines, entry, parts, scalar, edits)
    checks.append((path, expected))
    notes.append((f"{at} breaks the value of {name} ({why})", "quotes it"))


def _field_words() -> frozenset:
    from skillsmith.targets import TARGETS

    return _FIELD_WORDS | {f for t in TARGETS for f in t.fields}


def _value_lines(lines, entry: _Entry, refuse) -> list[int]:
    """The key line and the continuation lines of a plain value (indented, or stray at the key's indent)."""
    parts = [entry.index]
    ended = False
    for i in entry.rest:
        line = lines[i]
        if _is_blank_or_comment(line):
            ended = True
            continue
        if ended:
            refuse(f"line {i + 1} follows a blank line or comment inside the value")
        stripped = line.strip(" \t")
        if len(_indent(line)) < entry.indent:
            refuse(f"line {i + 1} is indented less than its key")
        if "\t" in _indent(line):
            refuse(f"line {i + 1} is indented with a tab")
        if stripped.startswith(("- ", "-\t")) or stripped == "-" or _KEY.match(stripped):
            refuse(f"line {i + 1} looks like a key or a list item, not the value's text")
        parts.append(i)
    return parts


def _repair_block(lines, entry: _Entry, path, siblings, edits, checks, notes, error) -> None:
    """An entry with an empty value: a nested block, maybe indented with tabs."""
    if len(path) > MAX_DEPTH:
        raise _Refused(f"{_at(lines, error)}: the YAML breaks in a block nested more than {MAX_DEPTH} deep; not repaired")
    body = [i for i in entry.rest if not _is_blank_or_comment(lines[i])]
    if not body:
        raise _Refused(f"{_at(lines, error)}: the YAML breaks in the value of '{'.'.join(path)}'; "
                       "quote the value there, e.g. key: '...'")
    indents = {_indent(lines[i]) for i in body}
    at = _at(lines, error)
    if any("\t" in ind for ind in indents):
        if entry.indent != 0 or any(set(ind) != {"\t"} for ind in indents):
            raise _Refused(f"line {body[0] + 1}: the lines under '{'.'.join(path)}' mix tabs and spaces in their "
                           "indentation, so their nesting is not clear; indent them with spaces only")
        for i in entry.rest:
            ind = _indent(lines[i])
            if ind and set(ind) == {"\t"}:
                lines[i] = "  " * len(ind) + lines[i][len(ind):]
                edits[i] = lines[i]
        notes.append((f"{at}: tabs indent the lines under '{'.'.join(path)}' (YAML allows only spaces)",
                      "indents them with two spaces per tab"))
        if _standalone_error(lines, entry) is None:
            return
        indents = {_indent(lines[i]) for i in body}
    child = min(len(ind) for ind in indents)
    if child <= entry.indent or any(lines[i].lstrip(" ").startswith(("- ", "-\t")) for i in body):
        raise _Refused(f"{_at(lines, error)}: the YAML breaks in the block under '{'.'.join(path)}'; "
                       "quote the broken value there, e.g. key: '...'")
    inner = _entries(lines, entry.rest[0], entry.rest[-1] + 1, child)
    for sub in inner:
        _repair_entry(lines, sub, path, inner, edits, checks, notes)


def _quote_end(v: str) -> int | None:
    """The index of the quote that closes the quoted scalar *v* starts with, or None."""
    q = v[0]
    i = 1
    while i < len(v):
        if q == "'" and v[i] == "'":
            if v[i + 1:i + 2] == "'":
                i += 2
                continue
            return i
        if q == '"' and v[i] == "\\":
            i += 2
            continue
        if q == '"' and v[i] == '"':
            return i
        i += 1
    return None


def _bracket_end(v: str) -> int | None:
    """The index of the bracket that closes the one *v* starts with, or None."""
    depth = 0
    for i, ch in enumerate(v):
        if ch in "[{":
            depth += 1
        elif ch in "]}":
            depth -= 1
            if depth == 0:
                return i
    return None


def _quote(lines, entry: _Entry, parts: list[int], scalar: list[str], edits) -> None:
    """Put the value's lines between quotes: single quotes unless double quotes need fewer escapes."""
    text = "".join(scalar)
    single = text.count("'")
    double = text.count('"') + text.count("\\")
    q = '"' if single and double < single else "'"

    def escaped(s: str) -> str:
        return s.replace("\\", "\\\\").replace('"', '\\"') if q == '"' else s.replace("'", "''")

    for n, i in enumerate(parts):
        line = lines[i]
        start = entry.value_col if n == 0 else len(_indent(line))
        end = len(line.rstrip(" \t"))
        lead = line[:start]
        if n and len(lead) <= entry.indent:  # a stray continuation line: indent it under its key
            lead = " " * (entry.indent + 2)
        new = lead + (q if n == 0 else "") + escaped(line[start:end]) + (q if n == len(parts) - 1 else "") + line[end:]
        lines[i] = new
        edits[i] = new


# -- the result --------------------------------------------------------------------------------


def _apply(md, raw_lines: list[bytes], ends: list[bytes], edits: dict[int, str]) -> bytes:
    out = [(edits[i].encode("utf-8") if i in edits else raw) + end for i, (raw, end) in enumerate(zip(raw_lines, ends))]
    return (b"\xef\xbb\xbf" if md.bom else b"") + b"".join(out)


def _verify(data: bytes, md, top: list[_Entry], checks) -> None:
    """Refuse unless *data* parses safely, keeps the top-level keys and gives each repaired value its text."""
    from skillsmith.model.sourcefile import SourceFile

    new = SourceFile.from_bytes(md.path, md.rel, data, md.mode)
    fm = frontmatter.parse(new.text or "")
    if fm.error is not None or fm.data is None:
        where = f" ({fm.error.message} at line {fm.error.line}, column {fm.error.column})" if fm.error else ""
        raise _Refused(f"quoting the broken values does not make the frontmatter valid{where}; not repaired")
    if len(fm.data) != len(dict.fromkeys(e.key for e in top)):
        raise _Refused("quoting would change the frontmatter's fields; not repaired")
    for path, expected in checks:
        node = fm.data
        for key in path:
            node = node.get(key) if isinstance(node, dict) else None
        if node != expected:
            raise _Refused(f"quoting '{'.'.join(path)}' would not keep its text; not repaired")


def fixed_skill_md(source, unit) -> bytes | None:
    """File fixer of ``SPC004`` (``FileFixer`` of the spec's target): the repaired bytes of *source*, or None."""
    found = repair(source)
    return None if found is None else found.data
