"""``path:line:col: ID message`` per finding on stdout; with ``full``, the source line and a caret under it.

The ``full`` view reads each file with findings once more, to show its lines as the check
decoded them (encoding, BOM); a file that cannot be shown (gone, binary) gets the finding's
line alone.
"""

from __future__ import annotations

import re
from pathlib import Path

from skillsmith.cli import output

_CONTROL = re.compile(r"[\x00-\x08\x0a-\x1f\x7f]")

SEVERITY_COLOUR = {"error": "red", "warning": "yellow", "info": "cyan"}


def one_line(text: str) -> str:
    """Control characters (a newline in a file name) escaped, so one finding stays one line."""
    return _CONTROL.sub(lambda m: repr(m.group())[1:-1], text)


def report(result, view) -> None:
    lines_of: dict[str, list[str] | None] = {}
    for f in result.findings:
        output.data(headline(f, view.colour))
        if view.full:
            if f.path not in lines_of:
                lines_of[f.path] = source_lines(f.path)
            shown = snippet(f, lines_of[f.path], view.colour)
            if shown:
                output.data(shown)
                output.data("")


def headline(f, colour: bool) -> str:
    """``path:line:col: ID [*] message (severity)``; ``[*]``: ``skillsmith fix`` fixes it."""
    def paint(text: str, name: str) -> str:
        return output.paint(text, name, colour)

    sev = "" if f.severity == "error" else f" ({f.severity})"
    fix = " " + paint("[*]", "cyan") if f.fix == "safe" else ""
    where = one_line(f"{f.display_path()}:{f.line}:{f.column}:")
    return f"{paint(where, 'bold')} {paint(f.rule, SEVERITY_COLOUR[f.severity])}{fix} {one_line(f.message)}{sev}"


def source_lines(path: str) -> list[str] | None:
    """The lines of the file at *path* as the check reads them, or None when it cannot be shown."""
    from skillsmith.model.sourcefile import SourceFile

    p = Path(path)
    try:
        f = SourceFile.from_path(p, p.name, p.lstat())
    except OSError:
        return None
    return f.lines if f.text is not None else None


def snippet(f, lines: list[str] | None, colour: bool = False) -> str:
    """The gutter, the finding's source line and carets from its column to its end (ruff's ``full``)."""
    if not lines or not 1 <= f.line <= len(lines):
        return ""
    number = str(f.line)
    pad = " " * len(number)
    source = one_line(lines[f.line - 1].replace("\t", "    "))
    text = lines[f.line - 1]
    # the caret goes under the column as drawn: tabs are drawn as four spaces, control characters escaped
    drawn = len(one_line(text[: f.column - 1].replace("\t", "    ")))
    width = 1
    if f.end_line == f.line and f.end_column and f.end_column > f.column:
        width = len(one_line(text[f.column - 1: f.end_column - 1].replace("\t", "    "))) or 1
    carets = output.paint("^" * width, SEVERITY_COLOUR[f.severity], colour)
    bar = output.paint("|", "dim", colour)
    return "\n".join([
        f"{pad} {bar}",
        f"{output.paint(number, 'dim', colour)} {bar} {source}".rstrip(),
        f"{pad} {bar} {' ' * drawn}{carets} {f.rule}",
        f"{pad} {bar}",
    ])
