"""Give a script the docstring contract: description, Usage, Input, Output, Stderr, Exit, Examples."""

from __future__ import annotations

import io
import re
import tokenize

import libcst as cst
from libcst.codemod import VisitorBasedCodemodCommand
from skillsmith.codemods.pyscript import ScriptFacts, facts_for, separated

from skillsmith.lang.header import FIELDS

#: fields go in as ``Usage:   value`` (values aligned like the protocol's example)
FIELD_WIDTH = len("Examples:")
_QUOTE = re.compile(r'^([A-Za-z]*)("""|\'\'\'|"|\')')


def field_line(name: str, value: str, indent: str = "", width: int = FIELD_WIDTH) -> str:
    width = max(width, len(name) + 2)
    return f"{indent}{name + ':':<{width}}{value}".rstrip()


def value_column(lines: list[str]) -> int:
    """Where the values of existing ``Name:   value`` lines start (after their indent), else the default."""
    columns = []
    for line in lines:
        m = re.match(r"^\s*(\w+:\s+)\S", line)
        if m and not line.strip().lower().startswith("examples"):
            columns.append(len(m.group(1)))
    return max(set(columns), key=columns.count) if columns else FIELD_WIDTH


class DocstringContract(VisitorBasedCodemodCommand):
    DESCRIPTION = (
        "Add a missing module docstring, or the missing parts of an existing one: a one-line "
        "description, Usage (from argparse), Input, Output, Stderr, Exit (from the exit codes "
        "the code uses) and Examples. The author's text stays."
    )
    RULES = ("CON004", "CON005", "CON006", "CON007", "CON010")
    SAFE = True
    ORDER = 60  # runs last: the Exit: line sees every code the other fixes leave

    def visit_Module(self, node: cst.Module) -> bool:
        return False  # works on the module's top level only: no need to walk the tree

    def leave_Module(self, original_node: cst.Module, updated_node: cst.Module) -> cst.Module:
        facts = facts_for(self, updated_node, fresh=True)
        if facts is None:
            return updated_node
        body = list(updated_node.body)
        doc, _ = facts.docstring
        if doc is None:
            if body and _is_string_statement(body[0]):
                return updated_node  # a bytes or f-string first statement: not ours to touch
            text = "\n".join(new_docstring(facts))
            stmt = cst.SimpleStatementLine(body=[cst.Expr(cst.SimpleString(one_string(f'"""{text}\n"""')))])
            if body:
                body[0] = separated(body[0], 1 if not _is_def(body[0]) else 2)
            return updated_node.with_changes(body=[stmt] + body)
        string = body[0].body[0].value
        if not isinstance(string, cst.SimpleString):
            return updated_node
        new_value = amended_docstring(string.value, facts)
        if new_value is None or new_value == string.value:
            return updated_node
        one_string(new_value)
        new_stmt = body[0].with_changes(body=[body[0].body[0].with_changes(value=string.with_changes(value=new_value))])
        return updated_node.with_changes(body=[new_stmt] + body[1:])


def one_string(literal: str) -> str:
    """*literal*, when it is exactly one Python string literal; else ValueError (the file is skipped).

    The docstring is built from text the script supplies (its file name, argparse's ``prog``
    and ``description``): a ``\"\"\"`` in it would end the string and make the rest code.
    """
    try:
        tokens = [t for t in tokenize.generate_tokens(io.StringIO(literal).readline)
                  if t.type not in (tokenize.NEWLINE, tokenize.NL, tokenize.ENDMARKER)]
    except (tokenize.TokenError, SyntaxError):
        tokens = []
    if len(tokens) != 1 or tokens[0].type != tokenize.STRING or tokens[0].string != literal:
        raise ValueError("the docstring would not be one string literal: the file name or argparse text "
                         "holds quotes that would turn it into code")
    return literal


def _is_string_statement(stmt) -> bool:
    return (
        isinstance(stmt, cst.SimpleStatementLine) and bool(stmt.body) and isinstance(stmt.body[0], cst.Expr)
        and isinstance(stmt.body[0].value, (cst.SimpleString, cst.ConcatenatedString, cst.FormattedString))
    )


def _is_def(stmt) -> bool:
    return isinstance(stmt, (cst.FunctionDef, cst.ClassDef))


def new_docstring(facts: ScriptFacts) -> list[str]:
    values = facts.contract_fields()
    lines = [facts.one_line_description(), ""]
    lines += [field_line(name, values[name]) for name in FIELDS if name != "Examples"]
    lines += ["", "Examples:"] + [f"  {e}" for e in facts.examples()]
    return lines


def amended_docstring(literal: str, facts: ScriptFacts) -> str | None:
    """The docstring literal with what the contract misses added, or None when it cannot be done."""
    m = _QUOTE.match(literal)
    if m is None or any(c in m.group(1).lower() for c in "bf"):
        return None
    prefix, quote = m.group(1), m.group(2)
    raw = literal[len(prefix) + len(quote):len(literal) - len(quote)].replace("\r\n", "\n")
    doc, first_line = facts.docstring
    header = facts.header
    if doc is None or header is None or doc.count("\n") != raw.count("\n"):
        return None  # escaped newlines: raw lines and docstring lines do not match up
    lines = raw.split("\n")
    index = lambda line_no: line_no - first_line  # noqa: E731 - file line -> raw line

    field_lines = [lines[index(f.line)] for f in header.fields.values()]
    indent = min((ln[:len(ln) - len(ln.lstrip())] for ln in field_lines), key=len, default="")
    if not field_lines and len(lines) > 1:
        rest = [ln for ln in lines[1:] if ln.strip()]
        indent = min((ln[:len(ln) - len(ln.lstrip())] for ln in rest), key=len, default="")
    values = facts.contract_fields()
    inserts: dict[int, list[str]] = {}  # raw line index -> lines inserted before it
    replace: dict[int, str] = {}

    # the one-line description
    if header.description is None:
        description = facts.one_line_description()
        if lines[0].strip():
            inserts.setdefault(0, []).extend([description, ""])
            if not lines[0].startswith(indent):
                lines[0] = indent + lines[0]
        else:
            replace[0] = description
            inserts.setdefault(1, []).append("")
    else:
        i = index(header.description_line)
        line = lines[i]
        following = lines[i + 1] if i + 1 < len(lines) else ""
        if not line.rstrip().endswith(".") and re.search(r"[\w)\]`'\"]$", line.rstrip()):
            if not following.strip() or _is_field(following):
                replace[i] = line.rstrip() + "."

    # Exit codes the Exit: line does not list
    exit_field = header.fields.get("Exit")
    if exit_field is not None and header.exit_codes is not None:
        missing = [c for c in facts.exit_codes if c not in header.exit_codes]
        if missing:
            last = index(exit_field.line) + len(exit_field.items)
            text = replace.get(last, lines[last]).rstrip()
            addition = facts.exit_line(missing)
            if text.endswith("."):
                replace[last] = f"{text[:-1]}, {addition}."
            elif text.endswith(":"):
                replace[last] = f"{text} {addition}"
            else:
                replace[last] = f"{text}, {addition}" if header.exit_codes else f"{text} {addition}"

    # missing fields
    missing_fields = [name for name in FIELDS if name != "Examples" and name not in header.fields]
    present = [f for name, f in header.fields.items() if name != "Examples"]
    width = max([value_column(field_lines)] + [len(name) + 2 for name in missing_fields])
    new_field_lines = [field_line(name, values[name], indent, width) for name in missing_fields]
    examples = header.fields.get("Examples")
    if new_field_lines:
        if present:
            last_field = max(present, key=lambda f: f.line)
            at = index(last_field.line) + len(last_field.items) + 1
            inserts.setdefault(at, []).extend(new_field_lines)
        elif examples is not None:
            inserts.setdefault(index(examples.line), []).extend(new_field_lines + [""])
        else:
            inserts.setdefault(_end(lines), []).extend(_gap(lines, _end(lines), inserts) + new_field_lines)
    example_items = [f"{indent}  {e}" for e in facts.default_examples()]
    if examples is None:
        end = _end(lines)
        inserts.setdefault(end, []).extend(["", f"{indent}Examples:"] + example_items)
    elif not header.examples:
        inserts.setdefault(index(examples.line) + 1, []).extend(example_items)

    if not inserts and not replace:
        return literal
    out: list[str] = []
    for i, line in enumerate(lines):
        out.extend(inserts.get(i, []))
        out.append(replace.get(i, line))
    out.extend(inserts.get(len(lines), []))
    if inserts and _end(lines) == len(lines):  # the closing quotes shared the last text line
        out.append(indent)
    text = "\n".join(out)
    if "\n" in text and len(quote) == 1:
        quote = quote * 3
    if quote in text or text.endswith(quote[0]) or text.endswith("\\"):
        return None
    return f"{prefix}{quote}{text}{quote}"


def _end(lines: list[str]) -> int:
    """Index before which text is appended: before the closing quotes' own line, if any."""
    if len(lines) > 1 and not lines[-1].strip():
        return len(lines) - 1
    return len(lines)


def _gap(lines: list[str], at: int, inserts: dict[int, list[str]]) -> list[str]:
    """A blank line to separate new fields from the text above them, unless there is one."""
    above = inserts.get(at, []) or ([lines[at - 1]] if at > 0 else [])
    return [""] if above and above[-1].strip() else []


def _is_field(line: str) -> bool:
    return bool(re.match(r"^\s*(Usage|Input|Output|Stderr|Exit|Examples?)\s*:", line, re.IGNORECASE))
