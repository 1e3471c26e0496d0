"""Shell facts for the protocol's checklist (seed 000 §4, §6, §10): status text printed on
stdout, optional tools run without a guard, recursive removal of a path the caller gave.

Each function answers only where the evidence is clear. Anything that may send the output
elsewhere (a redirect further up, a function only called with ``>&2``, ``exec >&2``), a
guard that may live in a sourced file, or an option that may confirm a removal means no
answer: a missed finding costs less than a false one.
"""

from __future__ import annotations

import re

from skillsmith.lang import shell
from skillsmith.lang.keyboard import NON_INTERACTIVE
from skillsmith.lang.status import is_status_text

#: a redirect (spaces removed) that sends a command's stdout somewhere else than the script's stdout
_STDOUT_AWAY = re.compile(r"^(1?>(?!&1$)|1?>>|&>)")
_ECHO_FLAGS = re.compile(r"^-[neE]+$")
#: printed text that opens a JSON object or list (``{"``, ``{}``, ``[]``, ``[{``, ``["``), not a ``[ ]`` checkbox
_JSON_START = re.compile(r'^(\{\s*\\?"|\{\}|\[\]|\[\s*\{|\[\s*\\?")')


def _sends_stdout_away(redirect, data: bytes) -> bool:
    if redirect.type != "file_redirect":
        return False
    return bool(_STDOUT_AWAY.match(shell.text(redirect, data).replace(" ", "")))


def _redirects_of(node) -> list:
    return [c for c in node.children if c.type.endswith("_redirect")]


def _away_in_scope(node, data: bytes) -> tuple[bool, object]:
    """(whether stdout of *node* goes elsewhere within its function or the top level, that function or None)."""
    child, p = node, node.parent
    while p is not None:
        if p.type == "redirected_statement" and any(_sends_stdout_away(r, data) for r in _redirects_of(p)):
            return True, None
        if p.type in ("command_substitution", "process_substitution"):
            return True, None
        if p.type == "pipeline" and p.named_children and p.named_children[-1] != child:
            return True, None
        if p.type == "function_definition":
            if any(_sends_stdout_away(r, data) for r in _redirects_of(p)):
                return True, None
            return False, p
        child, p = p, p.parent
    return False, None


def stdout_elsewhere(node, data: bytes, calls: dict[str, list], depth: int = 0) -> bool:
    """Whether what command *node* prints never reaches the script's stdout.

    Inside a function, that holds when every call of the function sends its stdout
    elsewhere (or it is never called); *calls* maps function names to their call commands.
    """
    away, func = _away_in_scope(node, data)
    if away:
        return True
    if func is None:
        return False
    name = func.child_by_field_name("name")
    sites = calls.get(shell.text(name, data), []) if name is not None else []
    if depth > 2:
        return False
    return all(stdout_elsewhere(site, data, calls, depth + 1) for site in sites)


def _literal_head(node, data: bytes) -> str:
    """The literal text an argument starts with, up to its first expansion."""
    if node.type == "raw_string":
        return shell.text(node, data)[1:-1]
    if node.type == "word":
        return shell.text(node, data)
    if node.type == "string":
        head = []
        for c in node.children:
            if c.type == "string_content":
                head.append(shell.text(c, data))
            elif c.type != '"':
                break
        return "".join(head)
    if node.type == "concatenation" and node.children:
        return _literal_head(node.children[0], data)
    return ""


def printed_text(cmd, data: bytes) -> str | None:
    """The literal start of what ``echo``/``printf`` prints, or None for other commands."""
    args = list(cmd.args)
    if cmd.name == "echo":
        while args and _ECHO_FLAGS.match(shell.text(args[0], data)):
            args.pop(0)
    elif cmd.name == "printf":
        if args and shell.text(args[0], data) in ("-v", "--"):
            if shell.text(args[0], data) == "-v":
                return None  # assigns a variable, prints nothing
            args.pop(0)
        if args and _literal_head(args[0], data).startswith("%") and len(args) > 1:
            args.pop(0)
    else:
        return None
    return _literal_head(args[0], data) if args else ""


def function_calls(root, data: bytes, nodes: list) -> dict[str, list]:
    """Each function name the script defines, with the commands that call it."""
    defined = set(shell.functions(root, data, nodes))
    calls: dict[str, list] = {name: [] for name in defined}
    for cmd in shell.commands(root, data, nodes):
        if cmd.name in calls:
            calls[cmd.name].append(cmd.node)
    return calls


def _stdout_moved(root, data: bytes, nodes: list) -> bool:
    """``exec >&2``, ``exec > log``: from there on nothing reaches stdout."""
    for node in nodes:
        if node.type == "redirected_statement":
            body = node.child_by_field_name("body")
            if body is not None and body.type == "command" and shell.text(body, data).strip() == "exec" \
                    and any(_sends_stdout_away(r, data) for r in _redirects_of(node)):
                return True
    return False


def handles_json(root, data: bytes, nodes: list) -> bool:
    """Whether the script takes a ``--json`` option: a ``case`` pattern or a test that compares with it."""
    for item in shell.case_items(root, nodes):
        if any("--json" in p.split("|") for p in shell.case_patterns(item, data)):
            return True
    return any(node.type in ("test_command", "binary_expression") and "--json" in shell.text(node, data)
               for node in nodes)


#: any sign that a script writes JSON: a quoted key (``{"a":``, ``printf '"pid":"%s",'``), a list of objects, jq,
#: a JSON encoder
_WRITES_JSON = re.compile(rb'\\?"[A-Za-z_][\w-]*\\?"\s*:|\[\s*\{|\bjq\b|json\.dumps|JSON\.stringify|ConvertTo-Json')


def machine_output(root, data: bytes, nodes: list) -> bool:
    """Whether the script prints data for a program: it takes ``--json`` and something in it
    writes JSON (a script that parses ``--json`` and never writes any prints a report for a
    person), or it prints JSON to its stdout with ``echo``/``printf`` (text that opens an
    object or a list)."""
    if handles_json(root, data, nodes) and _WRITES_JSON.search(data):
        return True
    calls = None
    for cmd in shell.commands(root, data, nodes):
        text = printed_text(cmd, data)
        if text and _JSON_START.match(text.lstrip()):
            calls = function_calls(root, data, nodes) if calls is None else calls
            if not stdout_elsewhere(cmd.node, data, calls):
                return True
    return False


def status_prints(root, data: bytes, nodes: list) -> list:
    """``echo``/``printf`` commands whose literal text is status and whose output reaches stdout,
    in a script that prints data for a program beside it (:func:`machine_output`): a report
    meant for a person is its own product, status lines and all."""
    if _stdout_moved(root, data, nodes) or not machine_output(root, data, nodes):
        return []
    calls = None
    found = []
    for cmd in shell.commands(root, data, nodes):
        text = printed_text(cmd, data)
        if not text or not is_status_text(text):
            continue
        if calls is None:
            calls = function_calls(root, data, nodes)
        if not stdout_elsewhere(cmd.node, data, calls):
            found.append(cmd.node)
    return found


#: tools a skill may not find installed (not POSIX, not in a base system); git is left out:
#: the protocol counts it, like the coreutils, as a common tool
OPTIONAL_TOOLS = frozenset(
    "jq yq gh glab curl wget docker podman kubectl helm terraform tofu aws gcloud az doctl "
    "node npm npx pnpm yarn bun deno uv uvx pipx poetry cargo rustc go ffmpeg ffprobe magick "
    "pandoc rg fd fzf shellcheck shfmt sqlite3 psql mysql redis-cli wrangler vercel netlify "
    "flyctl supabase firebase op http xmllint xq mlr csvlook gum playwright".split()
)
_WORD = re.compile(r"[A-Za-z0-9_.+-]+")


#: what follows ``||`` without doing the tool's work: ignoring the failure, or a message
_NO_FALLBACK = {"true", ":", "echo", "printf", "exit", "return"}


def _falls_back(node, data: bytes) -> bool:
    """Whether the command *node* is followed by ``|| other-command`` that does its work when the
    tool is missing (``jq -r .x 2>/dev/null || python3 -c '...'``), not ``|| true`` or ``|| echo``."""
    n = node
    while n.parent is not None and n.parent.type in ("redirected_statement", "pipeline"):
        n = n.parent
    parent = n.parent
    if parent is None or parent.type != "list":
        return False
    after = n.next_sibling
    other = n.next_named_sibling
    if after is None or shell.text(after, data) != "||" or other is None:
        return False
    while other.type in ("redirected_statement", "pipeline") and other.named_children:
        other = other.named_children[0]
    name = other.child_by_field_name("name") if other.type == "command" else None
    return name is not None and shell.text(name, data) not in _NO_FALLBACK


_VERSION_ARGS = frozenset({"--version", "-v", "-V", "version"})
#: runtimes that print the value of an expression (``node -p``, ``python3 -c``)
_EVALUATORS = frozenset({"node", "deno", "bun", "python", "python3", "ruby", "perl"})
_EVAL_FLAGS = frozenset({"-p", "--print", "-e", "--eval", "-c"})
#: tools that run a package named by their first argument
_RUNNERS = frozenset({"npx", "bunx", "pnpx", "uvx"})


#: a fallback that only stands in for a value shown to a person: ``echo "?"``, ``echo unknown``, ``echo n/a``
_PLACEHOLDER_ECHO = re.compile(r"""(?:echo|printf)\s+(["']?)(?:\?+|unknown|n/?a|none|-+)\1\s*$""", re.IGNORECASE)


def _version_probe(node, data: bytes) -> bool:
    """Whether the command *node* asks the tool for its version with its errors discarded or a
    fallback (``$(docker --version 2>/dev/null | cut ...)``, ``$(node --version || echo "Not installed")``),
    or asks a runtime for a value in a command substitution with both (``$(node -p "..." 2>/dev/null ||
    echo "unknown")``), or runs any tool in a command substitution with its errors discarded and an
    ``||`` fallback after it that only stands in for a shown value (``$(jq 'length' "$OUT" 2>/dev/null ||
    echo "?")``; not ``|| echo "000"``, a status the script acts on): the use is itself the
    question whether the tool is there, and a missing tool leaves it empty or the fallback."""
    args = [shell.text(c, data) for c in node.children_by_field_name("argument")]
    name = node.child_by_field_name("name")
    if name is not None and shell.text(name, data) in _RUNNERS and args and not args[0].startswith("-"):
        args = args[1:]  # `npx madge --version`: the version of the package it runs
    asks_version = bool(args) and args[0] in _VERSION_ARGS
    quiet = fallback = covered = False
    n = node
    while n.parent is not None and n.parent.type in ("redirected_statement", "pipeline", "list"):
        came_from, n = n, n.parent
        quiet = quiet or n.type == "redirected_statement" and re.search(r"(?:2|&)>\s*/dev/null", shell.text(n, data)) is not None
        fallback = fallback or n.type == "list" and "||" in (shell.text(c, data) for c in n.children)
        after = came_from.next_sibling if n.type == "list" else None
        value = after.next_sibling if after is not None and shell.text(after, data) == "||" else None
        covered = covered or value is not None and _PLACEHOLDER_ECHO.match(shell.text(value, data)) is not None
    if asks_version:
        return quiet or fallback
    in_substitution = n.parent is not None and n.parent.type == "command_substitution"
    if quiet and covered and in_substitution:
        # a value shown to a person, "?" without the tool: ``count=$(jq 'length' "$f" 2>/dev/null || echo "?")``
        # (not ``code=$(curl ... || echo "000")``, a status the script then acts on)
        return True
    # a runtime asked to print a value, quiet and with a fallback value:
    # ``installed=$(node -p "require(...).version" 2>/dev/null || echo "unknown")``
    evaluates = name is not None and shell.text(name, data) in _EVALUATORS and bool(args) and args[0] in _EVAL_FLAGS
    return evaluates and quiet and fallback and in_substitution


def unguarded_tools(root, data: bytes, nodes: list) -> list[tuple[str, object]]:
    """(tool, first command running it) for each optional tool the script never names otherwise.

    A guard names the tool as a word: ``command -v jq``, ``hash jq``, ``need jq``,
    ``for t in jq curl``, an install hint. A use with a fallback (``jq ... || python3 -c ...``)
    needs none, nor a version probe with its errors discarded (``$(docker --version 2>/dev/null)``). A script that sources another file may keep its guards there, so it gets no answer.
    """
    if shell.sourced_paths(root, data, nodes):
        return []
    first: dict[str, object] = {}
    for cmd in shell.commands(root, data, nodes):
        if cmd.name in OPTIONAL_TOOLS and not _falls_back(cmd.node, data) and not _version_probe(cmd.node, data):
            first.setdefault(cmd.name, cmd.node)
    if not first:
        return []
    named: set[str] = set()
    for node in nodes:
        if node.type in ("word", "raw_string", "string_content") and not (
                node.parent is not None and node.parent.type == "command_name"):
            named.update(_WORD.findall(shell.text(node, data)))
    return [(tool, node) for tool, node in first.items() if not guarded(tool, named)]


#: commands that ask whether a tool is installed
_PROBES = frozenset({"command", "type", "hash", "which"})


def _probe(cmd, data: bytes) -> bool:
    """Whether *cmd* asks whether a tool is installed: ``command -v jq``, ``type jq``, ``hash jq``, ``which jq``."""
    return cmd.name in _PROBES and (cmd.name != "command" or any(w in ("-v", "-V") for w in cmd.arg_texts(data)))


def checked_tools(root, data: bytes, nodes: list) -> set[str]:
    """The tools a script asks for: ``command -v jq``, ``hash jq``, a helper that asks
    (``require_command jq``), a loop that asks for each (``for t in jq curl; do command -v "$t"``)."""
    def probes(node) -> bool:
        return any(_probe(c, data) for c in shell.commands(node, data))

    checkers = {name for name, body in shell.functions(root, data, nodes).items() if probes(body)}
    found: set[str] = set()
    for cmd in shell.commands(root, data, nodes):
        if cmd.name in checkers or _probe(cmd, data):
            found.update(w for w in cmd.arg_texts(data) if not w.startswith("-"))
    for node in nodes:
        body = node.child_by_field_name("body") if node.type == "for_statement" else None
        if body is not None and probes(body):
            found.update(shell.unquote(shell.text(v, data)) for v in node.children_by_field_name("value"))
    return found


def guarded(tool: str, named: set[str]) -> bool:
    """Whether *named*, the words a script names or the tools it asks for, hold *tool* or the tool it comes with."""
    return tool in named or not _SHIPPED_TOGETHER.get(tool, set()).isdisjoint(named)


#: tools that come in one package, each with the other: a guard for npm covers npx, and one for npx npm
_SHIPPED_TOGETHER = {a: {b} for pair in (("npx", "npm"), ("pnpx", "pnpm"), ("bunx", "bun"), ("uvx", "uv"))
                     for a, b in (pair, pair[::-1])}


_POSITIONAL = re.compile(r"\$\{?([1-9]|@|\*|OPTARG)(?![0-9A-Za-z_])")
_WHOLE_EXPANSION = re.compile(r"^\$\{?([A-Za-z_][A-Za-z0-9_]*|[1-9@*])(?::?[-?=+][^}]*)?\}?(?:/\*?)?$")
_CONFIRMS = re.compile(
    r"--(force|yes|dry-?run|confirm|apply|execute|no-dry-run|really)\b|\b(FORCE|DRY_?RUN|ASSUME_YES|CONFIRM)\b|"
    r"\b(force|dry_?run|assume_yes|confirm)=|\[y/n\]|\(y/n\)|y/N\b|Y/n\b", re.IGNORECASE)


def caller_paths(root, data: bytes, nodes: list) -> set[str]:
    """Variables the script fills only from its own arguments, outside any function
    (``dir="$1"``, ``out=${2:-}``, ``d) dir=$OPTARG``): every assignment of the name must be
    one. Inside a function ``$1`` is the function's argument, so those do not count."""
    values: dict[str, list[tuple[str, bool]]] = {}
    for node, in_function in shell.walk_within(root, ("function_definition",)):
        if node.type != "variable_assignment":
            continue
        name, value = node.child_by_field_name("name"), node.child_by_field_name("value")
        if name is None:
            continue
        raw = shell.text(value, data) if value is not None else ""
        values.setdefault(shell.text(name, data), []).append((raw, in_function))
    return {name for name, assigned in values.items()
            if all(_POSITIONAL.search(raw) and "mktemp" not in raw and not in_function for raw, in_function in assigned)}


def confirms(data: bytes) -> bool:
    """Whether the script has a way to confirm a destructive step: ``--force``, ``--yes``,
    ``--dry-run`` (or such a variable), or a ``[y/N]`` prompt."""
    return bool(_CONFIRMS.search(data.decode("utf-8", "replace")))


def argument_removals(root, data: bytes, nodes: list) -> list:
    """``rm -r`` commands whose operand is a path the caller gave (``"$1"``, ``"$dir"/*`` with
    ``dir="$1"``), in a script with no ``--force``/``--yes``/``--dry-run`` and no prompt. Inside a
    function ``$1`` is the function's own argument, so only the variables count there."""
    found = []
    given = None
    for node, in_function in shell.walk_within(root, ("function_definition",)):
        if node.type != "command" or shell.text(node.child_by_field_name("name") or node, data) != "rm":
            continue
        args = node.children_by_field_name("argument")
        words = [shell.unquote(shell.text(a, data)) for a in args]
        flags = [w for w in words if w.startswith("-") and w != "--"]
        if not any(w == "--recursive" or (not w.startswith("--") and ("r" in w or "R" in w)) for w in flags):
            continue
        if given is None:
            if confirms(data):
                return []
            given = caller_paths(root, data, nodes)
        for arg in args:
            m = _WHOLE_EXPANSION.match(shell.text(arg, data).replace('"', ""))
            if m is None:
                continue
            positional = not (m.group(1)[0].isalpha() or m.group(1)[0] == "_")
            if m.group(1) in given or (positional and not in_function):
                found.append(node)
                break
    return found


#: ``[ -t 0 ]``, ``test -t 1``: the script asks whether a terminal is there
_TTY_TEST = re.compile(r"(\[\[?|\btest)\s+!?\s*-t\s+[0-2]\b")


def keyboard_reads(root, data: bytes, nodes: list) -> list:
    """``read -p "Continue? " answer`` and ``read answer </dev/tty``: reads that wait for someone
    to type, in a script with no other way to run (no ``[ -t 0 ]`` test, no ``--yes``/``--force``/
    ``--non-interactive``, not interactive by its own words). A read with a timeout (``-t``), one
    whose input comes from a file, a here-string or a pipe, and reads in a loop's condition
    (``while read -r line``) are data, not a prompt."""
    text = data.decode("utf-8", "replace")
    if _TTY_TEST.search(text) or NON_INTERACTIVE.search(text):
        return []
    found = []
    for node in nodes:
        if node.type != "command" or shell.text(node.child_by_field_name("name") or node, data) != "read":
            continue
        words = [shell.unquote(shell.text(a, data)) for a in node.children_by_field_name("argument")]
        flags = "".join(w[1:] for w in words if w.startswith("-") and not w.startswith("--"))
        if "t" in flags:
            continue
        parent = node.parent
        tty = False
        if parent is not None and parent.type == "redirected_statement":
            sources = [shell.text(r, data).replace(" ", "") for r in _redirects_of(parent)]
            if any(s.startswith("<") and s != "</dev/tty" for s in sources):
                continue
            tty = "</dev/tty" in sources
        if not (tty or "p" in flags):
            continue
        if parent is not None and parent.type in ("pipeline", "while_statement", "until_statement"):
            continue
        if parent is not None and parent.type == "redirected_statement" and parent.parent is not None \
                and parent.parent.type in ("pipeline", "while_statement", "until_statement"):
            continue
        found.append(node)
    return found
