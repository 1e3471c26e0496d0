"""Send status prints to stderr: stdout carries data only (changes what stdout shows)."""

from __future__ import annotations

import libcst as cst
from libcst.codemod import VisitorBasedCodemodCommand
from skillsmith.codemods.pyscript import WalkOnlyInto, facts_for

from skillsmith.lang.python_evidence import defs_containing, top_level_alias
from skillsmith.lang.status import is_status_text as is_status


def literal_text(node) -> str | None:
    """The leading literal text of a plain or f-string, else None."""
    if isinstance(node, cst.SimpleString) and "b" not in node.prefix.lower():
        return node.raw_value
    if isinstance(node, cst.FormattedString):
        parts = node.parts
        if parts and isinstance(parts[0], cst.FormattedStringText):
            return parts[0].value
        return ""
    return None


class StreamSeparation(WalkOnlyInto, VisitorBasedCodemodCommand):
    DESCRIPTION = (
        "Add file=sys.stderr to print() calls whose literal text is clearly status "
        "(\"Processing ...\", \"Done\", \"Warning: ...\"), not data. Changes what stdout carries: unsafe."
    )
    RULES = ("PYS053",)
    SAFE = False
    ORDER = 40

    def visit_Module(self, node: cst.Module) -> bool:
        facts = facts_for(self, node)
        self.sys_name = top_level_alias(facts.module, "sys") if facts else None
        if facts is None:
            return False
        prints = {id(call) for name, call in facts.facts.calls if name == "print"}
        self.walk_only_into(defs_containing(facts, lambda n: id(n) in prints))
        return bool(prints)

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.Call:
        if not (isinstance(updated_node.func, cst.Name) and updated_node.func.value == "print"):
            return updated_node
        args = updated_node.args
        if not args or any(a.keyword is not None and a.keyword.value == "file" for a in args) or any(a.star for a in args):
            return updated_node
        text = literal_text(args[0].value)
        if text is None or not is_status(text):
            return updated_node
        if self.sys_name is None:
            self.add_needed_import("sys")
            self.sys_name = "sys"
        no_space = cst.SimpleWhitespace("")
        stderr = cst.Arg(
            keyword=cst.Name("file"), value=cst.Attribute(cst.Name(self.sys_name), cst.Name("stderr")),
            equal=cst.AssignEqual(whitespace_before=no_space, whitespace_after=no_space),
        )
        last = args[-1].with_changes(comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" ")))
        return updated_node.with_changes(args=list(args[:-1]) + [last, stderr])
