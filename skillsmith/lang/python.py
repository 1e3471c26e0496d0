"""Python scripts through ``ast``: one parse per file, and the facts rules ask of it.

``ast`` is the fast parser for detection; libcst is loaded only when a file needs a fix.
"""

from __future__ import annotations

import ast
import re
import sys
import weakref
from dataclasses import dataclass, field

from skillsmith import exitcodes

EXIT_CALLS = {"sys.exit", "exit", "quit", "os._exit", "SystemExit"}


@dataclass
class SyntaxProblem:
    message: str
    line: int
    column: int
    needs: str | None = None  # "3.12" when the file is valid for a newer Python


def parse(text: str, filename: str = "<script>") -> tuple[ast.Module | None, SyntaxProblem | None]:
    """(module, None), or (None, what is wrong) when *text* is not Python the running version parses.

    The one way skillsmith parses Python with ``ast`` (check, fix, audit, kvist, codemods): a
    ``SyntaxError``, NUL bytes (``ValueError``) and inputs that exhaust the parser
    (``RecursionError``, ``MemoryError``: absurd nesting such as ``x=`` and 200,000 ``-``) are
    all a :class:`SyntaxProblem`, never an exception. Nothing is executed.
    """
    try:
        return ast.parse(text, filename=filename), None
    except SyntaxError as exc:
        line = exc.lineno or 1
        col = exc.offset or 1
        needs = newer_syntax(text, line)
        if needs is None and sys.version_info < (3, 12) and (exc.msg or "").startswith("f-string"):
            needs = "3.12"  # PEP 701 lifted the f-string restrictions (backslashes, quotes, comments)
        if needs is None and sys.version_info < (3, 12) and (exc.msg or "").startswith("unterminated string") \
                and _FIELD_OPENS.search(_line(text, line)):
            needs = "3.12"  # f"{spec.get(\n  'key',\n)}": PEP 701 lets a replacement field span lines
        return None, SyntaxProblem(exc.msg or "invalid syntax", line, col, needs)
    except (ValueError, RecursionError, MemoryError) as exc:  # NUL bytes, absurd nesting
        return None, SyntaxProblem(str(exc) or type(exc).__name__, 1, 1)


_NEWER = [
    # (minimum version, pattern on the failing line)
    ((3, 14), re.compile(r"(?<![\w])t(?:r|R)?[\"']")),
    ((3, 12), re.compile(r"^\s*type\s+\w+(\[.*\])?\s*=")),
    ((3, 12), re.compile(r"^\s*(?:async\s+)?def\s+\w+\[|^\s*class\s+\w+\[")),
    ((3, 12), re.compile(r"(?<![\w])[rRbBuU]?[fF][rR]?(\"|').*\{[^}]*\1")),
    ((3, 11), re.compile(r"^\s*except\s*\*")),
    ((3, 10), re.compile(r"^\s*(match|case)\s+.+:\s*$")),
]


#: an f-string whose last replacement field is still open at the end of the line
_FIELD_OPENS = re.compile(r"""(?<![\w])[rR]?[fF][rR]?(["'])[^"'\n]*\{[^{}\n]*$""")


def _line(text: str, line: int) -> str:
    lines = text.splitlines()
    return lines[line - 1] if 1 <= line <= len(lines) else ""


def newer_syntax(text: str, line: int) -> str | None:
    """The Python version a failing line looks written for, when newer than the running one."""
    lines = text.splitlines()
    if not 1 <= line <= len(lines):
        return None
    # an f-string error may be reported on a later line of the same statement
    window = "\n".join(lines[max(0, line - 3):line])
    for version, pattern in _NEWER:
        if sys.version_info < version and any(pattern.search(ln) for ln in window.splitlines()):
            return f"{version[0]}.{version[1]}"
    return None


def dotted(node) -> str | None:
    """``a.b.c`` for a Name/Attribute chain of an ``ast`` or a libcst tree, else None."""
    kind = type(node)
    if kind is ast.Name:  # the common cases first: a plain name, ``a.b`` (ast)
        return node.id
    if kind is ast.Attribute:
        inner = node.value
        if type(inner) is ast.Name:
            return inner.id + "." + node.attr
    parts = []
    while type(node).__name__ == "Attribute":
        attr = node.attr
        parts.append(attr if isinstance(attr, str) else attr.value)  # libcst: a Name node
        node = node.value
    if type(node).__name__ == "Name":
        parts.append(node.id if isinstance(node, ast.Name) else node.value)
        return ".".join(reversed(parts))
    return None


@dataclass
class PythonFacts:
    aliases: dict[str, str] = field(default_factory=dict)  # local name -> qualified name
    constants: dict[str, int] = field(default_factory=dict)  # NAME -> int (module and class level)
    parsers: list[ast.Call] = field(default_factory=list)  # ArgumentParser(...) calls
    exit_codes: list[tuple[int, int, int]] = field(default_factory=list)
    calls: list[tuple[str, ast.Call]] = field(default_factory=list)  # (qualified name, call)
    strings: set[str] = field(default_factory=set)
    exit_calls: list[ast.Call] = field(default_factory=list)  # sys.exit(...), exit(...), SystemExit(...)
    nodes: list[ast.AST] = field(default_factory=list, repr=False)  # every node below the module, walked once
    parents: list[int] = field(default_factory=list, repr=False)  # nodes[i]'s parent is nodes[parents[i]] (-1: the module)
    by_type: dict[type, list[ast.AST]] = field(default_factory=dict, repr=False)  # nodes by exact class, in walk order
    has_main_guard: bool = False
    uses_argparse: bool = False
    reads_argv: bool = False


def qualified(node, aliases: dict[str, str]) -> str | None:
    """The dotted name of *node* (``ast`` or libcst) with its import alias resolved."""
    return resolve_alias(dotted(node), aliases)


def resolve_alias(name: str | None, aliases: dict[str, str]) -> str | None:
    """*name* with its first part replaced by what it was imported as (``AP`` -> ``argparse.ArgumentParser``)."""
    if name is None:
        return None
    head, _, rest = name.partition(".")
    if head in aliases:
        return aliases[head] + ("." + rest if rest else "")
    return name


def walk(node: ast.AST) -> list[ast.AST]:
    """``list(ast.walk(node))``: *node* and every node below it, in the same breadth-first order."""
    return _walk(node)[0]


def _walk(node: ast.AST) -> tuple[list[ast.AST], list[int]]:
    """(nodes, parents): ``list(ast.walk(node))``, and for each node the position of its parent
    in that list minus one (-1 for *node*'s children, -2 for *node*).

    One loop over a growing list instead of ``ast.walk``'s generators (``iter_child_nodes``
    over ``iter_fields``): half the time on real scripts.
    """
    node_type = ast.AST
    out = [node]
    parents = [-2]
    append, append_parent = out.append, parents.append
    for at, parent in enumerate(out, -1):
        for name in parent._fields:
            value = getattr(parent, name, None)
            if isinstance(value, node_type):
                append(value)
                append_parent(at)
            elif isinstance(value, list):
                for item in value:
                    if isinstance(item, node_type):
                        append(item)
                        append_parent(at)
    return out, parents


def children(node: ast.AST) -> list[ast.AST]:
    """``list(ast.iter_child_nodes(node))``, in the same order, without the generators."""
    out = []
    for name in node._fields:
        value = getattr(node, name, None)
        if isinstance(value, ast.AST):
            out.append(value)
        elif isinstance(value, list):
            out.extend(item for item in value if isinstance(item, ast.AST))
    return out


#: facts per parse: the rules, the evidence and the codemods share one walk of each tree
_FACTS: "weakref.WeakKeyDictionary[ast.Module, PythonFacts]" = weakref.WeakKeyDictionary()


def facts(module: ast.Module) -> PythonFacts:
    """Everything the rules ask of a module, from one walk of its tree (made once per parse)."""
    known = _FACTS.get(module)
    if known is None:
        known = _FACTS[module] = _facts(module)
    return known


def _facts(module: ast.Module) -> PythonFacts:
    f = PythonFacts()
    nodes, parents = _walk(module)
    # every node but the module itself: facts that held their module would keep it (and its
    # whole tree) alive in _FACTS, whose keys are weak
    f.nodes = nodes[1:]
    f.parents = parents[1:]
    by_type = f.by_type
    for node in f.nodes:
        kind = node.__class__
        group = by_type.get(kind)
        if group is None:
            group = by_type[kind] = []
        group.append(node)
        if kind is ast.Import:
            for a in node.names:
                f.aliases[(a.asname or a.name).split(".")[0]] = a.name if a.asname else a.name.split(".")[0]
        elif kind is ast.ImportFrom and node.module and node.level == 0:
            for a in node.names:
                f.aliases[a.asname or a.name] = f"{node.module}.{a.name}"
    calls = by_type.get(ast.Call, [])
    for node in module.body:
        _collect_constants(node, f.constants, "")
        if isinstance(node, ast.ClassDef):
            for item in node.body:
                _collect_constants(item, f.constants, node.name + ".")
        if isinstance(node, ast.If) and _is_main_guard(node.test):
            f.has_main_guard = True
    exits_with_main = False
    for node in calls:
        name = qualified(node.func, f.aliases)
        if name is None:
            continue
        f.calls.append((name, node))
        if name in EXIT_CALLS or name == "exit":
            f.exit_calls.append(node)
            if node.args and isinstance(node.args[0], ast.Call) and dotted(node.args[0].func) == "main":
                exits_with_main = name != "os._exit"
        if name == "argparse.ArgumentParser":
            f.parsers.append(node)
            f.uses_argparse = True
        if name in ("sys.exit", "exit", "quit", "os._exit"):
            _add_exit(f, node.args[0] if node.args else None, node, default=0)
        if name.endswith(".error") and f.uses_argparse:
            f.exit_codes.append((2, node.lineno, node.col_offset + 1))
    main_returns_code = _main_returns(module) if exits_with_main else None
    f.strings.update(node.value for node in by_type.get(ast.Constant, ())
                     if isinstance(node.value, str) and len(node.value) < 200)
    for node in by_type.get(ast.Raise, ()):
        exc = node.exc
        if exc is None:
            continue
        if isinstance(exc, ast.Call) and qualified(exc.func, f.aliases) == "SystemExit":
            _add_exit(f, exc.args[0] if exc.args else None, node, default=0)
        elif qualified(exc, f.aliases) == "SystemExit":
            f.exit_codes.append((0, node.lineno, node.col_offset + 1))
    f.reads_argv = any(node.attr == "argv" and dotted(node) == "sys.argv" for node in by_type.get(ast.Attribute, ())) \
        or f.aliases.get("argv") == "sys.argv" and any(node.id == "argv" for node in by_type.get(ast.Name, ()))
    if f.uses_argparse:
        f.exit_codes.append((2, f.parsers[0].lineno, f.parsers[0].col_offset + 1))
    if main_returns_code is not None:
        for ret in main_returns_code:
            _add_exit(f, ret.value, ret, default=None)
    return f


def parent_map(f: PythonFacts) -> dict[int, ast.AST]:
    """id(node) -> the node that holds it, for every node below a top-level statement (the
    module is no node's parent here). Made once per parse from the facts' walk (kept on *f*)."""
    known = getattr(f, "_parent_map", None)
    if known is None:
        nodes = f.nodes
        known = f._parent_map = {id(node): nodes[at] for node, at in zip(nodes, f.parents) if at >= 0}
    return known


def top_level_walks(module: ast.Module, f: PythonFacts) -> list[tuple[ast.stmt, list[ast.AST]]]:
    """Each statement of *module*'s body with ``list(ast.walk(stmt))``, from the facts' one walk.

    The breadth-first order of the module restricted to one statement's nodes is that
    statement's own breadth-first order, so each list is the same as walking it again.
    """
    nodes, parents = f.nodes, f.parents
    top = [0] * len(nodes)  # the position of the top-level node that holds each node
    held: list[list[ast.AST]] = [[] for _ in module.body]
    count = len(held)
    for at, parent in enumerate(parents):
        owner = top[at] = at if parent < 0 else top[parent]
        if owner < count:  # not below a type_ignores entry
            held[owner].append(nodes[at])
    return list(zip(module.body, held))


def _collect_constants(node: ast.AST, into: dict[str, int], prefix: str) -> None:
    targets: list[ast.expr] = []
    value = None
    if isinstance(node, ast.Assign):
        targets, value = node.targets, node.value
    elif isinstance(node, ast.AnnAssign) and node.value is not None:
        targets, value = [node.target], node.value
    if isinstance(value, ast.Constant) and type(value.value) is int:
        for t in targets:
            if isinstance(t, ast.Name):
                into.setdefault(prefix + t.id, value.value)


def is_main_guard(test: ast.expr) -> bool:
    """Whether *test* is ``__name__ == "__main__"``."""
    return _is_main_guard(test)


def _is_main_guard(test: ast.expr) -> bool:
    return (
        isinstance(test, ast.Compare)
        and isinstance(test.left, ast.Name)
        and test.left.id == "__name__"
        and any(isinstance(c, ast.Constant) and c.value == "__main__" for c in test.comparators)
    )


def _main_returns(module: ast.Module) -> list[ast.Return] | None:
    """The ``return`` statements of ``main`` (the module calls ``sys.exit(main())``)."""
    for node in module.body:
        if isinstance(node, ast.FunctionDef) and node.name == "main":
            return [n for n in walk(node) if isinstance(n, ast.Return) and n.value is not None]
    return None


def _add_exit(f: PythonFacts, arg: ast.expr | None, at: ast.AST, default: int | None) -> None:
    code = resolve_code(arg, f.constants) if arg is not None else default
    if code is not None:
        f.exit_codes.append((code, at.lineno, at.col_offset + 1))


def resolve_code(arg: ast.expr, consts: dict[str, int]) -> int | None:
    if isinstance(arg, ast.Constant):
        if type(arg.value) is int:
            return arg.value
        if arg.value is None:
            return 0
        return None  # a message string exits 1, but that is printing, not a code choice
    name = dotted(arg)
    if name is None:
        return None
    if name in consts:
        return consts[name]
    tail = name.rsplit(".", 1)[-1]
    if name.count(".") == 1 and name in consts:
        return consts[name]
    return consts.get(tail) if "." not in name else consts.get(name, None)


def keyword(call: ast.Call, name: str) -> ast.keyword | None:
    return next((k for k in call.keywords if k.arg == name), None)


def accepts_flag(f: PythonFacts, flag: str) -> bool:
    return flag in f.strings


def module_docstring(module: ast.Module) -> tuple[str | None, int]:
    """(docstring, line of its first character) of *module*."""
    if module.body and isinstance(module.body[0], ast.Expr):
        value = module.body[0].value
        if isinstance(value, ast.Constant) and isinstance(value.value, str):
            return value.value, value.lineno
    return None, 1


def only_definitions(module: ast.Module | list[ast.stmt]) -> bool:
    """True when the module's top level only defines things (an importable library).

    ``if``/``try`` blocks count when they only define things too (version guards, optional
    imports); a ``main()`` call anywhere at top level, a ``for`` loop or a ``with`` block is code
    that runs.
    """
    body = module.body if isinstance(module, ast.Module) else module
    for node in body:
        if isinstance(node, (ast.Import, ast.ImportFrom, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        if isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            continue
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            continue  # docstring
        if isinstance(node, ast.If) and only_definitions(node.body) and only_definitions(node.orelse):
            continue
        if isinstance(node, ast.Try) and all(only_definitions(b) for b in (node.body, node.orelse, node.finalbody)) \
                and all(only_definitions(h.body) or all(isinstance(s, (ast.Pass, ast.Raise)) for s in h.body)
                        for h in node.handlers):
            continue
        if isinstance(node, ast.Pass) or isinstance(node, ast.Raise) and "SystemExit" not in ast.dump(node):
            continue
        return False
    return True


ENVELOPE_KEYS = ("data", "error")


def is_envelope(node) -> bool:
    """A dict literal with a "data" or "error" key: already the --json envelope (an ``ast`` or a libcst node)."""
    kind = type(node).__name__
    if kind != "Dict":
        return False
    keys = node.keys if isinstance(getattr(node, "keys", None), list) else [getattr(e, "key", None) for e in node.elements]
    return any(string_value(k) in ENVELOPE_KEYS for k in keys)


def string_value(node) -> str | None:
    """The value of a plain string literal (``ast.Constant`` or libcst ``SimpleString``), else None."""
    value = getattr(node, "value", None)
    if type(node).__name__ == "Constant":
        return value if isinstance(value, str) else None
    if type(node).__name__ == "SimpleString":
        return node.evaluated_value if isinstance(node.evaluated_value, str) else None
    return None


def main_returns_codes(module: ast.Module) -> bool:
    """Whether the module's ``main`` returns exit codes: ints, ``EXIT_*`` names or None only, and
    one of them may be a failure (a ``main`` that only ever returns 0 loses nothing when dropped)."""
    for node in module.body:
        if isinstance(node, ast.FunctionDef) and node.name == "main":
            returns = [n for n in walk(node) if isinstance(n, ast.Return) and n.value is not None]
            if all(isinstance(r.value, ast.Constant) and r.value.value in (0, None) for r in returns):
                return False
            for ret in returns:
                value = ret.value
                if isinstance(value, ast.Constant) and (type(value.value) is int or value.value is None):
                    continue
                name = dotted(value) or ""
                if name.rsplit(".", 1)[-1].startswith(exitcodes.PREFIX) or name.startswith("exitcodes."):
                    continue
                return False
            return True
    return False


# -- what each exit means, from the code around it ------------------------------------------------

#: exceptions whose handler says what an exit in it means
_EXCEPTION_HINTS = {
    "FileNotFoundError": "not found", "NotADirectoryError": "not found", "IsADirectoryError": "not found",
    "JSONDecodeError": "invalid input", "ValueError": "invalid input", "YAMLError": "invalid input",
    "UnicodeDecodeError": "invalid input", "ParseError": "invalid input", "ValidationError": "invalid input",
    "ImportError": "missing dependency", "ModuleNotFoundError": "missing dependency",
    "TimeoutError": "timeout", "TimeoutExpired": "timeout",
    "KeyboardInterrupt": "interrupted",
    "ConnectionError": "unavailable", "URLError": "unavailable", "HTTPError": "unavailable",
    "csv.Error": "invalid input", "TOMLDecodeError": "invalid input", "BadZipFile": "invalid input",
}


@dataclass
class ExitSite:
    """One place the script exits with a known code."""

    code: int
    node: ast.AST  # the exit call, ``raise SystemExit(...)``, or main's ``return``
    line: int
    hint: str  # what the code around says (the message printed before, the exception caught), lower case
    constant: str | None = None  # the name the code is given there (``sys.exit(EXIT_USAGE)``)


def exit_sites(module: ast.Module, f: PythonFacts) -> list[ExitSite]:
    """Every exit with a code known statically, with the hint the code around it gives.

    argparse's own exit 2 is one site (the parser), hinted "usage". Computed once per parse
    (kept on *f*).
    """
    known = getattr(f, "_exit_sites", None)
    if known is not None:
        return known
    sites: list[ExitSite] = []
    wanted = {id(call) for call in f.exit_calls}
    if any(c.args and isinstance(c.args[0], ast.Call) and dotted(c.args[0].func) == "main" for c in f.exit_calls):
        wanted |= {id(ret) for ret in _main_returns(module) or []}
    wanted |= {id(n) for n in f.nodes if isinstance(n, ast.Raise) and n.exc is not None
               and qualified(n.exc.func if isinstance(n.exc, ast.Call) else n.exc, f.aliases) == "SystemExit"}
    found: dict[int, tuple[ast.AST, str]] = {}
    if not wanted:
        f._exit_sites = [ExitSite(2, f.parsers[0], f.parsers[0].lineno, "usage (argparse)")] if f.parsers else []
        return f._exit_sites
    # the statements that hold a wanted node as their own (not in a statement nested in them),
    # and every node above those: the walk below goes only where they are
    parents = parent_map(f)
    owners, above = set(), set()
    for node in f.nodes:
        if id(node) in wanted:
            while not isinstance(node, ast.stmt):
                node = parents[id(node)]
            owners.add(id(node))
            while id(node) in parents:
                node = parents[id(node)]
                if id(node) in above:
                    break  # and so is everything above it
                above.add(id(node))

    def visit(body: list[ast.stmt], context: str) -> None:
        for i, stmt in enumerate(body):
            if id(stmt) in owners:
                own = [n for n in _own_nodes(stmt) if id(n) in wanted]
                before = " ".join(_strings(s) for s in body[max(0, i - 2):i])
                hint = " ".join(t for t in (context, before, _strings(stmt)) if t)
                for node in own:
                    found[id(node)] = (node, hint)
            if id(stmt) in above:
                for child_body, child_context in _bodies(stmt):
                    visit(child_body, " ".join(t for t in (context, child_context) if t))

    visit(module.body, "")
    for node, hint in found.values():
        if isinstance(node, ast.Call):
            name = qualified(node.func, f.aliases)
            if name == "SystemExit":
                continue  # counted with its raise
            arg = node.args[0] if node.args else None
        elif isinstance(node, ast.Raise):
            arg = node.exc.args[0] if isinstance(node.exc, ast.Call) and node.exc.args else None
        else:
            arg = node.value
        if isinstance(arg, ast.Call) and dotted(arg.func) == "main":
            continue  # sys.exit(main()): main's returns are the sites
        code = resolve_code(arg, f.constants) if arg is not None else 0
        if code is None:
            continue
        constant = dotted(arg) if arg is not None and not isinstance(arg, ast.Constant) else None
        sites.append(ExitSite(code, node, node.lineno, hint.lower(), constant))
    if f.parsers:
        parser = f.parsers[0]
        sites.append(ExitSite(2, parser, parser.lineno, "usage (argparse)"))
    sites.sort(key=lambda s: (s.line, s.code))
    f._exit_sites = sites
    return sites


def _own_nodes(stmt: ast.stmt):
    """The nodes of *stmt* itself: the statement and its expressions, not the statements nested in it."""
    yield stmt
    todo = [c for c in children(stmt) if not isinstance(c, ast.stmt)]
    while todo:
        node = todo.pop()
        yield node
        todo.extend(c for c in children(node) if not isinstance(c, ast.stmt))


def explained_elsewise(node: ast.AST, meaning: str | None, lines: list[str] | None) -> bool:
    """Whether the comment after the exit at *node* (``sys.exit(2)  # 2 signals interactive mode``)
    tells what the code means here in words that are not *meaning*: the author's word wins."""
    if not lines or getattr(node, "end_lineno", None) is None or node.end_lineno > len(lines):
        return False
    rest = lines[node.end_lineno - 1][node.end_col_offset:]
    comment = rest.split("#", 1)[1].lower() if "#" in rest else ""
    if not re.search(r"\b(exit|code|signal|means?|status|return)", comment):
        return False
    return not (meaning and any(word in comment for word in meaning.lower().split()))


def exit_meanings(module: ast.Module, f: PythonFacts, documented: dict[int, str],
                  lines: list[str] | None = None) -> dict[int, str | None]:
    """Each exit code the script uses -> what it means, or None when nothing says (one meaning per code).

    The author's words on the ``Exit:`` line (*documented*) come first; else every place that
    exits with the code must say the same (:func:`skillsmith.exitcodes.meaning_for`: the
    script's constant there, the conventions, the message or exception around it). argparse's
    own 2 makes 2 "usage". These are the meanings the ``Exit:`` line is written with and the
    names literal codes get, so a fix written once reads the same the next time.
    """
    sites = exit_sites(module, f)
    out: dict[int, str | None] = {}
    for code in sorted({0} | {s.code for s in sites} | {c for c, _, _ in f.exit_codes}):
        if documented.get(code):
            out[code] = documented[code]
            continue
        here = [s for s in sites if s.code == code]
        if code == 0 or not here:
            out[code] = exitcodes.meaning_for(code) if code in (0, 1) else None
            continue
        meanings = {exitcodes.meaning_for(code, None, s.hint, s.constant) for s in here}
        if code == 2 and f.parsers and "usage" in meanings:
            out[code] = "usage"  # argparse exits 2 on bad usage: the script's own 2 is read the same
        else:
            out[code] = meanings.pop() if len(meanings) == 1 else None
        if any(explained_elsewise(s.node, out[code], lines) for s in here):
            out[code] = None  # a comment at the exit says it means something else: a person names it
    return out


def literal_exit_names(module: ast.Module, f: PythonFacts, documented: dict[int, str],
                       lines: list[str] | None = None) -> list[tuple[ast.Call, str | None]]:
    """Each literal non-zero exit (``sys.exit(3)``, ``raise SystemExit(3)``), in source order, with
    the constant the evidence names it, or None.

    The script's own ``EXIT_*`` constant for the value comes first (when one value has one
    name); else the code's meaning (:func:`exit_meanings`) names it when it agrees with the
    protocol's entry, or when the author's words name a code the protocol leaves open.
    """
    own: dict[int, list[str]] = {}
    for name, value in sorted(f.constants.items()):
        if exitcodes.is_constant(name):
            own.setdefault(value, []).append(name)
    calls = [c for c in f.exit_calls if len(c.args) == 1 and isinstance(c.args[0], ast.Constant)
             and type(c.args[0].value) is int and c.args[0].value != 0]
    if not calls:
        return []
    meanings = exit_meanings(module, f, documented, lines)
    out = []
    for call in sorted(calls, key=lambda c: (c.lineno, c.col_offset)):
        code = call.args[0].value
        mine = own.get(code, [])
        if explained_elsewise(call, meanings.get(code), lines):
            name = None
        elif len(mine) == 1:
            name = mine[0]
        elif documented.get(code):
            name = exitcodes.documented_name(code, documented[code])
        else:
            name = exitcodes.name_for(code, None, meanings.get(code) or "")
        out.append((call, name))
    return out


def _strings(stmt: ast.stmt) -> str:
    """The text of the string literals of statement *stmt* itself (f-strings' literal parts
    included; not those of the statements nested in it)."""
    return " ".join(n.value for n in _own_nodes(stmt) if isinstance(n, ast.Constant) and isinstance(n.value, str)
                    and len(n.value) < 300)


def _bodies(stmt: ast.stmt) -> list[tuple[list[ast.stmt], str]]:
    """The statement lists nested in *stmt*, each with what its position says about an exit in it."""
    out: list[tuple[list[ast.stmt], str]] = []
    if isinstance(stmt, ast.If):
        test = _test_hint(stmt.test)
        out += [(stmt.body, test), (stmt.orelse, "")]
    elif isinstance(stmt, (ast.For, ast.AsyncFor, ast.While)):
        out += [(stmt.body, ""), (stmt.orelse, "")]
    elif isinstance(stmt, (ast.With, ast.AsyncWith)):
        out.append((stmt.body, ""))
    elif isinstance(stmt, ast.Try) or type(stmt).__name__ == "TryStar":
        out += [(stmt.body, ""), (stmt.orelse, ""), (stmt.finalbody, "")]
        for handler in stmt.handlers:
            names = [dotted(t) or "" for t in (handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type])
                     if t is not None]
            hints = [_EXCEPTION_HINTS.get(n) or _EXCEPTION_HINTS.get(n.rsplit(".", 1)[-1], "") if n != "Error" else ""
                     for n in names]
            out.append((handler.body, " ".join(h for h in hints if h)))
    elif isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        out.append((stmt.body, ""))
    elif type(stmt).__name__ == "Match":
        out += [(case.body, "") for case in stmt.cases]
    return [(body, hint) for body, hint in out if body]


def _test_hint(test: ast.expr) -> str:
    """``not path.exists()`` says "not found"; ``len(sys.argv) < 2`` says "usage"."""
    nodes = walk(test)
    names = {dotted(n.func).rsplit(".", 1)[-1] for n in nodes if isinstance(n, ast.Call) and dotted(n.func)}
    negated = any(isinstance(n, ast.UnaryOp) and isinstance(n.op, ast.Not) for n in nodes)
    if negated and names & {"exists", "isfile", "is_file", "isdir", "is_dir"}:
        return "not found"
    if any(dotted(n) == "sys.argv" for n in nodes if isinstance(n, ast.Attribute)):
        return "usage"
    if names & {"which"}:
        return "missing dependency"
    return ""
