"""``path:line:col: ID message`` per finding on stdout; a summary on stderr."""

from __future__ import annotations

from skillsmith import output
from skillsmith.reporters import summary


def report(result) -> None:
    for f in result.findings:
        sev = "" if f.severity == "error" else f" ({f.severity})"
        fix = " [*]" if f.fix == "safe" else ""
        output.data(f"{f.display_path()}:{f.line}:{f.column}: {f.rule}{fix} {f.message}{sev}")
    colour = "green" if not result.findings else "red"
    output.note(output.paint(summary(result), colour))
