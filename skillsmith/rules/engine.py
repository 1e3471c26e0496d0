"""Run the rules over discovered units and collect findings.

paths -> discover -> read bytes once -> parse once per file -> rules -> findings.
Many units run in a process pool; each unit's result is cached by content hash.
"""

from __future__ import annotations

import os
import sys
import traceback
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from skillsmith.lang import bashcheck
from skillsmith.model.sourcefile import MAX_BYTES
from skillsmith.rules import cache, registry, suppression
from skillsmith.rules.finding import Finding, Hit, finding_fix, printable

if TYPE_CHECKING:
    from skillsmith.discovery.discover import Unit

#: below this many units the pool costs more than it saves
POOL_THRESHOLD = 24
#: units loaded together (sharing one ``bash -n`` run); also the largest pool task
BATCH = 64


@dataclass
class Options:
    select: list[str] | None = None
    ignore: list[str] = field(default_factory=list)
    target: str | None = None
    run: bool = False
    run_timeout: float = 10.0
    max_bytes: int = MAX_BYTES
    jobs: int | None = None
    use_cache: bool = True
    suppressions: bool = True  # honour inline `skillsmith: ignore[...]` comments (audit does not)


@dataclass
class Result:
    findings: list[Finding]
    units: int
    notes: list[str] = field(default_factory=list)
    internal_errors: int = 0


def check_paths(paths: list[str | Path], options: Options | None = None) -> Result:
    options = options or Options()
    known, run_key = cached_run(paths, options)
    if known is not None:
        return known
    registry.load_rules()
    result = _check(paths, options)
    if run_key is not None and not result.internal_errors:
        tools = tuple(sorted({t for r in registry.all_rules() for t in r.tools}))
        cache.put(run_key, {
            "findings": [dict(vars(f)) for f in result.findings], "units": result.units, "notes": result.notes,
            "tools": tools, "tool_state": [list(t) for t in _tools_state(tools)],
        })
    return result


def cached_run(paths: list[str | Path], options: Options) -> tuple[Result | None, str | None]:
    """(the result of an earlier run over the same, unchanged tree or None, the run's key).

    Costs one walk of the tree's metadata: no rule is loaded and no file is read. The key
    (None when this run is not cached) is taken before the run, so a file changed while
    the run reads it is not stored under the new state.
    """
    run_key = _run_key(paths, options)
    if run_key is None:
        return None, None
    hit = cache.get(run_key)
    # nothing below the paths changed since a run that stored it (and no tool moved)
    if hit is None or [list(t) for t in _tools_state(tuple(hit["tools"]))] != hit["tool_state"]:
        return None, run_key
    return Result([Finding(**f) for f in hit["findings"]], hit["units"], hit["notes"], 0), run_key


def _run_key(paths: list[str | Path], options: Options) -> str | None:
    """The whole-run key (see ``skillsmith.snapshot``), or None when this run is not cached.

    It is computed before any rule is loaded, so an unchanged tree costs one walk and one read.
    """
    if not options.use_cache or options.run or not options.suppressions:
        return None
    from skillsmith.rules import snapshot

    salt = repr((
        "run", registry.package_fingerprint(), sys.version_info[:2], options.select, options.ignore,
        options.target, options.max_bytes,
    )).encode()
    try:
        return snapshot.tree_key([os.fspath(p) for p in paths], salt)
    except (OSError, ValueError):
        return None


def _check(paths: list[str | Path], options: Options) -> Result:
    from skillsmith.discovery.discover import discover

    units = discover(paths)
    findings: list[Finding] = []
    notes: list[str] = []
    errors = 0
    for out in map_units(units, options, check_batch):
        findings.extend(Finding(**f) for f in out["findings"])
        notes.extend(n for n in out["notes"] if n not in notes)
        errors += out["errors"]
    findings.sort()
    return Result(findings, len(units), notes, errors)


def map_units(units: list[Unit], options: Options, batch_fn, *args) -> list:
    """``batch_fn(batch, options, *args)`` over *units* in batches; in worker processes when there are many.

    ``check`` and ``fix`` both run their per-unit work through here, so a unit is loaded,
    checked and (for ``fix``) fixed in one process, from one read of its files.
    """
    jobs = options.jobs if options.jobs is not None else (os.cpu_count() or 1)
    if len(units) < POOL_THRESHOLD or jobs < 2:
        return [out for batch in batches(units, BATCH) for out in batch_fn(batch, options, *args)]
    import concurrent.futures
    import multiprocessing

    ctx = multiprocessing.get_context("fork") if sys.platform.startswith("linux") else None
    size = max(1, min(BATCH, len(units) // (jobs * 8)))
    work = batches(units, size)
    with concurrent.futures.ProcessPoolExecutor(max_workers=jobs, mp_context=ctx) as pool:
        results = pool.map(batch_fn, work, *([a] * len(work) for a in (options, *args)))
        return [out for outs in results for out in outs]


def batches(units: list[Unit], size: int) -> list[list[Unit]]:
    return [units[i:i + size] for i in range(0, len(units), size)]


def check_unit(unit: Unit, options: Options) -> dict:
    """Findings for one unit, as plain dicts (cheap to send between processes and to cache)."""
    return check_batch([unit], options)[0]


def check_batch(units: list[Unit], options: Options) -> list[dict]:
    """The findings of several units, sharing one ``bash -n`` among all their shell scripts."""
    prepared = [prepare_unit(u, options) for u in units]
    share_bash_n([p for p in prepared if p.result is None])
    return [p.result if p.result is not None else evaluate_unit(p, options) for p in prepared]


def share_bash_n(prepared: list[Prepared]) -> None:
    """One ``bash -n`` run for the shell scripts of all *prepared* units (when SHL002 is enabled)."""
    if any(r.id == bashcheck.RULE for p in prepared for r in p.rules):
        bashcheck.share([p.model for p in prepared])


def enabled_rules(options: Options, unit: Unit, target: str) -> list[registry.Rule]:
    select = options.select if options.select is not None else unit.config.select
    ignore = tuple(unit.config.ignore) + tuple(options.ignore)
    return _enabled(target, options.run, None if select is None else tuple(select), ignore)


@lru_cache(maxsize=256)
def _enabled(target: str, run: bool, select: tuple[str, ...] | None, ignore: tuple[str, ...]) -> list[registry.Rule]:
    rules = []
    for r in registry.all_rules():
        if target not in r.targets:
            continue
        if r.scope == "run" and not run:
            continue
        if select is not None and not registry.matches(r.id, select):
            continue
        if ignore and registry.matches(r.id, ignore):
            continue
        rules.append(r)
    return rules


@dataclass
class Prepared:
    """A unit loaded, with its target, rules and cache key, or already answered by the cache."""

    unit: Unit
    model: object
    target: str
    rules: list
    key: str | None
    result: dict | None
    stat_key: str | None = None
    use_cache: bool = False


def prepare_unit(unit: Unit, options: Options) -> Prepared:
    """Load *unit* (its files are listed, not read) and look its result up in the cache.

    A hit on the metadata key answers without reading a file; the target and rules are then
    left unresolved (see :func:`resolve`).
    """
    from skillsmith.discovery.discover import load_loose, load_project, load_skill

    if unit.kind == "skill":
        model = load_skill(unit.root, unit.config, options.max_bytes, unit.ignorer)
    elif unit.kind == "project":
        model = load_project(unit)
    else:
        model = load_loose(unit, options.max_bytes)
    # project units are cheap (link states); results without suppressions are not cached
    use_cache = options.use_cache and not options.run and unit.kind != "project" and options.suppressions
    stat_key = _stat_key(unit, model, options) if use_cache else None
    if stat_key is not None:
        hit = cache.get(stat_key)  # nothing changed since the last run: no file is read
        if hit is not None:
            return Prepared(unit, model, "", [], None, hit, stat_key, use_cache)
    prepared = resolve(Prepared(unit, model, "", [], None, None, stat_key, use_cache), options)
    if prepared.key is not None:
        hit = cache.get(prepared.key)
        if hit is not None:
            cache.put(stat_key, hit)
            prepared.result = hit
    return prepared


def resolve(prepared: Prepared, options: Options) -> Prepared:
    """Fill in the unit's target, its enabled rules and its content key (which reads its files)."""
    from skillsmith.discovery.discover import detect_target

    if prepared.rules:
        return prepared
    unit, model = prepared.unit, prepared.model
    if unit.kind == "skill":
        target = options.target or unit.config.target or detect_target(model)
    elif unit.kind == "project":
        target = options.target or unit.config.target or "sucoder"
    else:
        target = options.target or unit.config.target or "agentskills"
    model.target = target
    prepared.target = target
    prepared.rules = enabled_rules(options, unit, target)
    if prepared.use_cache:
        prepared.key = _cache_key(unit, model, prepared.rules, target)
    return prepared


def evaluate_unit(prepared: Prepared, options: Options) -> dict:
    """Run the rules over a prepared unit; store the result in the cache."""
    unit, model, rules, key = prepared.unit, prepared.model, prepared.rules, prepared.key
    hits: list[tuple[registry.Rule, Hit]] = []
    notes: list[str] = []
    errors = 0

    def run(rule: registry.Rule, subject) -> None:
        nonlocal errors
        try:
            for hit in rule.check(subject) or ():
                hits.append((rule, hit))
        except registry.RuleUnavailable as why:
            if str(why) not in notes:
                notes.append(str(why))
        except Exception as exc:  # a rule bug must not lose the other findings
            errors += 1
            where = getattr(subject, "path", None) or getattr(subject, "root", "")
            notes.append(f"internal error in rule {rule.id} on {where}: {type(exc).__name__}: {exc}")
            if os.environ.get("SKILLSMITH_DEBUG"):
                notes.append(traceback.format_exc())

    files = model.files
    for rule in rules:
        if rule.scope == "skill" and unit.kind == "skill":
            run(rule, model)
        elif rule.scope == "project" and unit.kind == "project":
            run(rule, model)
        elif rule.scope == "file":
            for f in files.values():
                run(rule, (model, f))
        elif rule.scope in ("script", "run"):
            for script in model.scripts:
                if script.is_library and not rule.library:
                    continue
                if rule.scope == "run":
                    run(rule, (script, options))
                else:
                    run(rule, script)

    by_path = {str(f.path): f for f in files.values()}
    tables: dict[str, tuple] = {}
    out = []
    held = []  # suppressed findings with a fix: `fix` leaves their lines alone
    for rule, hit in hits:
        path = str(hit.path)
        ignored = unit.config.ignored_for(Path(path))
        if ignored and registry.matches(rule.id, ignored):
            continue
        f = by_path.get(path)
        if f is not None and f.text is not None and options.suppressions:
            if path not in tables:
                tables[path] = suppression.parse(f.lines)
            if suppression.suppressed(rule.id, hit.line, tables[path]):
                if rule.fix is not None:
                    held.append(dict(path=Path(path).as_posix(), rule=rule.id, line=hit.line))
                continue
        out.append(
            dict(
                path=Path(path).as_posix(), line=hit.line, column=hit.column, rule=hit.code or rule.id,
                message=printable(hit.message), severity=rule.severity, end_line=hit.end_line,
                end_column=hit.end_column, fix=finding_fix(hit.fix, rule.fix),
            )
        )
    result = {"findings": out, "notes": notes, "errors": errors, "held": held}
    if key is not None and not errors:
        cache.put(key, result)
        if prepared.stat_key is not None:
            cache.put(prepared.stat_key, result)
    return result


def _tool_versions(rules) -> tuple:
    """Each external tool the rules run: where it is and when it changed (None: not installed)."""
    return _tools_state(tuple(sorted({t for r in rules for t in r.tools})))


@lru_cache(maxsize=16)
def _tools_state(tools: tuple) -> tuple:
    import shutil

    found = []
    for tool in tools:
        path = shutil.which(tool)
        try:
            found.append((tool, path, os.stat(path).st_mtime_ns if path else None))
        except OSError:
            found.append((tool, path, None))
    return tuple(found)


def _cache_key(unit: Unit, model, rules, target: str) -> str:
    """The unit's key by content: every file's bytes, plus the rules, target and config."""
    parts = [
        registry.ruleset_fingerprint().encode(),
        ",".join(r.id for r in rules).encode(),
        target.encode(),
        unit.kind.encode(),
        os.fsencode(unit.root),
        _encode(repr(unit.config)),
        _encode(repr(_tool_versions(rules))),
    ]
    for rel, f in sorted(model.files.items()):
        data = f.data
        parts.append(_encode(f"{rel}\0{f.mode:o}\0{f.size}"))
        parts.append(data if data is not None else _encode(f.read_error or ""))
    _tree_parts(model, parts)
    return cache.unit_key(parts)


def _stat_key(unit: Unit, model, options: Options) -> str:
    """The unit's key by file metadata (size, mtime in ns, inode, mode): found without reading a file.

    A hit means no file of the unit changed since a run that stored it; any change to a file
    (an edit, a checkout, a copy) changes its mtime or inode, and the unit falls back to the
    content key.
    """
    parts = [
        b"stat",
        registry.ruleset_fingerprint().encode(),
        _encode(repr((options.select, options.ignore, options.target, options.max_bytes))),
        _encode(repr(_tool_versions(registry.all_rules()))),
        unit.kind.encode(),
        os.fsencode(unit.root),
        _encode(repr(unit.config)),
    ]
    for rel, f in sorted(model.files.items()):
        parts.append(_encode(f"{rel}\0{f.mode:o}\0{f.size}\0{f.mtime_ns}\0{f.inode}"))
    _tree_parts(model, parts)
    return cache.unit_key(parts)


def _tree_parts(model, parts: list[bytes]) -> None:
    for rel, link in sorted(getattr(model, "symlinks", {}).items()):
        parts.append(_encode(f"L{rel}\0{link}"))
    for rel in getattr(model, "dirs", []):
        parts.append(_encode(f"D{rel}"))
    parts.append(b"T" if getattr(model, "truncated", False) else b"")


def _encode(text: str) -> bytes:
    """UTF-8, with the undecodable bytes of file names restored."""
    return text.encode("utf-8", "surrogateescape")
