"""Give every ``ArgumentParser(...)`` an EXAMPLES epilog and a raw description formatter."""

from __future__ import annotations

import ast

import libcst as cst
from libcst.codemod import VisitorBasedCodemodCommand
from skillsmith.codemods.pyscript import (
    WalkOnlyInto,
    add_arguments,
    defs_containing,
    facts_for,
    module_alias,
)

from skillsmith.lang import python

FORMATTER = "RawDescriptionHelpFormatter"
RAW_FORMATTERS = ("RawDescriptionHelpFormatter", "RawTextHelpFormatter")


def string_literal(text: str) -> str:
    """*text* as a one-line double-quoted Python literal."""
    escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\r", "\\r")
    return f'"{escaped}"'


def examples_block(examples: list[str]) -> str:
    return "examples:\n" + "".join(f"  {e}\n" for e in examples)


class ArgparseEpilog(WalkOnlyInto, VisitorBasedCodemodCommand):
    DESCRIPTION = (
        "Add epilog= with an examples block (from the docstring's Examples) and "
        "formatter_class=argparse.RawDescriptionHelpFormatter to ArgumentParser(...) calls; "
        "aliases included, existing keywords stay."
    )
    RULES = ("PYS002", "PYS003")
    SAFE = True
    ORDER = 50

    def visit_Module(self, node: cst.Module) -> bool:
        self.facts = facts_for(self, node)
        if self.facts is None or not self.facts.facts.parsers:
            return False
        parsers = {id(call) for call in self.facts.facts.parsers}
        self.walk_only_into(defs_containing(self.facts, lambda n: id(n) in parsers))
        return True

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.Call:
        aliases = self.facts.facts.aliases
        if python.qualified(updated_node.func, aliases) != "argparse.ArgumentParser":
            return updated_node
        if any(arg.star for arg in updated_node.args):
            return updated_node  # **kwargs may carry epilog or formatter_class
        keywords = {arg.keyword.value: arg for arg in updated_node.args if arg.keyword is not None}
        block = examples_block(self.facts.examples())
        new_args = []
        call = updated_node
        epilog = keywords.get("epilog")
        if epilog is None:
            new_args.append(self._keyword("epilog", cst.SimpleString(string_literal(block))))
        elif isinstance(epilog.value, cst.SimpleString):
            text = _literal_text(epilog.value)
            if text is not None and "example" not in text.lower():
                joined = text.rstrip("\n") + ("\n\n" if text.strip() else "") + block
                new_value = cst.SimpleString(string_literal(joined))
                call = call.with_changes(
                    args=[a.with_changes(value=new_value) if a is epilog else a for a in call.args]
                )
        if "formatter_class" not in keywords:
            new_args.append(self._keyword("formatter_class", self._formatter(aliases)))
        return add_arguments(call, new_args) if new_args else call

    def _keyword(self, name: str, value: cst.BaseExpression) -> cst.Arg:
        no_space = cst.SimpleWhitespace("")
        return cst.Arg(
            keyword=cst.Name(name), value=value,
            equal=cst.AssignEqual(whitespace_before=no_space, whitespace_after=no_space),
        )

    def _formatter(self, aliases: dict[str, str]) -> cst.BaseExpression:
        for local, target in aliases.items():
            if target == f"argparse.{FORMATTER}":
                return cst.Name(local)
        module = module_alias(aliases, "argparse")
        if module is None:
            self.add_needed_import("argparse")
            module = "argparse"
        return cst.Attribute(value=cst.Name(module), attr=cst.Name(FORMATTER))


def _literal_text(node: cst.SimpleString) -> str | None:
    prefix = node.prefix.lower()
    if "b" in prefix or "f" in prefix:
        return None
    try:
        value = ast.literal_eval(node.value)
    except (ValueError, SyntaxError):
        return None
    return value if isinstance(value, str) else None
