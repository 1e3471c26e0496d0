"""Everything that reaches the terminal: data on stdout, the rest on stderr.

stdout carries data only (findings, JSON, SARIF, diffs). Notes, summaries and colour go to
stderr; colour only on a TTY and never with ``NO_COLOR``.
"""

from __future__ import annotations

import os
import sys
from typing import Any

from skillsmith.errors import SkillsmithError


def colour_terminal(stream) -> bool:
    """Whether *stream* is a terminal that may get colour: a TTY, no ``NO_COLOR``, not ``TERM=dumb``."""
    try:
        tty = stream.isatty()
    except (AttributeError, ValueError):  # closed or replaced
        return False
    return tty and not os.environ.get("NO_COLOR") and os.environ.get("TERM") != "dumb"


def stderr_colour() -> bool:
    return colour_terminal(sys.stderr)


def stdout_colour() -> bool:
    return colour_terminal(sys.stdout)


def paint(text: str, colour: str, on: bool | None = None) -> str:
    """Wrap *text* in an ANSI colour when *on* (default: when stderr is a colour terminal)."""
    codes = {"red": "31", "yellow": "33", "green": "32", "cyan": "36", "bold": "1", "dim": "2"}
    if not (stderr_colour() if on is None else on):
        return text
    return f"\033[{codes[colour]}m{text}\033[0m"


def program() -> str:
    """The command that runs this skillsmith, for hints a user can paste into the same shell.

    ``skillsmith`` when that name on ``PATH`` is the program that is running; otherwise the way
    it was started: ``python3 -m skillsmith`` (with the interpreter's path unless ``PATH`` finds
    the same one), or the path of the ``skillsmith`` script.
    """
    import shlex
    import shutil

    def on_path(path: str) -> str:
        name = os.path.basename(path)
        found = shutil.which(name)
        same = found is not None and os.path.abspath(found) == os.path.abspath(path)
        return name if same else shlex.quote(path)

    spec = getattr(sys.modules.get("__main__"), "__spec__", None)
    if spec is not None and spec.name in ("skillsmith", "skillsmith.__main__"):
        return f"{on_path(sys.executable)} -m skillsmith"
    return on_path(sys.argv[0]) if sys.argv and sys.argv[0] else "skillsmith"


def note(message: str) -> None:
    """A human line on stderr."""
    print(message, file=sys.stderr, flush=True)


def data(text: str) -> None:
    """A line of data on stdout."""
    sys.stdout.write(text if text.endswith("\n") else text + "\n")


def envelope(items: list[Any], schema: str) -> dict:
    return {"data": items, "meta": {"count": len(items), "schema": schema}}


def emit_json(items: list[Any], schema: str, **meta: Any) -> None:
    """Print the success envelope ``{"data": [...], "meta": {...}}`` on stdout."""
    doc = envelope(items, schema)
    doc["meta"].update(meta)
    import json  # here, not at the top: ``--help`` does not need it

    sys.stdout.write(json.dumps(doc, indent=2, ensure_ascii=False) + "\n")


def emit_error(error: SkillsmithError, as_json: bool) -> int:
    """Report *error*: a human line on stderr, plus the JSON error envelope on stdout."""
    note(f"skillsmith: error: {error.message}")
    if as_json:
        import json  # here, not at the top: ``--help`` does not need it

        doc = {"error": {"code": error.code, "message": error.message, "details": error.details}}
        sys.stdout.write(json.dumps(doc, indent=2, ensure_ascii=False) + "\n")
    return error.exit_code
