"""Whether a shell fix keeps what the script does, and why not when it does not.

A fix is safe only when the script behaves the same for every input afterwards. These are
the questions the shell rules ask to mark a finding's fix ``safe``, ``unsafe`` or absent, and
the shell codemods ask before they edit, so ``check`` and ``fix`` give the same answer:

- :func:`pipefail_hazards`: pipelines whose exit status the script uses and that can fail
  in a stage other than the last (a reader that stops early, ``grep -q`` or ``head``, makes
  the writer before it fail): ``set -o pipefail`` changes their status.
- :func:`nounset_hazards`: variables the script may read before anything assigned them:
  ``set -u`` stops the script there.
- :func:`collision_risk`: whether the script runs code that may assign any name (``source``,
  ``eval``), so that a new ``readonly`` constant may make that assignment fail.
- :func:`forwards_arguments` and :func:`own_usage`: a script whose ``--help`` reaches another
  program, or that prints its own usage text, gets no generated help branch.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from skillsmith.lang import shell

#: builtins that only write their arguments: they fail only when the reader leaves early (SIGPIPE)
WRITERS = frozenset({"echo", "printf", "true", ":"})
#: commands that read their whole input (unless an option below makes them stop early)
READ_ALL = frozenset(
    "cat sort uniq wc tr cut tee jq yq base64 xxd od column fmt fold rev nl paste tail gzip gunzip "
    "zcat bzip2 xz md5sum sha1sum sha256sum sha512sum shasum cksum xargs expand unexpand iconv "
    "sed awk gawk mawk nawk grep egrep fgrep rg tac dos2unix".split()
)
_GREP = {"grep", "egrep", "fgrep", "rg"}
_GREP_EARLY_LONG = {"--quiet", "--silent", "--max-count", "--files-with-matches", "--files-without-match"}
_AWK = {"awk", "gawk", "mawk", "nawk"}
_SED_QUIT = re.compile(r"(?:^|[;\n{}/]|\d|\$)\s*[qQ]\s*\d*\s*(?:$|[;}\n])")
#: blocks whose statements run in order; the last one's status is the block's status
_BLOCKS = {"program", "compound_statement", "do_group", "subshell", "else_clause", "case_item"}
_CONDITIONAL = {"if_statement", "elif_clause", "while_statement", "until_statement"}


@dataclass(frozen=True)
class Hazard:
    """One place where a fix would change what the script does."""

    line: int  # 1-based
    why: str  # one clause, for a finding's message
    what: str = ""  # the code it is about, shortened


# -- pipefail -----------------------------------------------------------------------------------


def errexit(root, data: bytes, shebang: str | None = None) -> bool:
    """Whether a failing command can stop the script: ``set -e`` anywhere, ``bash -e`` in the shebang, an ERR trap."""
    if "errexit" in shell.set_options(root, data, top_level_only=False):
        return True
    if shebang and re.search(r"\s-[a-zA-Z]*e", shebang):
        return True
    for cmd in shell.commands(root, data):
        if cmd.name == "trap" and any(a in ("ERR", "SIGERR") for a in cmd.arg_texts(data)):
            return True
    return False


def pipeline_stages(node) -> list:
    """The stages of a pipeline node, in order (a heredoc's ``cat <<EOF | head`` included)."""
    if node.type == "pipeline":
        return [c for c in node.named_children if c.type != "comment"]
    if node.type == "redirected_statement":
        for redirect in node.children_by_field_name("redirect"):
            if redirect.type == "heredoc_redirect":
                inner = next((c for c in redirect.named_children if c.type == "pipeline"), None)
                if inner is not None:
                    body = node.child_by_field_name("body")
                    return ([body] if body is not None else []) + pipeline_stages(inner)
    return []


def stops_early(stage, data: bytes) -> bool:
    """Whether a pipeline stage may exit before it has read all of its input."""
    if stage.type == "redirected_statement":
        body = stage.child_by_field_name("body")
        return stops_early(body, data) if body is not None else True
    if stage.type in ("while_statement", "until_statement"):
        body = stage.child_by_field_name("body")
        text = shell.text(body, data) if body is not None else ""
        return bool(re.search(r"\b(break|exit|return)\b", text))
    if stage.type != "command":
        return True  # a subshell, a group, a function call: anything may happen
    name_node = stage.child_by_field_name("name")
    if name_node is None:
        return True
    name = shell.text(name_node, data)
    args = [shell.unquote(shell.text(a, data)) for a in stage.children_by_field_name("argument")]
    if name in ("head", "read", "mapfile", "readarray", "less", "more"):
        return name in ("head", "read", "less", "more")
    if name in _GREP:
        for a in args:
            if a.startswith("--"):
                if a.split("=", 1)[0] in _GREP_EARLY_LONG:
                    return True
            elif a.startswith("-") and re.search(r"[qmlL]", a[1:]):
                return True
        return False
    if name in _AWK:
        return any(re.search(r"\bexit\b", a) for a in args)
    if name == "sed":
        return any(_SED_QUIT.search(a) for a in args if not a.startswith("-"))
    if name == "sort":
        return any(a in ("-c", "-C", "--check") for a in args)
    return name not in READ_ALL


def can_fail(stage, data: bytes, reader_stops_early: bool) -> bool:
    """Whether a stage that is not the last may exit non-zero."""
    if stage.type == "redirected_statement":
        body = stage.child_by_field_name("body")
        if body is not None and body.type == "command" and _name(body, data) == "cat" and not body.children_by_field_name("argument"):
            return reader_stops_early  # `cat <<EOF`: writes its heredoc
        return True
    if stage.type == "command" and _name(stage, data) in WRITERS:
        return reader_stops_early
    return True


def _name(node, data: bytes) -> str | None:
    name = node.child_by_field_name("name")
    return shell.text(name, data) if name is not None else None


def _next_statement(node):
    sib = node.next_named_sibling
    while sib is not None and sib.type in ("comment", "heredoc_body"):
        sib = sib.next_named_sibling
    return sib


def _reads_status(node, data: bytes) -> bool:
    """Whether statement *node* reads ``$?`` (or is a bare ``exit``/``return``, which returns it)."""
    if node is None:
        return False
    if node.type == "command" and _name(node, data) in ("exit", "return") and not node.children_by_field_name("argument"):
        return True
    return "$?" in shell.text(node, data) or "${?}" in shell.text(node, data)


def _in_condition(node, parent) -> bool:
    """Whether *node* is in the condition part of an if/elif/while/until."""
    for c in parent.children:
        if c.type in ("then", "do_group"):
            return node.end_byte <= c.start_byte
    return False


def status_used(node, data: bytes, stops_on_error: bool) -> bool:
    """Whether the exit status of statement-level *node* (a pipeline) can change what the script does.

    It is used in a condition (``if``, ``while``, ``&&``, ``||``, ``!``), read through ``$?``,
    returned as a function's or the script's status, or, with *stops_on_error*, ends the
    script. Anything this cannot place counts as used.
    """
    n = node
    while True:
        p = n.parent
        if p is None:
            return True
        t = p.type
        if t in ("list", "negated_command", "function_definition"):
            return True
        if t == "pipeline":
            if p.named_children and p.named_children[-1] == n:
                n = p
                continue
            return False  # an inner stage: its own status is not the pipeline's
        if t in ("redirected_statement", "variable_assignments", "case_statement", "for_statement",
                 "c_style_for_statement"):
            n = p
            continue
        if t == "variable_assignment":
            n = p  # `x=$(a | b)`: the assignment's status is the substitution's
            continue
        if t == "command_substitution":
            if p.parent is not None and p.parent.type == "variable_assignment":
                n = p
                continue
            return False  # an argument: the command's status does not depend on it
        if t == "declaration_command":
            return False  # `local x=$(a | b)`: local's status
        if n.type == "do_group":
            n = p
            continue
        if t in _CONDITIONAL:
            if _in_condition(n, p):
                return True
        elif t not in _BLOCKS:
            return True
        nxt = _next_statement(n)
        if stops_on_error or _reads_status(nxt, data):
            return True
        if nxt is not None and nxt.type not in ("elif_clause", "else_clause"):
            return False
        if t == "program":
            return True  # the last statement: the script's exit status
        n = p


def pipefail_hazards(root, data: bytes, shebang: str | None = None, nodes: list | None = None) -> list[Hazard]:
    """Pipelines whose status ``set -o pipefail`` would change, each with why (see the module doc)."""
    stops = errexit(root, data, shebang)
    found: list[Hazard] = []
    for node in nodes if nodes is not None else shell.walk(root):
        if node.type not in ("pipeline", "redirected_statement"):
            continue
        if node.type == "pipeline" and node.parent is not None and node.parent.type == "heredoc_redirect":
            continue  # counted with its redirected statement
        stages = pipeline_stages(node)
        if len(stages) < 2:
            continue
        failing = None
        for i, stage in enumerate(stages[:-1]):
            early = next((s for s in stages[i + 1:] if stops_early(s, data)), None)
            if can_fail(stage, data, early is not None):
                failing = (stage, early)
                break
        if failing is None or not status_used(node, data, stops):
            continue
        stage, early = failing
        line = node.start_point[0] + 1
        shown = _short(shell.text(node, data))
        if early is not None:
            why = (f"`{shown}` (line {line}): `{_short(shell.text(early, data), 20)}` may stop reading early, "
                   f"and pipefail then fails the pipeline where it succeeded")
        elif stops:
            why = (f"`{shown}` (line {line}) under set -e: with pipefail a failing "
                   f"`{_short(shell.text(stage, data), 20)}` stops the script")
        else:
            why = (f"`{shown}` (line {line}): its status is used, and with pipefail a failing "
                   f"`{_short(shell.text(stage, data), 20)}` changes it")
        found.append(Hazard(line, why))
    return found


def pipeline_may_fail(root, data: bytes, nodes: list | None = None) -> bool:
    """Whether some pipeline has a stage before its last that may fail on its own (``curl ... | jq``),
    not only of SIGPIPE (``printf '%s' "$x" | grep -q``): what ``pipefail`` is there to catch."""
    for node in nodes if nodes is not None else shell.walk(root):
        if node.type in ("pipeline", "redirected_statement") and any(
                can_fail(stage, data, False) for stage in pipeline_stages(node)[:-1]):
            return True
    return False


def _short(text: str, width: int = 40) -> str:
    text = " ".join(text.split())
    return text if len(text) <= width else text[:width - 3] + "..."


# -- nounset ------------------------------------------------------------------------------------

_ARITH = {"arithmetic_expansion", "compound_statement"}


def _top_statement(node):
    """The top-level statement holding *node*."""
    while node.parent is not None and node.parent.type != "program":
        node = node.parent
    return node


def _function_of(node):
    p = node.parent
    while p is not None:
        if p.type == "function_definition":
            return p
        p = p.parent
    return None


def _unconditional_assignments(block, data: bytes) -> dict[str, int]:
    """Names a block's own statements assign on every run through it: name -> end byte of the first."""
    return _unconditional_assignments_of(block.named_children, data)


def _unconditional_assignments_of(statements, data: bytes) -> dict[str, int]:
    """Names *statements* (one after the other) assign on every run: name -> end byte of the first."""
    found: dict[str, int] = {}
    for stmt in statements:
        targets = []
        if stmt.type == "variable_assignment":
            targets = [stmt]
        elif stmt.type in ("declaration_command", "variable_assignments"):
            targets = [c for c in stmt.named_children if c.type == "variable_assignment"]
            if stmt.type == "declaration_command":
                for c in stmt.named_children:  # `local x` with no value: set to empty in bash
                    if c.type == "variable_name":
                        found.setdefault(shell.text(c, data), stmt.end_byte)
        elif stmt.type == "command" and _name(stmt, data) in ("read", ":"):
            for node in shell.walk(stmt):
                if node.type == "expansion" and any(c.type in (":=", "=") for c in node.children):
                    for c in node.children:
                        if c.type == "variable_name":
                            found.setdefault(shell.text(c, data), stmt.end_byte)
            if _name(stmt, data) == "read":
                for a in stmt.children_by_field_name("argument"):
                    word = shell.text(a, data)
                    if re.match(r"^[A-Za-z_]\w*$", word):
                        found.setdefault(word, stmt.end_byte)
        for t in targets:
            name = t.child_by_field_name("name")
            if name is not None and name.type == "variable_name":
                found.setdefault(shell.text(name, data), t.end_byte)
    return found


def _loop_variables(node, data: bytes) -> set[str]:
    """Names a surrounding loop assigns for its body: ``for x in``, ``while read x``, ``getopts``."""
    names: set[str] = set()
    p = node.parent
    while p is not None:
        if p.type in ("for_statement", "select_statement"):
            var = p.child_by_field_name("variable")
            body = p.child_by_field_name("body")
            if var is not None and body is not None and body.start_byte <= node.start_byte:
                names.add(shell.text(var, data))
        elif p.type in ("while_statement", "until_statement"):
            body = p.child_by_field_name("body")
            if body is not None and body.start_byte <= node.start_byte:
                for c in p.children:
                    if c == body:
                        break
                    for cmd in shell.commands(c, data):
                        if cmd.name == "read":
                            words = [shell.text(a, data) for a in cmd.args]
                            names.update(w for w in words if re.match(r"^[A-Za-z_]\w*$", w))
                            names.add("REPLY")
                        elif cmd.name == "getopts" and len(cmd.args) >= 2:
                            names.update({shell.text(cmd.args[1], data), "OPTARG"})
        p = p.parent
    return names


#: arrays bash sets in every script file it runs
_ARRAYS_ALWAYS_SET = frozenset({"BASH_SOURCE[]", "BASH_VERSINFO[]", "PIPESTATUS[]", "GROUPS[]"})
#: nodes whose statements run one after the other; in an ``if`` only up to its first ``elif``/``else``
_SEQUENCES = frozenset({"program", "compound_statement", "do_group", "if_statement", "elif_clause", "else_clause",
                        "case_item", "subshell"})


def _assigned_before(node, name: str, data: bytes) -> bool:
    """Whether a statement that always runs before *node*, in a block that holds it, assigns
    *name*: ``PYTHON_VERSION=$(...)`` on the line above a read in the same ``elif`` branch, or an
    ``if`` before it whose every branch assigns it or exits (``if ...; then PY=python3; elif ...;
    then PY=python; else exit 1; fi``). Stops at the function the read sits in."""
    child = node
    parent = node.parent
    while parent is not None and parent.type != "function_definition":
        if parent.type in _SEQUENCES and not (parent.type == "if_statement" and child.type in ("elif_clause", "else_clause")):
            sibling = child.prev_named_sibling
            while sibling is not None:
                if _always_assigns(sibling, name, data):
                    return True
                sibling = sibling.prev_named_sibling
        child, parent = parent, parent.parent
    return False


def _always_assigns(stmt, name: str, data: bytes) -> bool:
    """Whether running statement *stmt* always leaves *name* set, or never goes on past it."""
    if name in _unconditional_assignments_of([stmt], data):
        return True
    if stmt.type != "if_statement":
        return False
    branches, current = [], []
    for c in stmt.named_children[1:]:  # the condition first
        if c.type in ("elif_clause", "else_clause"):
            branches.append(current)
            current = list(c.named_children[1:] if c.type == "elif_clause" else c.named_children)
        else:
            current.append(c)
    branches.append(current)
    if not any(c.type == "else_clause" for c in stmt.named_children):
        return False  # no else: the test may skip every branch
    return all(any(_always_assigns(x, name, data) for x in b) or (b and _exits(b[-1], data)) for b in branches)


def _exits(stmt, data: bytes) -> bool:
    return stmt.type == "command" and _name(stmt, data) == "exit"


def nounset_hazards(root, data: bytes, nodes: list | None = None) -> list[tuple[str, int]]:
    """(name, line) of each variable the script may read while it is unset, first read first.

    A read is safe when it has a default (``${x:-}``), is a name bash always sets, is a loop's
    variable inside the loop, or follows an assignment that always runs first: a top-level
    assignment before it (before the first call of the function it sits in), or one at the
    top of its own function or of a function that defines it. Positional parameters without a
    default count unless they are a function's and every call of it passes them.
    """
    nodes = nodes if nodes is not None else list(shell.walk(root))
    top = _unconditional_assignments(root, data)
    functions = shell.functions(root, data, nodes)
    first_call: dict[str, int] = {}
    calls: dict[str, list] = {}
    shifts = []  # the `shift` commands: a count test guards no read past one
    for cmd in shell.commands(root, data, nodes):
        if cmd.name == "shift":
            shifts.append(cmd.node)
        if cmd.name in functions:
            calls.setdefault(cmd.name, []).append(cmd)
            if _function_of(cmd.node) is None:
                first_call.setdefault(cmd.name, _top_statement(cmd.node).start_byte)
        elif cmd.name == "trap" and cmd.args and _function_of(cmd.node) is None:
            # `trap cleanup EXIT`: the handler runs at the earliest once the trap is set
            for word in shell.unquote(shell.text(cmd.args[0], data)).split():
                if word in functions:
                    first_call.setdefault(word, _top_statement(cmd.node).start_byte)
    local_cache: dict[int, dict[str, int]] = {}
    memo: dict = {}  # per function: its calls, and which positional parameters they all pass
    risky: dict[str, int] = {}
    for node in nodes:
        name = None
        if node.type == "simple_expansion":
            target = next((c for c in node.named_children if c.type in ("variable_name", "special_variable_name")), None)
            name = shell.text(target, data) if target is not None and target.type == "variable_name" else None
        elif node.type == "expansion":
            kids = node.children
            if any(c.type in shell._DEFAULT_OPS for c in kids) or any(c.type in ("!", "#") for c in kids):
                continue
            target = next((c for c in node.named_children if c.type in ("variable_name", "subscript")), None)
            if target is not None and target.type == "subscript":
                index = target.child_by_field_name("index")
                if index is not None and shell.text(index, data) in ("@", "*"):
                    continue  # "${arr[@]}" of an empty array is fine in bash >= 4.4
                target = target.child_by_field_name("name")
                name = None if target is None else shell.text(target, data) + "[]"
                if name in _ARRAYS_ALWAYS_SET:
                    continue  # "${BASH_SOURCE[0]}" in a script file
            elif target is not None:
                name = shell.text(target, data)
        elif node.type == "variable_name" and node.parent is not None and _inside_arith(node):
            parent = node.parent
            if parent.type == "binary_expression" and parent.children and parent.children[0] == node and \
                    len(parent.children) > 1 and shell.text(parent.children[1], data) == "=":
                continue  # `(( x = 1 ))` assigns
            name = shell.text(node, data)
        if not name or name in shell.ALWAYS_SET or name == "0":
            continue
        bare = name[:-2] if name.endswith("[]") else name
        if name.endswith("[]") and _index_of_own_loop(node, data):
            continue
        if name.endswith("[]"):
            risky.setdefault(name[:-2] + "[...]", node.start_point[0] + 1)
            continue
        func = _function_of(node)
        if bare.isdigit():
            if (func is None or not _always_passed(func, int(bare), calls, data, memo)) and \
                    _arguments_at_least(node, data, functions, shifts) < int(bare):
                risky.setdefault(bare, node.start_point[0] + 1)
            continue
        if bare in _loop_variables(node, data) or _assigned_before(node, bare, data):
            continue
        if func is not None and _set_by_enclosing_function(func, bare, calls, data, local_cache, memo):
            continue
        if func is None:
            end = top.get(bare)
            if end is not None and end <= node.start_byte:
                continue
        else:
            body = func.child_by_field_name("body")
            if body is not None:
                own = local_cache.setdefault(body.start_byte, _unconditional_assignments(body, data))
                end = own.get(bare)
                if end is not None and end <= node.start_byte:
                    continue
            fname = shell.text(func.child_by_field_name("name"), data) if func.child_by_field_name("name") else ""
            end = top.get(bare)
            call = first_call.get(fname)
            if end is not None and call is not None and end <= call and _function_of(func) is None:
                continue
        risky.setdefault(bare, node.start_point[0] + 1)
    return sorted(risky.items(), key=lambda kv: kv[1])


#: a test of the argument count: ``$# -gt 0``, ``(( $# < 2 ))``
_COUNT_TEST = re.compile(r"\$#\s*(-eq|-ne|-lt|-le|-gt|-ge|==|!=|<=|>=|=|<|>)\s*(\d+)")
_COUNT_OPS = {"==": "-eq", "=": "-eq", "!=": "-ne", "<": "-lt", "<=": "-le", ">": "-gt", ">=": "-ge"}
_NEGATED = {"-eq": "-ne", "-ne": "-eq", "-lt": "-ge", "-le": "-gt", "-gt": "-le", "-ge": "-lt"}


def _count_where(test: str, holds: bool) -> int:
    """The fewest arguments the script has where the count test *test* holds (or fails): ``$# -gt 0``
    holds -> 1, ``[ $# -lt 2 ]`` fails -> 2; 0 when *test* is not one plain count test."""
    m = _COUNT_TEST.search(test)
    if m is None or test.count("$#") != 1 or re.search(r"&&|\|\||(?<![!=])!(?!=)|-[ao]\b", test):
        return 0
    op, n = _COUNT_OPS.get(m.group(1), m.group(1)), int(m.group(2))
    op = op if holds else _NEGATED[op]
    return {"-eq": n, "-ge": n, "-gt": n + 1, "-ne": 1 if n == 0 else 0}.get(op, 0)


def _stops(stmt, data: bytes, functions: dict) -> bool:
    """Whether running *stmt* never goes on past it: ``exit 1``, ``{ echo ...; exit 1; }``, or a call
    of a function of the script whose last statement is ``exit`` (``usage() { ...; exit 1; }``)."""
    if stmt.type == "compound_statement":
        return bool(stmt.named_children) and _stops(stmt.named_children[-1], data, functions)
    if stmt.type != "command":
        return False
    name = _name(stmt, data)
    if name == "exit":
        return True
    func = functions.get(name)
    body = func.child_by_field_name("body") if func is not None else None
    return body is not None and bool(body.named_children) and _exits(body.named_children[-1], data)


def _guaranteed_count(stmt, data: bytes, functions: dict) -> int:
    """The fewest arguments the script has after *stmt* runs, when *stmt* exits unless there are
    enough: ``if [ $# -eq 0 ]; then usage; exit 1; fi``, ``[ $# -lt 2 ] && usage``, ``[ $# -ge 1 ] || exit 2``."""
    if stmt.type == "if_statement":
        cond = stmt.child_by_field_name("condition")
        kids = stmt.named_children
        if cond is None or any(c.type in ("elif_clause", "else_clause") for c in kids) or len(kids) < 2:
            return 0
        return _count_where(shell.text(cond, data), holds=False) if _stops(kids[-1], data, functions) else 0
    if stmt.type == "list" and len(stmt.children) == 3 and stmt.children[0].type == "test_command" \
            and _stops(stmt.children[2], data, functions):
        return _count_where(shell.text(stmt.children[0], data), holds=stmt.children[1].type == "||")
    return 0


_LOOPS = frozenset({"while_statement", "until_statement", "for_statement", "c_style_for_statement"})


def _arguments_at_least(node, data: bytes, functions: dict, shift_nodes: list) -> int:
    """The fewest positional parameters there are where *node* reads one, from the count tests
    that guard it with no ``shift`` between: the body of ``while [[ $# -gt 0 ]]`` or of
    ``if [ $# -ge 2 ]``, or after an earlier ``if [ $# -eq 0 ]; then ...; exit 1; fi``. A shift
    anywhere in a loop that holds the read and not the test comes between them too; *shift_nodes*
    are the script's ``shift`` commands."""
    shifts = [n.start_byte for n in shift_nodes if not _other_case(n, node)]
    reach = node.start_byte  # where a shift stops mattering: the read, or the end of a loop around it
    child, parent = node, node.parent
    while parent is not None and parent.type != "function_definition":
        count, guard = 0, None
        if parent.type in ("while_statement", "until_statement") and child.type == "do_group":
            cond = [c for c in parent.named_children if c.end_byte <= child.start_byte]
            if cond:
                count = _count_where(" ".join(shell.text(c, data) for c in cond), parent.type == "while_statement")
                guard = child
        elif parent.type == "if_statement" and child.type not in ("elif_clause", "else_clause"):
            cond = parent.child_by_field_name("condition")
            if cond is not None and child.start_byte >= cond.end_byte:
                count, guard = _count_where(shell.text(cond, data), holds=True), cond
        if not count and parent.type in _SEQUENCES:
            sibling = child.prev_named_sibling
            while sibling is not None and not count:
                count, guard = _guaranteed_count(sibling, data, functions), sibling
                sibling = sibling.prev_named_sibling
        if count:
            return 0 if any(guard.start_byte <= at < reach for at in shifts) else count
        if parent.type in _LOOPS:
            reach = max(reach, parent.end_byte)
        child, parent = parent, parent.parent
    return 0


def _other_case(node, reader) -> bool:
    """Whether *node* sits in a case item (ended by ``;;``) of a case statement that holds *reader*
    in another of its items: one run through the case never passes both."""
    p = node.parent
    while p is not None:
        if p.type == "case_item" and p.parent is not None and p.parent.start_byte <= reader.start_byte < p.parent.end_byte:
            return not p.start_byte <= reader.start_byte < p.end_byte and p.children[-1].type == ";;"
        p = p.parent
    return False


def _index_of_own_loop(node, data: bytes) -> bool:
    """Whether ``${A[$i]}`` reads an element of *A* by an index its loop takes from *A* itself:
    ``for i in "${!A[@]}"`` or ``for ((i = 0; i < ${#A[@]}; i++))``."""
    sub = next((c for c in node.named_children if c.type == "subscript"), None)
    array = sub.child_by_field_name("name") if sub is not None else None
    index = sub.child_by_field_name("index") if sub is not None else None
    if array is None or index is None:
        return False
    name, var = shell.text(array, data), shell.text(index, data).lstrip("$").strip("{}")
    p = node.parent
    while p is not None:
        if p.type == "for_statement":
            loop_var = p.child_by_field_name("variable")
            values = " ".join(shell.text(c, data) for c in p.children_by_field_name("value"))
            if loop_var is not None and shell.text(loop_var, data) == var and re.fullmatch(
                    r'"?\$\{!' + re.escape(name) + r'\[[@*]\]\}"?', values):
                return True
        elif p.type == "c_style_for_statement":
            head = shell.text(p, data).split("do", 1)[0]
            if re.search(r"\b" + re.escape(var) + r"\s*<\s*\$\{#" + re.escape(name) + r"\[[@*]\]\}", head):
                return True
        p = p.parent
    return False


#: argument nodes that are always exactly one word: a literal, a quoted string, a word glued to an expansion
_ONE_WORD = frozenset({"word", "string", "raw_string", "ansi_c_string", "number", "concatenation"})
#: what may expand to no word at all, even quoted: ``"$@"``, ``"${arr[@]}"`` (``"${arr[*]}"`` is one word)
_MANY_WORDS = re.compile(r"\$(?:\{[^}]*\[@\]|\{?@)")


def _only_called(func, calls: dict[str, list], data: bytes, memo: dict) -> list:
    """The calls of function *func* by name, when they are all the script does with it: its name
    appears nowhere else (not in a ``trap``, a dispatch table or ``"$cmd"``); else []. Worked out
    once per function (*memo*), since every read inside it asks."""
    key = ("called", func.start_byte)
    if key not in memo:
        name = func.child_by_field_name("name")
        fname = shell.text(name, data) if name is not None else ""
        sites = calls.get(fname, []) if fname else []
        words = len(re.findall(rb"(?<![\w-])" + re.escape(fname.encode()) + rb"(?![\w-])", data)) if sites else 0
        memo[key] = sites if sites and words == len(sites) + 1 else []
    return memo[key]


def _always_passed(func, position: int, calls: dict[str, list], data: bytes, memo: dict) -> bool:
    """Whether every call of function *func* passes at least *position* arguments, each one word
    (``emit_error "CODE" "$msg"`` sets ``$2``), and it never shifts or resets them: then ``$N``
    is set. A function never called by name, or named elsewhere too, gives no such evidence."""
    key = ("passed", func.start_byte, position)
    if key not in memo:
        memo[key] = _passes(func, position, _only_called(func, calls, data, memo), data)
    return memo[key]


def _passes(func, position: int, sites: list, data: bytes) -> bool:
    """:func:`_always_passed`, worked out from the function's calls *sites*."""
    body = func.child_by_field_name("body")
    if not sites or body is None or any(c.name in ("shift", "set") for c in shell.commands(body, data)):
        return False
    return all(
        len(site.args) >= position
        and all(a.type in _ONE_WORD and not _MANY_WORDS.search(shell.text(a, data)) for a in site.args[:position])
        for site in sites
    )


def _set_by_enclosing_function(func, name: str, calls: dict[str, list], data: bytes,
                               cache: dict[int, dict[str, int]], memo: dict) -> bool:
    """Whether a function that defines *func* inside its body always assigns *name* before the
    definition (``local content=$(cat "$f")`` then ``has_dep() { echo "$content" | ...; }``), and
    *func* is called only there (after it returns, its ``local`` is gone)."""
    outer = _function_of(func)
    if outer is None:
        return False
    sites = _only_called(func, calls, data, memo)
    if not sites or not all(outer.start_byte < s.node.start_byte < outer.end_byte for s in sites):
        return False
    while outer is not None:
        body = outer.child_by_field_name("body")
        if body is not None:
            own = cache.setdefault(body.start_byte, _unconditional_assignments(body, data))
            end = own.get(name)
            if end is not None and end <= func.start_byte:
                return True
        outer = _function_of(outer)
    return False


def _inside_arith(node) -> bool:
    p = node.parent
    while p is not None:
        if p.type == "arithmetic_expansion":
            return True
        if p.type == "compound_statement" and p.children and p.children[0].type == "((":
            return True
        if p.type in ("command", "program", "function_definition"):
            return False
        p = p.parent
    return False


# -- constants, help ----------------------------------------------------------------------------


def collision_risk(root, data: bytes, nodes: list | None = None) -> Hazard | None:
    """Code the script runs that may assign any name (``source``, ``.``, ``eval``): the first one."""
    for cmd in shell.commands(root, data, nodes):
        if cmd.name in ("source", ".") and cmd.args:
            line = cmd.node.start_point[0] + 1
            return Hazard(line, f"the script sources {_short(shell.text(cmd.args[0], data), 40)} (line {line}), "
                                "which may assign the same name: readonly would then stop it with \"readonly variable\"")
        if cmd.name == "eval":
            line = cmd.node.start_point[0] + 1
            return Hazard(line, f"the script runs eval (line {line}), which may assign the same name: "
                                "readonly would then stop it with \"readonly variable\"")
    return None


_ALL_ARGS = re.compile(r'^"?\$(\{)?[@*](?(1)\})"?$')


def forwards_arguments(root, data: bytes, nodes: list | None = None) -> Hazard | None:
    """A command other than the script's own functions that receives all of its arguments (``"$@"``)."""
    funcs = shell.functions(root, data, nodes)
    for cmd in shell.commands(root, data, nodes):
        if _function_of(cmd.node) is not None or cmd.name in funcs or cmd.name in ("shift", "set", "echo", "printf", "local"):
            continue
        if any(_ALL_ARGS.match(shell.text(a, data)) for a in cmd.args):
            line = cmd.node.start_point[0] + 1
            return Hazard(line, f"it passes all its arguments to `{_short(cmd.name, 30)}` (line {line}), "
                                "so --help reaches that program today; a help branch would hide its help")
    return None


def sources_code(root, data: bytes, nodes: list | None = None) -> Hazard | None:
    """A ``source``/``.`` of another file: it sees the script's arguments and may handle ``--help`` itself."""
    for cmd in shell.commands(root, data, nodes):
        if cmd.name in ("source", ".") and cmd.args:
            line = cmd.node.start_point[0] + 1
            what = _short(shell.text(cmd.args[0], data), 40)
            return Hazard(line, f"it sources {what} (line {line}), which sees its arguments and may answer --help itself",
                          what)
    return None


def own_usage(root, data: bytes, nodes: list | None = None) -> Hazard | None:
    """The script's own usage handling: a ``usage`` function, a ``Usage:`` text, ``getopts``."""
    nodes = nodes if nodes is not None else list(shell.walk(root))
    for node in nodes:
        if node.type == "function_definition":
            name = node.child_by_field_name("name")
            if name is not None and re.search(r"usage|help", shell.text(name, data), re.IGNORECASE):
                line = node.start_point[0] + 1
                return Hazard(line, f"it has its own usage text (`{shell.text(name, data)}` at line {line}): "
                                    "make -h/--help print it and exit 0")
        if node.type in ("string", "raw_string", "heredoc_body") and re.search(r"(?im)^\W*usage\s*:", shell.text(node, data)):
            line = node.start_point[0] + 1
            return Hazard(line, f"it prints a usage text (line {line}): if it is this script's, make -h/--help print it "
                                "and exit 0")  # (it may be another program's: setup.sh's "Usage:" of render.mjs)
    for cmd in shell.commands(root, data, nodes):
        if cmd.name == "getopts":
            line = cmd.node.start_point[0] + 1
            return Hazard(line, f"it parses options with getopts (line {line}): add h to its option string "
                                "and an h) branch that prints the header and exits 0")
    return None
