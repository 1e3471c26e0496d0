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
    "RES": ("resources", "references/, assets/ and the paths SKILL.md cites (Skill Resource Protocol §1, §9)"),
    "CON": ("script-contract", "the script contract for every file under scripts/ (Skill Resource Protocol §2-§5, §10)"),
    "PYS": ("python", "Python scripts (Skill Resource Protocol §2, §6)"),
    "SHL": ("shell", "shell scripts (Skill Resource Protocol §2, §3)"),
    "SEC": ("security", "hidden Unicode, download-and-run, eval of arguments (Skill Resource Protocol §6)"),
    "FIL": ("files", "files skillsmith cannot read as a skill needs them"),
    "RUN": ("run", "behaviour of scripts when run with `check --run` (opt-in)"),
    "STE": ("stabledge", "StablEdge progressive skills and resources (StablEdge Desktop resources)"),
    "KVS": ("kvist", "kvist tools skills: manifest.json and plugin.py (kvist tools skill)"),
    "SUC": ("sucoder", "sucoder discovery links and audits (sucoder skills architecture)"),
}

#: the module of ``skillsmith.rules`` that holds each family's rules
FAMILY_MODULES = {
    "SPC": "spec", "RES": "resources", "CON": "contract", "PYS": "python", "SHL": "shell", "SEC": "security",
    "FIL": "files", "RUN": "run", "STE": "stabledge", "KVS": "kvist", "SUC": "sucoder",
}

#: what a rule's check receives
SCOPES = ("skill", "unit", "script", "file", "project", "run", "audit", "collection")

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
    codes: str = ""  # the prefix of an external tool's own codes its findings carry ("SC": SC2086)
    opt_in: bool = False  # runs only when a selector names it by ID or name (not ALL, not a prefix)

    @property
    def family(self) -> str:
        return FAMILIES[self.id[:3]][0]

    @property
    def source(self) -> str:
        """Where the rule comes from, with the document named: ``Skill Resource Protocol §3``."""
        return source_text(self.seed)

    def to_json(self) -> dict:
        return {
            "id": self.id,
            "name": self.name,
            "family": self.family,
            "summary": self.summary,
            "seed": self.seed,
            "severity": self.severity,
            "opt_in": self.opt_in,
            "scope": self.scope,
            "targets": sorted(self.targets),
            "fix": self.fix,
            "source": self.source,
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
    codes: str = "",
    opt_in: bool = False,
) -> Callable:
    """Register the decorated check function as a rule; its docstring is the rule's documentation.

    The check receives the object named by *scope* (a ``Skill``, a ``Script``, a
    ``SourceFile`` ...) and yields :class:`~skillsmith.finding.Hit` objects. *targets* limits
    the rule to hosts named in :data:`skillsmith.targets.TARGETS` (default: every one). *codes*
    is the prefix of the external tool's codes its hits carry (``Hit.code``), which select and
    ignore like rule IDs. An *opt_in* rule runs only when a selector names it exactly (its ID
    or name): a note that is true of many sound skills, not a defect.
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
        _RULES[id] = Rule(id, name, summary, seed, severity, scope, check, targets, fix, doc, library, tuple(tools),
                          codes, opt_in)
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
# inline suppressions. A selector is ``ALL``, a family prefix (``SPC``), an ID prefix
# (``CON01``), a rule name (``header-missing``, which stands for its ID), or an external tool's
# code or code prefix that a rule reports under (``SC2086``, ``SC2``: ShellCheck's, by SHL090).

_SELECTOR_SEPARATORS = re.compile(r"[,\s]+")
#: what a selector looks like when it is an ID, a prefix or a code (``spc``, ``CON014``, ``SC2086``)
_CODE_SHAPED = re.compile(r"^(?:ALL|[A-Z]{1,3}\d{0,4})$", re.IGNORECASE)


def selectors(value: str | Iterable[str] | None) -> list[str] | None:
    """Rule selectors: IDs and prefixes upper-cased, rule names as their IDs; a string is split at commas and blanks.

    ``"spc, CON014"`` and ``["spc", " CON014"]`` both give ``["SPC", "CON014"]``;
    ``"header-missing"`` gives ``["CON004"]``; None stays None (no selection given). Anything
    else is kept as typed, so an error can quote it. Nothing is validated here: see
    :func:`unknown_selector`.
    """
    if value is None:
        return None
    items = _SELECTOR_SEPARATORS.split(value) if isinstance(value, str) else value
    out = []
    for item in items:
        item = item.strip()
        if not item:
            continue
        if _CODE_SHAPED.match(item):
            out.append(item.upper())
            continue
        named = rule_named(item)
        out.append(named.id if named is not None else item)
    return out


def rule_named(name: str) -> Rule | None:
    """The rule whose name is *name* (any case), or None."""
    load_rules()
    name = name.strip().lower()
    return next((r for r in _RULES.values() if r.name == name), None)


def matches(rule_id: str, selectors: Iterable[str], code: str | None = None) -> bool:
    """Whether a finding of *rule_id* is named by any selector: ``ALL``, a family prefix, or an ID prefix.

    *code* is the external tool's code the finding carries (``SC2086`` of SHL090), named by its
    own prefixes as well.
    """
    for sel in selectors:
        sel = sel.strip().upper()
        if sel == "ALL" or (sel and (rule_id.startswith(sel) or (code is not None and code.startswith(sel)))):
            return True
    return False


def names_codes_of(r: Rule, selectors: Iterable[str]) -> bool:
    """Whether a selector names some of the external codes *r* reports (``SC2086`` for SHL090)."""
    return bool(r.codes) and any(sel.strip().upper().startswith(r.codes) for sel in selectors)


def runs(r: Rule, select: Iterable[str] | None, ignore: Iterable[str]) -> bool:
    """Whether *r* runs under *select* (None: every rule) and *ignore*.

    A rule that reports external codes runs when *select* names one of them; ignoring one of
    its codes does not stop it (:func:`keeps` drops those findings). An opt-in rule runs only
    when *select* names it by ID or name.
    """
    if r.opt_in and not any(sel.strip().upper() == r.id or sel.strip().lower() == r.name for sel in select or ()):
        return False
    if select is not None and not (matches(r.id, select) or names_codes_of(r, select)):
        return False
    return not (ignore and matches(r.id, ignore))


def keeps(r: Rule, code: str | None, select: Iterable[str] | None, ignore: Iterable[str]) -> bool:
    """Whether a finding of *r* under the external *code* survives *select* and *ignore*."""
    if code is None:
        return True
    if select is not None and not matches(r.id, select, code):
        return False
    return not (ignore and matches(r.id, ignore, code))


def code_shape(selector: str) -> Rule | None:
    """The rule whose external codes *selector* has the shape of (``SC2086``, ``SC``: SHL090), or None."""
    sel = selector.strip().upper()
    for r in all_rules():
        if r.codes and re.fullmatch(rf"{re.escape(r.codes)}\d{{0,4}}", sel):
            return r
    return None


def unknown_selector(selectors: Iterable[str]) -> str | None:
    """The first of *selectors* that names no rule (a typo such as ``CON14``), or None.

    No selectors load no rules: a run answered from the cache imports no rule module.
    """
    selectors = list(selectors)
    if not selectors:
        return None
    ids = [r.id for r in all_rules()]
    for sel in selectors:
        if sel.strip().upper() == "ALL" or code_shape(sel) is not None:
            continue
        if not any(matches(rule_id, [sel]) for rule_id in ids):
            return sel
    return None


def close_names(text: str, n: int = 3) -> list[str]:
    """Rule IDs or names that look like *text* (a typo), best first: ``CON04`` -> ``CON004``, ..."""
    import difflib

    text = text.strip()
    rules = all_rules()
    ids = difflib.get_close_matches(text.upper(), [r.id for r in rules], n=n, cutoff=0.7)
    names = difflib.get_close_matches(text.lower(), [r.name for r in rules], n=n, cutoff=0.7)
    return (ids + names)[:n] if _CODE_SHAPED.match(text) else (names + ids)[:n]


def did_you_mean(text: str, candidates: list[str] | None = None) -> str:
    """``"; did you mean CON004?"`` for a typo of a rule ID or name (or of *candidates*), else ``""``."""
    if candidates is None:
        found = close_names(text)
    else:
        import difflib

        found = difflib.get_close_matches(text, candidates, n=3, cutoff=0.6)
    if not found:
        return ""
    if len(found) == 1:
        return f"; did you mean {found[0]}?"
    return f"; did you mean {', '.join(found[:-1])} or {found[-1]}?"


def no_rule_matches(selector: str) -> str:
    """The message for a selector that names no rule, wherever it was given."""
    return f"no rule matches {selector!r}{did_you_mean(selector)} (see 'skillsmith rules')"


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


def rules_named_by(text: str) -> list[Rule]:
    """The rules *text* names for ``skillsmith rules``: one by ID or name, or all of an ID prefix (``CON``)."""
    found = get_rule(text)
    if found is not None:
        return [found]
    sel = text.strip().upper()
    if not _CODE_SHAPED.match(sel) or sel == "ALL":
        return all_rules() if sel == "ALL" else []
    return [r for r in all_rules() if r.id.startswith(sel)]


#: One finding per problem: a finding, by its code (a rule ID, or an external tool's code such as
#: ``SC2086``), yields to the more specific finding of the same cause at the same place (the same
#: line of the same file, and the same columns where both say where they end). Only a finding that
#: is reported yields: when the winner is ignored or suppressed, the other stays.
YIELDS = {
    # print(json.dumps(x)) with no envelope: PYS051 marks the print itself, and one fix answers both
    "PYS050": ("PYS051",),
    # an unquoted expansion: SHL051 knows the forms that quoting would break, and fixes the rest
    "SC2086": ("SHL051",),
}


def yields_of(r: Rule) -> dict[str, tuple[str, ...]]:
    """The codes of *r*'s findings that yield to others (:data:`YIELDS`), with the codes they yield to."""
    return {code: winners for code, winners in YIELDS.items()
            if code == r.id or (r.codes and code.startswith(r.codes))}


#: the documents a rule's ``seed`` refers to by number (``000 §3``)
SOURCES = {
    "000": "Skill Resource Protocol",
    "001": "StablEdge Desktop resources",
    "002": "sucoder skills architecture",
    "003": "kvist tools skill",
}


def source_text(seed: str) -> str:
    """*seed* with its document named: ``000 §3`` -> ``Skill Resource Protocol §3``,
    ``002 Compliance Auditing`` -> ``sucoder skills architecture, Compliance Auditing``."""
    number, _, rest = seed.partition(" ")
    name = SOURCES.get(number)
    if name is None:
        return seed
    if not rest:
        return name
    return f"{name} {rest}" if rest.startswith(("§", "(")) else f"{name}, {rest}"


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
