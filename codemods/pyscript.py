"""What the Python codemods know about a script: argparse usage, exit codes, the docstring.

Facts come from one ``ast`` parse of the module's current code (``skillsmith.python.facts``),
which is far cheaper than libcst's metadata providers. The codemods share the texts built here
(usage line, examples, ``Exit:`` line) so the docstring and the ``--help`` epilog agree.
"""

from __future__ import annotations

import ast
import os
import re
from dataclasses import dataclass, field
from functools import lru_cache

from skillsmith import exitcodes
from skillsmith.lang import header as contract
from skillsmith.lang import python

#: actions that take no value on the command line
FLAG_ACTIONS = {"store_true", "store_false", "store_const", "count", "help", "version", "append_const"}
#: at most this many options are spelled out on the Usage line; more become [OPTIONS]
MAX_USAGE_OPTIONS = 5

SHEBANG = "#!/usr/bin/env python3"


@dataclass
class Argument:
    flags: list[str]  # option strings, or [] for a positional
    name: str  # metavar shown in usage
    takes_value: bool
    required: bool
    nargs: str | None


@dataclass
class ScriptFacts:
    module: ast.Module
    facts: python.PythonFacts
    filename: str
    arguments: list[Argument] = field(default_factory=list)
    commands: list[str] = field(default_factory=list)
    prog: str = ""
    description: str | None = None  # parser description, when a literal
    epilog_examples: list[str] = field(default_factory=list)  # lines under "examples:" in a literal epilog
    walked: list[tuple[ast.AST, str | None]] = field(default_factory=list)  # every node, with its top-level def

    @property
    def docstring(self) -> tuple[str | None, int]:
        return python.module_docstring(self.module)

    @property
    def header(self) -> contract.Header | None:
        doc, line = self.docstring
        return contract.python_header(doc, line)

    @property
    def exit_codes(self) -> list[int]:
        return sorted({0} | {code for code, _, _ in self.facts.exit_codes})

    def exit_line(self, codes: list[int] | None = None) -> str:
        codes = self.exit_codes if codes is None else codes
        return ", ".join(f"{c} {exitcodes.meaning(c, self.facts.constants)}" for c in codes)

    def usage(self) -> str:
        parts = [self.prog]
        options = [a for a in self.arguments if a.flags and a.flags[0] not in ("-h", "--help")]
        if len(options) > MAX_USAGE_OPTIONS:
            parts.append("[OPTIONS]")
        else:
            for a in options:
                flag = max(a.flags, key=len)
                text = f"{flag} {a.name}" if a.takes_value else flag
                parts.append(text if a.required else f"[{text}]")
        if self.commands:
            parts.append("{" + ",".join(self.commands) + "} ...")
        for a in self.arguments:
            if a.flags:
                continue
            if a.nargs == "?":
                parts.append(f"[{a.name}]")
            elif a.nargs == "*":
                parts.append(f"[{a.name} ...]")
            elif a.nargs == "+":
                parts.append(f"{a.name} [{a.name} ...]")
            else:
                parts.append(a.name)
        return " ".join(parts)

    def default_examples(self) -> list[str]:
        """The epilog's examples, else an invocation with the positionals spelled out, and ``--help``."""
        if self.epilog_examples:
            return list(self.epilog_examples)
        positionals = [a.name for a in self.arguments if not a.flags and a.nargs not in ("?", "*")]
        examples = []
        if self.commands:
            examples.append(f"{self.prog} {self.commands[0]} --help")
        elif positionals:
            examples.append(f"{self.prog} {' '.join(positionals)}")
        examples.append(f"{self.prog} --help")
        return examples

    def examples(self) -> list[str]:
        """The docstring's examples when it has some, else :meth:`default_examples`."""
        h = self.header
        if h is not None and h.examples:
            return h.examples
        return self.default_examples()

    def one_line_description(self) -> str:
        if self.description:
            first = re.split(r"(?<=\.)\s", " ".join(self.description.split()), maxsplit=1)[0]
            return first if first.endswith(".") else first + "."
        stem = os.path.splitext(os.path.basename(self.filename))[0]
        words = re.sub(r"[_\-]+", " ", stem).strip() or "script"
        return words[0].upper() + words[1:] + "."

    @property
    def reads_stdin(self) -> bool:
        return any(isinstance(n, ast.Attribute) and python.dotted(n) == "sys.stdin" for n, _ in self.walked)

    @property
    def promises_json(self) -> bool:
        return "--json" in self.facts.strings

    def contract_fields(self) -> dict[str, str]:
        """Values for the header fields, derived from the code."""
        stdin = "; stdin" if self.reads_stdin else ""
        json_out = "; with --json the JSON envelope {data, meta}" if self.promises_json else ""
        return {
            "Usage": self.usage(),
            "Input": ("command-line arguments (see Usage)" if self.arguments or self.commands else "none") + stdin,
            "Output": "results on stdout" + json_out,
            "Stderr": "errors and diagnostics",
            "Exit": self.exit_line(),
        }


@lru_cache(maxsize=16)
def script_facts(code: str, filename: str | None, module: ast.Module | None = None) -> ScriptFacts | None:
    """Facts for *code* (whose ``ast`` parse is *module*, when known), or None when it does not parse.

    Cached: codemods in a row share them.
    """
    if module is None:
        module = python.parse(code)[0]
        if module is None:
            return None
    facts = python.facts(module)
    name = os.path.basename(filename) if filename else "script.py"
    sf = ScriptFacts(module, facts, filename or name, prog=name, walked=_walk(module))
    if facts.parsers:
        parser = facts.parsers[0]
        prog = python.keyword(parser, "prog")
        if prog is not None and isinstance(prog.value, ast.Constant) and isinstance(prog.value.value, str):
            sf.prog = prog.value.value
        desc = python.keyword(parser, "description")
        if desc is not None and isinstance(desc.value, ast.Constant) and isinstance(desc.value.value, str):
            sf.description = desc.value.value.strip() or None
        epilog = python.keyword(parser, "epilog")
        if epilog is not None:
            text = _literal(epilog.value)
            if not isinstance(text, str):
                name = python.dotted(epilog.value)
                text = _module_string(module, name) if name else None
            sf.epilog_examples = examples_in(text) if isinstance(text, str) else []
        _read_arguments(sf, parser)
    return sf


def examples_in(text: str) -> list[str]:
    """The indented lines under an ``examples:`` line of an epilog."""
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if line.strip().lower().rstrip(":") in ("examples", "example"):
            items = []
            for item in lines[i + 1:]:
                if not item.strip():
                    if items:
                        break
                    continue
                items.append(item.strip())
            return items
    return []


def _module_string(module: ast.Module, name: str) -> str | None:
    for node in module.body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name for t in node.targets):
            value = _literal(node.value)
            return value if isinstance(value, str) else None
    return None


def _walk(module: ast.Module) -> list[tuple[ast.AST, str | None]]:
    """Every node once, with the name of the top-level function or class holding it (or None)."""
    out = []
    for stmt in module.body:
        owner = stmt.name if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) else None
        out.extend((node, owner) for node in ast.walk(stmt))
    return out


def _assigned_name(sf: ScriptFacts, call: ast.Call) -> str | None:
    for node, _ in sf.walked:
        if isinstance(node, ast.Assign) and node.value is call and isinstance(node.targets[0], ast.Name):
            return node.targets[0].id
    return None


def _read_arguments(sf: ScriptFacts, parser: ast.Call) -> None:
    name = _assigned_name(sf, parser)
    if name is None:
        return
    subparsers: set[str] = set()
    for node, _ in sf.walked:
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call):
            call = node.value
            if python.dotted(call.func) == f"{name}.add_subparsers" and isinstance(node.targets[0], ast.Name):
                subparsers.add(node.targets[0].id)
    for node, _ in sf.walked:
        if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute):
            continue
        owner = python.dotted(node.func.value)
        if node.func.attr == "add_parser" and owner in subparsers:
            if node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str):
                sf.commands.append(node.args[0].value)
        elif node.func.attr == "add_argument" and owner == name:
            arg = _argument(node)
            if arg is not None:
                sf.arguments.append(arg)


def _literal(node: ast.expr | None):
    return node.value if isinstance(node, ast.Constant) else None


def _argument(call: ast.Call) -> Argument | None:
    names = [a.value for a in call.args if isinstance(a, ast.Constant) and isinstance(a.value, str)]
    if not names:
        return None
    kw = {k.arg: k.value for k in call.keywords if k.arg}
    action = _literal(kw.get("action"))
    nargs = _literal(kw.get("nargs"))
    nargs = str(nargs) if nargs is not None else None
    metavar = _literal(kw.get("metavar"))
    if names[0].startswith("-"):
        long = max(names, key=len).lstrip("-")
        dest = _literal(kw.get("dest")) or long
        shown = metavar if isinstance(metavar, str) else str(dest).upper().replace("-", "_")
        takes = action not in FLAG_ACTIONS and nargs != "0"
        return Argument(names, shown, takes, bool(_literal(kw.get("required"))), nargs)
    shown = metavar if isinstance(metavar, str) else names[0].upper()
    return Argument([], shown, True, nargs not in ("?", "*"), nargs)


def defs_containing(sf: ScriptFacts, wanted) -> set[str]:
    """Names of the top-level functions and classes holding a node for which *wanted* is true."""
    return {owner for node, owner in sf.walked if owner is not None and wanted(node)}


# -- libcst helpers shared by the codemods -------------------------------------------------


class WalkOnlyInto:
    """Mixin for codemods: skip top-level functions and classes that hold nothing to change.

    Call :meth:`walk_only_into` from ``visit_Module`` with the names to enter (from
    :func:`defs_containing`), or None to enter everything.
    """

    def walk_only_into(self, names: set[str] | None) -> None:
        self._enter = names
        self._entered: list[bool] = []

    def _visit_def(self, node) -> bool:
        enter = getattr(self, "_enter", None) is None or bool(self._entered) or node.name.value in self._enter
        if enter:
            self._entered.append(True)
        return enter

    def _leave_def(self, original_node, updated_node):
        # only top-level definitions are ever skipped, and then nothing was pushed
        if getattr(self, "_enter", None) is not None and self._entered:
            self._entered.pop()
        return updated_node

    def visit_FunctionDef(self, node) -> bool:
        return self._visit_def(node)

    def leave_FunctionDef(self, original_node, updated_node):
        return self._leave_def(original_node, updated_node)

    def visit_ClassDef(self, node) -> bool:
        return self._visit_def(node)

    def leave_ClassDef(self, original_node, updated_node):
        return self._leave_def(original_node, updated_node)




def module_code(context, node) -> str:
    """The code of module *node*: from the fix engine when it has it, else generated."""
    known = context.scratch.get("skillsmith.code")
    if known is not None and known[0] is node:
        return known[1]
    return node.code


def facts_for(codemod, node, fresh: bool = False) -> ScriptFacts | None:
    """:func:`script_facts` for the module *node* a codemod is looking at.

    The facts of the file as it was before any codemod ran are kept in the context and shared:
    codemods that only need what the author wrote (aliases, parsers, exit literals) pass
    ``fresh=False``; the docstring, which must describe the final code, asks for ``fresh=True``.
    """
    if not fresh:
        known = codemod.context.scratch.get("skillsmith.facts")
        if known is not None:
            return known
    code = module_code(codemod.context, node)
    checked = codemod.context.scratch.get("skillsmith.parsed")  # (text, module) as the check parsed it
    module = checked[1] if checked is not None and checked[0] == code else None
    facts = script_facts(code, codemod.context.filename, module)
    codemod.context.scratch.setdefault("skillsmith.facts", facts)
    return facts


def module_alias(aliases: dict[str, str], module: str) -> str | None:
    """The local name bound to ``import module`` (``ap`` for ``import argparse as ap``)."""
    for local, target in aliases.items():
        if target == module:
            return local
    return None


def add_arguments(call, new_args: list):
    """*call* with keyword arguments appended, in the layout the call already uses."""
    import libcst as cst

    args = list(call.args)
    if not args:
        comma = cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))
        grown = call.with_changes(args=[a.with_changes(comma=comma) for a in new_args[:-1]] + new_args[-1:])
        if len(cst.Module(body=[]).code_for_node(grown)) <= MAX_INLINE_CALL:
            return grown
        return one_argument_per_line(grown)
    last = args[-1]
    first_comma = args[0].comma
    multiline = (
        isinstance(call.whitespace_before_args, cst.ParenthesizedWhitespace)
        or (isinstance(first_comma, cst.Comma) and isinstance(first_comma.whitespace_after, cst.ParenthesizedWhitespace))
    )
    if multiline:
        # one argument per line: copy the separator the call already uses
        sep = first_comma if isinstance(first_comma, cst.Comma) else None
        if sep is None or not isinstance(sep.whitespace_after, cst.ParenthesizedWhitespace):
            sep = cst.Comma(whitespace_after=call.whitespace_before_args)
        trailing = last.comma if isinstance(last.comma, cst.Comma) else cst.MaybeSentinel.DEFAULT
        out = args[:-1] + [last.with_changes(comma=sep)]
        for i, arg in enumerate(new_args):
            is_last = i == len(new_args) - 1
            out.append(arg.with_changes(comma=trailing if is_last else sep))
        return call.with_changes(args=out)
    comma = cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))
    trailing = last.comma
    out = args[:-1] + [last.with_changes(comma=comma)]
    for i, arg in enumerate(new_args):
        out.append(arg.with_changes(comma=trailing if i == len(new_args) - 1 else comma))
    grown = call.with_changes(args=out)
    if len(cst.Module(body=[]).code_for_node(grown)) <= MAX_INLINE_CALL:
        return grown
    return one_argument_per_line(grown)


#: a call that grows longer than this is laid out one argument per line
MAX_INLINE_CALL = 72


def one_argument_per_line(call):
    """*call* with each argument on its own line, indented one level, and a trailing comma."""
    import libcst as cst

    def newline_then(extra: str):
        return cst.ParenthesizedWhitespace(
            first_line=cst.TrailingWhitespace(), empty_lines=[], indent=True,
            last_line=cst.SimpleWhitespace(extra),
        )

    unit = "    "
    args = [a.with_changes(comma=cst.Comma(whitespace_after=newline_then(unit))) for a in call.args]
    args[-1] = args[-1].with_changes(comma=cst.Comma(whitespace_after=newline_then("")))
    return call.with_changes(whitespace_before_args=newline_then(unit), args=args)


def insertion_index(body) -> int:
    """Index in a module *body* after the docstring, ``__future__`` imports and other imports."""
    import libcst as cst

    index = 0
    for i, stmt in enumerate(body):
        if isinstance(stmt, cst.SimpleStatementLine) and stmt.body:
            first = stmt.body[0]
            if i == 0 and isinstance(first, cst.Expr) and isinstance(first.value, (cst.SimpleString, cst.ConcatenatedString)):
                index = 1
                continue
            if all(isinstance(s, (cst.Import, cst.ImportFrom)) for s in stmt.body):
                index = i + 1
                continue
        break
    return index


def defined_names(module) -> set[str]:
    """Names bound at module level (functions, classes, assignments, imports)."""
    import libcst as cst

    names: set[str] = set()
    for stmt in module.body:
        if isinstance(stmt, (cst.FunctionDef, cst.ClassDef)):
            names.add(stmt.name.value)
        elif isinstance(stmt, cst.SimpleStatementLine):
            for small in stmt.body:
                if isinstance(small, cst.Assign):
                    for t in small.targets:
                        if isinstance(t.target, cst.Name):
                            names.add(t.target.value)
                elif isinstance(small, cst.AnnAssign) and isinstance(small.target, cst.Name):
                    names.add(small.target.value)
                elif isinstance(small, (cst.Import, cst.ImportFrom)) and not isinstance(small.names, cst.ImportStar):
                    for alias in small.names:
                        bound = alias.asname.name if alias.asname else alias.name
                        if isinstance(bound, cst.Name):
                            names.add(bound.value)
                        elif isinstance(bound, cst.Attribute):
                            names.add(python.dotted(bound).split(".")[0])
    return names


def separated(stmt, blank_lines: int):
    """*stmt* with at least *blank_lines* empty lines before it (comments it had stay)."""
    import libcst as cst

    lines = list(stmt.leading_lines)
    have = 0
    for line in lines:
        if line.comment is None:
            have += 1
        else:
            break
    if have >= blank_lines:
        return stmt
    return stmt.with_changes(leading_lines=[cst.EmptyLine()] * (blank_lines - have) + lines)
