"""A finding: one rule violated at one place."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

SEVERITIES = ("error", "warning", "info")
#: a hit's ``fix`` when it has the fix its rule declares
DECLARED = "declared"
#: fix levels, least to most: a hit may lower its rule's declared fix, never raise it
FIX_LEVELS = (None, "unsafe", "safe")


@dataclass(frozen=True)
class Hit:
    """What a rule's check yields: where and what. The engine adds the rule's metadata."""

    path: Path
    message: str
    line: int = 1
    column: int = 1
    end_line: int | None = None
    end_column: int | None = None
    code: str | None = None  # an external tool's own code (ShellCheck's SC2086) instead of the rule's ID
    #: what ``fix`` can do for this finding: ``safe``, ``unsafe`` or None (a person must), or the rule's declared fix
    fix: str | None = DECLARED


def finding_fix(hit_fix: str | None, declared: str | None) -> str | None:
    """The fix a finding shows: the hit's own, but never more than its rule declares."""
    if hit_fix == DECLARED:
        return declared
    return hit_fix if FIX_LEVELS.index(hit_fix) <= FIX_LEVELS.index(declared) else declared


@dataclass(frozen=True, order=True)
class Finding:
    path: str  # absolute, POSIX form; shown relative to the current directory
    line: int
    column: int
    rule: str
    message: str = field(compare=False)
    severity: str = field(compare=False, default="error")
    end_line: int | None = field(compare=False, default=None)
    end_column: int | None = field(compare=False, default=None)
    fix: str | None = field(compare=False, default=None)  # "safe" | "unsafe" | None

    def display_path(self) -> str:
        return display_path(self.path)

    def to_json(self) -> dict:
        return {"rule": self.rule, "path": self.display_path(), "line": self.line, "column": self.column,
                "end_line": self.end_line, "end_column": self.end_column, "severity": self.severity,
                "message": self.message, "fix": self.fix}


def display_path(path: str | Path) -> str:
    """*path* relative to the current directory when it is below it, else as given."""
    path = str(path)
    folder, name = os.path.split(path)
    if folder and name not in ("", ".", "..") and os.sep == "/":
        # a report names many files of few folders: each folder is made relative once
        shown = _display_folder(folder, os.getcwd())
        if shown is None:
            return printable(Path(path).as_posix())
        return printable(name if shown == "." else f"{shown}/{name}")
    try:
        rel = os.path.relpath(path)
    except ValueError:  # another drive on Windows
        return printable(Path(path).as_posix())
    if rel.startswith(".." + os.sep) or rel == "..":
        return printable(Path(path).as_posix())
    return printable(Path(rel).as_posix())


@lru_cache(maxsize=4096)
def _display_folder(folder: str, cwd: str) -> str | None:
    """*folder* relative to *cwd* (POSIX), or None when it is not below it."""
    rel = os.path.relpath(folder, cwd)
    return None if rel.startswith("../") or rel == ".." else rel


def printable(text: str) -> str:
    """*text* with the undecodable bytes of file names (lone surrogates) as ``\\xNN`` escapes.

    File names on POSIX are bytes; Python carries the ones that are not UTF-8 as lone
    surrogates, which cannot be written as UTF-8 text or JSON.
    """
    if text.isascii():
        return text
    try:
        return text.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
    except UnicodeEncodeError:
        return text.encode("utf-8", "backslashreplace").decode("utf-8")
