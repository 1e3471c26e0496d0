"""Write the header comment block of a shell script, or the parts of it the evidence supports.

The block follows the Skill Resource Protocol (§3): a one-line description, then ``Usage:``,
``Input:``, ``Output:``, ``Stderr:``, ``Exit:`` and ``Examples:``. Every value comes from the
script or its skill (:mod:`skillsmith.lang.shell_evidence`); a field without evidence is not
written and its finding stays. An author's block is completed in place: new fields go at a
section boundary (before ``Examples:``, or after the block's last line), never between a field
and its list, and all within the first 25 lines. A block that only blank lines part from the
shebang is moved up to it rather than getting a second one. :func:`skillsmith.lang.shell_plans.plan_header`
decides, for ``check`` and ``fix`` alike.
"""

from __future__ import annotations

from skillsmith.fix.context import FixContext
from skillsmith.fix.edits import Edit
from skillsmith.lang.shell_evidence import ShellEvidence
from skillsmith.lang.shell_layout import Layout
from skillsmith.lang.shell_plans import plan_header


class Header:
    DESCRIPTION = "Add the header comment block, or its missing description, fields, examples and exit codes, from evidence."
    RULES = ("CON004", "CON005", "CON006", "CON007", "CON010")
    SAFE = True
    #: before the codemods that insert code at the top: they go after the header it writes or moves
    ORDER = 10

    def __init__(self, context: FixContext | None = None):
        self.context = context or FixContext()

    def edits(self, source: bytes, tree) -> list[Edit]:
        """The edits that add the header or its missing parts.

        Raises ValueError (the file is skipped) when the file name, which goes into the
        ``Usage:`` and ``Examples:`` comment lines, holds a control character: a line break
        there would end the comment and make the rest of the name code.
        """
        if any(ord(c) < 32 or 0x7f <= ord(c) < 0xa0 or c in "\u2028\u2029" for c in self.context.name):
            raise ValueError(f"the file name {self.context.name!r} holds a line break or control character, "
                             "which would turn the header comment into code")
        layout = Layout(source, tree)
        evidence = ShellEvidence(layout, self.context.name, self.context.invocations)
        plan = plan_header(layout, evidence, self.context.wants, self.context.lines("CON010"),
                           sourced_by=self.context.sourced_by)
        return [Edit(*change) for change in plan.changes]
