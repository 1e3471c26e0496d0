"""Name the exit codes: module-level ``EXIT_*`` constants instead of literal numbers.

Names come from the protocol's table (``2`` -> ``EXIT_USAGE``, :func:`skillsmith.exitcodes.constant_name`);
a code the table leaves open takes the word the docstring's ``Exit:`` line gives it
(``10 drift`` -> ``EXIT_DRIFT``), as in the shell codemod. Existing constants are reused.
"""

from __future__ import annotations

import ast

import libcst as cst
from libcst.codemod import VisitorBasedCodemodCommand
from skillsmith import exitcodes
from skillsmith.codemods.pyscript import (
    WalkOnlyInto,
    defined_names,
    defs_containing,
    facts_for,
    insertion_index,
    separated,
)
from skillsmith.lang.python import EXIT_CALLS, qualified


class ExitConstants(WalkOnlyInto, VisitorBasedCodemodCommand):
    DESCRIPTION = (
        "Add module-level EXIT_* constants for the exit codes in use and replace literal "
        "sys.exit(N), exit(N) and raise SystemExit(N) with them."
    )
    RULES = ("CON014",)
    SAFE = True
    ORDER = 20

    def visit_Module(self, node: cst.Module) -> bool:
        self.added: dict[int, str] = {}
        facts = facts_for(self, node)
        if facts is None:
            return False
        self.aliases = facts.facts.aliases
        self.taken = defined_names(node)
        header = facts.header
        self.words = header.exit_words if header is not None else {}
        # existing module-level EXIT_* constants are reused
        self.names: dict[int, str] = {}
        for name, value in sorted(facts.facts.constants.items()):
            if exitcodes.is_constant(name):
                self.names.setdefault(value, name)
        aliases = self.aliases

        def literal_exit(node) -> bool:
            return (
                isinstance(node, ast.Call) and len(node.args) == 1 and isinstance(node.args[0], ast.Constant)
                and type(node.args[0].value) is int and qualified(node.func, aliases) in EXIT_CALLS
            )

        self.walk_only_into(defs_containing(facts, literal_exit))
        return any(code != 0 for code, _, _ in facts.facts.exit_codes)

    def _name_for(self, code: int) -> str:
        if code in self.names:
            return self.names[code]
        name = exitcodes.constant_name(code, self.words.get(code))
        while name in self.taken:
            name = f"{name}_{code}" if not name.endswith(f"_{code}") else name + "_"
        self.taken.add(name)
        self.names[code] = self.added[code] = name
        return name

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.Call:
        if qualified(updated_node.func, self.aliases) not in EXIT_CALLS:
            return updated_node
        if len(updated_node.args) != 1 or updated_node.args[0].keyword or updated_node.args[0].star:
            return updated_node
        arg = updated_node.args[0]
        if not isinstance(arg.value, cst.Integer):
            return updated_node
        code = int(arg.value.value, 0)
        if code == 0:
            return updated_node
        return updated_node.with_changes(args=[arg.with_changes(value=cst.Name(self._name_for(code)))])

    def leave_Module(self, original_node: cst.Module, updated_node: cst.Module) -> cst.Module:
        if not self.added:
            return updated_node
        body = list(updated_node.body)
        at = insertion_index(body)
        lines = [
            cst.SimpleStatementLine(body=[cst.Assign(
                targets=[cst.AssignTarget(cst.Name(name))], value=cst.Integer(str(code)),
            )])
            for code, name in sorted(self.added.items())
        ]
        if at > 0:
            lines[0] = separated(lines[0], 1)
        if at < len(body):
            body[at] = separated(body[at], 2 if isinstance(body[at], (cst.FunctionDef, cst.ClassDef)) else 1)
        return updated_node.with_changes(body=body[:at] + lines + body[at:])
