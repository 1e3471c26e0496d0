"""The fix engine: findings with a fix -> codemods -> re-verify -> atomic write.

paths -> fast check (``ast``, tree-sitter) -> files with fixable findings -> parse each once
-> every selected fixer -> re-verify -> atomic write, keeping encoding, BOM, coding cookie,
newline style, trailing-newline state and mode bits. A file that cannot be transformed safely
is skipped and reported; its bytes are never touched.

Three kinds of fixer plug in (see ``docs/architecture.md``, "Fixes"):

``python``
    ``codemods/py_*.py``: one libcst ``VisitorBasedCodemodCommand`` per module with
    ``DESCRIPTION``, ``RULES`` (rule IDs it fixes) and ``SAFE``. Loaded (with libcst) only when a
    Python file needs one of those rules, or once before a run's worker processes fork.
``shell``
    ``codemods/sh_*.py``: one class per module with ``DESCRIPTION``, ``RULES``, ``SAFE`` and
    ``edits(source: bytes, tree) -> list[Edit]`` (``tree`` is the tree-sitter tree of *source*);
    it is constructed with the file's :class:`~skillsmith.fix.context.FixContext`
    (``cls(context)``): its path, the findings it answers, the lines it must not rewrite and
    the script's worked invocations in ``SKILL.md``. Loaded only when a shell file needs one
    of those rules.
``file``
    a callable ``(SourceFile, unit) -> bytes | None`` that a target brings
    (:class:`skillsmith.targets.FileFixer`, for example StablEdge's ``resources:`` update of
    ``SKILL.md``); *unit* is the checked skill, so the fixer need not walk or read it again.

Fixers of one kind run by their optional ``ORDER`` (default 50), then module name; each sees the
result of the previous one.
"""

from __future__ import annotations

import dataclasses
import difflib
import fnmatch
import importlib
import pkgutil
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from skillsmith.fix.context import FixContext, Target
from skillsmith.model.sourcefile import EncodeError, SourceFile, shebang_works
from skillsmith.rules.finding import display_path

KINDS = ("python", "shell", "file")

#: codemod module prefix in ``skillsmith.codemods`` per kind
CODEMOD_PREFIX = {"python": "py_", "shell": "sh_"}

#: a codemod class may set ``ORDER`` to run before (lower) or after (higher) the others
DEFAULT_ORDER = 50

#: rules fixed by the engine itself: setting the executable bit (CON001's shebang makes the script runnable)
MODE_RULES = {"CON003", "CON001"}


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

    return {r.id for r in registry.all_rules() if may_fix(r.fix, unsafe)}


def may_fix(fix: str | None, unsafe: bool) -> bool:
    """Whether a finding whose fix is *fix* (``safe``, ``unsafe`` or None) is fixed by this run."""
    return fix == "safe" or (unsafe and fix == "unsafe")


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
    write_failed: bool = False  # the change was made but could not be written (a read-only folder, a full disk)
    new_file: SourceFile | None = field(default=None, repr=False)  # the new bytes as parsed to verify them

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


def fix_file(f: SourceFile, rules: set[str], unsafe: bool, unit=None, targets: tuple[Target, ...] | None = None,
             held: tuple[tuple[str, int], ...] = ()) -> FileFix:
    """Transform one file in memory (nothing is written): every fixer whose rules were found.

    *unit* is the checked ``Skill`` or ``Loose`` that holds *f*: its parse of the file and its
    list of files are used, so nothing is read or parsed again. Without it (a file fixed on
    its own), the file is parsed here.

    *targets* are the findings the fixers answer (None: every finding of *rules*, for a file
    fixed on its own); *held* the (rule, line) of suppressed findings, whose lines no fixer
    may rewrite.
    """
    out = FileFix(f, set(rules))
    data = f.data
    if data is None:
        out.skipped = f.read_error or "not readable"
        return out
    kind = file_kind(f)
    new = data
    try:
        if kind in CODEMOD_PREFIX:
            refuse_text(f, kind)
            chosen = [x for x in load_fixers(kind) if x.rules & rules and x.allowed(unsafe)]
            if chosen:
                script = script_of(f, kind, unit)
                context = FixContext(f.path, targets, held, tuple(getattr(script, "invocations", ())), unsafe,
                                     tuple(getattr(script, "sourced_by", ())), f.bom)
                new = transform(kind, script, chosen, out, context)
        chosen = [x for x in load_fixers("file") if x.rules & rules and x.allowed(unsafe)
                  and fnmatch.fnmatch(f.rel, x.pattern or "*")]
        for fx in chosen:
            current = SourceFile.from_bytes(f.path, f.rel, new, f.mode)
            result = fx.impl(current, unit)
            if result is not None and result != new:
                new = result
                out.applied.append(fx.name)
                out.fixed_rules |= fx.rules & rules
    except (Unfixable, EncodeError) as why:  # EncodeError: a file fixer's text cannot be written back
        out.skipped = str(why)
        return out
    if new != data and len(new) > f.max_bytes:
        out.skipped = (f"the fixed file would be {len(new)} bytes, over the {f.max_bytes}-byte limit of what "
                       "a check reads; left unchanged")
        return out
    if new != data:
        out.new_data = new
    if MODE_RULES & rules and not f.mode & 0o100 and shebang_works(new):
        # the executable bit for whoever may read the file, only with a shebang that runs
        out.new_mode = f.mode | ((f.mode & 0o444) >> 2) | 0o100
        out.applied.append("executable-bit")
        out.fixed_rules |= MODE_RULES & rules
    return out


def refuse_text(f: SourceFile, kind: str) -> None:
    """Raise :class:`Unfixable` when a script's text cannot be edited and written back byte for byte.

    Refused: a shell script that starts with a BOM (no shebang can follow it); Python text that
    does not decode; mixed line endings (CRLF and LF) or lone CRs (an edit
    would give its lines one style, and the untouched lines must keep theirs); a Python coding
    cookie that names no known encoding (Python cannot read the file); an encoding whose
    decode-encode round trip changes bytes (``utf-7`` has several spellings of one text), since
    that would rewrite lines no fix touched.
    """
    data = f.data or b""
    if b"\r\n" in data and b"\n" in data.replace(b"\r\n", b""):
        raise Unfixable("mixed line endings (CRLF and LF)")
    if b"\r" in data.replace(b"\r\n", b""):
        raise Unfixable("old Mac line endings (CR)")
    if kind == "shell" and f.bom:
        raise Unfixable("starts with a UTF-8 BOM: a shebang after it is not one (the kernel and bash see "
                        "the BOM first); remove the BOM, then fix")
    if f.text is None:
        if kind == "shell":
            return  # shell fixes edit bytes: a script that is not UTF-8 is edited as it is
        raise Unfixable("not decodable text")
    if kind == "python" and f.cookie_applies:
        from skillsmith.lang.encoding import cookie_encoding

        if cookie_encoding(f.data or b"") == "invalid":
            raise Unfixable("its coding cookie names no encoding Python knows; left unchanged")
    try:
        same = f.encode(f.edit_text) == f.data
    except EncodeError:
        same = False
    if not same:
        raise Unfixable(f"its encoding ({f.encoding}) does not give back the same bytes after decoding; "
                        "left unchanged")


def script_of(f: SourceFile, kind: str, unit):
    """The checked unit's ``Script`` for *f* (with the parse the check made), or a new one."""
    from skillsmith.model.skill import Script

    for script in getattr(unit, "scripts", ()):
        if script.file is f:
            return script
    return Script(f, kind, None, unit)


def transform(kind: str, script, fixers: list[Fixer], out: FileFix, context: FixContext) -> bytes:
    """Run the language driver of *kind* (``skillsmith.fix.python`` or ``skillsmith.fix.shell``) on *script*."""
    module = importlib.import_module(f"skillsmith.fix.{kind}")
    return module.transform(script, fixers, out, context)


def held_lines(context: FixContext, fixer: Fixer) -> set[int]:
    """The lines *fixer* must leave as they are: those of suppressed findings of its rules."""
    return {line for rule, line in context.held if rule in fixer.rules}


def rewrites(old: str, new: str, lines: set[int]) -> bool:
    """Whether *new* changes or drops any of the 1-based *lines* of *old* (lines added around them are fine)."""
    if not lines:
        return False
    old_lines, new_lines = old.splitlines(), new.splitlines()
    kept: set[int] = set()
    for block in difflib.SequenceMatcher(None, old_lines, new_lines, autojunk=False).get_matching_blocks():
        kept.update(range(block.a + 1, block.a + block.size + 1))
    return any(line not in kept for line in lines if line <= len(old_lines))


# -- paths -----------------------------------------------------------------------------------


@dataclass
class FixOptions:
    select: list[str] | None = None  # rule IDs or prefixes; None: every rule with a fix
    unsafe: bool = False  # also run fixes that change behaviour
    write: bool = True  # False for --diff and --check
    started: float = 0.0  # when the run began (set by fix_paths): temp files older than this are stale


@dataclass
class FixResult:
    files: list[FileFix]  # every file that had fixable findings
    remaining: list  # findings after writing (only when written), else the findings before
    notes: list[str] = field(default_factory=list)
    internal_errors: int = 0
    warnings: list[dict] = field(default_factory=list)  # as the check's (``Result.warnings``)
    unsafe: bool = False  # the unsafe fixes were allowed
    write: bool = True  # the fixes were written (not --diff or --check)

    @property
    def changed(self) -> list[FileFix]:
        return [f for f in self.files if f.changed]

    @property
    def skipped(self) -> list[FileFix]:
        return [f for f in self.files if f.skipped]

    @property
    def not_applied(self) -> list[tuple]:
        """(finding, why) for each remaining finding whose fix was allowed but did not resolve it.

        In a run that writes nothing, a finding whose file would be changed by the fixers of
        its rule is not listed: that fix would be applied.
        """
        by_path = {Path(f.file.path).as_posix(): f for f in self.files}
        out = []
        for finding in self.remaining:
            if not may_fix(finding.fix, self.unsafe):
                continue
            ff = by_path.get(finding.path)
            if ff is None:
                why = "found after this run's fixes changed the file; run `skillsmith fix` again"
            elif ff.skipped:
                why = ff.skipped
            elif finding.rule in ff.fixed_rules:
                if not self.write:
                    continue
                why = "the fix changed the file but this finding remains; a person must finish it"
            elif not any(finding.rule in fx.rules and fx.allowed(self.unsafe) for fx in fixers_for(ff.file)):
                why = "no fixer for this rule handles this kind of file"
            else:
                why = "the fixer found nothing it could change safely here (no evidence to write from)"
            out.append((finding, why))
        return out

    @property
    def unsafe_available(self) -> int:
        """Remaining findings an unsafe fix would answer, when unsafe fixes were not allowed."""
        return 0 if self.unsafe else sum(1 for f in self.remaining if f.fix == "unsafe")


def fixers_for(f: SourceFile) -> list[Fixer]:
    """Every fixer that may run on *f*: its language's codemods and the file fixers matching its path."""
    kind = file_kind(f)
    found = list(load_fixers(kind)) if kind in CODEMOD_PREFIX else []
    return found + [x for x in load_fixers("file") if fnmatch.fnmatch(f.rel, x.pattern or "*")]


#: the youngest generation's garbage collection threshold during a fix run, four times a check's
#: (``rules.engine.GC_THRESHOLD``): more of what a unit's checks and fixes make is freed before a
#: collection would scan it. Over 1,660 real scripts: 2.7 s -> 1.0 s of collector time, the same
#: peak memory (a check gains too, but holds more memory at its peak, so it keeps its own)
GC_THRESHOLD = 200_000


@dataclass
class UnitFix:
    """What fixing one unit did: its files, and its findings after the fix (as the check's dicts)."""

    files: list[FileFix]
    result: dict  # {"findings", "notes", "errors"}: after writing, else before


def fix_paths(paths: list[str | Path], options: FixOptions | None = None, done=None) -> FixResult:
    """Fix what the check finds fixable below *paths*; write only when ``options.write``.

    Each unit is checked, fixed and (when written) checked again in one process, from one
    read of its files: the fixers get the check's model and parses, and the check after the
    fix runs on the new bytes in memory. *done* hears of each unit as it is finished
    (``skillsmith.rules.engine.Progress``).
    """
    from skillsmith.discovery.discover import discover
    from skillsmith.rules import engine, registry
    from skillsmith.rules.finding import Finding

    options = options or FixOptions()
    if options.write and not options.started:
        options = dataclasses.replace(options, started=time.time())
    check_options = engine.Options(select=options.select)
    known, _ = engine.cached_run(paths, check_options)
    if known is not None and not any(may_fix(f.fix, options.unsafe) for f in known.findings):
        # an unchanged tree with nothing to fix
        return FixResult([], known.findings, known.notes, 0, known.warnings, options.unsafe, options.write)
    registry.load_rules()
    units = discover(paths)
    files: list[FileFix] = []
    findings: list[Finding] = []
    notes: list[str] = []
    warnings: list[dict] = []
    errors = 0
    if engine.pooled(units, check_options):
        from skillsmith.fix.python import prepare_python_codemods

        prepare_python_codemods()  # once, before the workers fork: else each imports libcst and the codemods
    for unit_fix in engine.map_units(units, check_options, fix_batch, options, done=done, gc_threshold=GC_THRESHOLD):
        files.extend(unit_fix.files)
        findings.extend(Finding(**f) for f in unit_fix.result["findings"])
        notes.extend(n for n in unit_fix.result["notes"] if n not in notes)
        warnings.extend(unit_fix.result.get("warnings", ()))
        errors += unit_fix.result["errors"]
    files.sort(key=lambda x: str(x.file.path))
    return FixResult(files, engine.unique_findings(findings), notes, errors, warnings, options.unsafe, options.write)


def fix_batch(units: list, check_options, options: FixOptions) -> list[UnitFix]:
    """:func:`fix_unit` for several units, sharing one ``bash -n`` among those the check must evaluate."""
    from skillsmith.rules import engine

    from skillsmith.rules import cache

    prepared = [engine.prepare_unit(u, check_options) for u in units]
    engine.share_bash_n([p for p in prepared if p.result is None])
    out = []
    for p in prepared:
        out.append(fix_unit(p, check_options, options))
        engine.release(p)
    cache.flush()
    return out


def fix_unit(prepared, check_options, options: FixOptions) -> UnitFix:
    """Check one prepared unit (or take its cached result), fix its fixable findings, check it again.

    The check again reruns the file-scope rules only on the files the fix wrote: the others
    are the same objects, whose hits the first check kept (``Prepared.file_hits``).
    """
    from skillsmith.rules import engine

    before = prepared.result
    if before is None:
        prepared.file_hits = {}
        before = engine.evaluate_unit(prepared, check_options)
    if options.write and options.started:
        from skillsmith.fix.atomic import remove_stale_temps

        model = prepared.model
        remove_stale_temps({Path(model.root), *(Path(f.path).parent for f in model.files.values())}, options.started)
    wanted: dict[str, set[str]] = {}
    targets: dict[str, list[Target]] = {}
    for finding in before["findings"]:
        if may_fix(finding["fix"], options.unsafe):
            wanted.setdefault(finding["path"], set()).add(finding["rule"])
            targets.setdefault(finding["path"], []).append(Target(finding["rule"], finding["line"], finding["fix"]))
    held: dict[str, list[tuple[str, int]]] = {}
    for h in before.get("held", ()):
        held.setdefault(h["path"], []).append((h["rule"], h["line"]))
    if not wanted:
        return UnitFix([], before)
    model = prepared.model
    by_path = {Path(f.path).as_posix(): f for f in model.files.values()}
    todo: list[tuple[SourceFile, set[str], tuple, tuple]] = []
    files: list[FileFix] = []
    for path, rules in sorted(wanted.items()):
        f = by_path.get(path)
        why = "not a file of the checked skill" if f is None else unwritable(f, model.root)
        if why:
            files.append(FileFix(f or SourceFile(Path(path), Path(path).name, 0, 0), rules, skipped=why))
        else:
            todo.append((f, rules, tuple(targets[path]), tuple(held.get(path, ()))))
    results = transform_all(todo, options.unsafe, model)
    if options.write:
        for result in results:
            write(result, model.root)
    files.extend(results)
    written = {str(r.file.path): r for r in results if r.written}
    after = before
    if written:
        again = engine.resolve(engine.Prepared(prepared.unit, with_fixes(model, written), "", [], None, None, None,
                                               prepared.use_cache, prepared.file_hits), check_options)
        after = engine.evaluate_unit(again, check_options)
        engine.release(again)
    for r in files:  # what goes back to the parent: the bytes a diff needs, not the parses
        r.file = SourceFile.from_bytes(r.file.path, r.file.rel, r.file.data or b"", r.file.mode)
        r.new_file = None
    return UnitFix(files, after)


def with_fixes(model, written: dict[str, FileFix]):
    """A copy of the unit *model* whose fixed files hold their new bytes and mode (nothing is read).

    The files no fix wrote are the same objects, with their parses; what the unit knows of
    them alone is kept (``Skill.revised``).
    """
    files = {}
    for rel, f in model.files.items():
        fix = written.get(str(f.path))
        if fix is None:
            files[rel] = f
            continue
        data = fix.new_data if fix.new_data is not None else f.data
        mode = fix.new_mode if fix.new_mode is not None else f.mode
        new = fix.new_file
        if new is None or new.data != data:
            new = SourceFile.from_bytes(f.path, rel, data, mode)
        new.mode = mode
        files[rel] = new
    return model.revised(files)


def write(result: FileFix, root: Path) -> None:
    """Write *result* atomically when it changed something; a failure leaves the file as it was."""
    from skillsmith.fix.atomic import atomic_write

    if not result.changed:
        return
    f = result.file
    try:
        atomic_write(f.path, result.new_data if result.new_data is not None else f.data,
                     mode=result.new_mode if result.new_mode is not None else f.mode, root=root)
        result.written = True
    except OSError as exc:
        result.skipped = f"not written: {exc.strerror or exc}"
        result.write_failed = True


#: below this many files of one unit a process pool costs more than it saves
POOL_THRESHOLD = 24


def transform_all(todo: list[tuple[SourceFile, set[str], tuple, tuple]], unsafe: bool, unit) -> list[FileFix]:
    """:func:`fix_file` for each file of *unit*; in forked worker processes when there are many.

    Units are already spread over worker processes when there are many of them; a single
    large unit (a ``scripts/`` tree of many files) spreads its files instead, when this runs
    in the main process. The workers inherit the unit with its parses (parse trees do not
    pickle) and send back new bytes only; nothing is written there.
    """
    import multiprocessing
    import os

    jobs = os.cpu_count() or 1
    if (len(todo) < POOL_THRESHOLD or jobs < 2 or multiprocessing.parent_process() is not None
            or not sys.platform.startswith("linux")):
        return [fix_file(f, rules, unsafe, unit, targets, held) for f, rules, targets, held in todo]
    import concurrent.futures

    kinds = {file_kind(item[0]) for item in todo}
    if "python" in kinds:
        from skillsmith.fix.python import prepare_python_codemods

        prepare_python_codemods()  # once here; forked workers inherit libcst and the instances
    if "shell" in kinds:
        load_fixers("shell")
    global _WORK
    _WORK = (todo, unsafe, unit)
    chunk = max(1, len(todo) // (jobs * 4))
    try:
        with concurrent.futures.ProcessPoolExecutor(max_workers=jobs, mp_context=multiprocessing.get_context("fork")) as pool:
            results = list(pool.map(_fix_one, range(len(todo)), chunksize=chunk))
    finally:
        _WORK = None
    for item, result in zip(todo, results):
        result.file = item[0]  # the parent's own object, not the copy that came back
    return results


#: (files, unsafe, unit) while :func:`transform_all` runs a pool: what its forked workers read
_WORK: tuple | None = None


def _fix_one(index: int) -> FileFix:
    todo, unsafe, unit = _WORK
    f, rules, targets, held = todo[index]
    result = fix_file(f, rules, unsafe, unit, targets, held)
    result.file = None  # the parent has it
    result.new_file = None  # parse trees are not worth pickling: the parent parses the new bytes once
    return result


def unwritable(f: SourceFile, root: Path) -> str:
    """Why *f* must not be written, or "".

    Refused: a symbolic link, not a regular file, outside *root*, read-only for its owner
    (mode without ``u+w``: the user said not to write it), or more than one hard link (a
    rename would leave the other names with the old bytes, and writing in place is not
    atomic: a kill would leave half a file).
    """
    import os
    import stat

    try:
        st = os.lstat(f.path)
    except OSError as exc:
        return exc.strerror or str(exc)
    if stat.S_ISLNK(st.st_mode):
        return "a symbolic link; links are never written through"
    if not stat.S_ISREG(st.st_mode):
        return "not a regular file"
    if not st.st_mode & stat.S_IWUSR:
        return "read-only (its owner has no write permission); not written"
    if st.st_nlink > 1:
        return (f"has {st.st_nlink} hard links; replacing it would leave the other names with the old bytes, "
                "so it is not written")
    real_root = os.path.realpath(root)
    if os.path.commonpath([os.path.realpath(f.path.parent), real_root]) != real_root:
        return "outside the checked tree"
    return ""
