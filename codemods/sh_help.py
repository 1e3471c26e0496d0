"""Add a ``-h``/``--help`` branch that prints the header block and exits 0.

The branch goes before any other argument handling, right after the header and the
top-level ``set`` lines. It prints the comment block after the shebang and stops where that
block ends, so it stays right when the header grows or shrinks.

It is safe only where ``--help`` did nothing of its own before: a script that passes its
arguments to another program (whose help it would hide) or that has its own usage text or
``getopts`` loop gets it only from ``sh_help_unsafe``, with ``--unsafe-fixes``
(:func:`skillsmith.lang.shell_plans.plan_help`).
"""

from __future__ import annotations

import re

from skillsmith.fix.context import FixContext
from skillsmith.fix.edits import Edit
from skillsmith.lang import shell
from skillsmith.lang.shell_layout import Layout
from skillsmith.lang.shell_plans import plan_help

#: prints the header block (comment lines after the shebang) without the comment markers
PRINT_HEADER = """awk 'NR == 1 && /^#!/ { next } /^#/ { sub(/^# ?/, ""); print; next } { exit }' "$0\""""


class HelpBranch:
    DESCRIPTION = "Add a -h/--help branch that prints the header block to stdout and exits 0."
    RULES = ("CON009",)
    SAFE = True
    LEVELS = ("safe",)

    def __init__(self, context: FixContext | None = None):
        self.context = context or FixContext()

    def edits(self, source: bytes, tree) -> list[Edit]:
        layout = Layout(source, tree)
        if not self.context.wants("CON009") or shell.has_help_branch(layout.root, source):
            return []
        if plan_help(layout, layout.header is not None, sourced_by=self.context.sourced_by).fix not in self.LEVELS:
            return []
        patterns = "--help" if self.short_h_taken(layout) else "-h|--help"
        lines = [
            'case "${1:-}" in',
            f"  {patterns}) {PRINT_HEADER}; exit 0 ;;",
            "esac",
        ]
        at = layout.set_lines_end
        if not layout.free(at, at):
            return []
        return [Edit(at, at, layout.block(lines, at, separate=True))]

    @staticmethod
    def short_h_taken(layout: Layout) -> bool:
        """Whether ``-h`` already means something else (``getopts "h:"``, a ``-h`` case)."""
        for cmd in shell.commands(layout.root, layout.data):
            if cmd.name == "getopts" and cmd.args and "h" in shell.unquote(shell.text(cmd.args[0], layout.data)):
                return True
        return any(re.search(r"(^|\|)-h(\||$)", p) for item in shell.case_items(layout.root)
                   for p in shell.case_patterns(item, layout.data))
