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
    scalars is one call of the C encoder, with the newline and indent as its item separator, and
    a list of flat objects with the same keys (the findings) is written with its keys encoded
    once (:func:`_alike_objects`). Anything else (keys that are not strings, other types) goes
    to ``json.dumps``.
    """
    import json  # here, not at the top: ``--help`` does not need it

    pieces: list[str] = []  # joined once at the end: a long report is not copied at every level
    put = pieces.append

    def dump(value: Any, depth: int) -> None:
        pad, outer = "  " * (depth + 1), "  " * depth
        if isinstance(value, dict):
            if not value:
                put("{}")
                return
            if not all(isinstance(k, str) for k in value):
                raise _NotPlain
            if all(isinstance(v, _SCALARS) for v in value.values()):
                body = json.dumps(value, ensure_ascii=False, separators=(",\n" + pad, ": "))
                put("{\n" + pad + body[1:-1] + "\n" + outer + "}")
                return
            put("{\n")
            for i, (k, v) in enumerate(value.items()):
                put((",\n" if i else "") + pad + json.dumps(k, ensure_ascii=False) + ": ")
                dump(v, depth + 1)
            put("\n" + outer + "}")
            return
        if isinstance(value, (list, tuple)):
            if not value:
                put("[]")
                return
            alike = _alike_objects(value, depth, json.encoder.encode_basestring)
            if alike is not None:
                pieces.extend(alike)
                return
            put("[\n")
            for i, v in enumerate(value):
                put((",\n" if i else "") + pad)
                dump(v, depth + 1)
            put("\n" + outer + "]")
            return
        if isinstance(value, _SCALARS):
            put(json.dumps(value, ensure_ascii=False))
            return
        raise _NotPlain

    try:
        dump(doc, 0)
    except _NotPlain:
        return json.dumps(doc, indent=2, ensure_ascii=False)
    return "".join(pieces)


def _alike_objects(items, depth: int, encode) -> list[str] | None:
    """The pieces of the indented text of *items* (at *depth*) when they are flat objects with the
    same keys in the same order (a report's findings), else None.

    The keys are written once for all objects; each value as ``json.dumps`` writes it: a string
    through the encoder's own ``encode_basestring`` (what ``ensure_ascii=False`` uses), an int
    by ``int.__repr__``, ``true``, ``false``, ``null``. Anything else (a float, a nested value,
    an object with other keys) leaves the list to the general path.
    """
    first = items[0]
    if type(first) is not dict or not first or not all(type(k) is str for k in first):
        return None
    keys = list(first)
    pad, inner = "  " * (depth + 1), "  " * (depth + 2)
    heads = [("{\n" if i == 0 else ",\n") + inner + encode(k) + ": " for i, k in enumerate(keys)]
    close = "\n" + pad + "}"
    between = ",\n" + pad
    out = ["[\n" + pad]
    for item in items:
        if type(item) is not dict or list(item) != keys:
            return None
        parts = []
        for head, value in zip(heads, item.values()):
            kind = type(value)
            if kind is str:
                text = encode(value)
            elif kind is int:
                text = int.__repr__(value)
            elif value is None:
                text = "null"
            elif value is True:
                text = "true"
            elif value is False:
                text = "false"
            else:
                return None
            parts.append(head)
            parts.append(text)
        parts.append(close)
        out.append("".join(parts))
        out.append(between)
    out[-1] = "\n" + "  " * depth + "]"
    return out


def emit_error(error: SkillsmithError, as_json: bool) -> int:
    """Report *error*: a human line on stderr, plus the JSON error envelope on stdout."""
    note(f"skillsmith: error: {error.message}")
    if as_json:
        doc = {"error": {"code": error.code, "message": error.message, "details": error.details}}
        sys.stdout.write(indented_json(doc) + "\n")
    return error.exit_code
