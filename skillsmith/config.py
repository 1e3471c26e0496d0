"""Configuration: ``[tool.skillsmith]`` in ``pyproject.toml`` or a ``skillsmith.toml``.

The nearest file upward from each checked path wins. Keys: ``select``, ``ignore``,
``per-file-ignores``, ``exclude``, ``target``. A broken file is an error naming the file and
line (exit 4), never a silent default: that includes a rule selector that names no rule
(``select = ["CON14"]``), judged as on the command line (:mod:`skillsmith.rules.registry`).
"""

from __future__ import annotations

import fnmatch
import re
import sys
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

from skillsmith import targets
from skillsmith.errors import InvalidInputError
from skillsmith.rules import registry

KEYS = ("select", "ignore", "per-file-ignores", "exclude", "target")


@dataclass(frozen=True)
class Config:
    root: Path | None = None  # folder of the config file; globs are relative to it
    source: Path | None = None
    select: tuple[str, ...] | None = None
    ignore: tuple[str, ...] = ()
    per_file_ignores: tuple[tuple[str, tuple[str, ...]], ...] = ()
    exclude: tuple[str, ...] = ()
    target: str | None = None

    def ignored_for(self, path: Path) -> set[str]:
        """Rule selectors that per-file-ignores switches off for *path*."""
        rel = self.relative(path)
        if rel is None:
            return set()
        out: set[str] = set()
        for pattern, ids in self.per_file_ignores:
            if glob_match(rel, pattern):
                out.update(ids)
        return out

    def excluded(self, path: Path) -> bool:
        rel = self.relative(path)
        return rel is not None and any(glob_match(rel, p) for p in self.exclude)

    def relative(self, path: Path) -> str | None:
        if self.root is None:
            return path.as_posix()
        try:
            return path.relative_to(self.root).as_posix()
        except ValueError:
            return None


def glob_match(rel: str, pattern: str) -> bool:
    """Gitignore-like matching: a pattern without ``/`` matches any path component."""
    pattern = pattern.rstrip("/")
    if "/" not in pattern:
        return any(fnmatch.fnmatchcase(part, pattern) for part in rel.split("/"))
    pattern = pattern.lstrip("/")
    if fnmatch.fnmatchcase(rel, pattern) or fnmatch.fnmatchcase(rel, pattern + "/*"):
        return True
    # a folder pattern matches everything below it
    parts = rel.split("/")
    return any(fnmatch.fnmatchcase("/".join(parts[:i]), pattern) for i in range(1, len(parts)))


#: folder -> nearest config file, so many skills below one folder share one walk upward
_NEAREST: dict[Path, Path | None] = {}


def find_config_file(start: Path) -> Path | None:
    """The nearest ``skillsmith.toml``, or ``pyproject.toml`` with ``[tool.skillsmith]``."""
    walked: list[Path] = []
    found = None
    for folder in [start, *start.parents]:
        if folder in _NEAREST:
            found = _NEAREST[folder]
            break
        walked.append(folder)
        found = config_file_in(folder)
        if found is not None:
            break
    for folder in walked:
        _NEAREST[folder] = found
    return found


def config_file_in(folder: Path) -> Path | None:
    """The config file in *folder*, or None (also when the folder cannot be searched)."""
    candidate = folder / "skillsmith.toml"
    if is_file(candidate):
        return candidate
    candidate = folder / "pyproject.toml"
    if is_file(candidate):
        try:
            head = candidate.read_text(encoding="utf-8", errors="replace")
        except OSError:
            return None
        if re.search(r"^\s*\[\s*tool\.skillsmith(\s*\]|\.)", head, re.M):
            return candidate
    return None


def is_file(path: Path) -> bool:
    """``path.is_file()``, False when the folder it is in cannot be searched."""
    try:
        return path.is_file()
    except OSError:
        return False


def config_for(path: Path, resolved: Path | None = None) -> Config:
    """The config that applies to *path*; *resolved* is the folder's real path when already known."""
    if resolved is None:
        start = path if path.is_dir() else path.parent
        resolved = start.resolve()
    found = find_config_file(resolved)
    return load(found) if found else Config()


@lru_cache(maxsize=64)
def load(source: Path) -> Config:
    try:
        raw = source.read_bytes()
    except OSError as exc:
        raise InvalidInputError(f"{source}: cannot read config: {exc.strerror}", {"path": str(source)})
    text = raw.decode("utf-8", "replace")
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        m = re.search(r"line (\d+)", str(exc))
        # "at end of document": the last line is where the unfinished value is
        line = int(m.group(1)) if m else max(1, len(text.splitlines()))
        raise InvalidInputError(f"{source}:{line}: invalid TOML: {exc}", {"path": str(source), "line": line})
    table = doc.get("tool", {}).get("skillsmith", {}) if source.name == "pyproject.toml" else doc
    if source.name == "skillsmith.toml" and "tool" in table and "skillsmith" in table.get("tool", {}):
        table = table["tool"]["skillsmith"]

    def fail(key: str, problem: str, value: str | None = None, table_key: str | None = None):
        """Raise for *key*, at the line of *value* when given (searched from the key's line on)."""
        line = key_line(text, key, source.name == "pyproject.toml", table_key)
        if value is not None:
            line = value_line(text, value, line)
        raise InvalidInputError(f"{source}:{line}: {problem}", {"path": str(source), "line": line, "key": key})

    if not isinstance(table, dict):
        fail("skillsmith", "[tool.skillsmith] must be a table")
    for key in table:
        if key not in KEYS:
            fail(key, f"unknown key {key!r} (known: {', '.join(KEYS)})")

    def str_list(key: str) -> tuple[str, ...] | None:
        if key not in table:
            return None
        value = table[key]
        if isinstance(value, str):
            value = [v for v in re.split(r"[,\s]+", value) if v]
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            fail(key, f"{key!r} must be a list of strings")
        return tuple(value)

    def rule_selectors(key: str, value, table_key: str | None = None) -> tuple[str, ...]:
        """The selectors of *value* (a string or a list of them); one that names no rule fails."""
        chosen = tuple(registry.selectors(value))
        bad = registry.unknown_selector(chosen)
        if bad is not None:
            label = f"{key!r}" if table_key is None else f"{table_key!r} {key!r}"
            fail(key, f"{label}: {registry.no_rule_matches(bad)}", bad, table_key)
        return chosen

    pfi = table.get("per-file-ignores", {})
    if not isinstance(pfi, dict) or not all(
        isinstance(v, (list, str)) and all(isinstance(i, str) for i in (v if isinstance(v, list) else [v]))
        for v in pfi.values()
    ):
        fail("per-file-ignores", "'per-file-ignores' must map globs to lists of rule IDs")
    target = table.get("target")
    if target is not None:
        try:
            targets.get(target)
        except LookupError as exc:
            fail("target", str(exc))
    select = str_list("select")
    return Config(
        root=source.parent.resolve(),
        source=source,
        select=None if select is None else rule_selectors("select", select),
        ignore=rule_selectors("ignore", str_list("ignore") or ()),
        per_file_ignores=tuple(
            (glob, rule_selectors(glob, ids, "per-file-ignores")) for glob, ids in pfi.items()
        ),
        exclude=str_list("exclude") or (),
        target=target,
    )


def key_line(text: str, key: str, in_tool_table: bool = False, table_key: str | None = None) -> int:
    """The line that sets *key* (or opens a table named after it), else *table_key*'s line, else 1.

    With *in_tool_table* (a ``pyproject.toml``) only lines from ``[tool.skillsmith`` on count,
    so another tool's ``select`` is not mistaken for ours. *table_key* is the table *key* sits
    in (``per-file-ignores`` for a glob), for a key written inline in that table.
    """
    lines = text.splitlines()
    start = 0
    if in_tool_table:
        start = next((i for i, line in enumerate(lines) if re.match(r"^\s*\[\s*tool\.skillsmith\b", line)), 0)
    for name in (key, table_key):
        if name is None:
            continue
        for i, line in enumerate(lines[start:], start + 1):
            if re.match(rf"^\s*[\"']?{re.escape(name)}[\"']?\s*=", line) or re.match(rf"^\s*\[.*{re.escape(name)}", line):
                return i
    return 1


def value_line(text: str, value: str, from_line: int) -> int:
    """The first line from *from_line* on that holds the word *value* (any case), else *from_line*."""
    word = re.compile(rf"(?<![A-Za-z0-9_]){re.escape(value)}(?![A-Za-z0-9_])", re.IGNORECASE)
    for i, line in enumerate(text.splitlines()[from_line - 1:], from_line):
        if word.search(line):
            return i
    return from_line
