"""Where a shell codemod may edit, and where its insertions go.

A :class:`Layout` is built from a script's bytes and its tree-sitter tree. It knows the
lines (as byte offsets), the newline style, the shebang and header block, the places that
must never be edited (strings, heredocs with their whole redirect range, comments, regions
tree-sitter could not parse) and the script's prologue: the header and the top-level ``set``
lines right after it, where strict mode, constants and the help branch are inserted.
"""

from __future__ import annotations

import codecs
from functools import cached_property

from skillsmith.lang import header as header_mod
from skillsmith.lang import shell
from skillsmith.lang.encoding import has_bom, newline_style
from skillsmith.lang.interpreter import shebang_interpreter

#: node types whose bytes are data or someone else's words: never edited
PROTECTED = frozenset({"string", "raw_string", "ansi_c_string", "translated_string", "heredoc_redirect", "comment"})



class Layout:
    def __init__(self, data: bytes, tree):
        self.data = data
        self.root = tree.root_node
        self.bom = len(codecs.BOM_UTF8) if has_bom(data) else 0
        self.newline = newline_style(data).encode()  # what inserted lines end with
        starts = [self.bom]
        pos = data.find(b"\n", self.bom)
        while pos != -1:
            starts.append(pos + 1)
            pos = data.find(b"\n", pos + 1)
        if starts[-1] == len(data) and len(starts) > 1:
            starts.pop()  # the file ends with a newline: no empty last line
        self.starts = starts
        self.lines = [
            data[s:self._line_end(i)].decode("utf-8", "replace") for i, s in enumerate(starts)
        ] if data[self.bom:] else []

    # -- lines -------------------------------------------------------------------------------

    def _line_end(self, index: int) -> int:
        """Byte offset of the end of line *index* (0-based), before its line ending."""
        if index + 1 < len(self.starts):
            end = self.starts[index + 1] - 1
        else:
            end = len(self.data) - 1 if self.data.endswith(b"\n") else len(self.data)
        if end > self.starts[index] and self.data[end - 1:end] == b"\r":
            end -= 1
        return end

    def line_end(self, line: int) -> int:
        """Byte offset where 1-based *line*'s text ends (before ``\\r\\n``)."""
        return self._line_end(line - 1)

    def after_line(self, line: int) -> int:
        """Byte offset of the start of the line after 1-based *line* (end of file if none)."""
        return self.starts[line] if line < len(self.starts) else len(self.data)

    def line_of(self, offset: int) -> int:
        """1-based line holding byte *offset*."""
        lo, hi = 0, len(self.starts) - 1
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if self.starts[mid] <= offset:
                lo = mid
            else:
                hi = mid - 1
        return lo + 1

    def blank(self, line: int) -> bool:
        return 1 <= line <= len(self.lines) and not self.lines[line - 1].strip()

    def blank_comment(self, line: int) -> bool:
        """Whether 1-based *line* is a comment line with nothing after the ``#``."""
        return 1 <= line <= len(self.lines) and self.lines[line - 1].strip() == "#"

    def block(self, lines: list[str], at: int, separate: bool = False) -> bytes:
        """*lines* as bytes to insert at line start *at*, in the file's newline style.

        With *separate*, blank lines set the block apart from non-blank lines around it.
        """
        nl = self.newline
        text = nl.join(line.encode("utf-8") for line in lines) + nl
        if at == len(self.data) and self.data and not self.data.endswith(b"\n"):
            text = nl + text
        elif separate and at > self.bom and not self.blank(self.line_of(at - 1)):
            text = nl + text
        if separate and at < len(self.data) and not self.blank(self.line_of(at)):
            text = text + nl
        return text

    # -- the script's parts -------------------------------------------------------------------

    @property
    def shebang(self) -> str | None:
        return self.lines[0] if self.lines and self.lines[0].startswith("#!") else None

    @property
    def interpreter(self) -> str:
        return shebang_interpreter(self.shebang) or "bash"

    @property
    def crlf(self) -> bool:
        """Whether the lines end in CRLF: bash reads the CR as part of every command."""
        return self.newline == b"\r\n"

    @property
    def posix_sh(self) -> bool:
        return self.interpreter in ("sh", "dash")

    @cached_property
    def header(self) -> header_mod.Header | None:
        return header_mod.shell_header(self.lines)

    @property
    def header_end(self) -> int:
        """Where a line right after the header block (or the shebang, or nothing) starts.

        Without a header, a comment block that only blank lines part from the shebang counts
        as one here: code inserted at the top goes after the author's comments, not above them.
        """
        if self.header is not None:
            return self.after_line(self.header.end_line)
        first = 2 if self.shebang is not None else 1
        line = first
        while self.blank(line) and line < len(self.lines):
            line += 1
        if line > first and line <= 10 and self.lines[line - 1].lstrip().startswith("#"):
            while line < len(self.lines) and self.lines[line].lstrip().startswith("#"):
                line += 1
            if line >= len(self.lines) or self.blank(line + 1):  # not a comment right above code
                return self.after_line(line)
        if self.shebang is not None:
            return self.after_line(1)
        return self.bom

    def top_level(self, after: int = 0) -> list:
        return [n for n in self.root.children if n.start_byte >= after]

    @cached_property
    def set_lines_end(self) -> int:
        """After the top-level ``set``/``shopt`` lines that directly follow the header."""
        end = self.header_end
        for node in self.top_level(self.header_end):
            if node.type == "comment":
                continue
            if node.type == "command" and self.command_name(node) in ("set", "shopt"):
                end = self.after_line(self.line_of(node.end_byte - 1))
                continue
            break
        return end

    def command_name(self, node) -> str | None:
        name = node.child_by_field_name("name")
        return shell.text(name, self.data) if name is not None else None

    # -- where edits are allowed ---------------------------------------------------------------

    @cached_property
    def protected(self) -> list[tuple[int, int]]:
        return [(n.start_byte, n.end_byte) for n in shell.walk(self.root) if n.type in PROTECTED]

    @cached_property
    def errors(self) -> list[tuple[int, int]]:
        return shell.error_ranges(self.root)

    def free(self, start: int, end: int, allow: tuple[int, int] | None = None) -> bool:
        """Whether bytes ``[start, end)`` (or an insertion at ``start == end``) may be edited.

        An edit may replace a protected node as a whole (a command with its quoted
        arguments), never part of one; nothing may touch a region that did not parse.

        *allow* is a range the caller owns (the header block for the header codemod).
        """
        for s, e in self.errors:
            if s <= end and start <= e:
                return False
        for s, e in self.protected:
            if allow is not None and allow[0] <= s and e <= allow[1]:
                continue
            if start == end:
                if s < start < e:
                    return False
            elif start < e and s < end and not (start <= s and e <= end):
                return False  # editing inside it; replacing all of it is fine
        return True
