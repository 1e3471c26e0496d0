"""Add the header comment block of a shell script, or the parts of it that are missing.

The block follows the Skill Resource Protocol (§3): a one-line description, then ``Usage:``,
``Input:``, ``Output:``, ``Stderr:``, ``Exit:`` and ``Examples:``. Fields are derived from the
code where it says something (its usage message or ``case`` options, the ``exit N`` codes it
uses, a ``--json`` option); an existing block keeps every line it has.
"""

from __future__ import annotations

import re
from pathlib import Path

from skillsmith import exitcodes
from skillsmith.fix.edits import Edit
from skillsmith.lang import shell
from skillsmith.lang.header import FIELDS
from skillsmith.lang.shell_layout import Layout

#: field labels padded so values line up, as in the protocol's example
LABELS = {name: f"{name}:".ljust(9) for name in FIELDS}


class Header:
    DESCRIPTION = "Add the header comment block, or its missing description, fields, examples and exit codes."
    RULES = ("CON004", "CON005", "CON006", "CON007", "CON010")
    SAFE = True

    def __init__(self, path=None):
        self.name = Path(path).name if path else "script.sh"
        self.padded = True  # values aligned as in the protocol's example, unless the header says otherwise

    def edits(self, source: bytes, tree) -> list[Edit]:
        """The edits that add the header or its missing parts.

        Raises ValueError (the file is skipped) when the file name, which goes into the
        ``Usage:`` and ``Examples:`` comment lines, holds a control character: a line break
        there would end the comment and make the rest of the name code.
        """
        if any(ord(c) < 32 or 0x7f <= ord(c) < 0xa0 or c in "\u2028\u2029" for c in self.name):
            raise ValueError(f"the file name {self.name!r} holds a line break or control character, "
                             "which would turn the header comment into code")
        layout = Layout(source, tree)
        if layout.header is None:
            at = layout.header_end
            if not layout.free(at, at):
                return []
            lines = [f"# {self.description()}", "#"] + self.field_lines(layout, FIELDS)
            return [Edit(at, at, layout.block(lines, at))]
        return self.complete(layout)

    # -- a new block ---------------------------------------------------------------------------

    def description(self) -> str:
        words = re.sub(r"[_\-.]+", " ", Path(self.name).stem).split()
        if not words:
            return "Run this script."
        return " ".join([words[0].capitalize()] + words[1:]) + "."

    def field_lines(self, layout: Layout, names) -> list[str]:
        lines = []
        for name in names:
            if name == "Examples":
                if lines:
                    lines.append("#")
                lines += [f"# {LABELS[name].rstrip()}", f"#   {self.name} --help"]
            else:
                label = LABELS[name] if self.padded else f"{name}: "
                lines.append(f"# {label}{self.value(layout, name)}")
        return lines

    def value(self, layout: Layout, name: str) -> str:
        if name == "Usage":
            return layout.usage_text(self.name)
        if name == "Input":
            return "command-line arguments as in Usage"
        if name == "Output":
            if layout.handles("--json"):
                return "results on stdout; with --json a JSON envelope"
            return "results on stdout"
        if name == "Stderr":
            return "errors and diagnostics"
        if name == "Exit":
            return self.exit_line(layout, self.codes(layout, {0}))
        raise KeyError(name)

    @staticmethod
    def exit_line(layout: Layout, codes: list[int]) -> str:
        """``0 ok, 2 usage``: each code with its meaning (:func:`skillsmith.exitcodes.meaning`)."""
        constants = shell.constants(layout.root, layout.data)
        return ", ".join(f"{c} {exitcodes.meaning(c, constants)}" for c in codes)

    @staticmethod
    def codes(layout: Layout, base: set[int]) -> list[int]:
        used = {code for code, _, _ in shell.exit_codes(layout.root, layout.data)}
        return sorted(base | used)

    # -- an existing block ---------------------------------------------------------------------

    def complete(self, layout: Layout) -> list[Edit]:
        h = layout.header
        owned = (layout.starts[h.start_line - 1], layout.after_line(h.end_line))
        gaps = [re.match(r"^\s*#\s*\w+:(\s*)", layout.lines[f.line - 1]) for n, f in h.fields.items() if n != "Examples"]
        if gaps and all(m is not None and len(m.group(1)) <= 1 for m in gaps):
            self.padded = False
        edits: list[Edit] = []

        def insert_after(line: int, lines: list[str]) -> None:
            at = layout.after_line(line)
            if layout.free(at, at, owned):
                edits.append(Edit(at, at, layout.block(lines, at)))

        # the description
        if not h.description:
            at = layout.starts[h.start_line - 1]
            if layout.free(at, at, owned):
                lines = [f"# {self.description()}"] + ([] if layout.blank_comment(h.start_line) else ["#"])
                edits.append(Edit(at, at, layout.block(lines, at)))
        elif not h.description.endswith(".") and not self.continues(layout, h.description_line):
            end = layout.line_end(h.description_line)
            if layout.free(end, end, owned):
                edits.append(Edit(end, end, b"."))

        # missing fields, each after the field that precedes it in the contract's order
        groups: dict[int, list[str]] = {}
        for name in FIELDS:
            if name in h.fields:
                continue
            before = [n for n in FIELDS[:FIELDS.index(name)] if n in h.fields]
            after = [n for n in FIELDS[FIELDS.index(name) + 1:] if n in h.fields]
            if before:
                line = self.field_end(h, before[-1])
            elif after:
                line = h.fields[after[0]].line - 1
                if after[0] == "Examples" and layout.blank_comment(line):
                    line -= 1
            else:
                line = h.end_line
            groups.setdefault(line, []).append(name)
        for line, names in sorted(groups.items()):
            lines = self.field_lines(layout, names)
            if (names[0] == "Examples" or not h.fields) and not layout.blank_comment(line):
                lines = ["#"] + lines
            insert_after(line, lines)

        # an Examples field without examples
        ex = h.fields.get("Examples")
        if ex is not None and not h.examples:
            insert_after(ex.line, [f"#   {self.name} --help"])

        # exit codes the Exit: line does not document
        documented = h.exit_codes
        if documented is not None:
            undocumented = [c for c in self.codes(layout, set()) if c not in documented]
            if undocumented:
                line = self.field_end(h, "Exit")
                end = layout.line_end(line)
                if layout.free(end, end, owned):
                    text = ", " + self.exit_line(layout, undocumented)
                    if not layout.lines[line - 1].rstrip().endswith(":"):
                        edits.append(Edit(end, end, text.encode()))
                    else:
                        edits.append(Edit(end, end, (" " + text[2:]).encode()))
        return edits

    @staticmethod
    def field_end(h, name: str) -> int:
        """The last line of field *name*, continuation lines included."""
        f = h.fields[name]
        return f.line + len(f.items) if name != "Examples" else f.line

    @staticmethod
    def continues(layout: Layout, line: int) -> bool:
        """Whether the description goes on over the next comment line (then it is left alone)."""
        if line >= len(layout.lines):
            return False
        nxt = layout.lines[line].strip()
        return nxt.startswith("#") and nxt.lstrip("#").strip() != "" and not re.match(
            r"^#\s*(Usage|Input|Output|Stderr|Exit|Examples?)\s*:", nxt, re.IGNORECASE)
