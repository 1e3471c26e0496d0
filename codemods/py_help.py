"""Answer ``-h``/``--help`` in a script without argparse: print its docstring and exit 0.

The branch is the first statement of the ``if __name__ == "__main__":`` block (so importing the
module is left as it was), or, in a script without one, comes right after the imports and
constants, before any other code runs. It fires only when the first argument is ``-h`` or
``--help``: every other call behaves as before. Only for a script
whose docstring says something (a description or a contract field) and that parses its
arguments by hand (no argparse, click, docopt, optparse, getopt ...).
"""

from __future__ import annotations

import libcst as cst
from libcst.codemod import VisitorBasedCodemodCommand
from skillsmith.codemods.pyscript import facts_for, insertion_index, is_constant, is_main_guard, separated

from skillsmith.lang.python_evidence import HELP_BRANCH, top_level_alias


class HelpBranch(VisitorBasedCodemodCommand):
    DESCRIPTION = (
        "Add an -h/--help branch that prints the module docstring and exits 0 to a script that "
        "parses its arguments by hand and has a docstring that says something."
    )
    RULES = ("CON009",)
    SAFE = True
    ORDER = 65  # after the docstring codemod: the docstring it prints is the final one

    def visit_Module(self, node: cst.Module) -> bool:
        return False  # works on the module's top level only

    def leave_Module(self, original_node: cst.Module, updated_node: cst.Module) -> cst.Module:
        facts = facts_for(self, updated_node, fresh=True)
        if facts is None or not facts.needs_help_branch:
            return updated_node
        header = facts.header
        if header is None or not (header.description or header.fields):
            return updated_node  # nothing worth printing
        body = list(updated_node.body)
        guard = next((i for i, stmt in enumerate(body) if is_main_guard(stmt)), None)
        sys_name = top_level_alias(facts.module, "sys")
        at = insertion_index(body)
        if sys_name is None:
            self.add_needed_import("sys")
            sys_name = "sys"
        elif not _imports(body[:at], sys_name):
            return updated_node  # sys is imported only after code that runs first
        branch = cst.parse_statement(HELP_BRANCH.format(sys=sys_name))
        if guard is not None and isinstance(body[guard].body, cst.IndentedBlock):
            # first thing the script does when run; importing it (a test, a sibling) is left as it was
            block = body[guard].body
            inner = list(block.body)
            body[guard] = body[guard].with_changes(body=block.with_changes(body=[branch] + inner))
            return updated_node.with_changes(body=body)
        while at < len(body) and is_constant(body[at]):
            at += 1  # after the module's constants (EXIT_* and the like)
        branch = separated(branch, 1)
        if at < len(body):
            body[at] = separated(body[at], 1 if not isinstance(body[at], (cst.FunctionDef, cst.ClassDef)) else 2)
        return updated_node.with_changes(body=body[:at] + [branch] + body[at:])

def _imports(statements, name: str) -> bool:
    """Whether one of *statements* is ``import sys`` binding *name*."""
    for stmt in statements:
        for small in getattr(stmt, "body", ()):
            if isinstance(small, cst.Import):
                for alias in small.names:
                    bound = alias.asname.name.value if alias.asname else getattr(alias.name, "value", None)
                    if bound == name:
                        return True
    return False
