"""What each shell fix would write, and whether that is safe: one answer for ``check`` and ``fix``.

A plan is computed from a script's :class:`~skillsmith.lang.shell_layout.Layout` and its
:class:`~skillsmith.lang.shell_evidence.ShellEvidence`. The shell rules call a plan to mark
each finding's fix (``safe``, ``unsafe``, or none, with what a person must do), and the
``codemods/sh_*`` call the same plan for the edits they return, so ``check`` marks ``[*]``
exactly what ``fix`` changes.

Changes are ``(start, end, text)`` byte ranges of the script (``start == end`` inserts);
codemods turn them into :class:`skillsmith.fix.edits.Edit`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Callable, NamedTuple

from skillsmith.lang import shell, shell_safety
from skillsmith.lang.header import (
    FIELDS,
    FULL_STOPS,
    HEAD_LINES,
    describes,
    is_field_line,
)
from skillsmith.lang.shell_evidence import LABELS, ShellEvidence, Value
from skillsmith.lang.shell_layout import Layout

CRLF = "its lines end in CRLF, and bash reads the CR as part of every command: convert it to LF line ends first"
HEADER_RULES = ("CON004", "CON005", "CON006", "CON007", "CON010")


class Change(NamedTuple):
    start: int
    end: int
    text: bytes


@dataclass(frozen=True)
class Answer:
    """A finding's fix: ``safe``, ``unsafe`` or None, and why it is not safe (or what a person must add)."""

    fix: str | None
    why: str = ""


SAFE = Answer("safe")


def all_rules(_rule: str) -> bool:
    return True


def unparsed(layout: Layout) -> str:
    """Why the whole script cannot be analysed: where tree-sitter could not parse it."""
    start = layout.errors[0][0] if layout.errors else 0
    return f"part of the script does not parse (line {layout.line_of(start)}), so nothing can prove"


# -- the header ---------------------------------------------------------------------------------


@dataclass
class HeaderPlan:
    changes: list[Change] = field(default_factory=list)
    answers: dict[str, Answer] = field(default_factory=dict)  # CON004-CON007
    exit_answers: dict[int, Answer] = field(default_factory=dict)  # CON010, per undocumented code
    creates: bool = False  # a header block exists after the fix


def field_lines(names: list[str], values: dict[str, Value], padded: bool) -> list[str]:
    """The comment lines of fields *names* (the Examples field gets a blank comment line before it)."""
    lines: list[str] = []
    for name in names:
        if name == "Examples":
            if lines:
                lines.append("#")
            lines.append(f"# {LABELS[name].rstrip()}")
            lines += [f"#   {ex}" for ex in values[name].text.splitlines()]
        else:
            label = LABELS[name] if padded else f"{name}: "
            lines.append(f"# {label}{values[name].text}")
    return lines


def _input_without_usage(values: dict[str, Value], has_usage: bool) -> None:
    """``Input: arguments as in Usage`` only where there is a Usage line to point to."""
    value = values.get("Input")
    if value is not None and value.text and not has_usage:
        values["Input"] = Value(value.text.replace("arguments as in Usage", "command-line arguments"))


def misplaced_block(layout: Layout) -> tuple[int, int] | None:
    """(first blank line, first comment line) when only blank lines part the shebang from a header-like block."""
    first = 2 if layout.shebang is not None else 1
    line = first
    while layout.blank(line) and line < len(layout.lines):
        line += 1
    if line == first or line > len(layout.lines) or line > 10:
        return None
    return (first, line) if _header_like_block(layout, line) else None


#: shell options set before anything else: ``set -euo pipefail``, ``shopt -s nullglob``
_OPTION_LINE = re.compile(r"^\s*(?:set|shopt)\s+[-+]\S*(?:\s+\S+)*\s*$")


def block_after_options(layout: Layout) -> tuple[int, int] | None:
    """(line of the first option, first comment line) when only ``set``/``shopt`` lines (and blank
    lines) part the shebang from a header-like block: the author's header, written one line late."""
    line = 2 if layout.shebang is not None else 1
    options = None
    while line <= min(len(layout.lines), 10) and (layout.blank(line) or _OPTION_LINE.match(layout.lines[line - 1])):
        if options is None and not layout.blank(line):
            options = line
        line += 1
    if options is None or line > len(layout.lines) or line > 10:
        return None
    return (options, line) if _header_like_block(layout, line) else None


def late_block(layout: Layout) -> tuple[int, int] | None:
    """(first, last line) of the header-like comment block that only ``set``/``shopt`` lines part
    from the shebang (:func:`block_after_options`), or None."""
    found = block_after_options(layout)
    return None if found is None else (found[1], _comment_block_end(layout, found[1]) - 1)


def _comment_block_end(layout: Layout, line: int) -> int:
    """The first line after the comment block that starts at *line* (a ``#!`` line ends it)."""
    end = line
    while end <= len(layout.lines) and layout.lines[end - 1].lstrip().startswith("#") \
            and not layout.lines[end - 1].lstrip().startswith("#!"):
        end += 1
    return end


def _header_like_block(layout: Layout, line: int) -> bool:
    """Whether the comment block at *line* reads as a header: it ends at a blank line (a comment
    right above code is about that code) and holds a sentence or a header field."""
    end = _comment_block_end(layout, line)
    if end == line or end <= len(layout.lines) and not layout.blank(end):
        return False
    block = [re.sub(r"^\s*#+\s?", "", ln) for ln in layout.lines[line - 1:end - 1]]
    prose = any(describes(t) and len(t.split()) >= 3 and re.search(r"[a-z]", t) for t in block)
    return prose or any(is_field_line(t) for t in block)


def plan_header(layout: Layout, ev: ShellEvidence, want: Callable[[str], bool] = all_rules,
                exit_lines: set[int] | None = None, has_help: bool | None = None,
                sourced_by: tuple[str, ...] = ()) -> HeaderPlan:
    """The header fix of one script: a new block, the author's block moved up, or the author's block completed.

    *want* says which header rules' findings are to be answered; *exit_lines* the lines of
    the CON010 findings to answer (None: all). A file other scripts source (*sourced_by*) is
    not run: it gets no Usage, Exit or Examples of a script, only the period of its description.
    """
    if has_help is None:
        has_help = shell.has_help_branch(layout.root, layout.data)
    if sourced_by:
        return _sourced_header(layout, ev, want, sourced_by)
    if layout.header is not None:
        return _complete(layout, ev, want, exit_lines, has_help)
    plan = HeaderPlan()
    moved = misplaced_block(layout)
    if moved is not None:
        first, line = moved
        if not want("CON004"):
            plan.answers["CON004"] = Answer(None, "")
            return plan
        start, cut = layout.starts[first - 1], layout.starts[line - 1]
        data = layout.data[:start] + layout.data[cut:]
        inner_tree = shell.parse(data)
        if inner_tree is None:
            plan.answers["CON004"] = Answer(None, f"the shell parser gave up on it ({shell.GAVE_UP})")
            return plan
        inner_layout = Layout(data, inner_tree)
        inner = _complete(inner_layout, ShellEvidence(inner_layout, ev.name, ev.invocations), all_rules, None, has_help)
        from_inner = apply_changes(data, inner.changes)
        block_end = layout.after_line(_block_end(layout, line))
        tail = layout.data[block_end:]
        if not from_inner.endswith(tail):
            from_inner = data
        plan.changes.append(Change(start, block_end, from_inner[start:len(from_inner) - len(tail)]))
        plan.answers["CON004"] = SAFE
        plan.creates = True
        return plan
    if not want("CON004"):
        return plan
    desc = ev.description
    if desc.text is None:
        found = [n for n in FIELDS if ev.value(n, has_help).text]
        hint = f" (Usage, Exit and the others can then be filled from the code: {', '.join(found)})" if found else ""
        plan.answers["CON004"] = Answer(None, f"{desc.why} as its first comment line{hint}")
        return plan
    values = {n: ev.value(n, has_help) for n in FIELDS}
    names = [n for n in FIELDS if values[n].text]
    _input_without_usage(values, "Usage" in names)
    first_line = 2  # the line after the shebang (CON001 adds one where it is missing)
    while names:
        lines = [f"# {desc.text}", "#"] + field_lines(names, values, True)
        if _fits(lines, first_line):
            break
        names.pop()
    lines = [f"# {desc.text}"] + (["#"] + field_lines(names, values, True) if names else [])
    at = layout.header_end
    if not layout.free(at, at):
        plan.answers["CON004"] = Answer(None, "the top of the script could not be edited")
        return plan
    plan.changes.append(Change(at, at, layout.block(lines, at)))
    plan.answers["CON004"] = SAFE
    plan.creates = True
    return plan


def _sourced_header(layout: Layout, ev: ShellEvidence, want, sourced_by: tuple[str, ...]) -> HeaderPlan:
    why = sourced(sourced_by) + ": it is not run, so it has no usage, exit codes or examples of its own"
    plan = HeaderPlan(creates=layout.header is not None)
    for rule in ("CON004", "CON006", "CON007"):
        plan.answers[rule] = Answer(None, why)
    h = layout.header
    if h is not None and h.description and not h.description.endswith(FULL_STOPS) and want("CON005") \
            and not _continues(layout, h.description_line) and re.search(r"[a-z]", h.description):
        end = layout.line_end(h.description_line)
        plan.changes.append(Change(end, end, b"."))
        plan.answers["CON005"] = SAFE
    for code, _node in ev.exits:
        if code is not None:
            plan.exit_answers.setdefault(code, Answer(None, why))
    return plan


def _block_end(layout: Layout, line: int) -> int:
    end = line
    while end < len(layout.lines) and layout.lines[end].lstrip().startswith("#"):
        end += 1
    return end


def _fits(lines: list[str], first_line: int) -> bool:
    """Whether every field line of *lines*, inserted from *first_line*, starts within the first 25 lines."""
    for offset, text in enumerate(lines):
        if re.match(r"^#\s*(Usage|Input|Output|Stderr|Exit|Examples):", text) and first_line + offset > HEAD_LINES:
            return False
    return True


def apply_changes(data: bytes, changes: list[Change]) -> bytes:
    out = data
    for c in sorted(changes, key=lambda c: (c.start, c.end), reverse=True):
        out = out[:c.start] + c.text + out[c.end:]
    return out


def _complete(layout: Layout, ev: ShellEvidence, want, exit_lines, has_help: bool) -> HeaderPlan:
    """The author's header, completed: description, missing fields, examples, exit codes."""
    h = layout.header
    plan = HeaderPlan(creates=True)
    owned = (layout.starts[h.start_line - 1], layout.after_line(h.end_line))
    gaps = [re.match(r"^\s*#\s*[\w ]+:(\s*)", layout.lines[f.line - 1]) for n, f in h.fields.items() if n != "Examples"]
    padded = not (gaps and all(m is not None and len(m.group(1)) <= 1 for m in gaps))
    inserts: list[tuple[int, list[str]]] = []  # (after 1-based line, lines)

    # the description
    if want("CON005"):
        if not h.description:
            desc = ev.description
            if desc.text is None:
                plan.answers["CON005"] = Answer(None, desc.why)
            else:
                lines = [f"# {desc.text}"] + ([] if layout.blank_comment(h.start_line) else ["#"])
                inserts.append((h.start_line - 1, lines))
                plan.answers["CON005"] = SAFE
        elif not h.description.endswith(FULL_STOPS):
            if _continues(layout, h.description_line) or not re.search(r"[a-z]", h.description):
                plan.answers["CON005"] = Answer(None, "make the first line one sentence ending in a period")
            else:
                end = layout.line_end(h.description_line)
                if layout.free(end, end, owned):
                    plan.changes.append(Change(end, end, b"."))
                    plan.answers["CON005"] = SAFE
                else:
                    plan.answers["CON005"] = Answer(None, "the description line could not be edited")

    # missing fields, each after the section of the field before it in the contract's order
    missing = h.missing
    if missing and want("CON006"):
        values = {n: ev.value(n, has_help) for n in missing}
        _input_without_usage(values, "Usage" in h.fields or bool(values.get("Usage") and values["Usage"].text))
        groups: dict[int, list[str]] = {}
        for name in missing:
            if values[name].text:
                groups.setdefault(_insertion_line(layout, h, name), []).append(name)
        written: list[str] = []
        for after, names in sorted(groups.items()):
            shift = sum(len(lines) for line, lines in inserts if line <= after)
            while names:
                lines = field_lines(names, values, padded)
                if not layout.blank_comment(after) and (names[0] == "Examples" or not _in_section(layout, h, after)):
                    lines = ["#"] + lines
                if _fits(lines, after + 1 + shift):
                    break
                names.pop()
            if names:
                inserts.append((after, lines))
                written += names
        for n in missing:
            if values[n].text and n not in written:
                values[n] = Value(None, f"no room for it within the first {HEAD_LINES} lines")
        left = "; ".join(f"{n}: {values[n].why}" for n in missing if n not in written)
        plan.answers["CON006"] = Answer("safe" if written else None, left)

    # an Examples field without examples
    ex = h.fields.get("Examples")
    if ex is not None and not h.examples and want("CON007"):
        value = ev.examples(has_help)
        if value.text is None:
            plan.answers["CON007"] = Answer(None, value.why)
        else:
            inserts.append((ex.line, [f"#   {e}" for e in value.text.splitlines()]))
            plan.answers["CON007"] = SAFE

    # exit codes the Exit: line does not document
    documented = h.exit_codes
    if documented is not None:
        codes: dict[int, int] = {}
        for code, node in ev.exits:
            if code is not None and code not in documented:
                codes.setdefault(code, node.start_point[0] + 1)
        lines_for = {}
        for code, node in ev.exits:
            if code is not None:
                lines_for.setdefault(code, set()).add(node.start_point[0] + 1)
        add = []
        for code in sorted(codes):
            if exit_lines is not None and not (lines_for[code] & exit_lines):
                continue
            meaning = ev.exit_meanings.get(code)
            if meaning is None or meaning.text is None:
                plan.exit_answers[code] = Answer(None, (meaning.why if meaning else f"say what exit {code} means"))
                continue
            add.append((code, meaning.text))
            plan.exit_answers[code] = SAFE
        if add:
            change = _exit_addition(layout, h, add, owned)
            if change is None:
                for code, _ in add:
                    plan.exit_answers[code] = Answer(None, "the Exit: line could not be edited")
            else:
                plan.changes.append(change)

    while inserts and _pushes_fields_down(h, inserts):
        line, lines = inserts.pop()  # the last group would move an author's field past line 25
        for rule in [r for r, a in plan.answers.items() if a.fix == "safe" and _group_answers(r, lines)]:
            plan.answers[rule] = Answer(None, f"no room for it within the first {HEAD_LINES} lines")
    for line, lines in inserts:
        at = layout.after_line(line) if line >= 1 else layout.starts[0]
        if layout.free(at, at, owned):
            plan.changes.append(Change(at, at, layout.block(lines, at)))
    return plan


def _pushes_fields_down(h, inserts: list[tuple[int, list[str]]]) -> bool:
    """Whether the inserted lines move a field that starts within the first 25 lines past them."""
    for f in h.fields.values():
        if f.line <= HEAD_LINES:
            moved = f.line + sum(len(lines) for after, lines in inserts if after < f.line)
            if moved > HEAD_LINES:
                return True
    return False


def _group_answers(rule: str, lines: list[str]) -> bool:
    """Whether an inserted group of lines was written for *rule*."""
    fields = any(re.match(r"^#\s*(Usage|Input|Output|Stderr|Exit|Examples):", ln) for ln in lines)
    return rule == "CON006" and fields or rule == "CON005" and not fields or rule == "CON007" and not fields


def section_end(layout: Layout, h, name: str) -> int:
    """The last line of field *name*'s section: its line and the lines up to a blank one or the next field."""
    line = h.fields[name].line
    starts = {f.line for f in h.fields.values()}
    while line < h.end_line and line + 1 not in starts and not layout.blank_comment(line + 1):
        line += 1
    return line


def _in_section(layout: Layout, h, line: int) -> bool:
    return any(f.line <= line <= section_end(layout, h, n) for n, f in h.fields.items())


def _insertion_line(layout: Layout, h, name: str) -> int:
    """After which line a missing field goes: the section of the field before it, else before the first one after it."""
    if name != "Examples":
        before = [n for n in FIELDS[:FIELDS.index(name)] if n in h.fields and n != "Examples"]
        if before:
            return section_end(layout, h, before[-1])
        after = [(h.fields[n].line, n) for n in FIELDS[FIELDS.index(name) + 1:] if n in h.fields]
        if after:
            line, first = min(after)
            return line - 2 if first == "Examples" and layout.blank_comment(line - 1) else line - 1
    last = h.end_line
    while last > h.start_line and (layout.blank_comment(last) or _banner(layout, last)):
        last -= 1  # blank comment lines and a closing ##### rule stay the block's end
    return last


def _banner(layout: Layout, line: int) -> bool:
    return not re.search(r"[A-Za-z0-9]", layout.lines[line - 1])


def _exit_addition(layout: Layout, h, add: list[tuple[int, str]], owned) -> Change | None:
    """Append codes to the Exit field, in its own style: a list item per code, or ``, N meaning``."""
    f = h.fields["Exit"]
    last = f.line + len(f.items)
    items = [layout.lines[f.line + i] for i in range(len(f.items))]
    item = next((ln for ln in reversed(items) if re.match(r"^\s*#\s+\d{1,3}\b", ln)), None)
    if item is not None:
        m = re.match(r"^(\s*#\s+)\d{1,3}(\s*(?:=|:|-+|–|\)|\s)\s*)", item)
        if m:
            lines = [f"{m.group(1)}{code}{m.group(2)}{meaning}" for code, meaning in add]
            at = layout.after_line(last)
            return Change(at, at, layout.block(lines, at)) if layout.free(at, at, owned) else None
    end = layout.line_end(last)
    if not layout.free(end, end, owned):
        return None
    text = ", ".join(f"{c} {m}" for c, m in add)
    sep = " " if layout.lines[last - 1].rstrip().endswith(":") else ", "
    return Change(end, end, (sep + text).encode())


def _continues(layout: Layout, line: int) -> bool:
    """Whether the description goes on over the next comment line (then it is left alone)."""
    if line >= len(layout.lines):
        return False
    nxt = layout.lines[line].strip()
    body = re.sub(r"^#\s?", "", nxt)
    return nxt.startswith("#") and body.strip() != "" and not is_field_line(body)


# -- the help branch --------------------------------------------------------------------------------


def sourced(sourced_by: tuple[str, ...]) -> str:
    """Why code at the top of a file other scripts source changes them too."""
    shown = ", ".join(sourced_by[:2]) + (", ..." if len(sourced_by) > 2 else "")
    return f"{shown} source{'s' if len(sourced_by) == 1 else ''} this file, so its top-level code runs in their shells"


def plan_help(layout: Layout, header_after_fix: bool, nodes: list | None = None, sourced_by: tuple[str, ...] = ()) -> Answer:
    """Whether a ``-h|--help`` branch that prints the header keeps the script's behaviour (but for --help)."""
    if layout.crlf:
        return Answer(None, CRLF)
    if sourced_by:
        return Answer(None, sourced(sourced_by) + ": a help branch there would answer their --help")
    if not header_after_fix:
        return Answer(None, "write the header block first: the help branch prints it")
    if layout.root.has_error:
        return Answer("unsafe", unparsed(layout) + " whether --help reaches another program")
    hazard = shell_safety.forwards_arguments(layout.root, layout.data, nodes) or \
        shell_safety.sources_code(layout.root, layout.data, nodes) or \
        shell_safety.own_usage(layout.root, layout.data, nodes)
    if hazard is not None:
        return Answer("unsafe", hazard.why)
    return SAFE


# -- strict mode ----------------------------------------------------------------------------------


@dataclass
class StrictPlan:
    missing: list[str]  # options the rule asks for that are off
    safe: list[str]  # what the safe fix turns on
    unsafe: list[str]  # what only --unsafe-fixes turns on
    why: list[str]  # why each unsafe option changes behaviour
    blocked: str = ""  # why nothing can be turned on (CRLF)

    @property
    def answer(self) -> Answer:
        if self.blocked:
            return Answer(None, self.blocked)
        if self.safe:
            return Answer("safe", "; ".join(self.why))
        if self.unsafe:
            return Answer("unsafe", "; ".join(self.why))
        return Answer(None)


def plan_strict(layout: Layout, nodes: list | None = None, sourced_by: tuple[str, ...] = ()) -> StrictPlan:
    on = shell.set_options(layout.root, layout.data)
    need = ["nounset"] if layout.posix_sh else ["nounset", "pipefail"]
    missing = [o for o in need if o not in on]
    plan = StrictPlan(missing, [], [], [])
    if not missing:
        return plan
    if layout.crlf:
        plan.blocked = CRLF
        return plan
    if sourced_by:
        plan.unsafe = list(missing)
        plan.why.append(sourced(sourced_by) + ": set would change their options too")
        return plan
    if layout.root.has_error:
        plan.unsafe = list(missing)
        plan.why.append(unparsed(layout) + " whether strict mode changes what it does")
        return plan
    hazard = shell_safety.sources_code(layout.root, layout.data, nodes)
    if hazard is not None:
        plan.unsafe = list(missing)
        plan.why.append(f"it sources {hazard.what} (line {hazard.line}), whose code would run under these options too, "
                        "unseen by this check")
        return plan
    if "nounset" in missing:
        unset = shell_safety.nounset_hazards(layout.root, layout.data, nodes)
        if unset:
            shown = ", ".join(f"${n} (line {line})" for n, line in unset[:3])
            plan.unsafe.append("nounset")
            default = "give each a default (${x:-})" if len(unset) > 1 else f"give it a default (${{{unset[0][0]}:-}})"
            plan.why.append(f"set -u would stop it where it reads {shown} unset: {default} first")
        else:
            plan.safe.append("nounset")
    if "pipefail" in missing:
        hazards = shell_safety.pipefail_hazards(layout.root, layout.data, layout.shebang, nodes)
        if hazards:
            plan.unsafe.append("pipefail")
            plan.why.append("pipefail would change " + hazards[0].why
                            + (f" (and {len(hazards) - 1} more)" if len(hazards) > 1 else ""))
        else:
            plan.safe.append("pipefail")
    return plan


# -- exit constants -------------------------------------------------------------------------------


@dataclass
class ExitLiteral:
    code: int
    node: object  # the argument node
    line: int
    name: Value  # the constant's name, or why there is none
    answer: Answer


def plan_constants(layout: Layout, ev: ShellEvidence, sourced_by: tuple[str, ...] = ()) -> list[ExitLiteral]:
    """Each literal ``exit N`` (N != 0) with the constant it would get, and whether naming it is safe."""
    found = []
    risk = shell_safety.collision_risk(layout.root, layout.data, ev.nodes)
    if sourced_by:
        risk = shell_safety.Hazard(0, sourced(sourced_by) + ": a readonly there may clash with their own names")
    if risk is None and layout.root.has_error:
        risk = shell_safety.Hazard(0, unparsed(layout) + " whether it assigns the same name elsewhere")
    assigned = {name for name in shell.assigned_names(layout.root, layout.data, ev.nodes)}
    early = prologue_constants(layout)
    for cmd in shell.commands(layout.root, layout.data, ev.nodes):
        if cmd.name != "exit" or not cmd.args:
            continue
        arg = cmd.args[0]
        raw = shell.text(arg, layout.data)
        if not (arg.type == "number" or arg.type == "word" and raw.isdigit()) or int(raw) == 0:
            continue
        code = int(raw)
        line = cmd.node.start_point[0] + 1
        reuse = next((n for n, v in early.items() if v == code and n.startswith("EXIT_")), None)
        name = Value(reuse) if reuse else ev.constant_for(code)
        if layout.crlf:
            answer = Answer(None, CRLF)
        elif name.text is None:
            answer = Answer(None, name.why)
        elif not reuse and name.text in assigned:
            answer = Answer(None, f"{name.text} is assigned elsewhere in the script; name exit {code} yourself")
        elif not layout.free(arg.start_byte, arg.end_byte):
            answer = Answer(None, "this exit could not be edited")
        elif risk is not None and not reuse:
            answer = Answer("unsafe", risk.why)
        else:
            answer = SAFE
        found.append(ExitLiteral(code, arg, line, name, answer))
    return found


#: top-level nodes that only define things; the prologue is the run of them at the top
_DEFINITIONS = {"comment", "variable_assignment", "declaration_command", "function_definition"}


def prologue_nodes(layout: Layout) -> list:
    nodes = []
    for node in layout.root.children:
        if node.type in _DEFINITIONS or (node.type == "command" and layout.command_name(node) in ("set", "shopt")):
            nodes.append(node)
            continue
        break
    return nodes


def prologue_constants(layout: Layout) -> dict[str, int]:
    """Integer constants assigned at top level before any other command runs."""
    found: dict[str, int] = {}
    for node in prologue_nodes(layout):
        if node.type in ("variable_assignment", "declaration_command"):
            for name, value in shell.constants(node, layout.data).items():
                found.setdefault(name, value)
    return found


def header_plan_of(ev: ShellEvidence, sourced_by: tuple[str, ...] = ()) -> HeaderPlan:
    """:func:`plan_header` for every header rule, computed once per script (the rules ask it several times)."""
    plan = ev.__dict__.get("_header_plan")
    if plan is None:
        plan = ev.__dict__["_header_plan"] = plan_header(ev.layout, ev, sourced_by=sourced_by)
    return plan
