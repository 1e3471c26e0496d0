"""The hosts a skill is written for, behind one small protocol, in one list.

Each host module (:mod:`~skillsmith.targets.agentskills`, :mod:`~skillsmith.targets.stabledge`,
:mod:`~skillsmith.targets.kvist`, :mod:`~skillsmith.targets.sucoder`, :mod:`~skillsmith.targets.claude_code`,
:mod:`~skillsmith.targets.codex`) defines its ``TARGET``
next to the model of that host; :data:`TARGETS` lists them in the order the CLI and its
messages show them. Whatever depends on the host asks the protocol, never the target's name:

- the rule registry accepts ``targets=`` naming :func:`names`; ``check --target`` and the
  config's ``target`` choose among them;
- a unit's target, when neither ``--target`` nor the config names one, is :func:`detect`'s;
  the caches key on the files outside a skill that ``detect`` looks at (``evidence``);
- ``SPC015`` accepts the target's frontmatter ``fields``, ``SPC030`` names the other hosts that
  read a field the target does not (:func:`hosts_reading`), ``SPC031`` asks the target's
  ``field_problem`` about each value; the spec's naming rules apply to targets whose skills are
  ``named_in_frontmatter``;
- ``new --target`` and the wizard offer the targets with a :class:`Scaffold` (:func:`new_targets`),
  render its template and validate NAME and the description with its ``name_problem`` and
  ``description_problem``;
- the fix engine runs the file fixers the targets bring (:class:`FileFixer`);
- ``skillsmith test`` runs the kinds of suite the target's skills carry (``suites``).

Host modules import nothing heavy at module level and nothing from ``skillsmith.rules``
(which imports this package): ``skillsmith --help`` reads the list.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable


@dataclass(frozen=True)
class FileFixer:
    """A fixer of whole files that a target brings to ``skillsmith fix`` (the engine's ``file`` kind).

    ``fix(source, unit)`` takes the file's :class:`~skillsmith.model.sourcefile.SourceFile` and
    the checked skill it belongs to, and returns the file's new bytes, or None for "nothing to
    change". The engine runs it, after the language fixers,
    on a file whose path relative to its skill matches ``pattern`` (fnmatch) and that has a
    fixable finding of one of ``rules``; ``safe`` says whether it runs without ``--unsafe-fixes``.
    """

    name: str
    rules: tuple[str, ...]
    safe: bool
    pattern: str
    fix: Callable[[object, object], bytes | None]
    description: str


@dataclass(frozen=True)
class Scaffold:
    """How ``skillsmith new --target NAME`` creates a skill for a target."""

    template: str  # the Copier template under templates/ it renders (given every answer of `new`)
    name_problem: Callable[[object], str | None]  # why NAME cannot name such a skill (check's message), or None
    #: why a description would make the new skill fail ``check`` (check's message), or None
    description_problem: Callable[[object], str | None]
    identifier: str = "Skill name"  # what the wizard calls NAME


@dataclass(frozen=True)
class Target:
    """One host: how its skills are recognised, what they may declare, how they are made and fixed."""

    name: str
    summary: str
    #: whether a unit's model (``Skill``, ``Loose`` or ``Project``) is written for this host;
    #: None: never detected, only chosen (or the default)
    detect: Callable[[object], bool] | None = None
    #: targets whose ``detect`` claims a model are tried highest priority first
    priority: int = 0
    #: top-level frontmatter fields the host reads beyond the specification's own
    fields: frozenset = frozenset()
    #: other spellings of ``fields`` the host reads too (``display_name`` for ``display-name``):
    #: accepted like them, not offered by completion
    spellings: frozenset = frozenset()
    #: why the value of one of ``fields`` is not what the host reads (``SPC031``), or None
    field_problem: Callable[[str, object], str | None] | None = None
    #: what messages call the host ("Claude Code"); its ``name`` when empty
    title: str = ""
    #: files outside a skill's folder whose presence ``detect`` reads, relative to the folder
    #: (``../../.claude-plugin/plugin.json``): the caches key on them, as on the skill's own files
    evidence: tuple[str, ...] = ()
    #: the skill's name is SKILL.md's ``name:`` (a kvist skill is named by its manifest)
    named_in_frontmatter: bool = True
    new: Scaffold | None = None
    file_fixers: tuple[FileFixer, ...] = ()
    #: the kinds of test suite its skills carry, which ``skillsmith test`` runs (:data:`skillsmith.suites.KINDS`)
    suites: tuple[str, ...] = ("run.sh",)

    def reads(self, field: str) -> bool:
        """Whether the host reads the top-level frontmatter *field* beyond the specification's."""
        return field in self.fields or field in self.spellings


#: the target of a unit no other target claims, and of ``new`` without ``--target``
DEFAULT = "agentskills"


def names() -> tuple[str, ...]:
    """Every target's name, in :data:`TARGETS` order."""
    return tuple(t.name for t in TARGETS)


def new_targets() -> tuple[str, ...]:
    """The names of the targets ``new`` can create (those with a :class:`Scaffold`)."""
    return tuple(t.name for t in TARGETS if t.new is not None)


def get(name: str) -> Target:
    """The target called *name*; LookupError, naming the known ones, for any other name."""
    for target in TARGETS:
        if target.name == name:
            return target
    raise LookupError(f"unknown target {name!r} (known: {', '.join(names())})")


def hosts_reading(field: str) -> tuple[Target, ...]:
    """The targets that read the frontmatter *field* (:meth:`Target.reads`), in :data:`TARGETS` order."""
    return tuple(t for t in TARGETS if t.reads(field))


def evidence(root) -> tuple[tuple[int, int] | None, ...]:
    """For each file of every target's ``evidence`` beside the skill folder *root*: its size and
    modification time (a marketplace that comes to list the plugin changes the target), or None
    when there is no such file."""
    import os
    import stat

    found = []
    for rel in (rel for t in TARGETS for rel in t.evidence):
        try:
            st = os.stat(os.path.join(root, rel))
        except (OSError, ValueError):
            found.append(None)
            continue
        found.append((st.st_size, st.st_mtime_ns) if stat.S_ISREG(st.st_mode) else None)
    return tuple(found)


def detect(model) -> Target:
    """The target a unit's model is written for: the first claim by priority, else :data:`DEFAULT`."""
    for target in _BY_PRIORITY:
        if target.detect(model):
            return target
    return get(DEFAULT)


from skillsmith.targets import agentskills, claude_code, codex, kvist, stabledge, sucoder  # noqa: E402  (they import Target)

#: every target, in the order ``--target`` choices and messages list them
TARGETS: tuple[Target, ...] = (
    agentskills.TARGET, stabledge.TARGET, kvist.TARGET, sucoder.TARGET, claude_code.TARGET, codex.TARGET,
)
_BY_PRIORITY = sorted((t for t in TARGETS if t.detect is not None), key=lambda t: -t.priority)
