"""Name the exit codes of a shell script: ``readonly EXIT_USAGE=2`` and ``exit "$EXIT_USAGE"``.

A code is named only when the evidence says what it means and the name says the same
(:func:`skillsmith.lang.shell_evidence.name_for`): the protocol's name for 1 to 7
(``EXIT_NOT_FOUND``), the author's word above (``10 drift`` is ``EXIT_DRIFT``). An author's
``2 = not a git repo`` is never called ``EXIT_USAGE``. A constant already assigned in the
script's prologue is reused; a name assigned anywhere else is never redefined.

A new ``readonly`` is unsafe in a script that sources files or runs ``eval``: they may assign
the same name, which readonly makes fail. Those exits are named by ``sh_exit_constants_unsafe``,
with ``--unsafe-fixes``. Only the exits whose CON014 findings this run answers are rewritten.
"""

from __future__ import annotations

from skillsmith import exitcodes
from skillsmith.fix.context import FixContext
from skillsmith.fix.edits import Edit
from skillsmith.lang import shell
from skillsmith.lang.shell_evidence import ShellEvidence
from skillsmith.lang.shell_layout import Layout
from skillsmith.lang.shell_plans import plan_constants, prologue_nodes


class ExitConstants:
    DESCRIPTION = "Replace literal `exit N` (N != 0) with named readonly EXIT_* constants, where the meaning is known."
    RULES = ("CON014",)
    SAFE = True
    #: the fix levels of the findings this codemod answers
    LEVELS = ("safe",)

    def __init__(self, context: FixContext | None = None):
        self.context = context or FixContext()

    def edits(self, source: bytes, tree) -> list[Edit]:
        layout = Layout(source, tree)
        lines = self.context.lines("CON014")
        evidence = ShellEvidence(layout, self.context.name, self.context.invocations)
        literals = [x for x in plan_constants(layout, evidence, self.context.sourced_by)
                    if x.answer.fix in self.LEVELS and (lines is None or x.line in lines)]
        if not literals:
            return []
        defined = set(shell.constants(layout.root, layout.data))
        new = {x.name.text: x.code for x in literals if x.name.text not in defined}
        edits = [Edit(x.node.start_byte, x.node.end_byte, f'"${x.name.text}"'.encode()) for x in literals]
        if new:
            at = self.insert_at(layout)
            if not layout.free(at, at):
                return []
            block = [f"readonly {n}={v}" for n, v in sorted(new.items(), key=lambda kv: kv[1])]
            edits.insert(0, Edit(at, at, layout.block(block, at, separate=True)))
        return edits

    @staticmethod
    def insert_at(layout: Layout) -> int:
        """After the last EXIT_* constant of the prologue, else after the header and set lines."""
        last = None
        for node in prologue_nodes(layout):
            if node.type in ("variable_assignment", "declaration_command") and exitcodes.PREFIX in shell.text(node, layout.data):
                last = node
        if last is not None:
            return layout.after_line(layout.line_of(last.end_byte - 1))
        return layout.set_lines_end
