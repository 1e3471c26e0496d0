"""Python scripts through ``ast``: one parse per file, and the facts rules ask of it.

``ast`` is the fast parser for detection; libcst is loaded only when a file needs a fix.
"""

from __future__ import annotations

import ast
import re
import sys
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
    nodes: list[ast.AST] = field(default_factory=list, repr=False)  # every node, walked once
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


def facts(module: ast.Module) -> PythonFacts:
    """Everything the rules ask of a module, from one walk of its tree."""
    f = PythonFacts()
    nodes = f.nodes = list(ast.walk(module))
    calls = []
    for node in nodes:
        if isinstance(node, ast.Call):
            calls.append(node)
        elif isinstance(node, ast.Import):
            for a in node.names:
                f.aliases[(a.asname or a.name).split(".")[0]] = a.name if a.asname else a.name.split(".")[0]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for a in node.names:
                f.aliases[a.asname or a.name] = f"{node.module}.{a.name}"
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
    for node in nodes:
        if isinstance(node, ast.Constant):
            if isinstance(node.value, str) and len(node.value) < 200:
                f.strings.add(node.value)
        elif isinstance(node, ast.Raise) and node.exc is not None:
            exc = node.exc
            if isinstance(exc, ast.Call) and qualified(exc.func, f.aliases) == "SystemExit":
                _add_exit(f, exc.args[0] if exc.args else None, node, default=0)
            elif qualified(exc, f.aliases) == "SystemExit":
                f.exit_codes.append((0, node.lineno, node.col_offset + 1))
        elif isinstance(node, ast.Attribute) and dotted(node) in ("sys.argv",) or (
            isinstance(node, ast.Name) and node.id == "argv" and f.aliases.get("argv") == "sys.argv"
        ):
            f.reads_argv = True
    if f.uses_argparse:
        f.exit_codes.append((2, f.parsers[0].lineno, f.parsers[0].col_offset + 1))
    if main_returns_code is not None:
        for ret in main_returns_code:
            _add_exit(f, ret.value, ret, default=None)
    return f


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
            return [n for n in ast.walk(node) if isinstance(n, ast.Return) and n.value is not None]
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


def only_definitions(module: ast.Module) -> bool:
    """True when the module's top level only defines things (an importable library)."""
    for node in module.body:
        if isinstance(node, (ast.Import, ast.ImportFrom, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        if isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            continue
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            continue  # docstring
        if isinstance(node, (ast.If, ast.Try)):
            continue  # version guards, optional imports
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
    """Whether the module's ``main`` returns exit codes: ints, ``EXIT_*`` names or None only."""
    for node in module.body:
        if isinstance(node, ast.FunctionDef) and node.name == "main":
            returns = [n for n in ast.walk(node) if isinstance(n, ast.Return) and n.value is not None]
            if not returns:
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
