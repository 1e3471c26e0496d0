"""Quote unquoted expansions in command arguments: ``rm $file`` becomes ``rm "$file"``.

Unsafe: a script may rely on word splitting (``opts="-a -b"; ls $opts``), which quoting
turns into one argument. Runs only with ``--unsafe-fixes``, and only on the expansions whose
SHL051 findings this run answers. See ``shell.unquoted_expansions`` for what is never touched.
"""

from __future__ import annotations

from skillsmith.fix.context import FixContext
from skillsmith.fix.edits import Edit
from skillsmith.lang import shell
from skillsmith.lang.shell_layout import Layout


class QuoteExpansions:
    DESCRIPTION = "Quote $var, ${var}, $@ and $(cmd) in command arguments (changes word splitting)."
    RULES = ("SHL051",)
    SAFE = False

    def __init__(self, context: FixContext | None = None):
        self.context = context or FixContext()

    def edits(self, source: bytes, tree) -> list[Edit]:
        layout = Layout(source, tree)
        lines = self.context.lines("SHL051")
        edits = []
        for node in shell.unquoted_expansions(layout.root, source):
            if lines is not None and node.start_point[0] + 1 not in lines:
                continue
            if layout.free(node.start_byte, node.end_byte):
                edits += [Edit(node.start_byte, node.start_byte, b'"'), Edit(node.end_byte, node.end_byte, b'"')]
        return edits
