"""Run the rules over discovered units and collect findings.

paths -> discover -> read bytes once -> parse once per file -> rules -> findings.
Many units run in a process pool; each unit's result is cached by content hash.
"""

from __future__ import annotations

import os
import sys
import traceback
from dataclasses import dataclass, field
from pathlib import Path

from skillsmith import cache, registry, suppression
from skillsmith.discover import Unit, detect_target, discover, load_loose, load_skill
from skillsmith.finding import Finding, Hit
from skillsmith.sourcefile import MAX_BYTES

#: below this many units the pool costs more than it saves
POOL_THRESHOLD = 24


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


@dataclass
class Result:
    findings: list[Finding]
    units: int
    notes: list[str] = field(default_factory=list)
    internal_errors: int = 0


def check_paths(paths: list[str | Path], options: Options | None = None) -> Result:
    options = options or Options()
    registry.load_rules()
    units = discover(paths)
    jobs = options.jobs if options.jobs is not None else (os.cpu_count() or 1)
    outcomes: list[dict]
    if len(units) >= POOL_THRESHOLD and jobs > 1:
        outcomes = _pool_map(units, options, jobs)
    else:
        outcomes = [check_unit(u, options) for u in units]
    findings: list[Finding] = []
    notes: list[str] = []
    errors = 0
    for out in outcomes:
        findings.extend(Finding(**f) for f in out["findings"])
        notes.extend(out["notes"])
        errors += out["errors"]
    findings.sort()
    return Result(findings, len(units), notes, errors)


def _pool_map(units: list[Unit], options: Options, jobs: int) -> list[dict]:
    import concurrent.futures
    import multiprocessing

    ctx = multiprocessing.get_context("fork") if sys.platform.startswith("linux") else None
    chunk = max(1, len(units) // (jobs * 8))
    with concurrent.futures.ProcessPoolExecutor(max_workers=jobs, mp_context=ctx) as pool:
        return list(pool.map(check_unit, units, [options] * len(units), chunksize=chunk))


def enabled_rules(options: Options, unit: Unit, target: str) -> list[registry.Rule]:
    select = options.select if options.select is not None else unit.config.select
    ignore = list(unit.config.ignore) + list(options.ignore)
    rules = []
    for r in registry.all_rules():
        if target not in r.targets:
            continue
        if r.scope == "run" and not options.run:
            continue
        if select is not None and not registry.matches(r.id, select):
            continue
        if ignore and registry.matches(r.id, ignore):
            continue
        rules.append(r)
    return rules


def check_unit(unit: Unit, options: Options) -> dict:
    """Findings for one unit, as plain dicts (cheap to send between processes and to cache)."""
    if unit.kind == "skill":
        model = load_skill(unit.root, unit.config, options.max_bytes, unit.ignorer)
        target = options.target or unit.config.target or detect_target(model)
    else:
        model = load_loose(unit, options.max_bytes)
        target = options.target or unit.config.target or "agentskills"
    model.target = target
    rules = enabled_rules(options, unit, target)

    key = None
    if options.use_cache and not options.run:
        key = _cache_key(unit, model, rules, target)
        hit = cache.get(key)
        if hit is not None:
            return hit

    hits: list[tuple[registry.Rule, Hit]] = []
    notes: list[str] = []
    errors = 0

    def run(rule: registry.Rule, subject) -> None:
        nonlocal errors
        try:
            for hit in rule.check(subject) or ():
                hits.append((rule, hit))
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
    for rule, hit in hits:
        path = str(hit.path)
        ignored = unit.config.ignored_for(Path(path))
        if ignored and registry.matches(rule.id, ignored):
            continue
        f = by_path.get(path)
        if f is not None and f.text is not None:
            if path not in tables:
                tables[path] = suppression.parse(f.lines)
            if suppression.suppressed(rule.id, hit.line, tables[path]):
                continue
        out.append(
            dict(
                path=Path(path).as_posix(), line=hit.line, column=hit.column, rule=hit.code or rule.id,
                message=hit.message, severity=rule.severity, end_line=hit.end_line,
                end_column=hit.end_column, fix=rule.fix,
            )
        )
    result = {"findings": out, "notes": notes, "errors": errors}
    if key is not None and not errors:
        cache.put(key, result)
    return result


def _cache_key(unit: Unit, model, rules, target: str) -> str:
    parts = [
        registry.ruleset_fingerprint().encode(),
        ",".join(r.id for r in rules).encode(),
        target.encode(),
        unit.kind.encode(),
        str(unit.root).encode(),
        repr(unit.config).encode(),
    ]
    for rel, f in sorted(model.files.items()):
        data = f.data
        parts.append(f"{rel}\0{f.mode:o}\0{f.size}".encode())
        parts.append(data if data is not None else (f.read_error or "").encode())
    for rel, link in sorted(getattr(model, "symlinks", {}).items()):
        parts.append(f"L{rel}\0{link}".encode())
    for rel in getattr(model, "dirs", []):
        parts.append(f"D{rel}".encode())
    return cache.unit_key(parts)
