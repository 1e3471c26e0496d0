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
    sys.stdout.write(indented_json(doc))
    sys.stdout.write("\n")


_SCALARS = (str, int, float, type(None))


class _NotPlain(Exception):
    """A value :func:`indented_json` leaves to ``json.dumps`` itself."""


def indented_json(doc: Any) -> str:
    """``json.dumps(doc, indent=2, ensure_ascii=False)``, the same text, faster for many small objects.

    ``json`` indents with its pure-Python encoder; here each object whose values are all
    scalars (a finding) is one call of the C encoder, with the newline and indent as its item
    separator. Anything else (keys that are not strings, other types) goes to ``json.dumps``.
    """
    import json  # here, not at the top: ``--help`` does not need it

    def dumped(value: Any, depth: int) -> str:
        pad, outer = "  " * (depth + 1), "  " * depth
        if isinstance(value, dict):
            if not value:
                return "{}"
            if not all(isinstance(k, str) for k in value):
                raise _NotPlain
            if all(isinstance(v, _SCALARS) for v in value.values()):
                body = json.dumps(value, ensure_ascii=False, separators=(",\n" + pad, ": "))
                return "{\n" + pad + body[1:-1] + "\n" + outer + "}"
            inner = (pad + json.dumps(k, ensure_ascii=False) + ": " + dumped(v, depth + 1) for k, v in value.items())
            return "".join(("{\n", ",\n".join(inner), "\n", outer, "}"))
        if isinstance(value, (list, tuple)):
            if not value:
                return "[]"
            if all(type(v) is dict and v and all(type(k) is str and isinstance(x, _SCALARS) for k, x in v.items())
                   for v in value):
                # a list of flat objects (the findings) in one call: the C encoder writes the
                # members' separator between the objects too, and a JSON string holds no raw
                # newline, so "},<separator>{" is found only between two objects
                inner = ",\n" + pad + "  "
                body = json.dumps(value, ensure_ascii=False, separators=(inner, ": "))[2:-2]
                body = body.replace("}" + inner + "{", "\n" + pad + "},\n" + pad + "{" + inner[1:])
                return "".join(("[\n", pad, "{", inner[1:], body, "\n", pad, "}\n", outer, "]"))  # one copy of a long text
            return "[\n" + ",\n".join(pad + dumped(v, depth + 1) for v in value) + "\n" + outer + "]"
        if isinstance(value, _SCALARS):
            return json.dumps(value, ensure_ascii=False)
        raise _NotPlain

    try:
        return dumped(doc, 0)
    except _NotPlain:
        return json.dumps(doc, indent=2, ensure_ascii=False)


def emit_error(error: SkillsmithError, as_json: bool) -> int:
    """Report *error*: a human line on stderr, plus the JSON error envelope on stdout."""
    note(f"skillsmith: error: {error.message}")
    if as_json:
        doc = {"error": {"code": error.code, "message": error.message, "details": error.details}}
        sys.stdout.write(indented_json(doc) + "\n")
    return error.exit_code
