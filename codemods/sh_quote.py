"""Quote unquoted expansions in command arguments: ``rm $file`` becomes ``rm "$file"``.

Unsafe: a script may rely on word splitting (``opts="-a -b"; ls $opts``), which quoting
turns into one argument. Runs only with ``--unsafe-fixes``. See ``shell.unquoted_expansions``
for what is never touched.
"""

from __future__ import annotations

from skillsmith.fix.edits import Edit
from skillsmith.lang import shell
from skillsmith.lang.shell_layout import Layout


class QuoteExpansions:
    DESCRIPTION = "Quote $var, ${var}, $@ and $(cmd) in command arguments (changes word splitting)."
    RULES = ("SHL051",)
    SAFE = False

    def __init__(self, path=None):
        self.path = path

    def edits(self, source: bytes, tree) -> list[Edit]:
        layout = Layout(source, tree)
        edits = []
        for node in shell.unquoted_expansions(layout.root, source):
            if layout.free(node.start_byte, node.end_byte):
                edits += [Edit(node.start_byte, node.start_byte, b'"'), Edit(node.end_byte, node.end_byte, b'"')]
        return edits
