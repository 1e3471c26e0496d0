"""What a fixer is told about the file it fixes: the findings it answers and what the skill says.

A fix belongs to findings (as in ruff): a fixer edits only for the findings the check
reported and the run allows (``--select``, suppressions and per-file ignores already
applied, ``unsafe`` ones only with ``--unsafe-fixes``). ``held`` are the lines of findings a
suppression comment silenced: no fixer may rewrite them.

Codemods get a :class:`FixContext` instead of the skill model, so they stay independent of
it: shell codemods are constructed with it (``cls(context)``), Python codemods find it in
``context.scratch[CONTEXT_KEY]``.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

#: ``CodemodContext.scratch`` key holding the file's :class:`FixContext` (Python codemods)
CONTEXT_KEY = "skillsmith.fix_context"


@dataclass(frozen=True)
class Target:
    """A finding a fix may answer: its rule, its 1-based line, its fix safety."""

    rule: str
    line: int
    fix: str = "safe"


@dataclass(frozen=True)
class FixContext:
    path: Path | None = None
    #: the findings this run may fix in the file (all of a fixer's rules when None: a fixer run on its own)
    targets: tuple[Target, ...] | None = None
    #: 1-based lines of findings silenced by a suppression comment: (rule, line)
    held: tuple[tuple[str, int], ...] = ()
    #: worked invocations of the script in SKILL.md and the Markdown it links (``bash scripts/x.sh a.log``)
    invocations: tuple[str, ...] = ()
    #: whether unsafe fixes may run (``--unsafe-fixes``)
    unsafe: bool = False
    #: the scripts of the skill that source this file (its top-level code runs in their shells)
    sourced_by: tuple[str, ...] = ()
    #: the file starts with a byte-order mark: a shebang added after it would not run
    bom: bool = False

    @property
    def name(self) -> str:
        return self.path.name if self.path is not None else "script.sh"

    def wants(self, rule: str) -> bool:
        """Whether a finding of *rule* is to be answered."""
        return self.targets is None or any(t.rule == rule for t in self.targets)

    def lines(self, rule: str) -> set[int] | None:
        """The lines of *rule*'s findings to answer (None: every line, for a fixer run on its own)."""
        if self.targets is None:
            return None
        return {t.line for t in self.targets if t.rule == rule}

    def shifted(self, source: bytes, edits) -> "FixContext":
        """This context for the source *edits* make of *source*: each line moved by the lines edits add or remove before it."""
        if not edits or (not self.targets and not self.held):
            return self
        starts = [0]
        pos = source.find(b"\n")
        while pos != -1:
            starts.append(pos + 1)
            pos = source.find(b"\n", pos + 1)

        def move(line: int) -> int:
            at = starts[line - 1] if 0 < line <= len(starts) else len(source)
            delta = 0
            for e in edits:
                if e.end <= at:
                    delta += e.text.count(b"\n") - source[e.start:e.end].count(b"\n")
            return line + delta

        targets = None if self.targets is None else tuple(replace(t, line=move(t.line)) for t in self.targets)
        held = tuple((rule, move(line)) for rule, line in self.held)
        return replace(self, targets=targets, held=held)
