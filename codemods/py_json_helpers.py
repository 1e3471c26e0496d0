"""Add the ``--json`` envelope helpers ``emit_json`` and ``emit_error`` (seed 000 §4)."""

from __future__ import annotations

import libcst as cst
from libcst.codemod import VisitorBasedCodemodCommand
from skillsmith.codemods.pyscript import (
    defined_names,
    facts_for,
    module_alias,
    separated,
)

EMIT_JSON = '''\
def emit_json(data, schema):
    """Print the --json success envelope on stdout: {{"data": [...], "meta": {{...}}}}."""
    items = data if isinstance(data, list) else [data]
    print({json}.dumps({{"data": items, "meta": {{"count": len(items), "schema": schema}}}}))
'''

EMIT_ERROR = '''\
def emit_error(code, message, details=None):
    """Print the --json error envelope on stdout and a human line on stderr."""
    print(f"{{{sys}.argv[0].rsplit('/', 1)[-1]}}: {{message}}", file={sys}.stderr)
    print({json}.dumps({{"error": {{"code": code, "message": message, "details": details or {{}}}}}}))
'''


def writes_json(facts) -> bool:
    """The script prints JSON (``json.dumps``/``json.dump``) or promises ``--json``."""
    return facts.promises_json or any(name in ("json.dumps", "json.dump") for name, _ in facts.facts.calls)


class JsonHelpers(VisitorBasedCodemodCommand):
    DESCRIPTION = (
        "Add emit_json(data, schema) and emit_error(code, message, details) helpers that print "
        "the --json envelopes, to scripts that print JSON or promise --json. Existing output "
        "is not changed."
    )
    RULES = ("PYS050",)
    SAFE = True
    ORDER = 30

    def visit_Module(self, node: cst.Module) -> bool:
        return False  # works on the module's top level only: no need to walk the tree

    def leave_Module(self, original_node: cst.Module, updated_node: cst.Module) -> cst.Module:
        facts = facts_for(self, updated_node)
        if facts is None or not writes_json(facts):
            return updated_node
        names = defined_names(updated_node)
        wanted = [h for h in ("emit_json", "emit_error") if h not in names]
        if not wanted:
            return updated_node
        aliases = facts.facts.aliases
        local = {}
        for module in ("json", "sys"):
            local[module] = module_alias(aliases, module)
            if local[module] is None:
                self.add_needed_import(module)
                local[module] = module
        sources = {"emit_json": EMIT_JSON, "emit_error": EMIT_ERROR}
        functions = [separated(cst.parse_statement(sources[h].format(**local)), 2) for h in wanted]
        body = list(updated_node.body)
        at = next((i for i, s in enumerate(body) if isinstance(s, (cst.FunctionDef, cst.ClassDef))), len(body))
        if at < len(body):
            body[at] = separated(body[at], 2)
        elif body and isinstance(body[-1], cst.If):
            at = len(body) - 1  # before the __main__ guard
            body[at] = separated(body[at], 2)
        return updated_node.with_changes(body=body[:at] + functions + body[at:])
