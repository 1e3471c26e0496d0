"""Exit with main's code: ``main()`` at the end of a script becomes ``sys.exit(main())``.

Unsafe: the script exited 0 whatever ``main`` returned; after the fix it exits with that code,
so a caller that relied on 0 sees a failure. Runs only with ``--unsafe-fixes``.
"""

from __future__ import annotations

import libcst as cst
from libcst.codemod import VisitorBasedCodemodCommand
from skillsmith.codemods.pyscript import facts_for, is_bare_main_call, is_main_guard

from skillsmith.lang.python import main_returns_codes
from skillsmith.lang.python_evidence import top_level_alias


class MainExit(VisitorBasedCodemodCommand):
    DESCRIPTION = (
        "Turn a final main() into sys.exit(main()) when main returns exit codes. Changes the "
        "script's exit code (it was 0 whatever main returned): unsafe."
    )
    RULES = ("PYS052",)
    SAFE = False
    ORDER = 10  # first: sys.exit(main()) makes main's return codes count as exit codes

    def visit_Module(self, node: cst.Module) -> bool:
        return False  # works on the module's top level only: no need to walk the tree

    def leave_Module(self, original_node: cst.Module, updated_node: cst.Module) -> cst.Module:
        facts = facts_for(self, updated_node)
        if facts is None or not main_returns_codes(facts.module):
            return updated_node
        body = list(updated_node.body)
        if not body:
            return updated_node
        last = body[-1]
        sys_name = top_level_alias(facts.module, "sys")
        if is_main_guard(last) and isinstance(last.body, cst.IndentedBlock) and last.body.body:
            inner = list(last.body.body)
            if not is_bare_main_call(inner[-1]):
                return updated_node
            inner[-1] = self._wrap(inner[-1], sys_name)
            body[-1] = last.with_changes(body=last.body.with_changes(body=inner))
        elif is_bare_main_call(last):
            body[-1] = self._wrap(last, sys_name)
        else:
            return updated_node
        return updated_node.with_changes(body=body)

    def _wrap(self, stmt: cst.SimpleStatementLine, sys_name: str | None) -> cst.SimpleStatementLine:
        if sys_name is None:
            self.add_needed_import("sys")
            sys_name = "sys"
        call = stmt.body[0].value
        wrapped = cst.Call(func=cst.Attribute(cst.Name(sys_name), cst.Name("exit")), args=[cst.Arg(call)])
        return stmt.with_changes(body=[stmt.body[0].with_changes(value=wrapped)])
