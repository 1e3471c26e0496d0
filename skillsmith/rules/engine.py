"""Run the rules over discovered units and collect findings.

paths -> discover -> read bytes once -> parse once per file -> rules -> findings.
Many units run in a process pool; each unit's result is cached by content hash.
"""

from __future__ import annotations

import gc
import operator
import os
import sys
import time
from contextlib import contextmanager
import traceback
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Callable

from skillsmith import targets
from skillsmith.config import Config, guard_for, is_protected
from skillsmith.lang import bashcheck
from skillsmith.model.sourcefile import MAX_BYTES
from skillsmith.rules import cache, collection, registry, suppression
from skillsmith.rules.finding import Finding, Hit, finding_fix, printable

if TYPE_CHECKING:
    from skillsmith.discovery.discover import Unit

#: below this much work (units, a loose script counting as one) the pool costs more than it saves
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
    unsandboxed: bool = False  # with run: run scripts without the sandbox (the user asked for it)
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
    undecided: bool = False  # some check could not run this time: the run is not cached
    #: ``{"path", "line", "message"}``: what the user wrote that does nothing (an inline ignore of no rule)
    warnings: list[dict] = field(default_factory=list)
    #: what was checked: ``{"skills": N, "scripts": N, "projects": N}`` (scripts outside any skill)
    counts: dict = field(default_factory=dict)


#: ``done(unit, finished, total)``: called in the main process as each unit's work is finished
#: (and once with ``(None, 0, total)`` when the units are known; see :func:`map_units`)
Progress = Callable[["Unit | None", int, int], None]


def check_paths(paths: list[str | Path], options: Options | None = None, done: Progress | None = None) -> Result:
    """Check *paths*; *done* hears of each unit as it is finished (not for a run the cache answers whole)."""
    options = options or Options()
    state = _tree_state(paths, options)
    run_key = state.key if state is not None else None
    known = _known_run(run_key)
    if known is not None:
        return known
    registry.load_rules()
    result = _check(paths, options, done, state)
    if run_key is not None and not result.internal_errors and not result.undecided:
        tools = tuple(sorted({t for r in registry.all_rules() for t in r.tools}))
        cache.put(run_key, {
            "findings": [list(vars(f).values()) for f in result.findings], "units": result.units, "notes": result.notes,
            "warnings": result.warnings, "counts": result.counts,
            "tools": tools, "tool_state": [list(t) for t in _tools_state(tools)],
        })
        cache.flush()
    return result


def cached_run(paths: list[str | Path], options: Options) -> tuple[Result | None, str | None]:
    """(the result of an earlier run over the same, unchanged tree or None, the run's key).

    Costs one walk of the tree's metadata: no rule is loaded and no file is read. The key
    (None when this run is not cached) is taken before the run, so a file changed while
    the run reads it is not stored under the new state.
    """
    state = _tree_state(paths, options)
    run_key = state.key if state is not None else None
    return _known_run(run_key), run_key


def _known_run(run_key: str | None) -> Result | None:
    """The result stored under *run_key*, or None."""
    if run_key is None:
        return None
    hit = _run_hit(cache.get(run_key))
    # nothing below the paths changed since a run that stored it (and no tool moved)
    if hit is None or [list(t) for t in _tools_state(tuple(hit["tools"]))] != hit["tool_state"]:
        return None
    return Result([Finding(*row) for row in hit["findings"]], hit["units"], hit["notes"], 0,
                  warnings=hit["warnings"], counts=hit["counts"])


_FINDING_TYPES = {"path": str, "line": int, "column": int, "rule": str, "message": str, "severity": str,
                  "end_line": (int, type(None)), "end_column": (int, type(None)), "fix": (str, type(None))}


_FINDING_KEYS = tuple(_FINDING_TYPES)
#: a stored run keeps each finding as a row: its fields' values in the order of ``Finding``'s fields
_ROW_TYPES = tuple(_FINDING_TYPES.values())


def _is_finding(doc) -> bool:
    return (isinstance(doc, dict) and doc.keys() == _FINDING_TYPES.keys()
            and all(map(isinstance, map(doc.__getitem__, _FINDING_KEYS), _ROW_TYPES)))


def _is_row(row) -> bool:
    return isinstance(row, list) and len(row) == len(_ROW_TYPES) and all(map(isinstance, row, _ROW_TYPES))


def _unit_hit(hit) -> dict | None:
    """*hit* when it has the shape of a unit's stored result, else None: a damaged or foreign entry is a miss."""
    if (isinstance(hit, dict) and isinstance(hit.get("findings"), list) and isinstance(hit.get("notes"), list)
            and isinstance(hit.get("errors"), int) and all(isinstance(n, str) for n in hit["notes"])
            and all(_is_finding(f) for f in hit["findings"]) and "skill" in hit and collection.is_summary(hit["skill"])):
        return hit
    return None


def _run_hit(hit) -> dict | None:
    """*hit* when it has the shape of a stored whole run, else None."""
    if (isinstance(hit, dict) and isinstance(hit.get("findings"), list) and isinstance(hit.get("units"), int)
            and isinstance(hit.get("notes"), list) and all(isinstance(n, str) for n in hit["notes"])
            and isinstance(hit.get("tools"), list) and all(isinstance(t, str) for t in hit["tools"])
            and isinstance(hit.get("tool_state"), list) and all(map(_is_row, hit["findings"]))):
        return hit
    return None


def unique_findings(findings: list[Finding]) -> list[Finding]:
    """*findings* sorted, each once: a config file shared by several units reports its problem once."""
    return sorted({tuple(vars(f).values()): f for f in findings}.values(), key=_finding_order)


#: a Finding's own order (its compared fields), as a key: no comparison calls back into Python
_finding_order = operator.attrgetter("path", "line", "column", "rule")


def _tree_state(paths: list[str | Path], options: Options):
    """The walk that gives the whole-run key and the units' walk digests (see ``skillsmith.snapshot``),
    or None when this run is not cached.

    It is made before any rule is loaded, so an unchanged tree costs one walk and one read.
    """
    if not options.use_cache or options.run or not options.suppressions:
        return None
    from skillsmith.rules import snapshot

    salt = repr((
        "run", registry.package_fingerprint(), sys.version_info[:2], options.select, options.ignore,
        options.target, options.max_bytes,
    )).encode()
    try:
        return snapshot.tree_state([os.fspath(p) for p in paths], salt)
    except (OSError, ValueError):
        return None


def _check(paths: list[str | Path], options: Options, done: Progress | None = None, state=None) -> Result:
    from skillsmith.discovery.discover import discover

    units = discover(paths, _remembered_skills(state))
    cache.flush()
    findings: list[Finding] = []
    notes: list[str] = []
    warnings: list[dict] = []
    errors = 0
    undecided = False
    outs = checked_units(units, options, done, state)
    for out in outs:
        findings.extend(Finding(**f) for f in out["findings"])
        notes.extend(n for n in out["notes"] if n not in notes)
        warnings.extend(out.get("warnings", ()))
        errors += out["errors"]
        undecided = undecided or out.get("undecided", False)
    findings.extend(Finding(**f) for f in collection.run_findings(units, outs))  # rules over the whole run
    findings = unique_findings(findings)
    units_checked = sum(1 for u in units if u.part == 0)  # a folder of loose scripts in parts is one unit
    return Result(findings, units_checked, notes, errors, undecided, warnings=warnings, counts=unit_counts(units))


def _remembered_skills(state):
    """``find_skills`` answered from the cache while the layout of the walked tree is unchanged
    (``snapshot.layout_key``: the same entries, the same ignore files, the same context), so a
    run after an edit of a file's content walks the tree once; None when the run is not cached."""
    from skillsmith.discovery.discover import find_skills
    from skillsmith.rules import snapshot

    layout = snapshot.layout_key(state) if state is not None else None
    if layout is None:
        return None

    def skills_of(top: Path, ignorer) -> tuple[list[Path], dict[str, str]]:
        key = cache.unit_key([b"skills", layout.encode(), os.fsencode(top)])
        doc = cache.get(key)
        if (isinstance(doc, dict) and isinstance(doc.get("skills"), list) and isinstance(doc.get("unlisted"), dict)
                and all(isinstance(s, str) for s in doc["skills"])
                and all(isinstance(v, str) for v in doc["unlisted"].values())):
            return [Path(s) for s in doc["skills"]], doc["unlisted"]
        found, unlisted = find_skills(top, ignorer)
        cache.put(key, {"skills": [os.fspath(s) for s in found], "unlisted": unlisted})
        return found, unlisted

    return skills_of


#: units the main process looks up in the cache at a time before any worker starts; a batch
#: with no hit sends the rest to the workers (a cold cache costs one batch of walks here)
LOOKUP_BATCH = 32


def checked_units(units: list[Unit], options: Options, done: Progress | None = None, state=None) -> list[dict]:
    """Each unit's result, in the order of *units*. The cache answers what it can here, before any
    worker starts: skills by their walk keys (from the walk the whole-run key was made of, *state*:
    no further walk) in one query, then the others by their files' metadata, one query per batch;
    the rest go through :func:`map_units` (workers when many).

    So after an edit only the edited unit is checked, and no pool is started for it. The
    metadata lookups are skipped when skills were keyed by the walk and none hit, and stop at
    the first batch without a hit (a cold cache, a copy of the tree elsewhere): those units and
    the rest go to :func:`map_units`, whose workers look each up by metadata and content.
    """
    outs: list[dict | None] = [None] * len(units)
    if done is not None:
        done(None, 0, len(units))
    finished = 0

    def answer(i: int, out: dict) -> None:
        nonlocal finished
        outs[i] = out
        finished += 1
        if done is not None:
            done(units[i], finished, len(units))

    cacheable = options.use_cache and not options.run and options.suppressions
    walk_keys = _walk_keys(units, options, state) if cacheable and state is not None else {}
    if state is not None:
        state.lines = []  # keyed: the walk's entries are not kept through the run (nor copied into workers)
    stored = cache.get_many(list(walk_keys.values())) if walk_keys else {}
    for i, key in walk_keys.items():
        doc = _unit_hit(stored.get(key))
        hit = placed(doc, units[i]) if doc is not None else None
        if hit is not None:
            answer(i, hit)
    # no walk key hit (a cold cache, a copy elsewhere): the workers look the units up as they go
    if cacheable and (finished or not walk_keys):
        left = [i for i, out in enumerate(outs) if out is None]
        for start in range(0, len(left), LOOKUP_BATCH):
            part = left[start:start + LOOKUP_BATCH]
            answered = _stat_hits([units[i] for i in part], options)
            for j, out in answered.items():
                answer(part[j], out)
            if not answered:
                break
    todo = [i for i, out in enumerate(outs) if out is None]

    def progress(unit: Unit | None, _finished: int, _total: int) -> None:
        nonlocal finished
        if unit is not None and done is not None:
            finished += 1
            done(unit, finished, len(units))

    results = map_units([units[i] for i in todo], options, check_batch, done=progress if done else None)
    for i, out in zip(todo, results):
        outs[i] = out
    new = False
    for i, key in walk_keys.items():
        out = outs[i]
        if key not in stored and not out["errors"] and not out.get("undecided"):
            cache.put(key, portable(out, units[i]))
            new = True
    if new:
        cache.flush()
    return outs


def _walk_keys(units: list[Unit], options: Options, state) -> dict[int, str]:
    """{index: walk key} of the skills among *units* that the walk *state* can key (see
    ``snapshot.unit_digests``): what the metadata key holds, with the walk's digest of the
    skill's folder and of everything outside the skills in place of the skill's own listing."""
    from skillsmith.rules import snapshot

    skills = {i: os.fspath(u.root) for i, u in enumerate(units) if u.kind == "skill"}
    digests = snapshot.unit_digests(state, list(skills.values()))
    if not digests:
        return {}
    shared = [
        b"walk",
        registry.ruleset_fingerprint().encode(),
        _encode(repr((options.select, options.ignore, options.target, options.max_bytes))),
        _encode(repr(_tool_versions(registry.all_rules()))),
    ]
    keys = {}
    for i, root in skills.items():
        digest = digests.get(root)
        if digest is not None:
            unit = units[i]
            keys[i] = cache.unit_key([*shared, os.fsencode(root), _encode(repr(targets.evidence(unit.root))),
                                      _encode(repr(unit.config)), _encode(repr(guard_for(unit.config))),
                                      digest.encode()])
    return keys


def _stat_hits(units: list[Unit], options: Options) -> dict[int, dict]:
    """{index in *units*: result} for the units the cache answers by their metadata keys (no file is read)."""
    keys: dict[int, str] = {}
    for i, unit in enumerate(units):
        if unit.kind == "project":
            continue
        model = load_model(unit, options)
        key = _stat_key(unit, model, options)
        if hasattr(model, "release"):
            model.release()
        if key is not None:
            keys[i] = key
    if not keys:
        return {}
    stored = cache.get_many(list(keys.values()))
    hits = {}
    for i, key in keys.items():
        doc = _unit_hit(stored.get(key))
        hit = placed(doc, units[i]) if doc is not None else None
        if hit is not None:
            hits[i] = hit
    return hits


def unit_counts(units: list[Unit]) -> dict:
    """How many skills, scripts outside skills and project roots *units* are."""
    return {
        "skills": sum(1 for u in units if u.kind == "skill"),
        "scripts": sum(len(u.files) for u in units if u.kind == "loose"),
        "projects": sum(1 for u in units if u.kind == "project"),
    }


def map_units(units: list[Unit], options: Options, batch_fn, *args, done: Progress | None = None,
              gc_threshold: int | None = None) -> list:
    """``batch_fn(batch, options, *args)`` over *units* in batches; in worker processes when there are many.

    ``check`` and ``fix`` both run their per-unit work through here, so a unit is loaded,
    checked and (for ``fix``) fixed in one process, from one read of its files. The results
    are in the order of *units* whatever order the workers finish in; *done* is called once
    with ``(None, 0, total)`` before the work starts, then for each unit of a batch when the
    batch is finished, in the order batches finish. *gc_threshold* is the youngest generation's
    garbage collection threshold for the run (default :data:`GC_THRESHOLD`).
    """
    with collection_tuned(gc_threshold or GC_THRESHOLD):
        return _map_units(units, options, batch_fn, *args, done=done)


#: the youngest generation's threshold during a run (Python's default, 700, makes a run of
#: many small parse trees spend a quarter of its time in the collector)
GC_THRESHOLD = 50_000


@contextmanager
def collection_tuned(threshold: int = GC_THRESHOLD):
    """The garbage collector tuned for a run: what exists now is frozen, collections are rarer.

    Objects made before the run (modules, the rules, the units) are moved to the permanent
    generation, so no collection scans them again and workers forked from here never write to
    their pages; units free their own parse trees (:func:`release`), so rarer collections
    keep memory bounded. Both are undone when the run ends. It nests (``check`` tunes it for the
    run and its report): an inner use freezes again what was made since, before its workers fork.
    """
    before = gc.get_threshold()
    gc.freeze()
    gc.set_threshold(threshold, *before[1:])
    try:
        yield
    finally:
        gc.set_threshold(*before)
        gc.unfreeze()


def _map_units(units: list[Unit], options: Options, batch_fn, *args, done: Progress | None = None) -> list:
    jobs = options.jobs if options.jobs is not None else (os.cpu_count() or 1)
    finished = 0
    if done is not None:
        done(None, 0, len(units))

    def report(batch: list[Unit]) -> None:
        nonlocal finished
        for unit in batch:
            finished += 1
            if done is not None:
                done(unit, finished, len(units))

    if not pooled(units, options):
        # smaller batches only to report progress: a batch shares one `bash -n`
        size = BATCH if done is None else max(1, min(BATCH, len(units) // 8))
        outs = []
        for batch in batches(units, size):
            outs.extend(batch_fn(batch, options, *args))
            report(batch)
        return outs
    import concurrent.futures
    import multiprocessing
    from concurrent.futures.process import BrokenProcessPool

    ctx = multiprocessing.get_context("fork") if sys.platform.startswith("linux") else None
    size = max(1, min(BATCH, len(units) // (jobs * 8)))
    work = batches(units, size)
    results: dict[int, list] = {}
    with concurrent.futures.ProcessPoolExecutor(max_workers=min(jobs, len(work)), mp_context=ctx) as pool:
        futures = {}
        for i, batch in enumerate(work):
            try:
                futures[pool.submit(batch_fn, batch, options, *args)] = i
            except BrokenProcessPool:
                break
        for future in concurrent.futures.as_completed(futures):
            try:
                results[futures[future]] = future.result()  # a worker's exception ends the run here, as in the serial case
            except BrokenProcessPool:
                continue
            report(work[futures[future]])
    for i, batch in enumerate(work):
        if i not in results:  # a worker died (killed, out of memory): the batches it took down run here
            results[i] = batch_fn(batch, options, *args)
            report(batch)
    return [out for i in range(len(work)) for out in results[i]]


def pooled(units: list[Unit], options: Options) -> bool:
    """Whether :func:`map_units` runs *units* in worker processes."""
    jobs = options.jobs if options.jobs is not None else (os.cpu_count() or 1)
    return jobs >= 2 and sum(unit_weight(u) for u in units) >= POOL_THRESHOLD


def unit_weight(unit: Unit) -> int:
    """How much work *unit* is, in skills: a part of a folder of loose scripts counts each script."""
    return max(1, len(unit.files)) if unit.kind == "loose" else 1


def batches(units: list[Unit], size: int) -> list[list[Unit]]:
    return [units[i:i + size] for i in range(0, len(units), size)]


def check_unit(unit: Unit, options: Options) -> dict:
    """Findings for one unit, as plain dicts (cheap to send between processes and to cache)."""
    return check_batch([unit], options)[0]


def check_batch(units: list[Unit], options: Options) -> list[dict]:
    """The findings of several units, sharing one ``bash -n`` among all their shell scripts."""
    prepared = [prepare_unit(u, options) for u in units]
    share_bash_n([p for p in prepared if p.result is None])
    out = []
    for p in prepared:
        out.append(p.result if p.result is not None else evaluate_unit(p, options))
        release(p)
    cache.flush()
    return out


def release(prepared: Prepared) -> None:
    """Free a unit's model once its rules have run (see ``Skill.release``): memory stays bounded by a batch."""
    model, prepared.model = prepared.model, None
    prepared.file_hits = None
    if hasattr(model, "release"):
        model.release()


def share_bash_n(prepared: list[Prepared]) -> None:
    """One ``bash -n`` run for the shell scripts of all *prepared* units (when SHL002 is enabled)."""
    if any(r.id == bashcheck.RULE for p in prepared for r in p.rules):
        bashcheck.share([p.model for p in prepared])


def selection(options: Options, config: Config) -> tuple[tuple[str, ...] | None, tuple[str, ...]]:
    """(select, ignore) under *config*: the command line's select over the config's; both ignores."""
    select = options.select if options.select is not None else config.select
    return None if select is None else tuple(select), tuple(config.ignore) + tuple(options.ignore)


def enabled_rules(options: Options, unit: Unit, target: str) -> list[registry.Rule]:
    """The rules to run on *unit*: the command line's choice, else its config's.

    A config inside the checked tree does not decide the protected (security) rules: the
    user's own does (:func:`skillsmith.config.guard_for`), unless it allows the tree's.
    """
    config = unit.config
    selected = selection(options, config)
    if config.trusted or guard_for(config).allow_security_ignores:
        return _enabled(target, options.run, *selected)
    return _enabled(target, options.run, *selected, selection(options, guard_for(config)))


@lru_cache(maxsize=256)
def _enabled(target: str, run: bool, select: tuple[str, ...] | None, ignore: tuple[str, ...],
             protected: tuple | None = None) -> list[registry.Rule]:
    """The rules *select* and *ignore* leave on; the protected ones by *protected* (select, ignore) when given."""
    rules = []
    for r in registry.all_rules():
        if target not in r.targets:
            continue
        if r.scope == "run" and not run:
            continue
        chosen, dropped = protected if protected is not None and is_protected(r.id) else (select, ignore)
        if registry.runs(r, chosen, dropped):
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
    #: when a dict, (rule ID, rel) -> (file, hits) of the file-scope rules, filled by :func:`evaluate_unit`,
    #: which reuses an entry while the unit holds that same file object: a file-scope check reads its
    #: file alone (``fix`` shares one between its checks before and after writing)
    file_hits: dict | None = None


def prepare_unit(unit: Unit, options: Options) -> Prepared:
    """Load *unit* (its files are listed, not read) and look its result up in the cache.

    A hit on the metadata key answers without reading a file; the target and rules are then
    left unresolved (see :func:`resolve`).
    """
    model = load_model(unit, options)
    # project units are cheap (link states); results without suppressions are not cached
    use_cache = options.use_cache and not options.run and unit.kind != "project" and options.suppressions
    stat_key = _stat_key(unit, model, options) if use_cache else None
    if stat_key is not None:
        doc = _unit_hit(cache.get(stat_key))  # nothing changed since the last run: no file is read
        hit = placed(doc, unit) if doc is not None else None
        if hit is not None:
            return Prepared(unit, model, "", [], None, hit, stat_key, use_cache)
    prepared = resolve(Prepared(unit, model, "", [], None, None, stat_key, use_cache), options)
    if prepared.key is not None:
        doc = _unit_hit(cache.get(prepared.key))
        hit = placed(doc, unit) if doc is not None else None
        if hit is not None:
            if stat_key is not None:
                cache.put(stat_key, doc)
            prepared.result = hit
    return prepared


def portable(result: dict, unit: Unit) -> dict:
    """*result* as the cache stores it: its paths relative to the unit's root (``.`` is the root).

    So a copy of the tree at another path (a CI checkout) can use it. A result that names
    where the tree is in any other way (a path outside the unit, the folder in a message) is
    stored as it is, with its ``root``, and answers for that root only.
    """
    root = Path(unit.root).as_posix()
    where = Path(unit.top).as_posix() if unit.top is not None else root
    as_is = {**result, "root": root}

    def relative(items: list[dict]) -> list[dict] | None:
        out = []
        for item in items:
            path = item["path"]
            if path == root:
                out.append({**item, "path": "."})
            elif path.startswith(root + "/") and root != "/":
                out.append({**item, "path": path[len(root) + 1:]})
            else:
                return None
        return out

    texts = [f["message"] for f in result["findings"]] + list(result["notes"])
    texts += [w["message"] for w in result.get("warnings", ())]
    if any(where in text for text in texts):
        return as_is
    findings, held, warnings = (relative(result.get(k, [])) for k in ("findings", "held", "warnings"))
    if findings is None or held is None or warnings is None:
        return as_is
    return {**result, "findings": findings, "held": held, "warnings": warnings, "root": None}


def placed(doc: dict, unit: Unit) -> dict | None:
    """A stored result (:func:`portable`) for *unit*, its paths below the unit's root; None when it is another root's."""
    root = Path(unit.root).as_posix()
    stored = doc.get("root")
    result = {k: v for k, v in doc.items() if k != "root"}
    if stored is not None:
        return result if stored == root else None
    if "root" not in doc:
        return None  # not a stored result

    def absolute(items: list) -> list:
        return [{**i, "path": root if i["path"] == "." else f"{root}/{i['path']}"} for i in items]

    for k in ("findings", "held", "warnings"):
        if not isinstance(result.get(k, []), list) or not all(isinstance(i, dict) and isinstance(i.get("path"), str)
                                                              for i in result.get(k, [])):
            return None
        result[k] = absolute(result.get(k, []))
    return result


def load_model(unit: Unit, options: Options):
    """The model of *unit* (``Skill``, ``Loose`` or ``Project``): its files listed and stat'ed, none read."""
    from skillsmith.discovery.discover import load_loose, load_project, load_skill

    if unit.kind == "skill":
        return load_skill(unit.root, unit.config, options.max_bytes, unit.ignorer)
    if unit.kind == "project":
        return load_project(unit)
    return load_loose(unit, options.max_bytes)


def resolve(prepared: Prepared, options: Options) -> Prepared:
    """Fill in the unit's target, its enabled rules and its content key (which reads its files)."""
    if prepared.rules:
        return prepared
    unit, model = prepared.unit, prepared.model
    named = options.target or unit.config.target
    target = named or targets.detect(model).name
    model.target = target
    model.target_named = bool(named)
    prepared.target = target
    prepared.rules = enabled_rules(options, unit, target)
    if prepared.use_cache:
        prepared.key = _cache_key(unit, model, prepared.rules, target + ("!" if named else ""))
    return prepared


def evaluate_unit(prepared: Prepared, options: Options) -> dict:
    """Run the rules over a prepared unit; store the result in the cache."""
    unit, model, rules, key = prepared.unit, prepared.model, prepared.rules, prepared.key
    hits: list[tuple[registry.Rule, Hit]] = []
    notes: list[str] = []
    errors = 0
    undecided = False  # a check that could run another time did not: the result is not cached

    def run(rule: registry.Rule, subject) -> list[Hit] | None:
        """Run *rule* on *subject*, adding its hits; they are returned, or None when the rule could not finish."""
        nonlocal errors, undecided
        found = []
        try:
            for hit in rule.check(subject) or ():
                found.append(hit)
                hits.append((rule, hit))
        except registry.RuleUnavailable as why:
            undecided = undecided or why.transient
            if str(why) not in notes:
                notes.append(str(why))
        except Exception as exc:  # a rule bug must not lose the other findings
            errors += 1
            where = getattr(subject, "path", None) or getattr(subject, "root", "")
            notes.append(f"internal error in rule {rule.id} on {where}: {type(exc).__name__}: {exc}")
            if os.environ.get("SKILLSMITH_DEBUG"):
                notes.append(traceback.format_exc())
        else:
            return found
        return None

    files = model.files
    file_hits = prepared.file_hits
    for rule in rules:
        if rule.scope == "skill" and unit.kind == "skill":
            run(rule, model)
        elif rule.scope == "unit" and unit.kind != "project":
            run(rule, model)
        elif rule.scope == "project" and unit.kind == "project":
            run(rule, model)
        elif rule.scope == "file" and file_hits is not None:
            for f in files.values():
                known = file_hits.get((rule.id, f.rel))
                if known is not None and known[0] is f:
                    hits.extend((rule, hit) for hit in known[1])
                    continue
                found = run(rule, (model, f))
                if found is not None:
                    file_hits[(rule.id, f.rel)] = (f, found)
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
    select, ignore = selection(options, unit.config)
    out = []
    held = []  # suppressed findings with a fix: `fix` leaves their lines alone

    def shown(rule: registry.Rule, hit: Hit) -> str | None:
        """``"shown"``, ``"held"`` (suppressed inline) or None (deselected or ignored) for *hit*."""
        path = str(hit.path)
        if not registry.keeps(rule, hit.code, select, ignore) or _ignored(unit.config, rule.id, Path(path), hit.code):
            return None
        f = by_path.get(path)
        if f is not None and f.text is not None and options.suppressions:
            if path not in tables:
                tables[path] = suppression.parse(f.lines)
            if suppression.suppressed(rule.id, hit.line, tables[path], hit.code) and (
                not is_protected(rule.id) or guard_for(unit.config).allow_security_ignores
            ):
                return "held"
        return "shown"

    for rule, hit in hits:
        verdict = shown(rule, hit)
        if verdict is None:
            continue
        if verdict == "held":
            if rule.fix is not None:
                held.append(dict(path=Path(hit.path).as_posix(), rule=rule.id, line=hit.line))
            continue
        out.append(
            dict(
                path=Path(hit.path).as_posix(), line=hit.line, column=hit.column, rule=hit.code or rule.id,
                message=printable(hit.message), severity=rule.severity, end_line=hit.end_line,
                end_column=hit.end_column, fix=finding_fix(hit.fix, rule.fix),
            )
        )
    out = one_per_problem(out)
    warnings = suppression.unknown_rules(files.values()) if options.suppressions else []
    result = {"findings": out, "notes": notes, "errors": errors, "undecided": undecided, "warnings": warnings,
              "held": held, "skill": _summary(unit, model, rules, shown, out)}
    if key is not None and not errors and not undecided:
        stored = portable(result, unit)
        cache.put(key, stored)
        if prepared.stat_key is not None:
            cache.put(prepared.stat_key, stored)
    return result


def one_per_problem(findings: list[dict]) -> list[dict]:
    """*findings* without those that yield to a finding of the same cause at the same place (``registry.YIELDS``)."""
    if not any(f["rule"] in registry.YIELDS for f in findings):
        return findings
    at: dict[tuple[str, int], list[dict]] = {}
    for f in findings:
        at.setdefault((f["path"], f["line"]), []).append(f)
    return [f for f in findings
            if not any(other["rule"] in registry.YIELDS.get(f["rule"], ()) and same_place(f, other)
                       for other in at[(f["path"], f["line"])])]


def same_place(a: dict, b: dict) -> bool:
    """Whether two findings on one line mark the same text: their columns overlap where both end on that line."""
    if a["end_column"] is None or b["end_column"] is None or a["end_line"] not in (None, a["line"]) \
            or b["end_line"] not in (None, b["line"]):
        return True
    return a["column"] < b["end_column"] and b["column"] < a["end_column"]


def _summary(unit: Unit, model, rules: list[registry.Rule], shown, findings: list[dict]) -> dict | None:
    """What the run-scope rules (:mod:`skillsmith.rules.collection`) know of a skill: its name, the
    rules that would report on its ``name:`` line (*shown* says, as for the unit's own hits) and
    the rules of the unit's *findings* there.

    Every skill has one, whether or not those rules run on it: its name may collide with the
    name of a skill they do run on. A skill the config excludes has none: it is not part of the
    collection the user checks."""
    if unit.kind != "skill" or getattr(model, "doc", None) is None or unit.config.excluded(model.skill_md.path):
        return None
    probe = Hit(model.skill_md.path, "", collection.name_line(model))
    where = (Path(probe.path).as_posix(), probe.line)
    return collection.summary_of(model, [r.id for r in rules if r.scope == "collection" and shown(r, probe) == "shown"],
                                 [f["rule"] for f in findings if (f["path"], f["line"]) == where])


def _ignored(config: Config, rule_id: str, path: Path, code: str | None = None) -> bool:
    """Whether the per-file-ignores drop *rule_id* at *path*.

    A config inside the checked tree drops no protected rule (the user's own config decides
    those, unless it allows the tree's), and its ``exclude``, which the walk does not apply,
    drops every other rule on the files it names.
    """
    if config.trusted or not is_protected(rule_id):
        own = {"ALL"} if not config.trusted and config.excluded(path) else config.ignored_for(path)
        return bool(own) and registry.matches(rule_id, own, code)
    guard = guard_for(config)
    if guard.allow_security_ignores and registry.matches(rule_id, config.ignored_for(path), code):
        return True
    return registry.matches(rule_id, guard.ignored_for(path), code)


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
        _place(unit),
        _encode(repr(_config_seen_from(unit.config, unit.root))),
        _encode(repr(_config_seen_from(guard_for(unit.config), unit.root))),
        _encode(repr(_tool_versions(rules))),
    ]
    for rel, f in sorted(model.files.items()):
        data = f.data
        parts.append(_encode(f"{rel}\0{f.mode:o}\0{f.size}"))
        parts.append(data if data is not None else _encode(f.read_error or ""))
    _tree_parts(model, parts)
    return cache.unit_key(parts)


def _place(unit: Unit) -> bytes:
    """Where *unit* is, as far as its findings may tell: its path below the folder it was found from, and its name.

    Without that folder (a unit made by hand), its absolute path.
    """
    if unit.top is not None:
        try:
            rel = Path(unit.root).relative_to(unit.top).as_posix()
        except ValueError:
            rel = None
        if rel is not None:
            return _encode(f"{rel}\0{Path(unit.root).name}")
    return os.fsencode(unit.root)


def _config_seen_from(config: Config, root: Path) -> Config:
    """*config* with its file's paths relative to *root*: the same config beside a copy of the tree keys the same."""
    import dataclasses

    def rel(path):
        return None if path is None else Path(os.path.relpath(path, root))

    problem = config.problem
    if problem is not None:
        problem = dataclasses.replace(problem, path=rel(problem.path))
    return dataclasses.replace(config, root=rel(config.root), source=rel(config.source), problem=problem)


def _stat_key(unit: Unit, model, options: Options) -> str | None:
    """The unit's key by file metadata: found without reading a file; None when a file is too fresh to trust it.

    Size, mode, modification and change time, inode and device of every file (see
    :mod:`skillsmith.rules.snapshot`): any change to a file (an edit, a checkout, a copy, a
    ``touch -r``) changes its change time at least, and the unit falls back to the content
    key. A file stamped within the timestamp granularity of now (:func:`snapshot.racy`) could
    be rewritten without a new stamp, so the unit then has no metadata key this run.
    """
    from skillsmith.rules import snapshot

    now = time.time_ns()
    parts = [
        b"stat",
        registry.ruleset_fingerprint().encode(),
        _encode(repr((options.select, options.ignore, options.target, options.max_bytes))),
        _encode(repr(_tool_versions(registry.all_rules()))),
        unit.kind.encode(),
        os.fsencode(unit.root),
        _encode(repr(targets.evidence(unit.root))),  # the files beside the unit its target's detection reads
        _encode(repr(unit.config)),
        _encode(repr(guard_for(unit.config))),
    ]
    for rel, f in sorted(model.files.items()):
        if snapshot.racy(None, now, mtime_ns=f.mtime_ns, ctime_ns=f.ctime_ns):
            return None
        parts.append(_encode(f"{rel}\0{f.mode:o}\0{f.size}\0{f.mtime_ns}\0{f.ctime_ns}\0{f.inode}\0{f.device}"))
    _tree_parts(model, parts)
    return cache.unit_key(parts)


def _tree_parts(model, parts: list[bytes]) -> None:
    for rel, link in sorted(getattr(model, "symlinks", {}).items()):
        parts.append(_encode(f"L{rel}\0{link}"))
    for rel in getattr(model, "dirs", []):
        parts.append(_encode(f"D{rel}"))
    unread = getattr(model, "unread", None)
    parts.append(_encode(repr(unread)) if unread is not None else b"")


def _encode(text: str) -> bytes:
    """UTF-8, with the undecodable bytes of file names restored."""
    return text.encode("utf-8", "surrogateescape")
