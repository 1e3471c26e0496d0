"""The fix engine: findings with a fix -> codemods -> re-verify -> atomic write.

paths -> fast check (``ast``, tree-sitter) -> files with fixable findings -> parse each once
-> every selected fixer -> re-verify -> atomic write, keeping encoding, BOM, coding cookie,
newline style, trailing-newline state and mode bits. A file that cannot be transformed safely
is skipped and reported; its bytes are never touched.

Three kinds of fixer plug in (see ``docs/architecture.md``, "Fixes"):

``python``
    ``codemods/py_*.py``: one libcst ``VisitorBasedCodemodCommand`` per module with
    ``DESCRIPTION``, ``RULES`` (rule IDs it fixes) and ``SAFE``. Loaded (with libcst) only when a
    Python file needs one of those rules.
``shell``
    ``codemods/sh_*.py``: one class per module with ``DESCRIPTION``, ``RULES``, ``SAFE`` and
    ``edits(source: bytes, tree) -> list[Edit]`` (``tree`` is the tree-sitter tree of *source*);
    it is constructed with the file's path (``cls(path)``), for names in generated text.
    Loaded only when a shell file needs one of those rules.
``file``
    a callable ``(SourceFile) -> bytes | None`` that a target brings
    (:class:`skillsmith.targets.FileFixer`, for example StablEdge's ``resources:`` update of
    ``SKILL.md``).

Fixers of one kind run by their optional ``ORDER`` (default 50), then module name; each sees the
result of the previous one.
"""

from __future__ import annotations

import difflib
import fnmatch
import importlib
import pkgutil
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from skillsmith.model.sourcefile import SourceFile
from skillsmith.rules.finding import display_path

KINDS = ("python", "shell", "file")

#: codemod module prefix in ``skillsmith.codemods`` per kind
CODEMOD_PREFIX = {"python": "py_", "shell": "sh_"}

#: a codemod class may set ``ORDER`` to run before (lower) or after (higher) the others
DEFAULT_ORDER = 50

#: rules fixed by the engine itself: setting the executable bit
MODE_RULES = {"CON003"}


# -- the fixer registry ---------------------------------------------------------------------


@dataclass(frozen=True)
class Fixer:
    """One fixer: what it fixes, whether that is safe, and what runs."""

    name: str  # module name (``py_docstring``), or the FileFixer name a target gives
    kind: str  # "python" | "shell" | "file"
    rules: frozenset
    safe: bool
    description: str
    impl: Any = field(repr=False, compare=False)  # codemod class, or the file fixer callable
    pattern: str | None = None  # file kind: fnmatch pattern on the file's relative path
    order: int = 50  # fixers of one kind run by (order, name)

    def allowed(self, unsafe: bool) -> bool:
        return self.safe or unsafe


_LOADED: dict[str, list[Fixer]] = {}


def load_fixers(kind: str) -> list[Fixer]:
    """The fixers of *kind*, imported on first use (``python`` imports libcst); ``file``: the targets'."""
    if kind in _LOADED:
        return _LOADED[kind]
    if kind == "file":
        from skillsmith.targets import TARGETS

        found = [Fixer(ff.name, "file", frozenset(ff.rules), ff.safe, ff.description, ff.fix, ff.pattern)
                 for target in TARGETS for ff in target.file_fixers]
    else:
        import skillsmith.codemods as package

        prefix = CODEMOD_PREFIX[kind]
        found = []
        for info in sorted(pkgutil.iter_modules(package.__path__), key=lambda m: m.name):
            if not info.name.startswith(prefix):
                continue
            module = importlib.import_module(f"skillsmith.codemods.{info.name}")
            cls = codemod_class(module)
            found.append(Fixer(info.name, kind, frozenset(cls.RULES), bool(cls.SAFE), cls.DESCRIPTION, cls,
                               order=getattr(cls, "ORDER", DEFAULT_ORDER)))
        found.sort(key=lambda fx: (fx.order, fx.name))
    _LOADED[kind] = found
    return found


def codemod_class(module) -> type:
    """The one class a codemod module defines that carries ``RULES``."""
    for value in vars(module).values():
        if isinstance(value, type) and value.__module__ == module.__name__ and "RULES" in vars(value):
            return value
    raise LookupError(f"{module.__name__} defines no codemod class with RULES")


def fixable_rules(unsafe: bool) -> set[str]:
    """IDs of registered rules whose fix may run (safe, plus unsafe when allowed)."""
    from skillsmith.rules import registry

    return {r.id for r in registry.all_rules() if r.fix == "safe" or (unsafe and r.fix == "unsafe")}


# -- one file ------------------------------------------------------------------------------


class Unfixable(Exception):
    """A file that cannot be fixed safely; the message says why. Its bytes stay as they are."""


@dataclass
class FileFix:
    """The outcome for one file."""

    file: SourceFile
    rules: set[str]  # fixable rules found in the file
    new_data: bytes | None = None  # None: unchanged
    new_mode: int | None = None  # None: unchanged
    applied: list[str] = field(default_factory=list)  # fixers that changed something
    fixed_rules: set[str] = field(default_factory=set)
    skipped: str | None = None  # why the file was left alone
    written: bool = False

    @property
    def changed(self) -> bool:
        return self.skipped is None and (self.new_data is not None or self.new_mode is not None)

    def diff(self) -> str:
        """A unified diff of the change (git-style mode lines for a mode change).

        Paths are relative to the current folder, as in findings, so that ``git apply`` or
        ``patch -p1`` run from there applies it.
        """
        rel = display_path(self.file.path)
        out = []
        if self.new_mode is not None:
            out.append(f"diff --git a/{rel} b/{rel}\nold mode 100{self.file.mode:o}\nnew mode 100{self.new_mode:o}\n")
        if self.new_data is not None:
            enc = self.file.encoding
            old = (self.file.data or b"").decode(enc, "replace").splitlines(keepends=True)
            new = self.new_data.decode(enc, "replace").splitlines(keepends=True)
            lines = list(difflib.unified_diff(old, new, f"a/{rel}", f"b/{rel}"))
            out.extend(ln if ln.endswith("\n") else ln + "\n\\ No newline at end of file\n" for ln in lines)
        return "".join(out)


def file_kind(f: SourceFile) -> str | None:
    """``python`` or ``shell`` for scripts, None for other files."""
    from skillsmith.model.skill import script_language

    return script_language(f)


def fix_file(f: SourceFile, rules: set[str], unsafe: bool) -> FileFix:
    """Transform one file in memory (nothing is written): every fixer whose rules were found."""
    out = FileFix(f, set(rules))
    data = f.data
    if data is None:
        out.skipped = f.read_error or "not readable"
        return out
    kind = file_kind(f)
    new = data
    try:
        if kind in CODEMOD_PREFIX:
            chosen = [x for x in load_fixers(kind) if x.rules & rules and x.allowed(unsafe)]
            if chosen:
                new = transform(kind, f, chosen, out)
        chosen = [x for x in load_fixers("file") if x.rules & rules and x.allowed(unsafe)
                  and fnmatch.fnmatch(f.rel, x.pattern or "*")]
        for fx in chosen:
            current = SourceFile.from_bytes(f.path, f.rel, new, f.mode)
            result = fx.impl(current)
            if result is not None and result != new:
                new = result
                out.applied.append(fx.name)
                out.fixed_rules |= fx.rules & rules
    except Unfixable as why:
        out.skipped = str(why)
        return out
    if new != data:
        out.new_data = new
    if MODE_RULES & rules and not f.mode & 0o100:
        # the executable bit for whoever may read the file
        out.new_mode = f.mode | ((f.mode & 0o444) >> 2) | 0o100
        out.applied.append("executable-bit")
        out.fixed_rules |= MODE_RULES & rules
    return out


def transform(kind: str, f: SourceFile, fixers: list[Fixer], out: FileFix) -> bytes:
    """Run the language driver of *kind* (``skillsmith.fix.python`` or ``skillsmith.fix.shell``)."""
    module = importlib.import_module(f"skillsmith.fix.{kind}")
    return module.transform(f, fixers, out)


# -- paths -----------------------------------------------------------------------------------


@dataclass
class FixOptions:
    select: list[str] | None = None  # rule IDs or prefixes; None: every rule with a fix
    unsafe: bool = False  # also run fixes that change behaviour
    write: bool = True  # False for --diff and --check


@dataclass
class FixResult:
    files: list[FileFix]  # every file that had fixable findings
    remaining: list  # findings after writing (only when written), else the findings before
    notes: list[str] = field(default_factory=list)
    internal_errors: int = 0

    @property
    def changed(self) -> list[FileFix]:
        return [f for f in self.files if f.changed]

    @property
    def skipped(self) -> list[FileFix]:
        return [f for f in self.files if f.skipped]


def fix_paths(paths: list[str | Path], options: FixOptions | None = None) -> FixResult:
    """Fix what the fast check finds fixable below *paths*; write only when ``options.write``."""
    from skillsmith.discovery.discover import discover
    from skillsmith.fix.atomic import atomic_write
    from skillsmith.rules.engine import Options, check_paths

    options = options or FixOptions()
    check_options = Options(select=options.select)
    before = check_paths(paths, check_options)
    allowed = fixable_rules(options.unsafe)
    wanted: dict[str, set[str]] = {}
    for finding in before.findings:
        if finding.rule in allowed:
            wanted.setdefault(finding.path, set()).add(finding.rule)
    roots = [u.root for u in discover(paths)] if wanted else []
    files: list[FileFix] = []
    todo: list[tuple[SourceFile, set[str]]] = []
    for path, rules in sorted(wanted.items()):
        f, why = _source_file(Path(path), roots)
        if f is None:
            files.append(FileFix(SourceFile(Path(path), Path(path).name, 0, 0), rules, skipped=why))
        else:
            todo.append((f, rules))
    for result in _transform_all(todo, options.unsafe):
        f = result.file
        if options.write and result.changed:
            try:
                atomic_write(f.path, result.new_data if result.new_data is not None else f.data,
                             mode=result.new_mode if result.new_mode is not None else f.mode,
                             root=_root_of(f.path, roots))
                result.written = True
            except OSError as exc:
                result.skipped = f"not written: {exc.strerror or exc}"
        files.append(result)
    files.sort(key=lambda x: str(x.file.path))
    if options.write and any(f.written for f in files):
        after = check_paths(paths, check_options)
        return FixResult(files, after.findings, list(dict.fromkeys(before.notes + after.notes)),
                         before.internal_errors + after.internal_errors)
    return FixResult(files, before.findings, before.notes, before.internal_errors)


#: below this many files a process pool costs more than it saves
POOL_THRESHOLD = 24


def _transform_all(todo: list[tuple[SourceFile, set[str]]], unsafe: bool) -> list[FileFix]:
    """:func:`fix_file` for each file; in worker processes when there are many (nothing is written there)."""
    import os

    jobs = os.cpu_count() or 1
    if len(todo) < POOL_THRESHOLD or jobs < 2:
        return [fix_file(f, rules, unsafe) for f, rules in todo]
    import concurrent.futures
    import multiprocessing

    kinds = set()
    for f, _ in todo:
        f.data  # read in the parent: workers get the same bytes the parent will compare
        kinds.add(file_kind(f))
    if "python" in kinds:
        from skillsmith.fix.python import prepare_python_codemods

        prepare_python_codemods()  # once here; forked workers inherit libcst and the instances
    if "shell" in kinds:
        load_fixers("shell")
    ctx = multiprocessing.get_context("fork") if sys.platform.startswith("linux") else None
    chunk = max(1, len(todo) // (jobs * 4))
    with concurrent.futures.ProcessPoolExecutor(max_workers=jobs, mp_context=ctx) as pool:
        return list(pool.map(_fix_one, todo, [unsafe] * len(todo), chunksize=chunk))


def _fix_one(item: tuple[SourceFile, set[str]], unsafe: bool) -> FileFix:
    f, rules = item
    return fix_file(f, rules, unsafe)


def _root_of(path: Path, roots: list[Path]) -> Path | None:
    best = None
    for root in roots:
        if path == root or root in path.parents:
            if best is None or len(root.parts) > len(best.parts):
                best = root
    return best


def _source_file(path: Path, roots: list[Path]) -> tuple[SourceFile | None, str]:
    """The file at *path*, read without following links; (None, why) when it must not be touched."""
    import os
    import stat

    try:
        st = os.lstat(path)
    except OSError as exc:
        return None, exc.strerror or str(exc)
    if stat.S_ISLNK(st.st_mode):
        return None, "a symbolic link; links are never written through"
    if not stat.S_ISREG(st.st_mode):
        return None, "not a regular file"
    root = _root_of(path, roots) or path.parent
    real_root = os.path.realpath(root)
    if os.path.commonpath([os.path.realpath(path.parent), real_root]) != real_root:
        return None, "outside the checked tree"
    rel = path.relative_to(root).as_posix() if root != path else path.name
    return SourceFile.from_path(path, rel, st), ""
