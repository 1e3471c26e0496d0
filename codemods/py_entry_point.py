"""Make a Python script a proper entry point: a shebang, and ``sys.exit(main())``."""

from __future__ import annotations

import re

import libcst as cst
from libcst.codemod import VisitorBasedCodemodCommand
from skillsmith.codemods.pyscript import SHEBANG, facts_for, module_alias

from skillsmith.lang.python import main_returns_codes

_COOKIE = re.compile(r"^[ \t\f]*#.*?coding[:=]")


def cookie_on_second_line(module: cst.Module) -> bool:
    """A new first line would push this coding cookie out of the two lines Python reads it from."""
    header = module.header
    return len(header) >= 2 and header[1].comment is not None and bool(_COOKIE.match(header[1].comment.value))


def is_main_guard(stmt) -> bool:
    if not isinstance(stmt, cst.If) or not isinstance(stmt.test, cst.Comparison):
        return False
    test = stmt.test
    return (
        isinstance(test.left, cst.Name) and test.left.value == "__name__" and len(test.comparisons) == 1
        and isinstance(test.comparisons[0].operator, cst.Equal)
        and isinstance(test.comparisons[0].comparator, cst.SimpleString)
        and test.comparisons[0].comparator.value.strip("\"'") == "__main__"
    )


def is_bare_main_call(stmt) -> bool:
    return (
        isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1 and isinstance(stmt.body[0], cst.Expr)
        and isinstance(stmt.body[0].value, cst.Call) and isinstance(stmt.body[0].value.func, cst.Name)
        and stmt.body[0].value.func.value == "main" and not stmt.body[0].value.args
    )


class EntryPoint(VisitorBasedCodemodCommand):
    DESCRIPTION = (
        "Add the shebang #!/usr/bin/env python3 to entry scripts, and turn a final main() "
        "into sys.exit(main()) when main returns exit codes."
    )
    RULES = ("CON001", "PYS052")
    SAFE = True
    ORDER = 10  # first: sys.exit(main()) makes main's return codes count as exit codes

    def visit_Module(self, node: cst.Module) -> bool:
        return False  # works on the module's top level only: no need to walk the tree

    def leave_Module(self, original_node: cst.Module, updated_node: cst.Module) -> cst.Module:
        facts = facts_for(self, updated_node)
        if facts is None:
            return updated_node
        module = updated_node
        is_entry = facts.facts.has_main_guard or facts.facts.uses_argparse
        has_shebang = bool(module.header) and module.header[0].comment is not None \
            and module.header[0].comment.value.startswith("#!")
        if is_entry and not has_shebang and not cookie_on_second_line(module):
            line = cst.EmptyLine(comment=cst.Comment(SHEBANG))
            module = module.with_changes(header=[line] + list(module.header))
        if main_returns_codes(facts.module):
            module = self._exit_with_main(module, facts.facts.aliases)
        return module

    def _exit_with_main(self, module: cst.Module, aliases: dict[str, str]) -> cst.Module:
        body = list(module.body)
        if not body:
            return module
        last = body[-1]
        sys_name = module_alias(aliases, "sys")
        if is_main_guard(last) and isinstance(last.body, cst.IndentedBlock) and last.body.body:
            inner = list(last.body.body)
            if not is_bare_main_call(inner[-1]):
                return module
            inner[-1] = self._wrap(inner[-1], sys_name)
            body[-1] = last.with_changes(body=last.body.with_changes(body=inner))
        elif is_bare_main_call(last):
            body[-1] = self._wrap(last, sys_name)
        else:
            return module
        return module.with_changes(body=body)

    def _wrap(self, stmt: cst.SimpleStatementLine, sys_name: str | None) -> cst.SimpleStatementLine:
        if sys_name is None:
            self.add_needed_import("sys")
            sys_name = "sys"
        call = stmt.body[0].value
        wrapped = cst.Call(func=cst.Attribute(cst.Name(sys_name), cst.Name("exit")), args=[cst.Arg(call)])
        return stmt.with_changes(body=[stmt.body[0].with_changes(value=wrapped)])
