"""What a shell script and its skill say about it: the evidence for each header field.

Every word the header fix writes comes from here, and each answer is a :class:`Value`:
the text, or None with what a person must add instead. Sources, in order of trust:

- the author's own words: the usage text the script prints (``usage()``, ``echo "Usage: ..."``,
  a heredoc), the exit meanings it documents (``2 = not a git repo``, ``exit 3  # no data``),
  its ``EXIT_*`` constants;
- the code: the options its ``case``/``getopts`` branches accept and whether they take a
  value, the variables it fills from ``$1``, ``$2``, whether it reads stdin or the environment,
  where its messages go, the context of each ``exit N`` (an unknown-option branch is usage);
- the worked invocations of the script in ``SKILL.md`` (and the Markdown files it links),
  which become examples when they can run as written (no ``<placeholders>``, no ``$VARS``,
  no ``--help`` for a script without one).

Nothing is made up from the file name. ``check`` asks the same questions to say whether a
header finding can be fixed, so the two never disagree.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property

from skillsmith import exitcodes
from skillsmith.lang import shell
from skillsmith.lang.header import FIELDS, FULL_STOPS, HEAD_LINES
from skillsmith.lang.shell_checklist import caller_paths
from skillsmith.lang.shell_layout import Layout


@dataclass(frozen=True)
class Value:
    """A field's text from evidence, or None and what a person must add."""

    text: str | None
    why: str = ""


#: field labels padded so values line up, as in the protocol's example
LABELS = {name: f"{name}:".ljust(9) for name in FIELDS}

_USAGE = re.compile(r"^\W*usage\s*:\s*(\S.*)$", re.IGNORECASE)
_SELF = re.compile(r"""\$\{0##\*/\}|\$\{BASH_SOURCE(?:\[0\])?##\*/\}"""
                   r"""|\$\(\s*basename\s+(?:--\s+)?["']?(?:\$0|\$\{0\}|\$\{BASH_SOURCE(?:\[0\])?\})["']?\s*\)"""
                   r"""|`basename\s+["']?\$0["']?`|\$0(?!\w)|\$\{0\}""")
_LAUNCHERS = ("bash", "sh", "zsh", "dash", "ksh", "exec", "sudo", "source", ".")
#: words an author puts where an argument goes
_PLACEHOLDER = re.compile(r"<[^>]*>|\[[^\]]*\]|\{[^}]*\}|\.\.\.|…|\$\{?[A-Za-z_]|^[A-Z][A-Z0-9_]+$|^--?[\w-]+=[A-Z][A-Z0-9_]+$")
_EXIT_SECTION = re.compile(r"^\W*(exit(\s+(codes?|status(es)?|values?))?|return\s+codes?)\s*:?\s*(.*)$", re.IGNORECASE)
_EXIT_ITEM = re.compile(r"(?<![\w.-])(\d{1,3})\s*(?:=|:|-+|–|—|\)|\s)\s*([A-Za-z][^,;|]*?)\s*(?=[,;|]|$)")

#: words that say an exit means what the protocol's code means (codes 1 to 7)
PROTOCOL_WORDS = {
    1: r"errors?|fail|failed|failure|problem|wrong",
    2: r"usage|unknown (option|flag|argument|command)|invalid (option|flag|argument)|missing (argument|option)|"
       r"requires an argument|required|too (many|few) arguments|unexpected argument|bad (option|argument)",
    3: r"not found|no such|does not exist|doesn't exist|missing (file|dir|directory|folder|path)|(file|dir|directory|folder|path) is missing|cannot find|can't find",
    4: r"invalid|malformed|parse error|failed to parse|validation|not valid|not an? (number|integer)",
    5: r"not installed|command not found|not found on path|not on path|missing dependency|please install|is required|"
       r"requires \w+|not available",
    6: r"time(d)? ?out",
    7: r"unavailable|unreachable|connection|network|rate.?limit|service",
}


#: commands that print their results on stdout
PRINTERS = frozenset(
    "echo printf cat wc jq yq grep egrep fgrep rg sed awk gawk cut sort uniq tr column ls find du df date "
    "head tail paste tee nl fmt fold rev base64 sha256sum md5sum stat realpath readlink basename dirname".split()
)


#: what :meth:`ShellEvidence.context_meaning` says when an exit's message speaks of another code's meaning
CONFLICT = "(another meaning)"


def placeholder_free(words: list[str]) -> bool:
    """Whether an invocation's words can run as written (no ``<file>``, ``FILE``, ``$VAR``, ``[opts]``)."""
    return not any(_PLACEHOLDER.search(w) for w in words)


class ShellEvidence:
    """The evidence for one shell script's header, from its bytes, tree and skill."""

    def __init__(self, layout: Layout, name: str, invocations: tuple[str, ...] = (), script_path: str | None = None):
        self.layout = layout
        self.data = layout.data
        self.root = layout.root
        self.name = name
        self.invocations = invocations
        self.script_path = script_path  # as SKILL.md spells it (scripts/x.sh)

    # -- basics -----------------------------------------------------------------------------

    @cached_property
    def nodes(self) -> list:
        return list(shell.walk(self.root))

    @cached_property
    def commands(self) -> list[shell.Command]:
        """Every simple command (``shell.commands``), listed once for all the questions asked."""
        return list(shell.commands(self.root, self.data, self.nodes))

    @cached_property
    def _commands_by_name(self) -> dict[str, list]:
        by_name: dict[str, list] = {}
        for cmd in self.commands:
            by_name.setdefault(cmd.name, []).append(cmd.node)
        return by_name

    @cached_property
    def functions(self) -> dict:
        return shell.functions(self.root, self.data, self.nodes)

    @cached_property
    def header_lines(self) -> tuple[int, int]:
        h = self.layout.header
        return (h.start_line, h.end_line) if h is not None else (0, 0)

    def in_help(self, node) -> bool:
        """Whether *node* is part of the -h/--help handling (its branch, or a case that only holds it)."""
        p = node
        while p is not None:
            if p.type == "case_item" and _is_help_item(p, self.data):
                return True
            if p.type == "case_statement":
                items = [c for c in p.named_children if c.type == "case_item"]
                if items and all(_is_help_item(i, self.data) for i in items):
                    return True
            p = p.parent
        return False

    def in_header(self, node) -> bool:
        start, end = self.header_lines
        return start <= node.start_point[0] + 1 <= end

    @cached_property
    def unparsed(self) -> str:
        """Why the code cannot be read as a whole (a region tree-sitter could not parse), or ""."""
        if not self.root.has_error:
            return ""
        start = next(s for s, _e in shell.error_ranges(self.root))
        return f"part of the script does not parse (line {self.layout.line_of(start)}), so the code cannot tell"

    @cached_property
    def sources(self) -> bool:
        return any(c.name in ("source", ".", "eval") and c.args for c in self.commands)

    @cached_property
    def self_variables(self) -> set[str]:
        """Variables that hold the script's own name (``PROG=$(basename "$0")``)."""
        names = set()
        for node in self.nodes:
            if node.type == "variable_assignment":
                value = node.child_by_field_name("value")
                target = node.child_by_field_name("name")
                if value is not None and target is not None and _SELF.fullmatch(shell.unquote(shell.text(value, self.data))):
                    names.add(shell.text(target, self.data))
        return names

    def own_name(self, text: str) -> str:
        """*text* with ``$0``, ``$(basename "$0")`` and variables holding them replaced by the script's name."""
        text = _SELF.sub(self.name, text)
        for var in self.self_variables:
            text = re.sub(r"\$\{?" + re.escape(var) + r"\}?(?![\w])", self.name, text)
        return text

    # -- the author's usage text ---------------------------------------------------------------

    @cached_property
    def usage_blocks(self) -> list[tuple[list[str], object]]:
        """Texts the script prints that hold a ``Usage:`` line: (lines, node), usage functions first."""
        found = []
        for node in self.nodes:
            if node.type not in ("string", "raw_string", "heredoc_body") or self.in_header(node):
                continue
            raw = shell.text(node, self.data)
            if node.type != "heredoc_body":
                raw = raw[1:-1] if len(raw) >= 2 else raw
            lines = raw.splitlines()
            if any(_USAGE.match(ln) for ln in lines):
                found.append((lines, node))
        in_usage = [b for b in found if self._in_usage_function(b[1])]
        return in_usage + [b for b in found if b not in in_usage]

    def _in_usage_function(self, node) -> bool:
        p = node.parent
        while p is not None:
            if p.type == "function_definition":
                name = p.child_by_field_name("name")
                return name is not None and bool(re.search(r"usage|help", shell.text(name, self.data), re.I))
            p = p.parent
        return False

    @cached_property
    def author_usage(self) -> str | None:
        """The script's own usage line, with its name as this file is called."""
        for lines, _node in self.usage_blocks:
            for ln in lines:
                m = _USAGE.match(ln)
                if not m:
                    continue
                usage = self.own_name(m.group(1)).strip().rstrip("\"'").strip()
                if not usage or "$" in usage or "`" in usage:
                    continue
                words = usage.split()
                while words and words[0] in _LAUNCHERS:
                    words.pop(0)
                if not words:
                    continue
                first = words[0].lstrip("./")
                if first.endswith(self.name) or first.rsplit("/", 1)[-1] == self.name:
                    return " ".join([self.name] + words[1:])
                if words[0].startswith(("-", "[", "<")) or words[0].isupper():
                    return " ".join([self.name] + words)
                return None  # another program's usage (a wrapped tool): not this script's words
        h = self.layout.header
        for text in h.lines if h is not None else ():
            m = re.match(r"^\s*args\s*:\s*(-\S.*?)(?:\s{2,}.*)?$", text, re.IGNORECASE)  # `Args: --url <URL> [--width N]`
            if m and "$" not in m.group(1) and "(" not in m.group(1):
                return f"{self.name} {m.group(1).strip()}"
        return None

    @cached_property
    def usage_description(self) -> str | None:
        """A sentence of the usage text that says what the script does."""
        for lines, _node in self.usage_blocks[:1]:
            for ln in lines:
                text = ln.strip()
                if not text or _USAGE.match(text) or text.startswith(("-", "$", "#")) or text.endswith(":"):
                    continue
                if "$" in text or "`" in text or self.name in text:
                    continue
                if len(text.split()) >= 3 and text[0].isupper() and re.search(r"[a-z]", text):
                    return text if text.endswith(FULL_STOPS) else text + "."
        return None

    @cached_property
    def usage_examples(self) -> list[str]:
        """Lines under an ``Examples:`` heading of the usage text that run the script."""
        found = []
        for lines, _node in self.usage_blocks:
            inside, pending, indent = False, "", None
            for ln in lines:
                if re.match(r"^\s*examples?\s*:?\s*$", ln, re.I):
                    inside = True
                    continue
                if inside:
                    if not ln.strip():
                        continue  # examples may be spaced out, each under its comment
                    depth = len(ln) - len(ln.lstrip())
                    if indent is None:
                        indent = depth
                    elif depth < indent or re.match(r"^\s*[A-Za-z][\w ]*:\s*$", ln):
                        break  # the next section (``OPTIONS:``)
                    if pending:
                        ln = pending + " " + ln.strip()
                        pending = ""
                    if ln.rstrip().endswith("\\"):
                        pending = ln.rstrip()[:-1].strip()  # the example goes on over the next line
                        continue
                    text = self.own_name(ln.strip())
                    text = re.sub(r"\s+#.*$", "", text)
                    words = text.split()
                    while words and words[0] in ("$", ">", "%"):
                        words.pop(0)
                    if words and words[0].lstrip("./").endswith(self.name):
                        found.append(" ".join(words))
        return found

    # -- options and arguments ------------------------------------------------------------------

    @cached_property
    def options(self) -> list[str]:
        """The options the code accepts, as Usage shows them: ``[--days DAYS]``, ``[-v]``."""
        found: list[str] = []
        for item in shell.case_items(self.root, self.nodes):
            pats = shell.case_patterns(item, self.data)
            alts = [a for p in pats for a in p.split("|")]
            if not alts or not all(re.match(r"^--?[A-Za-z0-9][\w-]*(=\*)?$", a) for a in alts):
                continue
            if any(a in ("-h", "--help", "-help") for a in alts):
                continue
            body = shell.text(item, self.data)
            value = None
            if any(a.endswith("=*") for a in alts):
                value = self._value_name(item, "=") or "VALUE"
                alts = [a[:-2] for a in alts]
                shown = "|".join(alts) + "=" + value
            else:
                if re.search(r"\$\{?2\b|shift\s+2|\$OPTARG|\$\{OPTARG", body):
                    value = self._value_name(item, "2") or "VALUE"
                shown = "|".join(alts) + (f" {value}" if value else "")
            entry = f"[{shown}]"
            if entry not in found:
                found.append(entry)
        for cmd in self.commands:
            if cmd.name == "getopts" and cmd.args:
                spec = shell.unquote(shell.text(cmd.args[0], self.data)).lstrip(":")
                for letter, colon in re.findall(r"([A-Za-z0-9])(:?)", spec):
                    if letter == "h":
                        continue
                    entry = f"[-{letter}{' VALUE' if colon else ''}]"
                    if entry not in found and not any(e.startswith(f"[-{letter}") for e in found):
                        found.append(entry)
        return found

    def _value_name(self, item, source: str) -> str | None:
        """The variable a case branch stores its option's value in: ``--days) DAYS=$2`` is DAYS."""
        for node in shell.walk(item):
            if node.type != "variable_assignment":
                continue
            value = node.child_by_field_name("value")
            name = node.child_by_field_name("name")
            if value is None or name is None:
                continue
            raw = shell.text(value, self.data)
            if source == "2" and re.search(r"\$\{?2\b|\$\{?OPTARG", raw) or source == "=" and re.search(r"#\*=|\$\{?1#", raw):
                return shell.text(name, self.data).upper().lstrip("_") or None
        return None

    @cached_property
    def argument_reads(self) -> list:
        """Expansions of the script's own arguments (``$1``, ``$@``, ``$#``) and ``shift``/``getopts``.

        Reads inside a function count when the function is called with ``"$@"``.
        """
        called_with_all = self._functions_given_the_arguments()
        found = []
        for node in self.nodes:
            is_read = False
            if node.type in ("simple_expansion", "expansion"):
                inner = next((c for c in node.named_children if c.type in ("variable_name", "special_variable_name")), None)
                if inner is not None:
                    t = shell.text(inner, self.data)
                    is_read = t.isdigit() and t != "0" or t in ("@", "*", "#")
            elif node.type == "command":
                is_read = _command_name(node, self.data) in ("shift", "getopts")
            if not is_read or self.in_help(node):
                continue
            func = _enclosing_function(node)
            if func is None or shell.text(func.child_by_field_name("name"), self.data) in called_with_all:
                found.append(node)
        return found

    def _functions_given_the_arguments(self) -> set[str]:
        """Functions called with the script's own ``"$@"``: from top level, or from such a function."""
        calls = []  # (caller function or None, callee)
        for cmd in self.commands:
            if cmd.name in self.functions and any(re.match(r'^"?\$\{?[@*]\}?"?$', shell.text(a, self.data)) for a in cmd.args):
                caller = _enclosing_function(cmd.node)
                calls.append((shell.text(caller.child_by_field_name("name"), self.data) if caller else None, cmd.name))
        found: set[str] = set()
        grew = True
        while grew:
            grew = False
            for caller, callee in calls:
                if callee not in found and (caller is None or caller in found):
                    found.add(callee)
                    grew = True
        return found

    @cached_property
    def positionals(self) -> list[str]:
        """The arguments as Usage names them, from the variables the code fills: ``FILE [OUT]``."""
        named: dict[int, str] = {}
        optional: set[int] = set()
        rest = False
        for node in self.argument_reads:
            if _inside_option_branch(node) or self._option_switch(node):
                continue
            text = shell.text(node, self.data)
            m = re.match(r"^\$\{?([1-9])", text)
            if m:
                index = int(m.group(1))
                if ":-" in text or re.match(r"^\$\{\d+-", text):
                    optional.add(index)
                parent = node.parent
                while parent is not None and parent.type in ("string", "concatenation"):
                    parent = parent.parent
                if parent is not None and parent.type == "variable_assignment" and index not in named:
                    target = parent.child_by_field_name("name")
                    if target is not None:
                        named[index] = shell.text(target, self.data).upper().lstrip("_")
                named.setdefault(index, "")
            elif re.match(r'^"?\$\{?[@*]', text) and node.parent is not None:
                rest = True
        words = self.subcommands
        if words and 1 not in named:
            named[1] = "|".join(words)
        if not named and not rest:
            return []
        out = []
        for index in range(1, max(named, default=0) + 1):
            word = named.get(index) or (f"ARG{index}" if len(named) > 1 else "ARG")
            out.append(f"[{word}]" if index in optional else word)
        if rest and not self.options:
            out.append("[ARG...]")
        elif rest:
            out.append("[ARG...]")
        return out

    def _option_switch(self, node) -> bool:
        """Whether *node* is the word a ``case`` of options switches on (``case "${1:-}" in --team)``)."""
        p = node.parent
        while p is not None and p.type in ("string", "concatenation"):
            p = p.parent
        if p is None or p.type != "case_statement":
            return False
        items = [c for c in p.named_children if c.type == "case_item"]
        return any(a.startswith("-") for i in items for pat in shell.case_patterns(i, self.data) for a in pat.split("|"))

    @cached_property
    def subcommands(self) -> list[str]:
        """The words a ``case "$1"`` accepts as its first argument (``clone|pull|status``), when it has a few;
        not a function's own ``case "$1"`` (``day_to_num "$day"``) unless it is given the script's arguments."""
        given = None
        for node in self.nodes:
            if node.type != "case_statement" or self.in_help(node):
                continue
            func = _enclosing_function(node)
            if func is not None:
                given = self._functions_given_the_arguments() if given is None else given
                if shell.text(func.child_by_field_name("name"), self.data) not in given:
                    continue
            value = node.child_by_field_name("value")
            if value is None or not re.match(r'^"?\$\{?1(\}|:-[^}]*\})?"?$', shell.text(value, self.data)):
                continue
            words = []
            for item in (c for c in node.named_children if c.type == "case_item"):
                for alt in (a for p in shell.case_patterns(item, self.data) for a in p.split("|")):
                    if re.match(r"^[a-z][\w-]*$", alt) and alt not in words:
                        words.append(alt)
            if 1 < len(words) <= 8:
                return words
        return []

    @cached_property
    def forwarded(self) -> list[shell.Command]:
        """The commands outside the script's functions that get all its arguments (``"$@"``) and
        are no function of it: code this file does not show (another program, a sourced function)."""
        return [cmd for cmd in self.commands
                if cmd.name not in self.functions and _enclosing_function(cmd.node) is None
                and any(re.match(r'^"?\$\{?[@*]\}?"?$', shell.text(a, self.data)) for a in cmd.args)]

    @property
    def forwards_unknown(self) -> bool:
        """Whether all arguments go to code this file does not show (another program, a sourced function)."""
        return bool(self.forwarded)

    # -- field values ---------------------------------------------------------------------------

    @cached_property
    def usage(self) -> Value:
        if self.author_usage:
            return Value(self.author_usage)
        if self.unparsed:
            return Value(None, f"say how to call it: {self.unparsed}")
        if self.sources:
            return Value(None, "say how to call it: the files it sources see its arguments and may parse them")
        parts = [self.name] + self.options + [p for p in self.positionals if p not in self.options]
        if self.forwards_unknown and "[ARG...]" not in parts:
            parts.append("[ARG...]")
        return Value(" ".join(parts))

    @cached_property
    def reads_stdin(self) -> bool:
        for node in self.nodes:
            if node.type == "word" and shell.text(node, self.data) in ("/dev/stdin", "-") and node.parent is not None \
                    and node.parent.type == "command" and _command_name(node.parent, self.data) in ("cat", "jq", "python3", "python"):
                return True
            if node.type == "test_operator" and shell.text(node, self.data) == "-t" and node.next_named_sibling is not None \
                    and shell.text(node.next_named_sibling, self.data) == "0":
                return True  # [ -t 0 ]: it looks at what stdin is
        for cmd in self.commands:
            if cmd.name not in ("read", "cat", "mapfile", "readarray"):
                continue
            if cmd.name == "cat" and cmd.args:
                continue
            if _input_redirected(cmd.node):
                continue
            return True
        return False

    @cached_property
    def environment(self) -> list[str]:
        """Environment variables the script reads (upper-case names it never assigns)."""
        if self.sources:
            return []
        assigned = shell.assigned_names(self.root, self.data, self.nodes) | shell.ALWAYS_SET
        found: list[str] = []
        for node in self.nodes:
            if node.type not in ("simple_expansion", "expansion"):
                continue
            target = next((c for c in node.named_children if c.type == "variable_name"), None)
            if target is None:
                continue
            name = shell.text(target, self.data)
            if name in assigned or not re.match(r"^[A-Z][A-Z0-9_]*$", name) or name in found:
                continue
            found.append(name)
        return found

    @cached_property
    def input(self) -> Value:
        if self.unparsed:
            return Value(None, f"say what it reads: {self.unparsed}")
        parts = []
        if self.argument_reads:
            parts.append("arguments as in Usage")
        if self.reads_stdin:
            parts.append("stdin")
        if self.environment:
            env = self.environment
            parts.append("environment " + ", ".join(env[:4]) + (", ..." if len(env) > 4 else ""))
        if parts:
            return Value("; ".join(parts))
        if self.sources:
            return Value(None, "say what it reads: the files it sources may read arguments, stdin or the environment")
        return Value("none")

    @cached_property
    def writes(self) -> tuple[int, int, int]:
        """(writes to stdout, error messages on stderr, other messages on stderr).

        A write is a command that prints (``echo``, ``printf``, ``cat`` of a heredoc, the
        filters in :data:`PRINTERS`); one inside a function goes where the function's calls
        send it. A message on stderr followed by a non-zero ``exit`` is an error.
        """
        out = err = info = 0
        self._json_writes = self._other_writes = self._file_writes = 0
        for cmd in self.commands:
            if cmd.name not in PRINTERS:
                continue
            if cmd.name == "cat" and not cmd.args and not _has_heredoc(cmd.node):
                continue
            if _captured(cmd.node) or self.in_help(cmd.node) or _quiet(cmd, self.data):
                continue
            where = _destination(cmd.node, self.data)
            if where == "file":
                self._file_writes += 1
            sites = [cmd.node]
            func = _enclosing_function(cmd.node)
            if where == "stdout" and func is not None:
                calls = self._calls(func)
                if calls:
                    targets = {_destination(c, self.data) for c in calls if not _captured(c)}
                    if targets == {"stderr"}:
                        where, sites = "stderr", calls
                    elif not targets or targets == {"file"}:
                        continue
            if where == "stderr" and func is not None and sites == [cmd.node]:
                sites += self._calls(func)  # `die() { echo "$*" >&2; }` is an error where a call exits after it
            if where == "stdout":
                out += 1
                if _prints_json(cmd, self.data):
                    self._json_writes += 1
                else:
                    self._other_writes += 1
            elif where == "stderr":
                if any(_exits_after(site, self.data) for site in sites):
                    err += 1
                else:
                    info += 1
        return out, err, info

    def _calls(self, func) -> list:
        name = shell.text(func.child_by_field_name("name"), self.data)
        return list(self._commands_by_name.get(name, ()))

    def mentioned(self, word: str) -> int | None:
        """The header line, other than the description, that already speaks of *word* (``stderr``)."""
        h = self.layout.header
        if h is None:
            return None
        for offset, text in enumerate(h.lines):
            line = h.start_line + offset
            if line != h.description_line and re.search(rf"\b{word}\b", text, re.IGNORECASE):
                return line
        return None

    @cached_property
    def output(self) -> Value:
        line = self.mentioned("stdout")
        if line is not None:
            return Value(None, f"the header speaks of stdout at line {line}: make that an Output: field")
        if self.unparsed:
            return Value(None, f"say what it prints on stdout: {self.unparsed}")
        out, _err, _info = self.writes
        if not out:
            return Value(None, "say what it prints on stdout (no echo or printf to stdout shows it)")
        if self._json_writes and not self._other_writes:
            return Value("JSON on stdout")
        files = "; writes files" if self._file_writes else ""  # a printer redirected into a file
        json_flag = any("--json" in o for o in self.options)
        if json_flag:
            return Value("text on stdout; with --json, JSON" + files)
        return Value("text on stdout" + files)

    @cached_property
    def stderr(self) -> Value:
        line = self.mentioned("stderr")
        if line is not None:
            return Value(None, f"the header speaks of stderr at line {line}: make that a Stderr: field")
        if self.unparsed:
            return Value(None, f"say what goes to stderr: {self.unparsed}")
        _out, err, info = self.writes
        if err and info:
            return Value("messages and errors")
        if err:
            return Value("error messages")
        if info:
            return Value("messages")
        return Value(None, "say what goes to stderr (nothing in the script writes there itself)")

    # -- exit codes -------------------------------------------------------------------------------

    @cached_property
    def constants(self) -> dict[str, int]:
        return shell.constants(self.root, self.data, self.nodes)

    @cached_property
    def exits(self) -> list[tuple[int | None, object]]:
        """(code or None when computed, command) of each ``exit`` with an argument, outside the header."""
        found = []
        for cmd in self.commands:
            if cmd.name != "exit" or not cmd.args or self.in_help(cmd.node):
                continue
            found.append((shell.resolve_code(shell.text(cmd.args[0], self.data), self.constants), cmd.node))
        for node in self.nodes:  # ${1:?message} stops a non-interactive shell with status 1
            if node.type == "expansion" and any(c.type in (":?", "?") for c in node.children):
                found.append((1, node))
        return found

    @cached_property
    def documented_exits(self) -> dict[int, str]:
        """Exit meanings the author wrote: the header's Exit field, the usage text, comments at exits."""
        found: dict[int, str] = {}
        h = self.layout.header
        if h is not None and "Exit" in h.fields:
            f = h.fields["Exit"]
            for code, meaning in documented_items(" ; ".join([f.value] + [i.strip() for i in f.items])).items():
                found.setdefault(code, meaning)
        for lines, _node in self.usage_blocks:
            inside = False
            for ln in lines:
                m = _EXIT_SECTION.match(ln)
                if m:
                    inside = True
                    for code, meaning in documented_items(m.group(5)).items():
                        found.setdefault(code, meaning)
                    continue
                if not inside:
                    continue
                items = documented_items(ln) if re.match(r"^\W*\d{1,3}\b", ln) else {}
                for code, meaning in items.items():
                    found.setdefault(code, meaning)
                if not items and ln.strip():
                    inside = False
        for code, node in self.exits:
            if code is None:
                continue
            line = self.layout.lines[node.start_point[0]] if node.start_point[0] < len(self.layout.lines) else ""
            m = re.search(r"\s#\s*(.+)$", line)
            code_part = line[:m.start()].rstrip().rstrip(";").rstrip() if m else ""
            # `exit 3  # no data`: a short comment right after the exit says what it means
            if m and code_part.endswith(shell.text(node, self.data)) and len(m.group(1).split()) <= 6 \
                    and not re.search(r"skillsmith:|shellcheck", m.group(1)):
                found.setdefault(code, _clean_meaning(m.group(1)))
        return found

    def context_meaning(self, node, code: int) -> str | None:
        """What the code around one ``exit N`` says it means: usage for an unknown option, a message's words."""
        item = shell.enclosing(node, "case_item")
        if item is not None:
            pats = [a for p in shell.case_patterns(item, self.data) for a in p.split("|")]
            if any(p == "*" or p.startswith("-") and any(ch in p for ch in "*?[") for p in pats):
                return exitcodes.ExitCode.USAGE.meaning if code == exitcodes.ExitCode.USAGE else None
        func = _enclosing_function(node)
        if func is not None and re.search(r"usage", shell.text(func.child_by_field_name("name"), self.data), re.I):
            return exitcodes.ExitCode.USAGE.meaning if code == exitcodes.ExitCode.USAGE else None
        text = " ".join(_before(node, self.data)).lower()
        if not text:
            return None
        said = {c for c, words in PROTOCOL_WORDS.items() if c != 1 and re.search(rf"\b(?:{words})\b", text)}
        if re.search(r"\$#|\$\{#\}|-z\s+\"?\$\{?[1-9]|\busage\b", text):  # an argument check, a usage line
            said.add(exitcodes.ExitCode.USAGE)
        if said == {code}:
            known = exitcodes.fixed(code)
            return known.meaning if known is not None else None
        return CONFLICT if said else None

    @cached_property
    def exit_meanings(self) -> dict[int, Value]:
        """Each code the script exits with (and 0) and what it means, from evidence only."""
        documented = self.documented_exits
        codes = sorted({0} | {c for c, _ in self.exits if c is not None})
        out: dict[int, Value] = {}
        for code in codes:
            if code in documented:
                out[code] = Value(documented[code])
                continue
            if any(v == code and exitcodes.is_constant(n) and not re.match(r"^EXIT_CODE_\d+$", n)
                   for n, v in self.constants.items()):
                out[code] = Value(exitcodes.meaning(code, self.constants))  # the author named it
                continue
            if code == 0:
                out[code] = Value(exitcodes.ExitCode.SUCCESS.meaning)
                continue
            if code == exitcodes.ExitCode.ERROR:
                out[code] = Value(exitcodes.ExitCode.ERROR.meaning)
                continue
            seen = {self.context_meaning(n, code) for c, n in self.exits if c == code}
            seen.discard(None)
            if len(seen) == 1 and CONFLICT not in seen:
                out[code] = Value(seen.pop())
                continue
            line = next(n.start_point[0] + 1 for c, n in self.exits if c == code)
            out[code] = Value(None, f"say what exit {code} (line {line}) means")
        return out

    def constant_for(self, code: int) -> Value:
        """The ``EXIT_*`` name for *code* when the evidence says what it means (see :func:`name_for`)."""
        meaning = self.exit_meanings.get(code)
        if meaning is None:
            meaning = Value(None, f"say what exit {code} means")
        words = self.layout.header.exit_words if self.layout.header is not None else {}
        return name_for(code, meaning, words.get(code))

    @cached_property
    def exit(self) -> Value:
        if self.unparsed:
            return Value(None, f"list its exit codes: {self.unparsed}")
        if self.sources:
            return Value(None, "list its exit codes: the files it sources may exit with their own")
        if any(code is None for code, _ in self.exits):
            node = next(n for c, n in self.exits if c is None)
            return Value(None, f"list its exit codes: it exits with a computed code at line {node.start_point[0] + 1}")
        meanings = self.exit_meanings
        missing = [v.why for v in meanings.values() if v.text is None]
        if missing:
            return Value(None, "; ".join(missing))
        return Value(", ".join(f"{c} {v.text}" for c, v in meanings.items()))

    # -- examples and description ----------------------------------------------------------------

    @cached_property
    def needs_arguments(self) -> bool:
        """Whether a call without arguments is a usage error: a required positional, or ``$#`` checked before an exit."""
        if any(not p.startswith("[") for p in self.positionals):
            return True
        usage = re.sub(r"\[[^\]]*\]", "", self.author_usage or "")  # what is left outside [optional] parts
        if re.search(r"<[^>]+>|(?<![\w-])[A-Z][A-Z0-9_]{1,}(?![\w-])", usage.split(" ", 1)[1] if " " in usage else ""):
            return True
        names = "|".join(map(re.escape, sorted(caller_paths(self.root, self.data, self.nodes))))
        checked = re.compile(rf"\$#|-z\s+[\"']?\$\{{?(?:[1-9]{'|' + names if names else ''})\b|\busage\b", re.IGNORECASE)
        for code, node in self.exits:
            if code in (None, 0) or shell.enclosing(node, "case_item") is not None:
                continue
            if checked.search(" ".join(_before(node, self.data))):
                return True  # an exit after a check of an argument (not of a command's result) or a usage line
        usage = {n for n, f in self.functions.items() if re.search(r"usage", n, re.I)
                 and re.search(r"\bexit\s+(?!0\b)\S", shell.text(f, self.data))}
        return any(cmd.name in usage and shell.enclosing(cmd.node, "case_item") is None and _enclosing_function(cmd.node) is None
                   for cmd in self.commands)

    def usable_example(self, invocation: str, has_help: bool) -> bool:
        words = invocation.split()
        if not words or not placeholder_free(words[1:]):
            return False
        if not has_help and any(w in ("-h", "--help", "-help") for w in words):
            return False
        script_at = next((i for i, w in enumerate(words) if w.endswith(self.name)), 0)
        if len(words) == script_at + 1 and self.needs_arguments:
            return False  # a bare call of a script that needs arguments fails
        return True

    def examples(self, has_help: bool) -> Value:
        found: list[str] = []
        for inv in list(self.invocations) + self.usage_examples:
            if self.usable_example(inv, has_help) and inv not in found:
                found.append(inv)
        if not found:
            return Value(None, "add a worked invocation (SKILL.md shows none that runs as written)")
        return Value("\n".join(found[:3]))

    @cached_property
    def description(self) -> Value:
        if self.usage_description:
            return Value(self.usage_description)
        return Value(None, "add a one-line description of what the script does")

    def value(self, field: str, has_help: bool) -> Value:
        if field == "Examples":
            return self.examples(has_help)
        return getattr(self, field.lower())


def documented_items(text: str) -> dict[int, str]:
    """``{0: "ok", 2: "not a git repo"}`` from ``0 ok, 2 = Not a git repo`` and its kin."""
    found: dict[int, str] = {}
    for code, meaning in _EXIT_ITEM.findall(text):
        meaning = _clean_meaning(meaning)
        if meaning:
            found.setdefault(int(code), meaning)
    return found


def _clean_meaning(text: str) -> str:
    text = re.sub(r"\s*\([^)]*\)?", "", text)  # an aside: (see ...)
    text = text.strip().rstrip(".;,:").strip()
    if text[:1].isupper() and not text[1:2].isupper():
        text = text[0].lower() + text[1:]
    return text


def name_for(code: int, meaning: Value, word: str | None) -> Value:
    """The constant for exit *code*, when its meaning is known and the name says the same.

    Codes 1 to 7 take the protocol's name when the evidence means what the protocol means
    (an author's ``2 = not a git repo`` is not ``EXIT_USAGE``); higher codes take the author's
    word (``10 drift`` is ``EXIT_DRIFT``).
    """
    if meaning.text is None:
        return Value(None, meaning.why + ", then name it")
    known = exitcodes.fixed(code)
    if known is not None:
        pattern = PROTOCOL_WORDS.get(code)
        agrees = meaning.text == known.meaning or (pattern is not None and re.search(rf"\b(?:{pattern})\b", meaning.text, re.I))
        if agrees or code == 0:
            return Value(known.constant)
        return Value(None, f"exit {code} means \"{meaning.text}\" here, but the protocol's {code} is "
                           f"{known.meaning} ({known.constant}): choose the code or its name yourself")
    words = word or meaning.text
    words = re.sub(r"[^A-Za-z0-9]+", "_", words).strip("_").upper()
    if not words or len(words.split("_")) > 4:
        return Value(None, f"name exit {code} yourself (\"{meaning.text}\" makes no short name)")
    return Value(exitcodes.PREFIX + words)


# -- tree helpers ---------------------------------------------------------------------------------


def _enclosing_function(node):
    return shell.enclosing(node, "function_definition")


def _quiet(cmd, data: bytes) -> bool:
    """A printer told to print nothing: ``grep -q``."""
    return cmd.name in ("grep", "egrep", "fgrep", "rg") and any(
        re.match(r"^-[A-Za-z]*q|^--(quiet|silent)$", w) for w in cmd.arg_texts(data))


def _prints_json(cmd, data: bytes) -> bool:
    """Whether a write prints JSON: ``jq``, or ``echo``/``printf`` of text that opens an object or a list."""
    if cmd.name in ("jq", "yq"):
        return True
    if cmd.name in ("echo", "printf") and cmd.args:
        first = next((a for a in cmd.args if not shell.text(a, data).startswith("-")), None)
        text = shell.unquote(shell.text(first, data)) if first is not None else ""
        return bool(re.match(r"^\\?[{\[]", text.lstrip()))
    return False


def _is_help_item(item, data: bytes) -> bool:
    return any(a in ("-h", "--help", "-help") for p in shell.case_patterns(item, data) for a in p.split("|"))


def _inside_option_branch(node) -> bool:
    item = shell.enclosing(node, "case_item")
    return item is not None


def _command_name(node, data: bytes) -> str | None:
    name = node.child_by_field_name("name")
    return shell.text(name, data) if name is not None else None


def _redirects(node) -> list:
    """The redirects that apply to command *node* (its own, and those of the statement that wraps it)."""
    found = []
    n = node
    while n is not None and n.type in ("command", "redirected_statement"):
        if n.type == "redirected_statement":
            found += [c for c in n.children if c.type.endswith("_redirect")]
        else:
            found += [c for c in n.children if c.type in ("file_redirect", "heredoc_redirect", "herestring_redirect")]
        n = n.parent
    return found


def _destination(node, data: bytes) -> str:
    """Where a command's stdout goes: ``stdout``, ``stderr`` or ``file``."""
    where = "stdout"
    for r in _redirects(node):
        if r.type != "file_redirect":
            continue
        text = shell.text(r, data).replace(" ", "")
        if re.match(r"^1?>&2$", text) or "/dev/stderr" in text:
            where = "stderr"
        elif re.match(r"^(1?>|>>|&>|1>>)", text) and not re.match(r"^1?>&1", text):
            where = "file"
    return where


def _input_redirected(node) -> bool:
    """Whether a command's stdin is something other than the script's: a pipe, a file, a heredoc."""
    child, n = node, node.parent
    for r in _redirects(node):
        if r.type in ("heredoc_redirect", "herestring_redirect") or re.match(rb"^\s*\d*<", r.text or b""):
            return True
    while n is not None and n.type not in ("function_definition", "program"):
        if n.type == "pipeline" and n.named_children and n.named_children[0] != child:
            return True
        if n.type == "redirected_statement":
            for r in (c for c in n.children if c.type.endswith("_redirect")):
                if r.type in ("heredoc_redirect", "herestring_redirect") or re.match(rb"^\s*\d*<", r.text or b""):
                    return True
        child, n = n, n.parent
    return False


def _captured(node) -> bool:
    """Whether a command's stdout is read by the script itself (a substitution, a pipe)."""
    p = node.parent
    child = node
    while p is not None:
        if p.type in ("command_substitution", "process_substitution"):
            return True
        if p.type == "pipeline" and p.named_children and p.named_children[-1] != child:
            return True
        if p.type in ("function_definition", "program"):
            return False
        child = p
        p = p.parent
    return False


def _has_heredoc(node) -> bool:
    return any(r.type in ("heredoc_redirect", "herestring_redirect") for r in _redirects(node))


def _statements_after(node):
    """The statements that follow *node*'s statement in its block."""
    n = node
    while n.parent is not None and n.parent.type in ("redirected_statement", "list", "pipeline"):
        n = n.parent
    sib = n.next_named_sibling
    while sib is not None:
        yield sib
        sib = sib.next_named_sibling


def _exits_after(node, data: bytes) -> bool:
    """Whether a message is followed by a non-zero ``exit`` or ``return`` (an error, not progress)."""
    p = node.parent
    while p is not None and p.type in ("redirected_statement",):
        p = p.parent
    if p is not None and p.type == "list":
        text = shell.text(p, data)
        if re.search(r"\b(exit|return)\s+(?!0\b)\S", text):
            return True
    for sib in _statements_after(node):
        if sib.type == "comment":
            continue
        text = shell.text(sib, data)
        return bool(re.match(r"^(exit|return)\s+(?!0\b)\S", text))
    func = _enclosing_function(node)
    if func is not None:
        return bool(re.search(r"\b(exit|return)\s+(?!0\b)[\"$\w]", shell.text(func, data)))
    return False


def _before(node, data: bytes) -> list[str]:
    """The words of the messages printed right before an ``exit`` in its block (and the ``||`` list it ends)."""
    texts = []
    n = node
    while n.parent is not None and n.parent.type in ("redirected_statement",):
        n = n.parent
    if n.parent is not None and n.parent.type == "list":
        texts.append(shell.text(n.parent, data))
        n = n.parent
    sib = n.prev_named_sibling
    count = 0
    while sib is not None and count < 2:
        if sib.type != "comment" and not (n.parent is not None and n.parent.type in ("if_statement", "elif_clause")
                                          and sib.end_byte <= _then_start(n.parent)):
            texts.append(shell.text(sib, data))
            count += 1
        sib = sib.prev_named_sibling
    parent = n.parent
    if parent is not None and parent.type in ("if_statement", "elif_clause"):
        then = _then_start(parent)
        texts += [shell.text(c, data) for c in parent.named_children if c.end_byte <= then]
    return texts


def _then_start(node) -> int:
    """Where the ``then`` of an if/elif starts (its condition ends before it)."""
    return next((c.start_byte for c in node.children if c.type == "then"), node.start_byte)


def header_lines_fit(first_line: int, count: int) -> bool:
    """Whether *count* lines inserted at 1-based *first_line* all stay within the first 25 lines."""
    return first_line + count - 1 <= HEAD_LINES
