"""Shell scripts through tree-sitter-bash: one parse per file, and the facts rules ask of it.

Detection never executes anything. ``bash -n`` (syntax check only) is the one process run,
and only by the rule that asks for it.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass
from typing import Iterator

_PARSER = None


def parser():
    """The tree-sitter parser for bash, built once per process."""
    global _PARSER
    if _PARSER is None:
        import tree_sitter
        import tree_sitter_bash

        _PARSER = tree_sitter.Parser(tree_sitter.Language(tree_sitter_bash.language()))
    return _PARSER


#: a character outside the Basic Multilingual Plane: four bytes in UTF-8
_ASTRAL = re.compile(rb"[\xf0-\xf4][\x80-\xbf]{3}")


#: how long one parse may take: tree-sitter-bash's error recovery is quadratic on some input
#: (40 KB of ``|`` takes 6 s, 80 KB 25 s)
PARSE_SECONDS = 10.0
#: the deepest tree read: ``node.parent`` costs the depth (tree-sitter finds a parent from the
#: root), so facts that climb to an ancestor are quadratic or worse in it (16 KB of
#: ``true && true && ...`` is 2,000 levels); the deepest of 1,324 public skill scripts has 21
MAX_DEPTH = 100
#: what a note says when :func:`parse` gave up
GAVE_UP = f"nested more than {MAX_DEPTH} levels deep, or not parsed within {PARSE_SECONDS:g} s"
_CHUNK = 1 << 16


def parse(data: bytes):
    """The tree of *data*, or None when the parser gave up: after :data:`PARSE_SECONDS`, or on
    a tree deeper than :data:`MAX_DEPTH` (see :data:`GAVE_UP`).

    Characters beyond U+FFFF are parsed as ``____`` (same byte length): tree-sitter-bash
    0.25 crashes the whole process (a segmentation fault) on some of them right after ``{``,
    e.g. ``b"{\xf3\xb9\x81\x92"``. In shell syntax they can only be part of words, strings
    and comments, so four placeholder bytes keep every node and offset. Heredoc body lines
    that tree-sitter would take for the end are parsed as bash reads them
    (:func:`heredoc_lines_masked`).
    """
    if _ASTRAL.search(data):
        data = _ASTRAL.sub(b"____", data)
    if b"<<" in data:
        data = heredoc_lines_masked(data)
    deadline = time.monotonic() + PARSE_SECONDS
    try:  # the source by chunks: tree-sitter asks whether to go on only when it reads through a callback
        tree = parser().parse(lambda offset, _point: data[offset:offset + _CHUNK],
                              progress_callback=lambda *_: time.monotonic() > deadline)
    except ValueError:  # cancelled
        parser().reset()
        return None
    return None if deeper_than(tree.root_node, MAX_DEPTH) else tree


#: a heredoc's start: ``<<WORD``, ``<<-WORD``, ``<<'WORD'``, ``<<"WORD"``, ``<<\WORD`` (not ``<<<``)
_HEREDOC_START = re.compile(rb"(?<!<)<<(?!<)(-?)[ \t]*(?:(['\"])([^'\"\n]+)\2|\\?([A-Za-z0-9_][\w.-]*))")


def heredoc_lines_masked(data: bytes) -> bytes:
    """*data* with the first byte of each heredoc body line that begins with the delimiter but is
    not the delimiter line replaced (same length), so tree-sitter ends the heredoc where bash does.

    bash ends a heredoc only at a line that is exactly the delimiter (after leading tabs with
    ``<<-``); tree-sitter-bash also ends it at ``EOF is the word``, ``EOF;`` or an indented
    ``  EOF``. A heredoc whose delimiter line never comes is left as it is.
    """
    lines = data.split(b"\n")
    out = list(lines)
    number = 0
    while number < len(lines):
        opened = [(m.group(1) == b"-", m.group(3) or m.group(4)) for m in _HEREDOC_START.finditer(lines[number])]
        number += 1
        for strip_tabs, word in opened:
            body = number
            while body < len(lines):
                line = lines[body].rstrip(b"\r")
                if (line.lstrip(b"\t") if strip_tabs else line) == word:
                    break
                body += 1
            else:
                break  # never closed: leave the rest as it is
            for k in range(number, body):
                line = lines[k]
                indent = len(line) - len(line.lstrip(b" \t"))
                if line[indent:].startswith(word):
                    first = line[indent:indent + 1]
                    out[k] = line[:indent] + (b"x" if first != b"x" else b"y") + line[indent + 1:]
            number = body + 1
    return b"\n".join(out) if out != lines else data


def deeper_than(node, limit: int) -> bool:
    """Whether the tree below *node* is more than *limit* levels deep (one walk, stopping there)."""
    return any(cursor.depth > limit for cursor in _cursors(node))


def _cursors(node) -> Iterator:
    """A tree cursor standing on every node below *node* in turn, depth first, in source order."""
    cursor = node.walk()
    visited_children = False
    while True:
        if not visited_children:
            yield cursor
            if cursor.goto_first_child():
                continue
        if cursor.goto_next_sibling():
            visited_children = False
            continue
        if not cursor.goto_parent():
            return
        visited_children = True


def walk(node) -> Iterator:
    """Every node below *node*, depth first, in source order."""
    for cursor in _cursors(node):
        yield cursor.node


def walk_within(node, types) -> Iterator[tuple[object, bool]]:
    """(node, inside) for every node below *node*, as :func:`walk`; *inside* tells whether one
    of the node's ancestors (up to *node* itself) has one of *types*.

    One walk carries that down, so asking it of every node costs nothing more: climbing
    ``node.parent`` instead costs the depth each time (and tree-sitter finds each parent from
    the root), which is cubic in the nesting of ``a && b && ...`` or nested ``$( )``.
    """
    inside = [False]  # inside[d]: whether the node at depth d has such an ancestor
    for cursor in _cursors(node):
        current, depth = cursor.node, cursor.depth
        del inside[depth + 1:]
        yield current, inside[depth]
        inside.append(inside[depth] or current.type in types)


def enclosing(node, kind: str):
    """The nearest node of type *kind* that holds *node*, or None."""
    p = node.parent
    while p is not None:
        if p.type == kind:
            return p
        p = p.parent
    return None


def text(node, data: bytes) -> str:
    return data[node.start_byte:node.end_byte].decode("utf-8", "replace")


def unquote(word: str) -> str:
    if len(word) >= 2 and word[0] == word[-1] and word[0] in "\"'":
        return word[1:-1]
    return word


@dataclass(frozen=True)
class Command:
    name: str
    args: list  # argument nodes
    node: object

    def arg_texts(self, data: bytes) -> list[str]:
        return [unquote(text(a, data)) for a in self.args]


def commands(root, data: bytes, nodes: list | None = None) -> Iterator[Command]:
    """Every simple command (outside heredoc bodies, which are data).

    *nodes*, when given, is ``list(walk(root))`` computed once (see ``Script.sh_nodes``):
    callers that ask several questions of one tree pass it to avoid walking it again.
    """
    for node in nodes if nodes is not None else walk(root):
        if node.type != "command":
            continue
        name_node = node.child_by_field_name("name")
        if name_node is None:
            continue
        args = [c for c in node.children_by_field_name("argument")]
        yield Command(text(name_node, data), args, node)


_NUM = re.compile(r"^\d+$")
#: a variable or a positional parameter as a whole word: ``$code``, ``${LIMIT}``, ``$1``
_VAR = re.compile(r"^\$\{?([A-Za-z_][A-Za-z0-9_]*|\d)\}?$")


def constants(root, data: bytes, nodes: list | None = None) -> dict[str, int]:
    """Variables assigned an integer literal anywhere (``EXIT_USAGE=2``, ``readonly X=3``)."""
    found: dict[str, int] = {}
    for node in nodes if nodes is not None else walk(root):
        if node.type != "variable_assignment":
            continue
        name = node.child_by_field_name("name")
        value = node.child_by_field_name("value")
        if name is None or value is None:
            continue
        raw = unquote(text(value, data))
        if _NUM.match(raw):
            found.setdefault(text(name, data), int(raw))
    return found


def resolve_code(arg: str, consts: dict[str, int]) -> int | None:
    arg = unquote(arg)
    if _NUM.match(arg):
        return int(arg)
    m = _VAR.match(arg)
    if m and m.group(1) in consts:
        return consts[m.group(1)]
    return None


def exit_codes(root, data: bytes, nodes: list | None = None) -> list[tuple[int, int, int]]:
    """(code, line, column) of every ``exit N`` whose code is known and that ends the script: not
    one in a subshell (``( flock -x 200 || exit 1; ... )``, ``$(...)``, a stage of a pipeline),
    which ends only that. Bare ``exit`` is not counted."""
    consts = constants(root, data, nodes)
    codes = []
    for cmd in commands(root, data, nodes):
        if cmd.name != "exit" or not cmd.args or _in_subshell(cmd.node):
            continue
        code = resolve_code(text(cmd.args[0], data), consts)
        if code is not None:
            row, col = cmd.node.start_point
            codes.append((code, row + 1, col + 1))
    return codes


_SUBSHELLS = frozenset({"subshell", "command_substitution", "process_substitution", "pipeline"})


def _in_subshell(node) -> bool:
    p = node.parent
    while p is not None:
        if p.type in _SUBSHELLS:
            return True
        p = p.parent
    return False


def set_options(root, data: bytes, top_level_only: bool = True) -> set[str]:
    """Shell options turned on by ``set`` (``errexit``, ``nounset``, ``pipefail`` ...), any spelling."""
    letters = {"e": "errexit", "u": "nounset", "E": "errtrace", "x": "xtrace", "f": "noglob"}
    on: set[str] = set()
    nodes = root.children if top_level_only else [n for n in walk(root)]
    for node in nodes:
        if node.type != "command":
            continue
        name = node.child_by_field_name("name")
        if name is None or text(name, data) != "set":
            continue
        args = [unquote(text(a, data)) for a in node.children_by_field_name("argument")]
        i = 0
        while i < len(args):
            arg = args[i]
            if arg == "-o" and i + 1 < len(args):
                on.add(args[i + 1])
                i += 2
                continue
            if arg.startswith("-") and not arg.startswith("--"):
                flags = arg[1:]
                if flags.endswith("o") and i + 1 < len(args):
                    on.add(args[i + 1])
                    flags = flags[:-1]
                    i += 1
                for ch in flags:
                    if ch in letters:
                        on.add(letters[ch])
            i += 1
    return on


def case_items(root, nodes: list | None = None):
    for node in nodes if nodes is not None else walk(root):
        if node.type == "case_item":
            yield node


def case_patterns(item, data: bytes) -> list[str]:
    return [unquote(text(c, data)) for c in item.children_by_field_name("value")] or [
        unquote(text(c, data)) for c in item.children if c.type in ("extglob_pattern", "word", "string", "raw_string", "concatenation")
    ]


def has_help_branch(root, data: bytes, nodes: list | None = None) -> bool:
    """A ``-h``/``--help`` case pattern, or ``--help`` compared in a test."""
    nodes = nodes if nodes is not None else list(walk(root))
    for item in case_items(root, nodes):
        pats = case_patterns(item, data)
        for pat in pats:
            if any(p in ("-h", "--help", "-help", "-h*", "--help*") for p in pat.split("|")):
                return True
    for node in nodes:
        if node.type in ("test_command", "binary_expression"):
            t = text(node, data)
            if "--help" in t or re.search(r"[\"' ]-h[\"' ]", t):
                return True
    return False


def functions(root, data: bytes, nodes: list | None = None) -> dict[str, object]:
    found = {}
    for node in nodes if nodes is not None else walk(root):
        if node.type == "function_definition":
            name = node.child_by_field_name("name")
            if name is not None:
                found[text(name, data)] = node
    return found


#: a function's own copy of its first argument: ``local code="$1"``, ``rc=${1:-1}``
_FIRST_ARG_COPY = re.compile(r"^(?:local\s+|declare\s+|typeset\s+)?([A-Za-z_]\w*)=[\"']?\$\{?1(?:[:}][^\"'\s]*)?[\"']?\s*$")


def body_exit_codes(node, data: bytes, consts: dict[str, int], funcs: dict, depth: int = 0,
                    first_arg: int | None = None) -> set[int]:
    """Exit codes reached by commands inside *node*, following called functions one level deep.

    *first_arg*: the code a call passed as the function's first argument (``die 2 "msg"``), which
    its ``exit "$1"`` or ``local code="$1"; exit "$code"`` exits with."""
    codes: set[int] = set()
    names = {"1"}
    if first_arg is not None:
        for line in text(node, data).splitlines():
            m = _FIRST_ARG_COPY.match(line.strip())
            if m:
                names.add(m.group(1))
    for cmd in commands(node, data):
        if cmd.name == "exit" and cmd.args:
            arg = text(cmd.args[0], data)
            code = resolve_code(arg, consts)
            if code is None and first_arg is not None and (m := _VAR.match(unquote(arg))) and m.group(1) in names:
                code = first_arg
            if code is not None:
                codes.add(code)
        elif cmd.name in funcs and depth < 2:
            passed = resolve_code(text(cmd.args[0], data), consts) if cmd.args else None
            codes |= body_exit_codes(funcs[cmd.name], data, consts, funcs, depth + 1, passed)
    return codes


def has_unknown_flag_exit(root, data: bytes, usage_code: int = 2, nodes: list | None = None) -> bool:
    """A case branch for unknown options (``-*``, ``*``) that exits with the usage code."""
    return any(usage_code in codes for _item, codes in unknown_flag_branches(root, data, nodes))


def unknown_flag_branches(root, data: bytes, nodes: list | None = None) -> list[tuple[object, set[int]]]:
    """The case branches for unknown options (``-*``, ``*``), each with the exit codes it uses."""
    nodes = nodes if nodes is not None else list(walk(root))
    consts = constants(root, data, nodes)
    funcs = functions(root, data, nodes)
    found = []
    for item in case_items(root, nodes):
        pats = [p for pat in case_patterns(item, data) for p in pat.split("|")]
        if any(p.startswith("-") and any(ch in p for ch in "*?[") or p == "*" for p in pats):
            found.append((item, set(body_exit_codes(item, data, consts, funcs))))
    return found


def sourced_paths(root, data: bytes, nodes: list | None = None) -> list[str]:
    """Arguments of ``source``/``.`` commands, as written."""
    return [
        unquote(text(cmd.args[0], data))
        for cmd in commands(root, data, nodes)
        if cmd.name in ("source", ".") and cmd.args
    ]


def error_ranges(root) -> list[tuple[int, int]]:
    """Byte ranges tree-sitter could not parse (``ERROR`` or missing nodes)."""
    if not root.has_error:
        return []
    return [(n.start_byte, n.end_byte) for n in walk(root) if n.type == "ERROR" or n.is_missing]


def returns_outside_functions(root, data: bytes, nodes: list | None = None) -> bool:
    """Whether a ``return`` stands outside every function: bash runs it only in a sourced file
    (``cd "$dir" || return 1`` in a library); an executed script stops there with an error."""
    for cmd in commands(root, data, nodes):
        if cmd.name != "return":
            continue
        parent = cmd.node.parent
        while parent is not None and parent.type != "function_definition":
            parent = parent.parent
        if parent is None:
            return True
    return False


def top_level_is_library(root, data: bytes) -> bool:
    """Only definitions at top level: functions, assignments, declarations, ``source``, ``set``."""
    allowed_cmds = {"source", ".", "set", "shopt", "export", "readonly", "declare", "typeset", "local", "return", ":", "true"}
    has_function = False
    for node in root.children:
        t = node.type
        if t == "function_definition":
            has_function = True
        elif t in ("comment", "variable_assignment", "declaration_command", "variable_assignments"):
            continue
        elif t == "command":
            name = node.child_by_field_name("name")
            if name is None or text(name, data) not in allowed_cmds:
                return False
        elif t in ("if_statement", "list") and "return" in text(node, data):
            continue  # e.g. [[ -n "${_LIB_LOADED:-}" ]] && return
        else:
            return False
    return has_function


_SELF_ARGS = {"$0", '"$0"', "${0}", '"${0}"', '"${BASH_SOURCE[0]}"', "${BASH_SOURCE[0]}", '"$BASH_SOURCE"', "$BASH_SOURCE"}
_SED_RANGE = re.compile(r"^(\d+),(\d+)p$")


@dataclass(frozen=True)
class LineRange:
    """A command that prints a fixed range of the script's own lines (``sed -n '2,30p' "$0"``)."""

    first: int
    last: int
    node: object  # the command
    #: a later stage of its pipeline keeps only comment lines (``head -n 11 "$0" | grep "^#"``)
    comments_only: bool = False


def self_line_ranges(root, data: bytes, nodes: list | None = None) -> list[LineRange]:
    """``sed -n 'A,Bp' "$0"`` and ``head -n B "$0"`` commands: help text cut at a fixed line."""
    found = []
    for cmd in commands(root, data, nodes):
        raw = [text(a, data) for a in cmd.args]
        if not raw or raw[-1] not in _SELF_ARGS:
            continue
        args = [unquote(a) for a in raw[:-1]]
        span = None
        if cmd.name == "sed":
            flags = [a for a in args if a.startswith("-")]
            scripts = [a for a in args if not a.startswith("-")]
            if not any("n" in f[1:] for f in flags if not f.startswith("--")) or len(scripts) != 1:
                continue
            m = _SED_RANGE.match(scripts[0].strip())
            if m:
                span = int(m.group(1)), int(m.group(2))
        elif cmd.name == "head":
            if len(args) == 2 and args[0] == "-n" and _NUM.match(args[1]):
                span = 1, int(args[1])
            elif len(args) == 1 and re.match(r"^-n?\d+$", args[0]):
                span = 1, int(args[0].lstrip("-n"))
        if span is not None:
            found.append(LineRange(*span, cmd.node, _comments_only_after(cmd.node, data)))
    return found


def _comments_only_after(node, data: bytes) -> bool:
    """Whether a later stage of the pipeline *node* is in keeps only the lines that start with
    ``#``: ``grep "^#"``, ``grep -E '^#'`` (no ``-v``)."""
    pipeline = node.parent
    if pipeline is None or pipeline.type != "pipeline":
        return False
    later = [c for c in pipeline.named_children if c.start_byte > node.start_byte and c.type == "command"]
    for stage in later:
        name = stage.child_by_field_name("name")
        if name is None or text(name, data) not in ("grep", "egrep"):
            continue
        args = [unquote(text(a, data)) for a in stage.children_by_field_name("argument")]
        flags = [a for a in args if a.startswith("-")]
        patterns = [a for a in args if not a.startswith("-")]
        if len(patterns) == 1 and patterns[0].startswith("^#") and not any("v" in f for f in flags if not f.startswith("--")):
            return True
    return False


_EXPANSIONS = {"simple_expansion", "expansion", "command_substitution"}
#: contexts where word splitting does not happen or quoting is not ours to change
_NO_QUOTING = {
    "test_command", "arithmetic_expansion", "variable_assignment", "declaration_command",
    "heredoc_body", "heredoc_redirect", "string", "ERROR",
}
#: expansions that cannot split: numbers and flags
_SAFE_SPECIALS = re.compile(r"^\$\{?[#?$!\-]\}?$|^\$\{#")


#: commands whose arguments are code (eval, let) or numbers (exit codes, process ids, counts)
_NO_WORD_ARGUMENTS = frozenset({"eval", "let", "exit", "return", "wait", "kill", "shift", "sleep"})
#: a variable that holds a list of options, package names or files (or none) on purpose (``$PYTEST_ARGS``,
#: ``${CURL_OPTS}``, ``$wflag``, ``$PW_CONDA_PKGS``, grep's ``$EXCLUDES``, ``grep -q x $config_files``), ``$(seq ...)``, whose words are the point, and a
#: substitution that prints one flag or nothing (``$([ "$X" -eq 1 ] && echo --tatbikat)``) or a status number
#: (``$([ "$CODE" = 200 ]; echo $?)``)
_WORD_LIST = re.compile(r"^\$\{?(?:[A-Za-z_][A-Za-z0-9_]*?)?(?:ARGS?|OPTS?|OPTIONS|FLAGS?|PKGS?|PACKAGES|DEPS|EXCLUDES|INCLUDES|FILES|PATHS|DIRS"
                        r"|args?|opts?|options|flags?|pkgs?|packages|deps|excludes|includes|files|paths|dirs)\}?$|^\$\(seq\s"
                        r"|^\$\([^()\n]{0,200}&&\s*echo\s+[\"']?--?[\w-]+[\"']?\s*\)$"
                        r"|^\$\([^()\n]{0,200};\s*echo\s+\"?\$\?\"?\s*\)$")


def runs_past_a_newline(command, data: bytes) -> bool:
    """Whether tree-sitter read a *command* on past the newline that ends it in bash: two assignments
    on a line, then another line (``a="" b=0`` / ``for x in $list; do``) come out as one command
    named ``for`` (tree-sitter-bash issues #228, #342), whose "arguments" are the next lines' words."""
    children = command.children
    for before, after in zip(children, children[1:]):
        gap = data[before.end_byte:after.start_byte]
        if b"\n" in gap.replace(b"\\\n", b"") and before.type == "variable_assignment":
            return True
    return False


def alternate_value(node) -> bool:
    """Whether *node* is ``${x+word}`` or ``${x:+word}``: words only when *x* is set, on purpose
    unquoted (``${arr[@]+"${arr[@]}"}``, ``${X:+--flag "$X"}``), since quoting makes an empty
    argument of "unset"."""
    return node.type == "expansion" and any(c.type in ("+", ":+") for c in node.children)


def unquoted_expansions(root, data: bytes, nodes: list | None = None) -> list:
    """Expansion nodes (``$var``, ``${var}``, ``$@``, ``$(cmd)``) left unquoted in command arguments.

    Not counted: anything inside ``[[ ]]``/``[ ]``, arithmetic, assignments, declarations,
    ``case`` items, heredocs or strings; arguments of ``eval`` and ``let`` (code) and of
    ``exit``, ``return``, ``wait``, ``kill``, ``shift``, ``sleep`` (numbers); ``$#``, ``$?``,
    ``$$``, ``$!`` and ``${#...}``, which expand to numbers; alternate values
    (:func:`alternate_value`); variables named as option, package or file lists (``$PYTEST_ARGS``,
    ``${CURL_OPTS}``, ``$FLAGS``, ``$PW_CONDA_PKGS``, ``$config_files``), split on purpose, a substitution that
    prints one flag or nothing (``$([ "$X" -eq 1 ] && echo --dry)``), and variables only ever set to one
    literal word (:func:`literal_names`)."""
    found = []
    literal = None
    for node, quiet in walk_within(root, _NO_QUOTING):
        if quiet or node.type != "command":
            continue
        name_node = node.child_by_field_name("name")
        if name_node is None or text(name_node, data) in _NO_WORD_ARGUMENTS or runs_past_a_newline(node, data):
            continue
        for arg in node.children_by_field_name("argument"):
            parts = [arg] if arg.type in _EXPANSIONS else (
                [c for c in arg.children if c.type in _EXPANSIONS] if arg.type == "concatenation" else [])
            for part in parts:
                written = text(part, data)
                if _SAFE_SPECIALS.match(written) or alternate_value(part) or _WORD_LIST.search(written):
                    continue
                plain = _PLAIN_VARIABLE.match(written)
                if plain is not None:
                    literal = literal_names(root, data, nodes) if literal is None else literal
                    if plain.group(1) in literal:
                        continue
                found.append(part)
    return found


#: ``$name`` or ``${name}``, nothing more
_PLAIN_VARIABLE = re.compile(r"^\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?$")
#: a value that splitting and globbing leave as it is: one word or none, no space, no glob, no tilde
_ONE_WORD = re.compile(r"^[\w.,:@%+=/-]*$")


def literal_names(root, data: bytes, nodes: list | None = None) -> set[str]:
    """Names whose every write is an assignment of one literal word with no space or glob character in
    it, or of nothing (``VITE_VERSION="latest"`` here, ``VITE_VERSION="5.4.11"`` there; ``SAVE=""``, then
    ``SAVE="--save"``: one flag or none): unquoted, they split into nothing, and quoting the empty one
    would pass an empty argument."""
    nodes = nodes if nodes is not None else list(walk(root))
    literal: set[str] = set()
    other: set[str] = set()
    for node in nodes:
        if node.type != "variable_assignment":
            continue
        name = node.child_by_field_name("name")
        value = node.child_by_field_name("value")
        if name is None or name.type != "variable_name":
            continue
        one_word = value is None or value.type in ("word", "string", "raw_string", "number") and not any(
            c.type not in ('"', "string_content") for c in value.children) and _ONE_WORD.match(unquote(text(value, data)))
        (literal if one_word and text(node, data)[len(text(name, data)):][:1] == "=" else other).add(text(name, data))
    written_otherwise = assigned_names(root, data, [n for n in nodes if n.type != "variable_assignment"])
    return literal - other - written_otherwise


#: variables bash always sets (or sets before a script can read them)
ALWAYS_SET = frozenset(
    "HOME PATH PWD IFS BASH BASH_SOURCE BASH_VERSION BASH_VERSINFO BASH_LINENO BASH_REMATCH "
    "BASH_ARGV0 BASHPID BASHOPTS SHELLOPTS FUNCNAME LINENO RANDOM SRANDOM SECONDS EPOCHSECONDS "
    "EPOCHREALTIME PPID UID EUID GROUPS HOSTNAME HOSTTYPE OSTYPE MACHTYPE PIPESTATUS SHLVL "
    "OPTIND OPTERR PS4".split()
)
_DEFAULT_OPS = {":-", "-", ":=", "=", ":?", "?", ":+", "+"}
_READ_VALUE_FLAGS = {"-p", "-d", "-t", "-n", "-N", "-u", "-i"}
_IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


def assigned_names(root, data: bytes, nodes: list | None = None) -> set[str]:
    """Names the script gives a value: assignments, ``for``/``select``, ``read``, ``getopts``,
    ``printf -v``, ``mapfile``/``readarray`` and ``${x:=default}``."""
    names: set[str] = set()
    for node in nodes if nodes is not None else walk(root):
        t = node.type
        if t == "variable_assignment":
            name = node.child_by_field_name("name")
            if name is not None and name.type == "subscript":
                name = name.child_by_field_name("name")
            if name is not None:
                names.add(text(name, data))
        elif t == "for_statement":
            var = node.child_by_field_name("variable")
            if var is not None:
                names.add(text(var, data))
        elif t == "expansion" and any(c.type in (":=", "=") for c in node.children):
            names.update(text(c, data) for c in node.children if c.type == "variable_name")
        elif t == "command":
            name_node = node.child_by_field_name("name")
            if name_node is None:
                continue
            cmd = text(name_node, data)
            args = [unquote(text(a, data)) for a in node.children_by_field_name("argument")]
            if cmd == "read":
                skip = False
                for i, a in enumerate(args):
                    if skip:
                        skip = False
                    elif a in _READ_VALUE_FLAGS:
                        skip = True
                    elif a == "-a" and i + 1 < len(args):
                        names.add(args[i + 1])
                    elif _IDENT.match(a):
                        names.add(a)
                names.add("REPLY")
            elif cmd == "getopts" and len(args) >= 2:
                names.update({args[1], "OPTARG"})
            elif cmd == "printf" and "-v" in args[:-1]:
                names.add(args[args.index("-v") + 1])
            elif cmd in ("mapfile", "readarray"):
                idents = [a for a in args if _IDENT.match(a)]
                names.add(idents[-1] if idents else "MAPFILE")
    return names


#: a comment that only marks a section: ``# ── Parse arguments ────``, ``# ====``, ``# --- helpers ---``
_BANNER = re.compile(r"^#\s*[─━═=*~-]{2,}[^\w]*(?:\w[\w ]{0,60}?)?[\s─━═=*~-]*$")


def range_problem(rng: LineRange, header_end: int | None, has_shebang: bool, lines: list[str]) -> str | None:
    """Why printing lines ``rng.first``-``rng.last`` of the script's *lines* misses the header
    block, which ends at line *header_end* (None: the script has none), or None.

    A script without a shebang is judged as if it had one (CON001 adds it), so ``2,N``
    ranges written for the shebang line are not flagged twice. Blank lines after the header
    print as blank lines: a range that ends on one prints no code; nor does one whose pipeline
    keeps only comment lines (``| grep "^#"``) and finds none past the header but section banners
    (``# ── Parse arguments ──``); when it finds other comments, those are what it prints too.
    """
    if header_end is None:
        return "the script has no header block"
    end = header_end + (0 if has_shebang else 1)
    past = lines[end:rng.last]
    if rng.comments_only:
        printed = [i for i, line in enumerate(past, end + 1) if line.startswith("#") and not _BANNER.match(line)]
    else:
        printed = [i for i, line in enumerate(past, end + 1) if line.strip()]
    if rng.last > end and not (has_shebang and not printed):
        if rng.comments_only and printed:
            return f"the header block ends at line {end}, so it prints the comments after it too (line {printed[0]})"
        return f"the header block ends at line {end}, so it prints code too"
    if rng.last < end:
        return f"the header block ends at line {end}, so it cuts the header short"
    return None
