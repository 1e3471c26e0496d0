"""Which language a script is written in: by its file name's suffix or by its shebang's interpreter."""

from __future__ import annotations

import re

SCRIPT_SUFFIXES = {".py": "python", ".sh": "shell", ".bash": "shell"}
SHELL_INTERPRETERS = {"bash", "sh", "zsh", "dash", "ksh"}
PYTHON_INTERPRETERS = {"python", "python3"}


def interpreter_language(interp: str | None) -> str | None:
    if interp is None:
        return None
    if interp in SHELL_INTERPRETERS:
        return "shell"
    if interp in PYTHON_INTERPRETERS or interp.startswith("python3"):
        return "python"
    return None


_INTERPRETER = re.compile(r"^#!\s*(?:\S*/)?(?:env\s+(?:-\S+\s+)*)?([A-Za-z0-9_.+-]+)")


def shebang_interpreter(shebang: str | None) -> str | None:
    """``python3`` for ``#!/usr/bin/env python3``, ``bash`` for ``#!/bin/bash -e``."""
    if not shebang:
        return None
    m = _INTERPRETER.match(shebang)
    return m.group(1) if m else None
