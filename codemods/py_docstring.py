"""Give a script the docstring contract: description, Usage, Input, Output, Stderr, Exit, Examples.

Only fields the evidence supports are written (:meth:`ScriptFacts.contract_fields`); a field
nothing supports stays missing and its finding stays for a person. The author's text stays as
it was: new fields go in at a paragraph boundary (after the last field's section, or after the
description), never inside a section, a code example or past line 25, and a script whose
comment block already is its header gets no second one.
"""

from __future__ import annotations

import io
import re
import tokenize

import libcst as cst
from libcst.codemod import VisitorBasedCodemodCommand
from skillsmith.codemods.pyscript import answers, facts_for, separated

from skillsmith.lang.header import FIELDS, FULL_STOPS, HEAD_LINES, parse_block
from skillsmith.lang.python_evidence import ScriptFacts, top_comment

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
        "Add a module docstring, or the missing parts of an existing one, from evidence only: the "
        "description (argparse's, or the comment at the top, which moves into the docstring), Usage "
        "(argparse, the script's own usage text), Input, Output, Stderr, Exit (the author's meanings) "
        "and Examples (SKILL.md's worked invocations, the epilog). The author's text stays."
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
        # the help branch (py_help) follows in this run when CON009 is being fixed: --help may be shown
        self.help_added = answers(self.context, "CON009") and facts.needs_help_branch
        body = list(updated_node.body)
        doc, first_line = facts.docstring
        if doc is None:
            if body and _is_string_statement(body[0]):
                return updated_node  # a bytes or f-string first statement: not ours to touch
            return self._new_docstring(updated_node, facts)
        string = body[0].body[0].value
        if not isinstance(string, cst.SimpleString):
            return updated_node
        new_value = amended_docstring(string.value, facts, first_line, self.help_added)
        if new_value is None or new_value == string.value:
            return updated_node
        one_string(new_value)
        new_stmt = body[0].with_changes(body=[body[0].body[0].with_changes(value=string.with_changes(value=new_value))])
        return updated_node.with_changes(body=[new_stmt] + body[1:])

    def _new_docstring(self, module: cst.Module, facts: ScriptFacts) -> cst.Module:
        header = list(module.header)
        comment = top_comment([line.comment.value if line.comment is not None else "" for line in header])
        if comment == "header":
            return module  # the comment block is the author's header: never a second one
        moved: list[str] = []
        description = facts.one_line_description()
        if comment is not None:
            start, end, lines = comment
            if description is None or lines[0].rstrip(".") == description.rstrip("."):
                description, moved = _sentence(lines[0]), lines[1:]
                header = header[:start] + header[end:]
                while header and header[-1].comment is None and len(header) > start:
                    header.pop()  # the blank lines that separated the comment from the code
        if description is None:
            return module  # nothing says what the script does: CON004 stays for a person
        first_line = len(header) + 1
        text = "\n".join(new_docstring(facts, description, moved, first_line, self.help_added)).replace("\\", "\\\\")
        stmt = cst.SimpleStatementLine(body=[cst.Expr(cst.SimpleString(one_string(f'"""{text}\n"""')))])
        body = list(module.body)
        if body:
            body[0] = separated(body[0], 1 if not _is_def(body[0]) else 2)
        return module.with_changes(header=header, body=[stmt] + body)


def _sentence(line: str) -> str:
    line = line.strip()
    return line if line.endswith(FULL_STOPS) else line + "."


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


def new_docstring(facts: ScriptFacts, description: str, moved: list[str], first_line: int,
                  help_added: bool = False) -> list[str]:
    """The lines of a new docstring that starts at file line *first_line*: every field within line 25."""
    values = facts.contract_fields()
    lines = [description]
    if moved:
        lines += [""] + [ln.rstrip() for ln in moved]
    fields = [field_line(name, values[name]) for name in FIELDS if name != "Examples" and name in values]
    room = HEAD_LINES - (first_line + len(lines) + 1) + 1  # fields that fit after a blank line
    if fields and room > 0:
        lines += [""] + fields[:room]
    examples = facts.examples(help_added=help_added)
    at = first_line + len(lines) + 1  # the Examples: line, after a blank line
    if examples and at <= HEAD_LINES:
        lines += ["", "Examples:"] + [f"  {e}" for e in examples[:max(1, HEAD_LINES - at)]]
    return lines


def amended_docstring(literal: str, facts: ScriptFacts, first_line: int | None = None,
                      help_added: bool = False) -> str | None:
    """The docstring literal with what the contract misses and the evidence supports, or None when it cannot be done."""
    m = _QUOTE.match(literal)
    if m is None or any(c in m.group(1).lower() for c in "bf"):
        return None
    prefix, quote = m.group(1), m.group(2)
    raw = literal[len(prefix) + len(quote):len(literal) - len(quote)].replace("\r\n", "\n")
    doc, doc_line = facts.docstring
    first_line = doc_line if first_line is None else first_line
    header = facts.header
    if doc is None or header is None or doc.count("\n") != raw.count("\n"):
        return None  # escaped newlines: raw lines and docstring lines do not match up
    lines = raw.split("\n")
    index = lambda line_no: line_no - first_line  # noqa: E731 - file line -> raw line
    protected = _code_lines(lines)

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
        if description is not None:
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
        if not line.rstrip().endswith(FULL_STOPS) and re.search(r"[\w)\]`'\"]$", line.rstrip()):
            if not following.strip() or _is_field(following):
                replace[i] = line.rstrip() + "."

    # Exit codes the Exit: line does not list, with the meaning the evidence gives
    exit_field = header.fields.get("Exit")
    if exit_field is not None and header.exit_codes is not None:
        missing = [(c, facts.exit_meaning(c)) for c in facts.exit_codes if c not in header.exit_codes]
        missing = [(c, text) for c, text in missing if text is not None]
        if missing:
            _extend_exit(lines, index(exit_field.line), exit_field, missing, replace, inserts, header.exit_codes)

    # missing fields, and Examples
    missing_fields = [name for name in header.missing if name != "Examples" and name in values]
    present = [f for name, f in header.fields.items() if name != "Examples" and f.line <= HEAD_LINES]
    if field_lines:  # values start where the author's do (a longer name takes the room it needs)
        column = value_column(field_lines)
        new_field_lines = [field_line(name, values[name], indent, column) for name in missing_fields]
    else:
        width = max([FIELD_WIDTH] + [len(name) + 2 for name in missing_fields])
        new_field_lines = [field_line(name, values[name], indent, width) for name in missing_fields]
    examples = header.fields.get("Examples")
    example_items = [f"{indent}  {e}" for e in facts.examples(help_added=help_added)] \
        if "Examples" in header.missing or examples is not None and not header.examples else []
    examples_block = [f"{indent}Examples:"] + example_items if examples is None and example_items else []
    # existing fields that agents see now (within line 25) must stay there
    existing = [index(f.line) for f in header.fields.values() if f.line <= HEAD_LINES]
    if new_field_lines or examples_block:
        placed = False
        if present:
            last_field = max(present, key=lambda f: f.line)
            at = _section_end(lines, index(last_field.line), protected)
            spans_lines = at - index(last_field.line) > 1  # a section of several lines (a list, a block)
            lead = [""] if spans_lines and new_field_lines or not new_field_lines and lines[at - 1].strip() else []
            placed = _place(lines, at, lead, new_field_lines, examples_block, inserts, first_line, protected, existing)
        elif examples is not None:
            placed = _place(lines, index(examples.line), [], new_field_lines, [], inserts, first_line, protected,
                            existing, paragraph=True)
        if not placed and not present and examples is None and _end(lines) not in protected:
            # a docstring of prose only: the fields follow it, when they still fit in the first 25 lines
            placed = _place(lines, _end(lines), [], new_field_lines, examples_block, inserts, first_line, protected,
                            existing, paragraph=True, whole=True)
        if not placed:
            at = _paragraph_end(lines, index(header.description_line) if header.description_line else 0, protected)
            _place(lines, at, [], new_field_lines, examples_block, inserts, first_line, protected, existing,
                   paragraph=True)
    if examples is not None and not header.examples and example_items:
        at = index(examples.line) + 1
        if first_line + at <= HEAD_LINES + len(example_items):
            inserts.setdefault(at, []).extend(example_items)

    if not inserts and not replace:
        return literal
    if "r" not in prefix.lower():
        # new text says what it says: a backslash in it is a backslash, not an escape
        inserts = {k: [ln.replace("\\", "\\\\") for ln in v] for k, v in inserts.items()}
        replace = {k: _escape_new(lines[k], v) for k, v in replace.items()}
    out: list[str] = []
    origin: list[int | None] = []  # the raw line each output line was, None for a new one
    for i, line in enumerate(lines):
        out.extend(inserts.get(i, []))
        origin.extend([None] * len(inserts.get(i, [])))
        out.append(replace.get(i, line))
        origin.append(i)
    out.extend(inserts.get(len(lines), []))
    origin.extend([None] * len(inserts.get(len(lines), [])))
    for k, line in enumerate(out):
        if first_line + k > HEAD_LINES and _is_field(line) and (origin[k] is None or origin[k] in existing):
            return literal  # a field would start past line 25: write nothing rather than that

    if inserts and _end(lines) == len(lines):  # the closing quotes shared the last text line
        out.append(indent)
    text = "\n".join(out)
    if "\n" in text and len(quote) == 1:
        quote = quote * 3
    if quote in text or text.endswith(quote[0]) or text.endswith("\\"):
        return None
    return f"{prefix}{quote}{text}{quote}"


def _escape_new(old: str, new: str) -> str:
    """*new*, which replaces the raw line *old*, with the backslashes of what it adds escaped."""
    same = 0
    while same < min(len(old), len(new)) and old[same] == new[same]:
        same += 1
    return new[:same] + new[same:].replace("\\", "\\\\")


def _extend_exit(lines, at, exit_field, missing, replace, inserts, documented) -> None:
    """Add (code, meaning) pairs to the Exit field in the style it is written in."""
    items = [i for i in exit_field.items if i.strip()]
    if items and not exit_field.value_line:
        # one code per line: copy the last line's layout (``    2 - usage``)
        last_at = at + len(exit_field.items)
        while last_at > at and not lines[last_at].strip():
            last_at -= 1
        sample = lines[last_at]
        m = re.match(r"^(\s*\W*?)(\d{1,3})(\s*(?:[-=:\u2013\u2014>]+\s*|\s+))(.*?)([.;,]?)\s*$", sample)
        if m is None:
            return
        new = [f"{m.group(1)}{code}{m.group(3)}{text}{m.group(5)}" for code, text in missing]
        inserts.setdefault(last_at + 1, []).extend(new)
        return
    last = at + len(exit_field.items)
    text = replace.get(last, lines[last]).rstrip()
    addition = ", ".join(f"{c} {t}" for c, t in missing)
    if text.endswith(FULL_STOPS):
        replace[last] = f"{text[:-1]}, {addition}."
    elif text.endswith(":"):
        replace[last] = f"{text} {addition}"
    else:
        replace[last] = f"{text}, {addition}" if documented else f"{text} {addition}"


def _place(lines, at, lead, fields, examples_block, inserts, first_line, protected, existing,
           paragraph: bool = False, whole: bool = False) -> bool:
    """Insert *fields* (and the *examples_block* after them) before raw line *at*, when it fits.

    It fits when every new field starts within line 25 and no field already within line 25
    (raw indexes *existing*) is pushed past it. Else the Examples block, then fields from the
    last, are left out until it fits; False when nothing fits. With *whole*, all of it fits
    or nothing is inserted.
    """
    if at in protected:
        return False
    before = sum(len(v) for k, v in inserts.items() if k <= at)
    variants = []
    for keep_examples in ((True, False) if examples_block else (False,)):
        for n in range(len(fields), -1, -1):
            if n == 0 and not keep_examples:
                break
            variants.append((fields[:n], examples_block if keep_examples else []))
    if whole:
        variants = variants[:1]
    for kept, shown in variants:
        block = lead + kept + ([""] if kept and shown else []) + shown
        if paragraph:
            # a paragraph of its own: blank lines around it unless there are some
            block = ([""] if at > 0 and lines[at - 1].strip() else []) + block + (
                [""] if at < len(lines) and lines[at].strip() else [])
        starts = [first_line + at + before + k for k, line in enumerate(block) if _is_field(line)]
        pushed = [first_line + r + sum(len(v) for k, v in inserts.items() if k <= r) + (len(block) if at <= r else 0)
                  for r in existing]
        if all(start <= HEAD_LINES for start in starts) and all(line <= HEAD_LINES for line in pushed):
            inserts.setdefault(at, []).extend(block)
            return True
    return False


def _section_end(lines: list[str], start: int, protected: set[int]) -> int:
    """The raw line index right after the section that starts at *start* (a blank line, the next field, the end)."""
    j = start + 1
    while j < len(lines):
        if j not in protected and (not lines[j].strip() or _is_field(lines[j])):
            break
        j += 1
    return min(j, _end(lines))


def _paragraph_end(lines: list[str], start: int, protected: set[int]) -> int:
    """The index of the blank line after the paragraph at *start* (or the end), where a new paragraph goes."""
    j = start + 1
    while j < len(lines) and (j in protected or lines[j].strip()):
        j += 1
    if j < _end(lines):
        return j + 1  # after the blank line
    return _end(lines)


def _code_lines(lines: list[str]) -> set[int]:
    """Raw line indexes inside code examples: fenced blocks, doctest blocks, ``::`` literal blocks."""
    protected: set[int] = set()
    fence = None
    literal_indent = None
    for i, line in enumerate(lines):
        stripped = line.strip()
        if fence is not None:
            protected.add(i)
            if stripped.startswith(fence):
                fence = None
            continue
        if stripped.startswith(("```", "~~~")):
            fence = stripped[:3]
            protected.add(i)
            continue
        if stripped.startswith(">>>") or (stripped and i - 1 in protected and lines[i - 1].strip().startswith(
                (">>>", "..."))):
            protected.add(i)
            continue
        if literal_indent is not None:
            width = len(line) - len(line.lstrip())
            if not stripped or width > literal_indent:
                protected.add(i)
                continue
            literal_indent = None
        if stripped.endswith("::"):
            literal_indent = len(line) - len(line.lstrip())
    return protected


def _end(lines: list[str]) -> int:
    """Index before which text is appended: before the closing quotes' own line, if any."""
    if len(lines) > 1 and not lines[-1].strip():
        return len(lines) - 1
    return len(lines)


def _is_field(line: str) -> bool:
    return bool(parse_block([line], 1, "docstring").fields)
