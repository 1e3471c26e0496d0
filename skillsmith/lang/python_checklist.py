"""Python facts for the protocol's checklist (seed 000 §6, §10), from the one ``ast`` parse:
imports from outside the standard library without a guard, unknown arguments accepted
(``parse_known_args`` with the extras thrown away), recursive removal of a path the caller
gave, and writes to such a path in place.

Each function answers only where the evidence is clear (a missed finding costs less than a
false one).
"""

from __future__ import annotations

import ast
import re
import sys

from skillsmith.lang.keyboard import NON_INTERACTIVE
from skillsmith.lang.python import children, dotted, facts, keyword, qualified, walk

#: exceptions whose handler makes an import optional
_IMPORT_GUARDS = {"ImportError", "ModuleNotFoundError", "Exception", "BaseException"}
#: a PEP 723 inline metadata block
PEP723 = re.compile(r"^# /// script\s*$", re.MULTILINE)


def _handles(handler: ast.ExceptHandler, exceptions: set[str]) -> bool:
    """Whether *handler* catches one of *exceptions* (a bare ``except:`` catches them all)."""
    if handler.type is None:
        return True
    kinds = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
    return any((dotted(k) or "").rsplit(".", 1)[-1] in exceptions for k in kinds)


def unguarded_imports(module: ast.Module) -> list[tuple[str, ast.stmt]]:
    """(top-level module name, statement) of each import outside the standard library that no
    ``try``/``except ImportError`` guards and no ``if TYPE_CHECKING:`` hides, first one per name."""
    found: dict[str, ast.stmt] = {}

    def visit(body: list, guarded: bool) -> None:
        for node in body:
            if isinstance(node, ast.Import) and not guarded:
                for alias in node.names:
                    found.setdefault(alias.name.split(".")[0], node)
            elif isinstance(node, ast.ImportFrom) and not guarded and node.level == 0 and node.module:
                found.setdefault(node.module.split(".")[0], node)
            elif isinstance(node, ast.Try) or type(node).__name__ == "TryStar":
                visit(node.body, guarded or any(_handles(h, _IMPORT_GUARDS) for h in node.handlers))
                for h in node.handlers:
                    visit(h.body, guarded)
                visit(node.orelse, guarded)
                visit(node.finalbody, guarded)
            elif isinstance(node, ast.If):
                hidden = "TYPE_CHECKING" in (dotted(node.test) or "")
                visit(node.body, guarded or hidden)
                visit(node.orelse, guarded)
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.With, ast.AsyncWith,
                                   ast.For, ast.AsyncFor, ast.While)):
                visit(node.body, guarded)
                visit(getattr(node, "orelse", []), guarded)

    visit(module.body, False)
    stdlib = sys.stdlib_module_names
    return [(name, node) for name, node in found.items() if name not in stdlib and name != "__future__"]


#: import names whose distribution is named otherwise (for finding a declared requirement);
#: a module that comes with another package names that package
DISTRIBUTIONS = {
    "yaml": "pyyaml", "PIL": "pillow", "cv2": "opencv-python", "bs4": "beautifulsoup4", "sklearn": "scikit-learn",
    "dateutil": "python-dateutil", "docx": "python-docx", "pptx": "python-pptx", "fitz": "pymupdf",
    "dotenv": "python-dotenv", "jwt": "pyjwt", "git": "gitpython", "magic": "python-magic", "Crypto": "pycryptodome",
    "attr": "attrs", "serial": "pyserial", "usb": "pyusb", "jose": "python-jose", "botocore": "boto3",
    "googleapiclient": "google-api-python-client", "OpenSSL": "pyopenssl", "Levenshtein": "python-levenshtein",
    "splunklib": "splunk-sdk", "urllib3": "requests",
}


def _key(word: str) -> str:
    """A package name without case, punctuation or a ``python``/``py`` prefix or suffix
    (``taxii2-client`` and ``taxii2client``, ``python-evtx`` and ``Evtx`` meet)."""
    key = re.sub(r"[^a-z0-9]", "", word.lower())
    for affix in ("python", "py"):
        if key.startswith(affix) and len(key) > len(affix) + 2:
            key = key[len(affix):]
        if key.endswith(affix) and len(key) > len(affix) + 2:
            key = key[:-len(affix)]
    return key


def names_package(text: str, module_name: str) -> bool:
    """Whether *text* names *module_name* or its distribution as a word (``NumPy, SciPy`` in a
    list of prerequisites, ``pip install pyyaml``, ``python-evtx`` for ``Evtx``): documentation
    that tells the reader about it. ``google`` is named by any ``google-...`` package."""
    wanted = {_key(module_name), _key(DISTRIBUTIONS.get(module_name, module_name))}
    words = {_key(w) for w in re.findall(r"[A-Za-z0-9][A-Za-z0-9_.-]*[A-Za-z0-9]|[A-Za-z0-9]", text)}
    if module_name == "google":
        return any(w.startswith("google") for w in words)
    return bool(words & wanted)


#: a line that tells the reader to install Python packages
INSTALLS = re.compile(r"\b(pip3?|python3? -m pip|uv pip|pipx|conda|mamba|micromamba) install\b|\buv (add|sync|run --with)\b|"
                      r"\bpoetry (add|install)\b", re.IGNORECASE)


def says_to_install(text: str) -> bool:
    """Whether *text* tells its reader to install Python packages (``pip install ...``, ``uv add ...``):
    a skill that does declares its dependencies, and what they bring along with them."""
    return bool(INSTALLS.search(text))


def changes_import_path(calls: list) -> bool:
    """Whether the script adds folders to ``sys.path``: its imports may then be modules beside the skill."""
    return any(name in ("sys.path.insert", "sys.path.append", "sys.path.extend", "site.addsitedir") for name, _ in calls)


def _args_names(module: ast.Module) -> set[str]:
    """Names bound to ``parse_args()``/``parse_known_args()`` results (``args = parser.parse_args()``)."""
    names = set()
    for node in facts(module).by_type.get(ast.Assign, ()):
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call):
            func = dotted(node.value.func) or ""
            if func.endswith(("parse_args", "parse_known_args")):
                for t in node.targets:
                    if isinstance(t, ast.Name):
                        names.add(t.id)
                    elif isinstance(t, ast.Tuple) and t.elts and isinstance(t.elts[0], ast.Name):
                        names.add(t.elts[0].id)
    return names


def discarded_extras(module: ast.Module) -> list[ast.Call]:
    """``parse_known_args()`` calls whose unknown arguments are thrown away: ``[0]``,
    ``args, _ = ...``, or a name for them the module never reads."""
    known = facts(module)
    if not any((dotted(call.func) or "").endswith("parse_known_args") for _, call in known.calls):
        return []  # most scripts: no parse_known_args at all
    loads = {n.id for n in known.by_type.get(ast.Name, ()) if isinstance(n.ctx, ast.Load)}
    found = []
    for node in known.nodes:
        if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Call) \
                and (dotted(node.value.func) or "").endswith("parse_known_args") \
                and isinstance(node.slice, ast.Constant) and node.slice.value == 0:
            found.append(node.value)
        elif isinstance(node, ast.Assign) and isinstance(node.value, ast.Call) \
                and (dotted(node.value.func) or "").endswith("parse_known_args"):
            target = node.targets[0]
            if isinstance(target, ast.Tuple) and len(target.elts) == 2:
                extra = target.elts[1]
                if isinstance(extra, ast.Name) and (extra.id.startswith("_") or extra.id not in loads):
                    found.append(node.value)
        elif isinstance(node, ast.Expr) and isinstance(node.value, ast.Call) \
                and (dotted(node.value.func) or "").endswith("parse_known_args"):
            found.append(node.value)
    return found


def _from_caller(expr: ast.AST, args: set[str], aliases: dict[str, str]) -> bool:
    """Whether *expr* holds a value the caller gave: ``args.x`` (of a parse result) or ``sys.argv``."""
    for node in walk(expr):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in args:
            return True
        if (qualified(node, aliases) or "") == "sys.argv":
            return True
    return False


_CONFIRMS = re.compile(r"--(force|yes|dry-?run|confirm|apply|execute|no-dry-run|really|replace|overwrite)\b"
                       r"|\[y/n\]|\(y/n\)|y/N\b|Y/n\b", re.IGNORECASE)


def confirms(strings: set[str]) -> bool:
    """Whether the script offers ``--force``, ``--yes``, ``--dry-run`` (or an opt-in to replace:
    ``--overwrite``, ``--replace-invalid-target``) or a ``[y/N]`` prompt."""
    return any(_CONFIRMS.search(s) for s in strings)


def argument_removals(module: ast.Module, calls: list, aliases: dict[str, str], strings: set[str]) -> list[ast.Call]:
    """``shutil.rmtree(...)`` of a path the caller gave, in a script with no way to confirm it; not the
    rollback of a folder the script made itself (see :func:`rollbacks`)."""
    args = _args_names(module)
    found = [call for name, call in calls
             if name == "shutil.rmtree" and call.args and _from_caller(call.args[0], args, aliases)]
    if not found or confirms(strings):
        return []
    undone = rollbacks(module, calls)
    return [call for call in found if call not in undone]


def _last_name(expr: ast.AST) -> str | None:
    """``media_dir`` of ``args.media_dir``, ``media_dir`` or ``Path(media_dir)``."""
    if isinstance(expr, ast.Call) and len(expr.args) == 1:
        expr = expr.args[0]
    if isinstance(expr, ast.Attribute):
        return expr.attr
    return expr.id if isinstance(expr, ast.Name) else None


def _made_new(calls: list) -> set[str]:
    """The last names of the folders the script makes with a call that fails when they exist:
    ``media_dir.mkdir(parents=True)``, ``os.makedirs(x)``, ``os.mkdir(x)`` (no ``exist_ok=True``)."""
    made = set()
    for name, call in calls:
        exist_ok = keyword(call, "exist_ok")
        if exist_ok is not None and not (isinstance(exist_ok.value, ast.Constant) and exist_ok.value.value is False):
            continue
        if name in ("os.makedirs", "os.mkdir") and call.args:
            made.add(_last_name(call.args[0]))
        elif isinstance(call.func, ast.Attribute) and call.func.attr == "mkdir" and not call.args:
            made.add(_last_name(call.func.value))
    made.discard(None)
    return made


def rollbacks(module: ast.Module, calls: list) -> set[ast.Call]:
    """``shutil.rmtree`` calls that undo a failed run: in an ``except`` handler that raises again, of
    a folder the script makes with a call that fails when it exists (``args.media_dir.mkdir(parents=True)``),
    so what it removes is what the run made, never the caller's data."""
    made = None
    out = set()
    for handler in facts(module).by_type.get(ast.ExceptHandler, ()):
        if not handler.body or not isinstance(handler.body[-1], ast.Raise) or handler.body[-1].exc is not None:
            continue
        for node in walk(handler):
            if isinstance(node, ast.Call) and node.args and (dotted(node.func) or "").endswith("rmtree"):
                made = _made_new(calls) if made is None else made
                if _last_name(node.args[0]) in made:
                    out.add(node)
    return out


#: calls that make a write atomic or use a temporary file: a script with any of them is left alone
_ATOMIC = ("os.replace", "os.rename", "shutil.move", "shutil.copy", "tempfile.")
_WRITE_MODES = re.compile(r"^[wx]")


def _renames(name: str, call: ast.Call) -> bool:
    """A rename: ``os.replace(a, b)``, ``tempfile.*``, or ``path.replace(dest)`` (one argument; ``str.replace`` takes two)."""
    return name.startswith(_ATOMIC) or (name.rsplit(".", 1)[-1] in ("replace", "rename") and len(call.args) == 1)


def in_place_writes(module: ast.Module, calls: list, aliases: dict[str, str]) -> list[ast.Call]:
    """``open(args.out, "w")`` and ``Path(args.out).write_text(...)``: the caller's destination
    written in place, in a script that never renames a temporary file."""
    if any(_renames(name, call) for name, call in calls):
        return []
    args = _args_names(module)
    found = []
    for name, call in calls:
        if name in ("open", "io.open") and call.args:
            mode = call.args[1] if len(call.args) > 1 else (keyword(call, "mode").value if keyword(call, "mode") else None)
            if isinstance(mode, ast.Constant) and isinstance(mode.value, str) and _WRITE_MODES.match(mode.value) \
                    and _from_caller(call.args[0], args, aliases):
                found.append(call)
    for node in facts(module).by_type.get(ast.Call, ()):  # ``Path(args.out).write_text(...)``: a call on a call has no dotted name
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                and node.func.attr in ("write_text", "write_bytes") and _from_caller(node.func.value, args, aliases):
            found.append(node)
    return sorted(found, key=lambda c: (c.lineno, c.col_offset))


#: calls that wait for someone at a keyboard (a prompt string is required for ``input``)
_PROMPTS = {"input", "raw_input", "getpass.getpass", "click.prompt", "click.confirm", "typer.prompt",
            "typer.confirm", "rich.prompt.Prompt.ask", "rich.prompt.Confirm.ask", "rich.prompt.IntPrompt.ask",
            "rich.prompt.FloatPrompt.ask", "pwinput.pwinput"}
_PROMPT_MODULES = ("questionary.", "inquirer.", "InquirerPy.", "PyInquirer.")
#: exceptions whose handler makes a prompt survive a closed stdin
_EOF_GUARDS = {"EOFError", "Exception", "BaseException", "OSError"}
def _prompt_call(name: str | None, call: ast.Call) -> bool:
    if name in ("input", "raw_input"):
        prompt = call.args[0] if call.args else None
        return isinstance(prompt, (ast.Constant, ast.JoinedStr)) and bool(getattr(prompt, "value", True))
    return name in _PROMPTS or (name or "").startswith(_PROMPT_MODULES)


def keyboard_prompts(module: ast.Module, calls: list, aliases: dict[str, str], strings: set[str]) -> list[ast.Call]:
    """Calls that wait for a person to type (``input("Continue? ")``, ``getpass.getpass()``,
    ``click.confirm(...)``, ``questionary.select(...)``) in a script that has no other way to run:
    none when it asks whether a terminal is there (``isatty()``), offers ``--yes``/``--force``/
    ``--non-interactive`` (or an opt-in ``--interactive``), calls itself interactive or a wizard
    (in its strings or docstring),
    when the prompt is the fallback for a missing option (``if not args.url: input("URL: ")``, or
    ``text = input("> ")`` in the ``else`` of ``if args.text: text = args.text``),
    or when it sits in a ``try`` that handles ``EOFError`` (a closed stdin)."""
    if not any(_prompt_call(name, call) for name, call in calls):
        return []  # most scripts: no prompt at all, nothing more to read
    if any(NON_INTERACTIVE.search(s) for s in strings) or NON_INTERACTIVE.search(ast.get_docstring(module) or ""):
        return []
    found: list[ast.Call] = []
    args = _args_names(module)

    def reads_option(expr: ast.AST, names: set[str]) -> bool:
        return any((isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and n.value.id in args)
                   or (isinstance(n, ast.Name) and n.id in names) for n in walk(expr))

    options = {t.id for n in facts(module).by_type.get(ast.Assign, ()) if isinstance(n, ast.Assign) and reads_option(n.value, set())
               for t in n.targets if isinstance(t, ast.Name)}  # ``url = args.url``

    def option_test(test: ast.AST) -> bool:
        """Whether *test* asks if an option was left out (``if not args.url:``, ``if url is None:``):
        the prompt is then the fallback for it."""
        if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
            return reads_option(test.operand, options)
        if isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], (ast.Is, ast.Eq)) \
                and isinstance(test.comparators[0], ast.Constant) and test.comparators[0].value in (None, ""):
            return reads_option(test.left, options)
        if isinstance(test, ast.BoolOp):
            return any(option_test(v) for v in test.values)
        return False

    def given_test(test: ast.AST) -> bool:
        """Whether *test* asks if an option was given (``if args.text:``, ``if url is not None:``):
        a prompt in its ``else`` is the fallback for it."""
        if isinstance(test, (ast.Name, ast.Attribute)):
            return reads_option(test, options)
        if isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], (ast.IsNot, ast.NotEq)) \
                and isinstance(test.comparators[0], ast.Constant) and test.comparators[0].value in (None, ""):
            return reads_option(test.left, options)
        return False

    stack: list[tuple[ast.AST, bool]] = [(module, False)]  # (node, whether a guard covers it), no recursion
    while stack:
        node, guarded = stack.pop()
        if isinstance(node, ast.Call):
            name = qualified(node.func, aliases)
            if (name or "").endswith("isatty"):
                return []
            if not guarded and _prompt_call(name, node):
                found.append(node)
        if isinstance(node, ast.Try) or type(node).__name__ == "TryStar":
            handles = any(_handles(h, _EOF_GUARDS) for h in node.handlers)
            stack += [(child, guarded or handles) for child in node.body]
            stack += [(rest, guarded) for rest in (*node.handlers, *node.orelse, *node.finalbody)]
            continue
        if isinstance(node, ast.If) and given_test(node.test):  # ``if args.text: text = args.text`` ``else: text = input("> ")``
            fills = {t.id for n in node.body if isinstance(n, ast.Assign) and reads_option(n.value, options)
                     for t in n.targets if isinstance(t, ast.Name)}
            stack += [(child, guarded) for child in (node.test, *node.body)]
            stack += [(child, guarded or (isinstance(child, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id in fills for t in child.targets))) for child in node.orelse]
            continue
        if isinstance(node, ast.If) and option_test(node.test):
            guarded = True
        elif isinstance(node, ast.BoolOp) and isinstance(node.op, ast.Or) and reads_option(node.values[0], options):
            guarded = True  # ``args.url or input("URL: ")``
        stack += [(child, guarded) for child in children(node)]
    return sorted(found, key=lambda c: (c.lineno, c.col_offset))
