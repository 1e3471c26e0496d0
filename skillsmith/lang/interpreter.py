"""Which language a script is written in: by its file name's suffix or by its shebang's interpreter.

A shebang may name the interpreter (``#!/usr/bin/python3``, ``#!/usr/bin/env bash``) or a
launcher that picks one: ``#!/usr/bin/env -S uv run --script`` runs a PEP 723 script with the
dependencies its ``# /// script`` block declares. A launcher is the interpreter it starts.
"""

from __future__ import annotations

import re
import shlex

SCRIPT_SUFFIXES = {".py": "python", ".sh": "shell", ".bash": "shell"}
#: the shebang an entry script of each language starts with
SHEBANGS = {"python": "#!/usr/bin/env python3", "shell": "#!/usr/bin/env bash"}
#: the shebang of a PEP 723 script (a ``# /// script`` block): ``uv run --script`` installs what it declares
PEP723_SHEBANG = "#!/usr/bin/env -S uv run --script"
SHELL_INTERPRETERS = {"bash", "sh", "zsh", "dash", "ksh"}
PYTHON_INTERPRETERS = {"python", "python3", "pypy", "pypy3"}
#: launchers of Python scripts (``uv run --script``, ``pipx run``, ``poetry run python``)
PYTHON_LAUNCHERS = {"uv", "uvx", "pipx", "poetry", "pdm", "hatch", "rye"}
#: launchers that start whatever interpreter follows them (``conda run -n env python``)
LAUNCHERS = PYTHON_LAUNCHERS | {"conda", "mamba", "micromamba", "pixi", "pyenv", "nix-shell", "asdf", "mise"}
#: interpreters of other languages: a .py or .sh file run by one of them is a mismatch
OTHER_INTERPRETERS = {"node", "nodejs", "deno", "bun", "tsx", "ts-node", "ruby", "perl", "php", "Rscript", "lua",
                      "osascript", "pwsh", "fish", "tclsh", "awk", "gawk", "julia"}


def python_shebang(lines: list[str], invocations: tuple[str, ...] | list[str] = ()) -> str:
    """The shebang that runs this Python script as it is meant to run: ``uv run --script`` for a
    PEP 723 script whose ``# /// script`` block declares dependencies (the runner installs them)
    or that its skill runs with ``uv run`` (*invocations*), else ``python3`` (a block that declares
    none, such as only ``requires-python``, needs no runner)."""
    block = pep723_block(lines)
    if block is None:
        return SHEBANGS["python"]
    if any(re.match(r"(\S+=\S*\s+)*uv\s+run\b", i) for i in invocations):
        return PEP723_SHEBANG
    import tomllib

    try:
        metadata = tomllib.loads("\n".join(block))
    except tomllib.TOMLDecodeError:
        return PEP723_SHEBANG  # the runner reads it: what it holds is not known here
    return PEP723_SHEBANG if metadata.get("dependencies") else SHEBANGS["python"]


def pep723_block(lines: list[str], limit: int = 200) -> list[str] | None:
    """The TOML of a leading ``# /// script`` block (PEP 723), comment markers removed, or None."""
    for i, line in enumerate(lines[:limit]):
        if line.rstrip() == "# /// script":
            body = []
            for item in lines[i + 1:i + 1 + limit]:
                if item.rstrip() == "# ///":
                    return body
                if not item.startswith("#"):
                    return None
                body.append(item[2:] if item.startswith("# ") else item[1:])
            return None
    return None


def interpreter_language(interp: str | None) -> str | None:
    """``python`` or ``shell`` for an interpreter (or launcher) name, else None."""
    if interp is None:
        return None
    if interp in SHELL_INTERPRETERS:
        return "shell"
    if interp in PYTHON_INTERPRETERS or re.fullmatch(r"python\d[\d.]*", interp) or interp in PYTHON_LAUNCHERS:
        return "python"
    return None


def is_other_language(interp: str | None) -> bool:
    """Whether *interp* runs a language skillsmith does not check as a script (node, ruby, ...)."""
    return interp in OTHER_INTERPRETERS


_INTERPRETER = re.compile(r"^#!\s*(?:\S*/)?(?:env\s+(?:-\S+\s+)*)?([A-Za-z0-9_.+-]+)")


def shebang_interpreter(shebang: str | None) -> str | None:
    """``python3`` for ``#!/usr/bin/env python3``, ``bash`` for ``#!/bin/bash -e``.

    A launcher is followed to the interpreter it is told to run (``conda run -n x python`` is
    ``python``); a launcher of Python scripts is itself the answer when none follows
    (``env -S uv run --script`` is ``uv``).
    """
    if not shebang:
        return None
    m = _INTERPRETER.match(shebang)
    if not m:
        return None
    first = m.group(1)
    if first not in LAUNCHERS:
        return first
    try:
        words = shlex.split(shebang[m.end():])
    except ValueError:
        words = shebang[m.end():].split()
    for word in words:
        name = word.rsplit("/", 1)[-1]
        if interpreter_language(name) is not None and name not in LAUNCHERS:
            return name
    return first
