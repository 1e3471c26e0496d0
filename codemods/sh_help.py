"""Add a ``-h``/``--help`` branch that prints the header block and exits 0.

The branch goes before any other argument handling, right after the header and the
top-level ``set`` lines. It prints the comment block after the shebang and stops where that
block ends, so it stays right when the header grows or shrinks.
"""

from __future__ import annotations

import re

from skillsmith.fix.edits import Edit
from skillsmith.lang import shell
from skillsmith.lang.shell_layout import Layout

#: prints the header block (comment lines after the shebang) without the comment markers
PRINT_HEADER = """awk 'NR == 1 && /^#!/ { next } /^#/ { sub(/^# ?/, ""); print; next } { exit }' "$0\""""


class HelpBranch:
    DESCRIPTION = "Add a -h/--help branch that prints the header block to stdout and exits 0."
    RULES = ("CON009",)
    SAFE = True

    def __init__(self, path=None):
        self.path = path

    def edits(self, source: bytes, tree) -> list[Edit]:
        layout = Layout(source, tree)
        if shell.has_help_branch(layout.root, source):
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
