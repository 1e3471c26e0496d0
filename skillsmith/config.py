"""Configuration: ``[tool.skillsmith]`` in ``pyproject.toml`` or a ``skillsmith.toml``.

The nearest file upward from each checked path wins. Keys: ``select``, ``ignore``,
``per-file-ignores``, ``exclude``, ``target``, ``allow-security-ignores``.

Trust: a file at or above the folder skillsmith runs in (the current directory) is the user's
own (:attr:`Config.trusted`). A file below it or elsewhere came with the checked tree (a
downloaded skill's ``pyproject.toml``): it may tune every rule but the security rules
(:data:`PROTECTED`), which only the user's own file and the command line switch off, unless
that file sets ``allow-security-ignores = true`` (:func:`guard_for`).

A broken file is never a silent default: the user's own is an error naming the file and line
(exit 4), and so is a rule selector that names no rule (``select = ["CON14"]``), judged as on
the command line (:mod:`skillsmith.rules.registry`). A broken file inside the checked tree is
a finding on the units below it (:attr:`Config.problem`, rule FIL005), checked with the
defaults, and the run goes on. Files are read with a bound (:data:`MAX_CONFIG_BYTES`); too
large, too deeply nested or ill-typed is broken.
"""

from __future__ import annotations

import fnmatch
import os
import re
import sys
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Callable

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

from skillsmith import targets
from skillsmith.errors import InvalidInputError
from skillsmith.rules import registry

KEYS = ("select", "ignore", "per-file-ignores", "exclude", "target", "allow-security-ignores")
#: rule families only the user's own configuration (or the command line) can switch off
PROTECTED = ("SEC",)
#: a configuration file larger than this is not read (``pyproject.toml``: only this much is searched)
MAX_CONFIG_BYTES = 1024 * 1024


class ConfigError(InvalidInputError):
    """A configuration file that cannot be used: *line* and *problem* say where and why."""

    def __init__(self, source: Path, line: int | None, problem: str, details: dict | None = None) -> None:
        where = f"{source}:{line}" if line else str(source)
        super().__init__(f"{where}: {problem}", {"path": str(source), **({"line": line} if line else {}), **(details or {})})
        self.source = source
        self.line = line or 1
        self.problem = problem


@dataclass(frozen=True)
class ConfigProblem:
    """Why a configuration file inside the checked tree was not used (reported as FIL005)."""

    path: Path
    line: int
    message: str


@dataclass(frozen=True)
class Config:
    root: Path | None = None  # folder of the config file; globs are relative to it
    source: Path | None = None
    select: tuple[str, ...] | None = None
    ignore: tuple[str, ...] = ()
    per_file_ignores: tuple[tuple[str, tuple[str, ...]], ...] = ()
    exclude: tuple[str, ...] = ()
    target: str | None = None
    trusted: bool = True  # the user's own (at or above the current directory), or no file at all
    allow_security_ignores: bool = False
    problem: ConfigProblem | None = None

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
    folder = start
    while True:  # upward one folder at a time: most skills share a parent already asked
        if folder in _NEAREST:
            found = _NEAREST[folder]
            break
        walked.append(folder)
        found = config_file_in(folder)
        parent = folder.parent
        if found is not None or parent == folder:
            break
        folder = parent
    for folder in walked:
        _NEAREST[folder] = found
    return found


_OUR_TABLE = re.compile(rb"^[ \t]*\[[ \t]*tool\.skillsmith([ \t]*\]|\.)", re.M)


def config_file_in(folder: Path) -> Path | None:
    """``skillsmith.toml`` in *folder*, else its ``pyproject.toml`` when the first MiB opens ``[tool.skillsmith``
    (None also when the folder cannot be searched)."""
    candidate = folder / "skillsmith.toml"
    if is_file(candidate):
        return candidate
    candidate = folder / "pyproject.toml"
    if is_file(candidate):
        try:
            head = read_bounded(candidate)
        except OSError:
            return None
        if _OUR_TABLE.search(head[:MAX_CONFIG_BYTES]):
            return candidate
    return None


def is_file(path: Path) -> bool:
    """``path.is_file()``, False when the folder it is in cannot be searched."""
    try:
        return path.is_file()
    except OSError:
        return False


def read_bounded(path: Path) -> bytes:
    """At most :data:`MAX_CONFIG_BYTES` + 1 bytes of *path* (one more tells a file over the limit)."""
    with open(path, "rb") as fh:
        return fh.read(MAX_CONFIG_BYTES + 1)


def is_trusted(folder: Path) -> bool:
    """Whether a config file in *folder* (a real path) is the user's own: the current directory or above it."""
    try:
        cwd = _real(os.getcwd())
    except OSError:
        return False
    return folder == cwd or folder in cwd.parents


@lru_cache(maxsize=8)
def _real(path: str) -> Path:
    return Path(path).resolve()


def config_for(path: Path, resolved: Path | None = None) -> Config:
    """The config that applies to *path*; *resolved* is the folder's real path when already known.

    The user's own broken file raises :class:`ConfigError` (exit 4); a broken file inside the
    checked tree is a :class:`Config` with defaults and its :attr:`~Config.problem`.
    """
    if resolved is None:
        start = path if path.is_dir() else path.parent
        resolved = start.resolve()
    found = find_config_file(resolved)
    if found is None:
        return Config()
    trusted = is_trusted(found.parent)
    try:
        return load(found, trusted)
    except ConfigError as exc:
        if trusted:
            raise
        return Config(root=found.parent.resolve(), source=found, trusted=False,
                      problem=ConfigProblem(found, exc.line, exc.problem))


def user_config() -> Config:
    """The user's own config: the nearest one at or above the current directory (``Config()`` when none)."""
    return config_for(Path.cwd())


def guard_for(config: Config) -> Config:
    """The config whose word counts for the security rules of a unit configured by *config*.

    *config* itself when it is the user's own; else the user's (:func:`user_config`), which is
    read only then, so a run over trees without configs of their own never reads it.
    """
    return config if config.trusted else user_config()


def is_protected(rule_id: str) -> bool:
    """Whether only the user's own config or the command line may switch *rule_id* off."""
    return registry.matches(rule_id, PROTECTED)


@lru_cache(maxsize=64)
def load(source: Path, trusted: bool = True) -> Config:
    """The config in *source*; a file that cannot be used raises :class:`ConfigError`."""
    try:
        raw = read_bounded(source)
    except OSError as exc:
        raise ConfigError(source, None, f"cannot read config: {exc.strerror}")
    if len(raw) > MAX_CONFIG_BYTES:
        raise ConfigError(source, None, f"larger than {MAX_CONFIG_BYTES} bytes; not read")
    text = raw.decode("utf-8", "replace")
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        m = re.search(r"line (\d+)", str(exc))
        # "at end of document": the last line is where the unfinished value is
        line = int(m.group(1)) if m else max(1, len(text.splitlines()))
        raise ConfigError(source, line, f"invalid TOML: {exc}")
    except (RecursionError, MemoryError):
        raise ConfigError(source, 1, "invalid TOML: nested too deeply to read")

    def fail(key: str, problem: str, value: str | None = None, table_key: str | None = None):
        """Raise for *key*, at the line of *value* when given (searched from the key's line on)."""
        line = key_line(text, key, source.name == "pyproject.toml", table_key)
        if value is not None:
            line = value_line(text, value, line)
        raise ConfigError(source, line, problem, {"key": key})

    table = doc
    if source.name == "pyproject.toml":
        tool = doc.get("tool", {})
        if not isinstance(tool, dict):
            raise ConfigError(source, key_line(text, "tool"), "'tool' must be a table", {"key": "tool"})
        table = tool.get("skillsmith", {})
    elif isinstance(doc.get("tool"), dict) and "skillsmith" in doc["tool"]:
        table = doc["tool"]["skillsmith"]
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
    allow = table.get("allow-security-ignores", False)
    if not isinstance(allow, bool):
        fail("allow-security-ignores", "'allow-security-ignores' must be true or false")
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
        trusted=trusted,
        allow_security_ignores=allow,
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


# -- writing: `skillsmith init` ------------------------------------------------------------
# tomlkit (imported only here) edits the file, so every comment, blank line and value of the
# user's own stays byte for byte: only the keys init adds are new text.

#: what a new skillsmith.toml starts with
NEW_FILE_HEADER = "skillsmith's configuration (`skillsmith rules` lists the rules; see the README's Configuration)"


def forget_loaded() -> None:
    """Forget the config files found and read so far (after ``init`` wrote one)."""
    _NEAREST.clear()
    load.cache_clear()


def init_file(root: Path) -> Path:
    """The config file ``init`` writes for the folder *root*.

    The file that applies to *root* already, wherever it is above it (writing another one
    below it would hide its settings), else *root*'s ``pyproject.toml``, else a new
    ``skillsmith.toml`` in *root*.
    """
    found = find_config_file(root.resolve())
    if found is not None:
        return found
    pyproject = root / "pyproject.toml"
    return pyproject if pyproject.is_file() else root / "skillsmith.toml"


def edited_config(text: str, pyproject: bool, *, target: str | None = None,
                  per_file_ignores: dict[str, list[str]] | None = None,
                  reason: Callable[[list[str]], str] | None = None, table_comment: str | None = None) -> str:
    """*text* (a ``pyproject.toml`` or ``skillsmith.toml``, ``\\n`` newlines) with skillsmith's settings added.

    *target* is set only when the table names none; *per_file_ignores* (glob -> rule IDs) adds
    the IDs a glob lacks, in order, and new globs; ``reason(ids)`` is the comment of a new entry
    and replaces the comment of an entry that grows when that comment is one it wrote (it starts
    as ``reason`` starts, ``baseline:``); a new table of entries starts with *table_comment*.
    Nothing else the file says is changed or removed. Raises :class:`InvalidInputError` when
    *text* is not TOML or the result would not be.
    """
    import tomlkit
    from tomlkit.exceptions import TOMLKitError

    try:
        doc = tomlkit.parse(text)
    except TOMLKitError as exc:
        raise InvalidInputError(f"invalid TOML: {exc}") from None
    table = _skillsmith_table(doc, pyproject, new_file=not text.strip())
    if target is not None and "target" not in table:
        table["target"] = target
    if per_file_ignores:
        pfi = table.get("per-file-ignores")
        if pfi is None:
            pfi = tomlkit.table()
            if table_comment:
                pfi.add(tomlkit.comment(table_comment))
            table.append("per-file-ignores", pfi)
            pfi = table["per-file-ignores"]
        new_table = len(pfi) == 0 and not isinstance(pfi, tomlkit.items.InlineTable)
        inline = isinstance(pfi, tomlkit.items.InlineTable)
        for glob, ids in per_file_ignores.items():
            if glob not in pfi:
                pfi[glob] = tomlkit.item(list(ids))
                if not inline and reason is not None:
                    pfi[glob].comment(reason(list(ids)))
                continue
            have = pfi[glob]
            missing = [i for i in ids if i not in registry.selectors(have if isinstance(have, str) else list(have))]
            if not missing:
                continue
            if isinstance(have, str):  # "SHL001" or "SHL001, CON004": it stays a string
                pfi[glob] = ", ".join([have, *missing])
                continue
            have.extend(missing)
            ours = "# " + reason([]).split(":")[0] + ":" if reason is not None else None
            if ours and not inline and have.trivia.comment.startswith(ours):
                have.comment(reason(list(have)))
        if new_table:
            pfi.add(tomlkit.nl())  # a blank line before whatever table follows
    out = tomlkit.dumps(doc)
    if out.endswith("\n\n") and not text.endswith("\n\n"):
        out = out[:-1]  # ... but none at the end of the file
    try:
        tomllib.loads(out)
    except tomllib.TOMLDecodeError as exc:  # pragma: no cover - tomlkit wrote something it cannot read
        raise InvalidInputError(f"the edited configuration would not be valid TOML ({exc}); nothing written") from None
    return out


def _skillsmith_table(doc, pyproject: bool, new_file: bool):
    """The table of *doc* that holds skillsmith's keys, made when missing."""
    import tomlkit

    if pyproject or ("tool" in doc and "skillsmith" in doc["tool"]):
        if "tool" not in doc:
            doc.append("tool", tomlkit.table(is_super_table=True))
        tool = doc["tool"]
        if "skillsmith" not in tool:
            tool.append("skillsmith", tomlkit.table())
        return tool["skillsmith"]
    if new_file:
        doc.add(tomlkit.comment(NEW_FILE_HEADER))
    return doc
