"""``path:line:col: ID message`` per finding on stdout; a summary on stderr."""

from __future__ import annotations

import re

from skillsmith.cli import output
from skillsmith.reporters import summary

_CONTROL = re.compile(r"[\x00-\x08\x0a-\x1f\x7f]")


def one_line(text: str) -> str:
    """Control characters (a newline in a file name) escaped, so one finding stays one line."""
    return _CONTROL.sub(lambda m: repr(m.group())[1:-1], text)


def report(result) -> None:
    for f in result.findings:
        sev = "" if f.severity == "error" else f" ({f.severity})"
        fix = " [*]" if f.fix == "safe" else ""
        output.data(one_line(f"{f.display_path()}:{f.line}:{f.column}: {f.rule}{fix} {f.message}{sev}"))
    colour = "green" if not result.findings else "red"
    output.note(output.paint(summary(result), colour))
