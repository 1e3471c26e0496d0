"""The code of libcst modules, each top-level statement generated once.

A fix renders the code of one file's tree several times: to prove that libcst gives the text
back byte for byte, for a codemod that must read the code as it is after the others (the
docstring's ``Exit:`` line), and the final code that is written. Codemods change a few
top-level statements and keep the others as they are (the same objects), so
:class:`ModuleCode` generates each top-level statement once and joins the pieces it knows:
the text is exactly ``Module.code`` (libcst generates a top-level statement the same way
wherever it stands, from the module's indent and newline), at the cost of the statements
that changed.
"""

from __future__ import annotations


class ModuleCode:
    """``tree.code`` for the trees of one file, remembering the code of each top-level statement.

    A statement is known by identity (its object is kept, so its ``id`` is not reused);
    a statement a codemod replaced is a new object and is generated again.
    """

    def __init__(self) -> None:
        self._pieces: dict[int, tuple[object, str, int]] = {}  # id -> (statement, code, length of its last token)
        self._style: tuple[str, str] | None = None
        self._last: tuple[object, str] | None = None

    def code(self, tree) -> str:
        """Exactly ``tree.code`` (a libcst ``Module``)."""
        last = self._last
        if last is not None and last[0] is tree:
            return last[1]
        from libcst._nodes.internal import CodegenState

        style = (tree.default_indent, tree.default_newline)
        if style != self._style:
            self._pieces.clear()
            self._style = style
        state = CodegenState(default_indent=style[0], default_newline=style[1])
        tokens = state.tokens
        for line in tree.header:
            line._codegen(state)
        cut = None  # when the last entry of tokens is a statement's code: the length of its last token
        for stmt in tree.body:
            known = self._pieces.get(id(stmt))
            if known is None or known[0] is not stmt:
                start = len(tokens)
                stmt._codegen(state)
                if len(tokens) == start:
                    continue  # nothing generated (never seen in practice): nothing to join
                known = (stmt, "".join(tokens[start:]), len(tokens[-1]))
                del tokens[start:]
                self._pieces[id(stmt)] = known
            tokens.append(known[1])
            cut = known[2]
        end = len(tokens)
        for line in tree.footer:
            line._codegen(state)
        if len(tokens) != end:
            cut = None
        if tree.has_trailing_newline:
            if not tokens:
                tokens.append(state.default_newline)
        elif tokens:  # libcst drops the last token: the file's final newline
            if cut is None:
                tokens.pop()
            else:
                tokens[-1] = tokens[-1][:len(tokens[-1]) - cut]
        code = "".join(tokens)
        self._last = (tree, code)
        return code
