"""Make a help that prints a fixed line range of the script stop where the header ends.

``sed -n '2,30p' "$0"`` prints code when the header is shorter than 29 lines and cuts it
when it is longer. The command is replaced by an ``awk`` one that starts at the same line
and prints comment lines until the block ends; what the rest of a pipeline does with them
is unchanged. It also runs after the header codemod, whose new lines a range that was right
before would cut off (so that fix never leaves an SHL050 behind).
"""

from __future__ import annotations

from skillsmith.fix.context import FixContext
from skillsmith.fix.edits import Edit
from skillsmith.lang import shell
from skillsmith.lang.shell import range_problem
from skillsmith.lang.shell_layout import Layout

#: the header rules: their fixes move the header's end, which a fixed range misses
HEADER_RULES = ("CON004", "CON005", "CON006", "CON007")


class HelpRange:
    DESCRIPTION = "Replace `sed -n '2,30p' \"$0\"` help printing with one that stops at the end of the header."
    RULES = ("SHL050",) + HEADER_RULES
    SAFE = True

    def __init__(self, context: FixContext | None = None):
        self.context = context or FixContext()

    def edits(self, source: bytes, tree) -> list[Edit]:
        layout = Layout(source, tree)
        lines = self.context.lines("SHL050")
        held = {line for rule, line in self.context.held if rule == "SHL050"}
        after_header_fix = any(self.context.wants(r) for r in HEADER_RULES)
        edits = []
        text_lines = source.decode("utf-8", "replace").splitlines()
        for rng in shell.self_line_ranges(layout.root, source):
            node = rng.node
            line = node.start_point[0] + 1
            if not (lines is None or line in lines or after_header_fix and line not in held):
                continue
            if layout.header is None:
                continue  # the awk would stop at the first line of code: nothing says where the help ends
            if range_problem(rng, layout.header.end_line, layout.shebang is not None, text_lines) is None \
                    or not layout.free(node.start_byte, node.end_byte):
                continue
            self_arg = shell.text(node.children_by_field_name("argument")[-1], source)
            start = f"NR < {rng.first} {{ next }} " if rng.first > 1 else ""
            awk = f"awk '{start}/^#/ {{ print; next }} {{ exit }}' {self_arg}"
            edits.append(Edit(node.start_byte, node.end_byte, awk.encode()))
        return edits
