"""Give every ``ArgumentParser(...)`` an EXAMPLES epilog and a raw description formatter.

The examples are the docstring's, else ``SKILL.md``'s worked invocations that the parser accepts
(:meth:`ScriptFacts.examples`); with none, no epilog is written (``NAME --help`` in the help
itself says nothing) and PYS002 stays for a person.
"""

from __future__ import annotations

import ast

import libcst as cst
from libcst.codemod import VisitorBasedCodemodCommand
from skillsmith.codemods.pyscript import WalkOnlyInto, add_arguments, facts_for

from skillsmith.lang import python
from skillsmith.lang.python_evidence import defs_containing, top_level_alias

FORMATTER = "RawDescriptionHelpFormatter"


def string_literal(text: str) -> str:
    """*text* as a one-line Python literal: double quotes, or single ones when that escapes less."""
    quote = "'" if '"' in text and "'" not in text else '"'
    escaped = text.replace("\\", "\\\\").replace(quote, "\\" + quote).replace("\n", "\\n").replace("\r", "\\r")
    return f"{quote}{escaped}{quote}"


#: an epilog literal longer than this is written one line per string, in parentheses
MAX_EPILOG_LITERAL = 60


def split_literal(text: str, arg_space) -> cst.BaseExpression:
    """*text* as adjacent literals, one per line of it, inside parentheses, one level in from *arg_space*.

    *arg_space* is the ``ParenthesizedWhitespace`` before the argument (its line break and indent).
    """
    parts = [cst.SimpleString(string_literal(line)) for line in text.splitlines(keepends=True)]
    inner = cst.ParenthesizedWhitespace(
        first_line=cst.TrailingWhitespace(), empty_lines=[], indent=arg_space.indent,
        last_line=cst.SimpleWhitespace(arg_space.last_line.value + "    "),
    )
    closing = arg_space.with_changes(empty_lines=[])
    value = parts[-1]
    for part in reversed(parts[:-1]):
        value = cst.ConcatenatedString(left=part, right=value, whitespace_between=inner)
    return value.with_changes(lpar=[cst.LeftParen(whitespace_after=inner)], rpar=[cst.RightParen(whitespace_before=closing)])


def examples_block(examples: list[str]) -> str:
    return "examples:\n" + "".join(f"  {e}\n" for e in examples)


class ArgparseEpilog(WalkOnlyInto, VisitorBasedCodemodCommand):
    DESCRIPTION = (
        "Add epilog= with an examples block (the docstring's Examples, or SKILL.md's worked "
        "invocations the parser accepts) and formatter_class=argparse.RawDescriptionHelpFormatter "
        "to ArgumentParser(...) calls; aliases included, existing keywords stay."
    )
    RULES = ("PYS002", "PYS003")
    SAFE = True
    ORDER = 50

    def visit_Module(self, node: cst.Module) -> bool:
        self.facts = facts_for(self, node)
        if self.facts is None or not self.facts.facts.parsers:
            return False
        calls = sorted(self.facts.facts.parsers, key=lambda c: (c.lineno, c.col_offset))
        # one decision per ArgumentParser call, in source order: the one check marks fixable
        self.plan = [(self.facts.epilog_fixable(c), self.facts.formatter_fixable(c)) for c in calls]
        parsers = {id(call) for call in calls}
        self.walk_only_into(defs_containing(self.facts, lambda n: id(n) in parsers))
        return any(epilog or formatter for epilog, formatter in self.plan)

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.Call:
        aliases = self.facts.facts.aliases
        if python.qualified(updated_node.func, aliases) != "argparse.ArgumentParser" or not self.plan:
            return updated_node
        add_epilog, add_formatter = self.plan.pop(0)
        keywords = {arg.keyword.value: arg for arg in updated_node.args if arg.keyword is not None}
        block = examples_block(self.facts.examples(for_epilog=True))
        new_args = []
        call = updated_node
        epilog = keywords.get("epilog")
        if add_epilog and epilog is None:
            new_args.append(self._keyword("epilog", cst.SimpleString(string_literal(block))))
        elif add_epilog and isinstance(epilog.value, cst.SimpleString):
            text = _literal_text(epilog.value)
            if text is not None:
                joined = text.rstrip("\n") + ("\n\n" if text.strip() else "") + block
                new_value = cst.SimpleString(string_literal(joined))
                call = call.with_changes(
                    args=[a.with_changes(value=new_value) if a is epilog else a for a in call.args]
                )
        if add_formatter:
            new_args.append(self._keyword("formatter_class", self._formatter(aliases, updated_node.func)))
        return _split_long_epilog(add_arguments(call, new_args)) if new_args else call

    def _keyword(self, name: str, value: cst.BaseExpression) -> cst.Arg:
        no_space = cst.SimpleWhitespace("")
        return cst.Arg(
            keyword=cst.Name(name), value=value,
            equal=cst.AssignEqual(whitespace_before=no_space, whitespace_after=no_space),
        )

    def _formatter(self, aliases: dict[str, str], func: cst.BaseExpression) -> cst.BaseExpression:
        """The formatter, by a name bound where *func* (the parser class) is called: its own
        module prefix (``argparse.`` imported in the function), an imported name, or a new import."""
        if isinstance(func, cst.Attribute):
            return cst.Attribute(value=func.value, attr=cst.Name(FORMATTER))
        for local, target in aliases.items():
            if target == f"argparse.{FORMATTER}":
                return cst.Name(local)
        module = top_level_alias(self.facts.module, "argparse")
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


def _split_long_epilog(call: cst.Call) -> cst.Call:
    """*call* with a long one-line ``epilog=`` literal split over lines, when its arguments are on lines of their own."""
    args = list(call.args)
    for i, arg in enumerate(args):
        if arg.keyword is None or arg.keyword.value != "epilog" or not isinstance(arg.value, cst.SimpleString):
            continue
        if len(arg.value.value) <= MAX_EPILOG_LITERAL:
            return call
        space = call.whitespace_before_args if i == 0 else args[i - 1].comma.whitespace_after \
            if isinstance(args[i - 1].comma, cst.Comma) else None
        text = _literal_text(arg.value)
        if not isinstance(space, cst.ParenthesizedWhitespace) or text is None or text.count("\n") < 2:
            return call
        args[i] = arg.with_changes(value=split_literal(text, space))
        return call.with_changes(args=args)
    return call
