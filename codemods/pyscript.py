"""libcst helpers the Python codemods share, and how a codemod gets the evidence about its script.

The evidence itself (argparse rebuilt from the code, usage text, exit meanings, examples) is
:mod:`skillsmith.lang.python_evidence`; :func:`facts_for` gives a codemod the facts of the file
it is looking at, and :func:`fix_context` what the fix engine tells it (the findings it answers,
the lines the author suppressed, the worked invocations).
"""

from __future__ import annotations

from skillsmith.fix.context import CONTEXT_KEY, FixContext
from skillsmith.lang import python
from skillsmith.lang.python_evidence import ScriptFacts, script_facts


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
    """The code of module *node*: from the fix engine's ``ModuleCode`` of the file when it runs, else generated."""
    known = context.scratch.get("skillsmith.code")
    return known.code(node) if known is not None else node.code


def facts_for(codemod, node, fresh: bool = False) -> ScriptFacts | None:
    """:func:`script_facts` for the module *node* a codemod is looking at.

    The facts of the file as it was before any codemod ran are kept in the context and shared
    (the fix engine puts the check's there): codemods that only need what the author wrote
    (aliases, parsers, exit literals) pass ``fresh=False``; the docstring, which must describe
    the final code, asks for ``fresh=True`` and gets them too while no codemod changed the code.
    """
    scratch = codemod.context.scratch
    checked = scratch.get("skillsmith.parsed")  # (text, module) as the check parsed it
    known = scratch.get("skillsmith.facts")  # of the text as checked (the check's own, when it made them)
    if known is not None and (not fresh or checked is not None and module_code(codemod.context, node) == checked[0]):
        return known
    invocations = fix_context(codemod.context).invocations
    if not fresh and checked is not None:
        # what the author wrote, with its line numbers: the findings' lines are those
        facts = script_facts(checked[0], codemod.context.filename, checked[1], invocations)
    else:
        code = module_code(codemod.context, node)
        module = checked[1] if checked is not None and checked[0] == code else None
        facts = script_facts(code, codemod.context.filename, module, invocations)
    if not fresh:
        scratch["skillsmith.facts"] = facts
    return facts


def fix_context(context) -> FixContext:
    """What the fix engine tells the codemods about the file (an empty one under libcst's own CLI)."""
    return context.scratch.get(CONTEXT_KEY) or FixContext()


def suppressed(context, rule: str, line: int) -> bool:
    """Whether the author silenced *rule* at *line* (``# skillsmith: ignore[RULE]``): its fix leaves the line alone."""
    return (rule, line) in fix_context(context).held


def answers(context, rule: str, line: int | None = None) -> bool:
    """Whether this fix answers a finding of *rule* (at *line*, when given)."""
    ctx = fix_context(context)
    if not ctx.wants(rule):
        return False
    lines = ctx.lines(rule)
    return line is None or lines is None or line in lines


def add_arguments(call, new_args: list):
    """*call* with keyword arguments appended, laid out as a formatter would lay out the call.

    A call on one line stays on one line while it is short; else (and for a call already
    broken over lines) each argument goes on its own line, at the indentation the call's
    arguments already use, with the closing parenthesis where it was.
    """
    import libcst as cst

    args = list(call.args)
    if not args:
        comma = cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))
        grown = call.with_changes(args=[a.with_changes(comma=comma) for a in new_args[:-1]] + new_args[-1:])
        if len(cst.Module(body=[]).code_for_node(grown)) <= MAX_INLINE_CALL:
            return grown
        return one_argument_per_line(grown)
    last = args[-1]
    before_args = call.whitespace_before_args
    separators = [a.comma.whitespace_after for a in args[:-1] if isinstance(a.comma, cst.Comma)]
    broken = isinstance(before_args, cst.ParenthesizedWhitespace) or any(
        isinstance(w, cst.ParenthesizedWhitespace) for w in separators)
    if not broken:
        comma = cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))
        out = args[:-1] + [last.with_changes(comma=comma, whitespace_after_arg=cst.SimpleWhitespace(""))]
        for i, arg in enumerate(new_args):
            is_last = i == len(new_args) - 1
            out.append(arg.with_changes(comma=last.comma if is_last else comma,
                                        whitespace_after_arg=last.whitespace_after_arg if is_last else cst.SimpleWhitespace("")))
        grown = call.with_changes(args=out)
        if len(cst.Module(body=[]).code_for_node(grown)) <= MAX_INLINE_CALL:
            return grown
        return one_argument_per_line(grown)
    # broken over lines: the separator the call already uses between arguments (or after its "(")
    between = next((w for w in separators if isinstance(w, cst.ParenthesizedWhitespace)), None)
    if between is None:
        between = before_args
    sep = cst.Comma(whitespace_after=between)
    closing = last.whitespace_after_arg  # what stands before ")": a line break and its indent, or nothing
    trailing = last.comma
    if isinstance(trailing, cst.Comma) and isinstance(trailing.whitespace_after, cst.ParenthesizedWhitespace):
        closing_comma = trailing  # "arg,\n)": the last comma carries the line break
    else:
        closing_comma = trailing
    out = args[:-1] + [last.with_changes(comma=sep, whitespace_after_arg=cst.SimpleWhitespace(""))]
    for i, arg in enumerate(new_args):
        is_last = i == len(new_args) - 1
        out.append(arg.with_changes(
            comma=closing_comma if is_last else sep,
            whitespace_after_arg=closing if is_last else cst.SimpleWhitespace(""),
        ))
    return call.with_changes(args=out)


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
    args = [a.with_changes(comma=cst.Comma(whitespace_after=newline_then(unit)),
                           whitespace_after_arg=cst.SimpleWhitespace("")) for a in call.args]
    args[-1] = args[-1].with_changes(comma=cst.Comma(whitespace_after=newline_then("")))
    return call.with_changes(whitespace_before_args=newline_then(unit), args=args)


def is_main_guard(stmt) -> bool:
    """``if __name__ == "__main__":`` (a libcst statement)."""
    import libcst as cst

    if not isinstance(stmt, cst.If) or not isinstance(stmt.test, cst.Comparison):
        return False
    test = stmt.test
    return (
        isinstance(test.left, cst.Name) and test.left.value == "__name__" and len(test.comparisons) == 1
        and isinstance(test.comparisons[0].operator, cst.Equal)
        and isinstance(test.comparisons[0].comparator, cst.SimpleString)
        and test.comparisons[0].comparator.value.strip("\"'") == "__main__"
    )


def is_bare_main_call(stmt) -> bool:
    """A statement that is only ``main()`` (a libcst statement)."""
    import libcst as cst

    return (
        isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1 and isinstance(stmt.body[0], cst.Expr)
        and isinstance(stmt.body[0].value, cst.Call) and isinstance(stmt.body[0].value.func, cst.Name)
        and stmt.body[0].value.func.value == "main" and not stmt.body[0].value.args
    )


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


def is_constant(stmt) -> bool:
    """``NAME = literal`` at module level (constants stay together: nothing goes between them)."""
    import libcst as cst

    return (isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1 and isinstance(stmt.body[0], cst.Assign)
            and isinstance(stmt.body[0].value, (cst.Integer, cst.SimpleString, cst.Float)))


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
    return stmt.with_changes(leading_lines=[cst.EmptyLine(indent=False)] * (blank_lines - have) + lines)
