"""Wrap bare ``print(json.dumps(x))`` output in the ``--json`` envelope (changes the output)."""

from __future__ import annotations

import os

import libcst as cst
from libcst.codemod import VisitorBasedCodemodCommand
from skillsmith.codemods.pyscript import defined_names, facts_for

from skillsmith.lang import python
from skillsmith.lang.python import is_envelope


def schema_for(filename: str | None) -> str:
    """``skill.script/v1`` for ``skill/scripts/script.py``, else ``script/v1``."""
    path = os.path.abspath(filename or "script.py")
    stem = os.path.splitext(os.path.basename(path))[0]
    folder = os.path.dirname(path)
    if os.path.basename(folder) == "scripts":
        return f"{os.path.basename(os.path.dirname(folder))}.{stem}/v1"
    return f"{stem}/v1"


class JsonWrap(VisitorBasedCodemodCommand):
    DESCRIPTION = (
        "Rewrite print(json.dumps(x)) into emit_json(x, SCHEMA) so --json output carries the "
        "envelope. Callers see a different shape: unsafe. Needs the emit_json helper."
    )
    RULES = ("PYS051",)
    SAFE = False
    ORDER = 35

    def visit_Module(self, node: cst.Module) -> bool:
        facts = facts_for(self, node)
        self.aliases = facts.facts.aliases if facts else {}
        self.schema = schema_for(self.context.filename)
        return facts is not None and "emit_json" in defined_names(node) \
            and any(name == "json.dumps" for name, _ in facts.facts.calls)

    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        return node.name.value != "emit_json"

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        if not (isinstance(updated_node.func, cst.Name) and updated_node.func.value == "print"):
            return updated_node
        if len(updated_node.args) != 1 or updated_node.args[0].keyword or updated_node.args[0].star:
            return updated_node
        inner = updated_node.args[0].value
        if not isinstance(inner, cst.Call) or python.qualified(inner.func, self.aliases) != "json.dumps":
            return updated_node
        if len(inner.args) != 1 or inner.args[0].keyword or inner.args[0].star or is_envelope(inner.args[0].value):
            return updated_node
        schema = cst.SimpleString(f'"{self.schema}"')
        return cst.Call(
            func=cst.Name("emit_json"),
            args=[cst.Arg(inner.args[0].value, comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))), cst.Arg(schema)],
        )
