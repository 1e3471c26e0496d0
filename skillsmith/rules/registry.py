"""The rule registry: one object per rule carries its ID, docs, severity, fix safety and check.

Rules live in ``skillsmith/rules/<family>.py`` (:data:`FAMILY_MODULES`) and register themselves with :func:`rule`.
``skillsmith rules`` and ``docs/rules.md`` are generated from here; nothing is written twice.
"""

from __future__ import annotations

import importlib
import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Callable, Iterable, Iterator

from skillsmith.rules.finding import SEVERITIES
from skillsmith.targets import names as target_names

#: rule families: ID prefix -> (name, what it covers)
FAMILIES = {
    "SPC": ("spec", "SKILL.md frontmatter and body (Agent Skills specification)"),
    "RES": ("resources", "references/, assets/ and the paths SKILL.md cites (seed 000 §1, §9)"),
    "CON": ("script-contract", "the script contract for every file under scripts/ (seed 000 §2-§5, §10)"),
    "PYS": ("python", "Python scripts (seed 000 §2, §6)"),
    "SHL": ("shell", "shell scripts (seed 000 §2, §3)"),
    "SEC": ("security", "hidden Unicode, download-and-run, eval of arguments (seed 000 §6)"),
    "FIL": ("files", "files skillsmith cannot read as a skill needs them"),
    "RUN": ("run", "behaviour of scripts when run with `check --run` (opt-in)"),
    "STE": ("stabledge", "StablEdge progressive skills and resources (seed 001)"),
    "KVS": ("kvist", "kvist tools skills: manifest.json and plugin.py (seed 003)"),
    "SUC": ("sucoder", "sucoder discovery links and audits (seed 002)"),
}

#: the module of ``skillsmith.rules`` that holds each family's rules
FAMILY_MODULES = {
    "SPC": "spec", "RES": "resources", "CON": "contract", "PYS": "python", "SHL": "shell", "SEC": "security",
    "FIL": "files", "RUN": "run", "STE": "stabledge", "KVS": "kvist", "SUC": "sucoder",
}

#: what a rule's check receives
SCOPES = ("skill", "unit", "script", "file", "project", "run", "audit")

_ID = re.compile(r"^[A-Z]{3}\d{3}$")
_NAME = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")


@dataclass(frozen=True)
class Rule:
    id: str
    name: str
    summary: str
    seed: str
    severity: str
    scope: str
    check: Callable = field(repr=False, compare=False)
    targets: frozenset = frozenset(target_names())
    fix: str | None = None  # "safe" | "unsafe" | None
    doc: str = ""
    library: bool = False  # also applies to sourced libraries (scope "script")
    tools: tuple = ()  # external programs the check runs (found on PATH); part of the cache key

    @property
    def family(self) -> str:
        return FAMILIES[self.id[:3]][0]

    def to_json(self) -> dict:
        return {
            "id": self.id,
            "name": self.name,
            "family": self.family,
            "summary": self.summary,
            "seed": self.seed,
            "severity": self.severity,
            "scope": self.scope,
            "targets": sorted(self.targets),
            "fix": self.fix,
            "doc": self.doc,
        }


class RuleUnavailable(Exception):
    """Raised by a check that cannot run here (an optional tool is missing).

    The message is shown once on stderr; it is neither a finding nor an internal error.
    *transient* says the check could run another time (a tool timed out or failed to start):
    the unit's result is then not cached, so the next run tries again.
    """

    def __init__(self, message: str, transient: bool = False) -> None:
        super().__init__(message)
        self.transient = transient


_RULES: dict[str, Rule] = {}
_LOADED = False


def rule(
    id: str,
    name: str,
    *,
    summary: str,
    seed: str,
    scope: str,
    severity: str = "error",
    targets: Iterable[str] = target_names(),
    fix: str | None = None,
    library: bool = False,
    tools: Iterable[str] = (),
) -> Callable:
    """Register the decorated check function as a rule; its docstring is the rule's documentation.

    The check receives the object named by *scope* (a ``Skill``, a ``Script``, a
    ``SourceFile`` ...) and yields :class:`~skillsmith.finding.Hit` objects. *targets* limits
    the rule to hosts named in :data:`skillsmith.targets.TARGETS` (default: every one).
    """

    if not _ID.match(id) or id[:3] not in FAMILIES:
        raise ValueError(f"bad rule id {id!r}")
    if not _NAME.match(name):
        raise ValueError(f"bad rule name {name!r}")
    if severity not in SEVERITIES or scope not in SCOPES or fix not in (None, "safe", "unsafe"):
        raise ValueError(f"bad rule metadata for {id}")
    targets = frozenset(targets)
    if not targets <= set(target_names()):
        raise ValueError(f"bad targets for {id}: {sorted(targets)}")

    def register(check: Callable) -> Callable:
        if id in _RULES or any(r.name == name for r in _RULES.values()):
            raise ValueError(f"rule {id} ({name}) registered twice")
        doc = cleandoc(check.__doc__ or "")
        _RULES[id] = Rule(id, name, summary, seed, severity, scope, check, targets, fix, doc, library, tuple(tools))
        return check

    return register


def cleandoc(doc: str) -> str:
    """A docstring without its indentation and surrounding blank lines (as ``inspect.cleandoc``)."""
    lines = doc.expandtabs().split("\n")
    indent = min((len(ln) - len(ln.lstrip()) for ln in lines[1:] if ln.strip()), default=0)
    lines = [lines[0].strip()] + [ln[indent:].rstrip() for ln in lines[1:]]
    return "\n".join(lines).strip("\n")


def load_rules() -> None:
    """Import each family's module once, which registers its rules."""
    global _LOADED
    if _LOADED:
        return
    for module in FAMILY_MODULES.values():
        importlib.import_module(f"skillsmith.rules.{module}")
    _LOADED = True


def all_rules() -> list[Rule]:
    load_rules()
    return sorted(_RULES.values(), key=lambda r: r.id)


def get_rule(key: str) -> Rule | None:
    """A rule by ID (case-insensitive) or by name."""
    load_rules()
    key = key.strip()
    found = _RULES.get(key.upper())
    if found:
        return found
    return next((r for r in _RULES.values() if r.name == key.lower()), None)


def iter_rules(scope: str) -> Iterator[Rule]:
    return (r for r in all_rules() if r.scope == scope)


# -- selection: one meaning of a rule selector for the command line, the config, the API and
# inline suppressions. A selector is ``ALL``, a family prefix (``SPC``) or an ID prefix (``CON01``).

_SELECTOR_SEPARATORS = re.compile(r"[,\s]+")


def selectors(value: str | Iterable[str] | None) -> list[str] | None:
    """Rule selectors, stripped and upper-cased; a string is split at commas and blanks.

    ``"spc, CON014"`` and ``["spc", " CON014"]`` both give ``["SPC", "CON014"]``; None stays None
    (no selection given). Nothing is validated here: see :func:`unknown_selector`.
    """
    if value is None:
        return None
    items = _SELECTOR_SEPARATORS.split(value) if isinstance(value, str) else value
    return [item.strip().upper() for item in items if item.strip()]


def matches(rule_id: str, selectors: Iterable[str]) -> bool:
    """Whether *rule_id* is named by any selector: ``ALL``, a family prefix, or an ID prefix."""
    for sel in selectors:
        sel = sel.strip().upper()
        if sel == "ALL" or (sel and rule_id.startswith(sel)):
            return True
    return False


def unknown_selector(selectors: Iterable[str]) -> str | None:
    """The first of *selectors* that names no rule (a typo such as ``CON14``), or None."""
    ids = [r.id for r in all_rules()]
    for sel in selectors:
        if sel.strip().upper() != "ALL" and not any(matches(rule_id, [sel]) for rule_id in ids):
            return sel
    return None


def no_rule_matches(selector: str) -> str:
    """The message for a selector that names no rule, wherever it was given."""
    return f"no rule matches {selector!r}; see 'skillsmith rules'"


def validated_selectors(value: str | Iterable[str] | None) -> list[str] | None:
    """:func:`selectors` of *value*; a selector that names no rule is a usage error (exit 2).

    The command line and the API validate with this; the config file reports the same problem
    as invalid input naming its file and line (:mod:`skillsmith.config`).
    """
    from skillsmith.errors import UsageError

    chosen = selectors(value)
    bad = unknown_selector(chosen or ())
    if bad is not None:
        raise UsageError(no_rule_matches(bad))
    return chosen


@lru_cache(maxsize=1)
def ruleset_fingerprint() -> str:
    """Changes whenever the rules or the code they run on change: part of the cache key.

    Hashes the rules' metadata and the source of every module of the package (a rule's result
    depends on the model and parsers as much as on its own code). Stable across processes.
    """
    import hashlib

    h = hashlib.blake2b(digest_size=12)
    h.update(package_fingerprint().encode())
    for r in all_rules():
        h.update(f"{r.id}|{r.severity}|{r.scope}|{r.fix}|{r.library}|{sorted(r.targets)}".encode())
    return h.hexdigest()


@lru_cache(maxsize=1)
def package_fingerprint() -> str:
    """A hash of skillsmith's version and source files, computed without importing the rules."""
    import hashlib
    from pathlib import Path

    import skillsmith
    from skillsmith import __version__

    h = hashlib.blake2b(digest_size=12)
    h.update(__version__.encode())
    package = Path(skillsmith.__file__).parent
    for source in sorted(package.rglob("*.py")):
        try:
            h.update(source.relative_to(package).as_posix().encode())
            h.update(source.read_bytes())
        except OSError:
            pass
    return h.hexdigest()
