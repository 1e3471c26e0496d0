"""Name the exit codes of a shell script: ``readonly EXIT_USAGE=2`` and ``exit "$EXIT_USAGE"``.

Names come from the protocol's table (``2`` -> ``EXIT_USAGE``, :func:`skillsmith.exitcodes.constant_name`);
a code the table leaves open takes the word the header's ``Exit:`` line gives it
(``10 drift`` -> ``EXIT_DRIFT``), as in the Python codemod.
A constant already assigned in the script's prologue is reused; a name assigned anywhere
else is never redefined (``readonly`` would make that assignment fail), so such a code is
left literal.
"""

from __future__ import annotations

from skillsmith import exitcodes
from skillsmith.fix.edits import Edit
from skillsmith.lang import shell
from skillsmith.lang.shell_layout import Layout
#: top-level nodes that only define things; the prologue is the run of them at the top
_DEFINITIONS = {"comment", "variable_assignment", "declaration_command", "function_definition"}


class ExitConstants:
    DESCRIPTION = "Replace literal `exit N` (N != 0) with named readonly EXIT_* constants."
    RULES = ("CON014",)
    SAFE = True

    def __init__(self, path=None):
        self.path = path

    def edits(self, source: bytes, tree) -> list[Edit]:
        layout = Layout(source, tree)
        literal = []
        for cmd in shell.commands(layout.root, source):
            if cmd.name != "exit" or not cmd.args:
                continue
            arg = cmd.args[0]
            raw = shell.text(arg, source)
            if arg.type == "number" or (arg.type == "word" and raw.isdigit()):
                code = int(raw)
                if code != 0 and layout.free(arg.start_byte, arg.end_byte):
                    literal.append((code, arg))
        if not literal:
            return []
        early = self.prologue_constants(layout)
        assigned = self.assigned_names(layout)
        words = layout.header.exit_words if layout.header is not None else {}
        names: dict[int, str] = {}
        new: dict[str, int] = {}
        for code in sorted({c for c, _ in literal}):
            reuse = next((n for n, v in early.items() if v == code and exitcodes.is_constant(n)), None)
            if reuse:
                names[code] = reuse
                continue
            name = exitcodes.constant_name(code, words.get(code))
            if name in new or name in assigned:
                name = f"{name}_{code}"
            if name in assigned:
                continue  # never redefine a name the script assigns itself
            names[code] = name
            new[name] = code
        edits = [Edit(arg.start_byte, arg.end_byte, f'"${names[code]}"'.encode())
                 for code, arg in literal if code in names]
        if new:
            at = self.insert_at(layout)
            if not layout.free(at, at):
                return []
            lines = [f"readonly {n}={v}" for n, v in sorted(new.items(), key=lambda kv: kv[1])]
            edits.insert(0, Edit(at, at, layout.block(lines, at, separate=True)))
        return edits

    @staticmethod
    def prologue_nodes(layout: Layout) -> list:
        nodes = []
        for node in layout.root.children:
            if node.type in _DEFINITIONS or (node.type == "command" and layout.command_name(node) in ("set", "shopt")):
                nodes.append(node)
                continue
            break
        return nodes

    def prologue_constants(self, layout: Layout) -> dict[str, int]:
        """Integer constants assigned at top level before any other command runs."""
        found: dict[str, int] = {}
        for node in self.prologue_nodes(layout):
            if node.type in ("variable_assignment", "declaration_command"):
                for name, value in shell.constants(node, layout.data).items():
                    found.setdefault(name, value)
        return found

    def insert_at(self, layout: Layout) -> int:
        """After the last EXIT_* constant of the prologue, else after the header and set lines."""
        last = None
        for node in self.prologue_nodes(layout):
            if node.type in ("variable_assignment", "declaration_command") and exitcodes.PREFIX in shell.text(node, layout.data):
                last = node
        if last is not None:
            return layout.after_line(layout.line_of(last.end_byte - 1))
        return layout.set_lines_end

    @staticmethod
    def assigned_names(layout: Layout) -> set[str]:
        names = set()
        for node in shell.walk(layout.root):
            if node.type == "variable_assignment":
                name = node.child_by_field_name("name")
                if name is not None:
                    names.add(shell.text(name, layout.data))
        return names
