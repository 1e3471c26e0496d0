"""Print JSON in the ``--json`` envelope: ``print(json.dumps(x))`` becomes ``emit_json(x, SCHEMA)``.

``json.dump(x, sys.stdout)`` too. The ``emit_json`` helper is added with the first call that
needs it, never on its own. The output's shape changes (``x`` becomes ``{"data": [x], "meta":
{...}}``): unsafe.
"""

from __future__ import annotations

import os

import libcst as cst
from libcst.codemod import VisitorBasedCodemodCommand
from skillsmith.codemods.pyscript import defined_names, facts_for, insertion_index, is_constant, separated

from skillsmith.lang import python
from skillsmith.lang.python import is_envelope
from skillsmith.lang.python_evidence import top_level_alias

EMIT_JSON = '''\
def emit_json(data, schema):
    """Print the --json success envelope on stdout: {{"data": [...], "meta": {{...}}}}."""
    items = data if isinstance(data, list) else [data]
    print({json}.dumps({{"data": items, "meta": {{"count": len(items), "schema": schema}}}}))
'''


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
        "Rewrite print(json.dumps(x)) and json.dump(x, sys.stdout) into emit_json(x, SCHEMA), adding "
        "the emit_json helper, so JSON output carries the envelope. Callers see a different shape: unsafe."
    )
    RULES = ("PYS050", "PYS051")
    SAFE = False
    ORDER = 35

    def visit_Module(self, node: cst.Module) -> bool:
        facts = facts_for(self, node)
        self.facts = facts
        self.aliases = facts.facts.aliases if facts else {}
        self.schema = schema_for(self.context.filename)
        self.wrapped = 0
        self.has_helper = "emit_json" in defined_names(node)
        return facts is not None and any(name in ("json.dumps", "json.dump") for name, _ in facts.facts.calls)

    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        return node.name.value != "emit_json"

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        data = self._printed_json(updated_node)
        if data is None or is_envelope(data):
            return updated_node
        self.wrapped += 1
        schema = cst.SimpleString(f'"{self.schema}"')
        return cst.Call(
            func=cst.Name("emit_json"),
            args=[cst.Arg(data, comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))), cst.Arg(schema)],
        )

    def _printed_json(self, call: cst.Call):
        """``x`` of ``print(json.dumps(x))`` or ``json.dump(x, sys.stdout)``, else None."""
        if any(a.star for a in call.args):
            return None
        name = python.qualified(call.func, self.aliases)
        if name == "print" and len(call.args) == 1 and not call.args[0].keyword:
            inner = call.args[0].value
            if isinstance(inner, cst.Call) and python.qualified(inner.func, self.aliases) == "json.dumps" \
                    and len(inner.args) == 1 and not inner.args[0].keyword and not inner.args[0].star:
                return inner.args[0].value
        if name == "json.dump" and len(call.args) == 2 and not any(a.keyword for a in call.args) \
                and python.qualified(call.args[1].value, self.aliases) == "sys.stdout":
            return call.args[0].value
        return None

    def leave_Module(self, original_node: cst.Module, updated_node: cst.Module) -> cst.Module:
        if not self.wrapped or self.has_helper:
            return updated_node
        json_name = top_level_alias(self.facts.module, "json")
        if json_name is None:
            self.add_needed_import("json")
            json_name = "json"
        helper = separated(cst.parse_statement(EMIT_JSON.format(json=json_name)), 2)
        body = list(updated_node.body)
        at = insertion_index(body)  # before any code that could call it
        while at < len(body) and is_constant(body[at]):
            at += 1
        if at < len(body):
            body[at] = separated(body[at], 2)
        return updated_node.with_changes(body=body[:at] + [helper] + body[at:])

