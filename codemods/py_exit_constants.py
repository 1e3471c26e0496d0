"""Name the exit codes: module-level ``EXIT_*`` constants instead of literal numbers.

A name says what the code means, so it comes from evidence (:func:`skillsmith.exitcodes.name_for`):
the script's own constant for the value, the author's meaning on the ``Exit:`` line
(``10 drift`` -> ``EXIT_DRIFT``; ``2 Not a git repo`` keeps its literal, since the protocol's
2 is usage), 1 (error) and 130 (interrupted) by convention, and for 2 to 7 the message or the
exception around the exit when it agrees with the protocol (``print("... not found")``
before ``sys.exit(3)`` is ``EXIT_NOT_FOUND``). A literal nothing explains stays, and so does a
line the author suppressed (``# skillsmith: ignore[CON014]``).
"""

from __future__ import annotations

import ast

import libcst as cst
from libcst.codemod import VisitorBasedCodemodCommand
from skillsmith import exitcodes
from skillsmith.codemods.pyscript import (
    WalkOnlyInto,
    answers,
    defined_names,
    facts_for,
    insertion_index,
    separated,
    suppressed,
)
from skillsmith.lang.python import EXIT_CALLS, literal_exit_names, qualified
from skillsmith.lang.python_evidence import defs_containing

RULE = "CON014"


class ExitConstants(WalkOnlyInto, VisitorBasedCodemodCommand):
    DESCRIPTION = (
        "Add module-level EXIT_* constants for the exit codes whose meaning the script states and "
        "replace literal sys.exit(N), exit(N) and raise SystemExit(N) with them."
    )
    RULES = (RULE,)
    SAFE = True
    ORDER = 20

    def visit_Module(self, node: cst.Module) -> bool:
        self.added: dict[int, str] = {}
        self.plan: list[str | None] = []
        facts = facts_for(self, node)
        if facts is None:
            return False
        self.aliases = aliases = facts.facts.aliases
        self.taken = defined_names(node)
        header = facts.header
        documented = header.exit_meanings if header is not None else {}
        # the script's own EXIT_* constants are reused, when one value has one name
        own: dict[int, list[str]] = {}
        for name, value in sorted(facts.facts.constants.items()):
            if exitcodes.is_constant(name):
                own.setdefault(value, []).append(name)
        self.names = {value: names[0] for value, names in own.items() if len(names) == 1}
        named = {id(call): name for call, name in literal_exit_names(facts.module, facts.facts, documented,
                                                                               facts.code.splitlines())}

        def literal_exit(n) -> bool:
            return (
                isinstance(n, ast.Call) and len(n.args) == 1 and isinstance(n.args[0], ast.Constant)
                and type(n.args[0].value) is int and qualified(n.func, aliases) in EXIT_CALLS
            )

        # one entry per literal exit libcst will meet, in source order: the name, or None to leave it
        calls = sorted((n for n, _ in facts.walked if literal_exit(n)), key=lambda n: (n.lineno, n.col_offset))
        self.plan = [named.get(id(c)) if answers(self.context, RULE, c.lineno) and not suppressed(self.context, RULE, c.lineno)
                     else None for c in calls]
        self.walk_only_into(defs_containing(facts, literal_exit))
        return any(self.plan)

    def _constant(self, code: int, wanted: str) -> str:
        if code in self.names:
            return self.names[code]
        name = wanted
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
        if not isinstance(arg.value, cst.Integer) or not self.plan:
            return updated_node
        wanted = self.plan.pop(0)
        if wanted is None:
            return updated_node
        code = int(arg.value.value, 0)
        return updated_node.with_changes(args=[arg.with_changes(value=cst.Name(self._constant(code, wanted)))])

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
