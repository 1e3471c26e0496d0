"""Give a Python entry script a shebang that runs it the way it is meant to run."""

from __future__ import annotations

import re

import libcst as cst
from libcst.codemod import VisitorBasedCodemodCommand
from skillsmith.codemods.pyscript import fix_context
from skillsmith.lang.interpreter import python_shebang

_COOKIE = re.compile(r"^[ \t\f]*#.*?coding[:=]")


def cookie_on_second_line(module: cst.Module) -> bool:
    """A new first line would push this coding cookie out of the two lines Python reads it from."""
    header = module.header
    return len(header) >= 2 and header[1].comment is not None and bool(_COOKIE.match(header[1].comment.value))


class EntryPoint(VisitorBasedCodemodCommand):
    DESCRIPTION = (
        "Add a shebang to entry scripts: #!/usr/bin/env python3, or #!/usr/bin/env -S uv run --script "
        "for a PEP 723 script whose # /// script block declares dependencies. Not where a first line "
        "would not run (a CRLF file, a byte-order mark) or would move a coding cookie."
    )
    RULES = ("CON001",)
    SAFE = True
    ORDER = 10

    def visit_Module(self, node: cst.Module) -> bool:
        return False  # works on the module's top level only: no need to walk the tree

    def leave_Module(self, original_node: cst.Module, updated_node: cst.Module) -> cst.Module:
        module = updated_node
        has_shebang = bool(module.header) and module.header[0].comment is not None \
            and module.header[0].comment.value.startswith("#!")
        if has_shebang or cookie_on_second_line(module) or fix_context(self.context).bom:
            return module
        if module.default_newline == "\r\n":
            return module  # "python3\r" is not an interpreter: the shebang would not run
        shebang = python_shebang([line.comment.value if line.comment else "" for line in module.header],
                                 fix_context(self.context).invocations)
        line = cst.EmptyLine(comment=cst.Comment(shebang))
        return module.with_changes(header=[line] + list(module.header))

