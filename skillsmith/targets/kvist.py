"""kvist tools skills (seed 003): ``manifest.json``, ``plugin.py`` and ``tests/contract.json``.

Everything here reads; nothing imports or runs a skill's code. ``plugin.py`` is read with
``ast``, the manifest with ``json`` plus a position index (for line numbers) and validated
against the JSON Schema shipped as ``skillsmith/data/kvist-manifest.schema.json`` (with
``jsonschema``, imported lazily).
"""

from __future__ import annotations

import ast
import json
import re
from dataclasses import dataclass, field
from functools import lru_cache

from skillsmith.lang import python
from skillsmith.model.skillpath import skill_path
from skillsmith.targets import Scaffold, Target

MANIFEST = "manifest.json"
CONTRACT = "tests/contract.json"
RESERVED_IDS = ("mcp", "kvist", "core", "skill", "skills", "builtin", "system", "memory", "helper")
_IDENT = re.compile(r"^[a-z0-9]+(?:_[a-z0-9]+)*$")

#: the capability catalogue: name -> the scope key it needs (None: no scope)
CATALOGUE = {
    "files.read": "paths", "files.write": "paths",
    "processes.run": None, "processes.background": None,
    "git.read": None,
    "web.search": None, "web.fetch": None, "http.request": "domains",
    "artifacts": None,
    "ui.notify": None, "ui.ask": None, "ui.present": None,
    "storage": None, "models.call": None, "sessions.read": None,
    "memory.read": None, "memory.write": None,
    "permissions.request": None,
}
#: capabilities that write or start something: a readonly tool must not need them
WRITE_OR_PROCESS = ("files.write", "memory.write", "processes.run", "processes.background")
LIMIT_MAX = {"call_timeout_seconds": 1800, "max_result_bytes": 1024 * 1024}
#: ``context.<namespace>`` attributes that need no capability
FREE_NAMESPACES = frozenset({"runtime"})
_WRITE_METHODS = frozenset({"write", "write_text", "write_bytes", "append", "patch", "replace", "mkdir", "save"})
_PIN = re.compile(r"^[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?==[0-9][0-9A-Za-z.+!-]*$")


def ident_problem(value: object, what: str = "id") -> str | None:
    """Why *value* is not a valid kvist id (or tool name), or None. Shared with the template."""
    if not isinstance(value, str):
        return f"{what} must be a string"
    if not _IDENT.match(value):
        return f"{what} {value!r} may use only lowercase letters, digits and single '_' (like log_digest)"
    if what == "id" and value in RESERVED_IDS:
        return f"id {value!r} is reserved; pick another"
    return None


def pin_problem(value: object) -> str | None:
    if not isinstance(value, str):
        return "a dependency must be a string like 'name==1.2.3'"
    if not _PIN.match(value.strip()):
        return f"{value!r} is not an exact pin; write 'name==1.2.3'"
    return None


# -- JSON with positions --------------------------------------------------------------------


@dataclass
class JsonDoc:
    """A parsed JSON file: the value, or the error; and where each path starts."""

    data: object = None
    error: str | None = None
    error_line: int = 1
    error_column: int = 1
    positions: dict = field(default_factory=dict)  # path tuple -> (line, column) of the key or value
    text: str = ""
    invalid: bool = True  # with an error: the text is not JSON (False: JSON skillsmith does not read)

    def where(self, path) -> tuple[int, int]:
        """(line, column) of *path*, or of its nearest ancestor that is known."""
        path = tuple(path)
        while path:
            if path in self.positions:
                return self.positions[path]
            path = path[:-1]
        return self.positions.get((), (1, 1))


#: the longest integer read from a JSON file (Python refuses more than 4,300 digits, and reading
#: a long one costs time quadratic in its length); no manifest or sample needs more
MAX_INT_DIGITS = 100


class _LongNumber(ValueError):
    def __init__(self, digits: str) -> None:
        super().__init__(digits)
        self.digits = digits


def _bounded_int(digits: str) -> int:
    if len(digits.lstrip("-")) > MAX_INT_DIGITS:
        raise _LongNumber(digits)
    return int(digits)


@lru_cache(maxsize=32)
def parse_json(text: str) -> JsonDoc:
    """The value of the JSON *text* and where each part starts, or why it cannot be read.

    Integers are read up to :data:`MAX_INT_DIGITS` digits: a longer one is an error (with
    ``invalid`` False: the text is JSON, but not one skillsmith reads).
    """
    try:
        data = json.loads(text, parse_int=_bounded_int)
    except json.JSONDecodeError as exc:
        return JsonDoc(error=exc.msg, error_line=exc.lineno, error_column=exc.colno, text=text)
    except _LongNumber as exc:
        at = text.find(exc.digits)
        line, column = _pos(max(at, 0), _line_starts(text))
        return JsonDoc(error=f"it holds an integer of {len(exc.digits.lstrip('-'))} digits; at most "
                             f"{MAX_INT_DIGITS} are read", error_line=line, error_column=column, text=text,
                       invalid=False)
    except RecursionError:
        return JsonDoc(error="nested too deeply", text=text)
    doc = JsonDoc(data=data, text=text)
    try:
        _index(text, 0, (), doc.positions, _line_starts(text))
    except (ValueError, IndexError, RecursionError):
        pass  # positions are a convenience; the data is right
    return doc


def _line_starts(text: str) -> list[int]:
    starts = [0]
    for i, ch in enumerate(text):
        if ch == "\n":
            starts.append(i + 1)
    return starts


def _pos(offset: int, starts: list[int]) -> tuple[int, int]:
    import bisect

    line = bisect.bisect_right(starts, offset)
    return line, offset - starts[line - 1] + 1


_WS = re.compile(r"[ \t\r\n]*")
_DECODER = json.JSONDecoder()


def _index(text: str, i: int, path: tuple, out: dict, starts: list[int]) -> int:
    """Record where each value below *path* starts; returns the offset after the value."""
    i = _WS.match(text, i).end()
    out.setdefault(path, _pos(i, starts))
    ch = text[i]
    if ch == "{":
        i = _WS.match(text, i + 1).end()
        if text[i] == "}":
            return i + 1
        while True:
            i = _WS.match(text, i).end()
            key_at = i
            key, i = json.decoder.scanstring(text, i + 1)
            out[path + (key,)] = _pos(key_at, starts)
            i = _WS.match(text, i).end() + 1  # the ':'
            i = _index(text, i, path + (key,), out, starts)
            i = _WS.match(text, i).end()
            if text[i] == "}":
                return i + 1
            i += 1  # the ','
    if ch == "[":
        i = _WS.match(text, i + 1).end()
        if text[i] == "]":
            return i + 1
        n = 0
        while True:
            i = _index(text, i, path + (n,), out, starts)
            n += 1
            i = _WS.match(text, i).end()
            if text[i] == "]":
                return i + 1
            i += 1
    _, end = _DECODER.raw_decode(text, i)
    return end


# -- the manifest -----------------------------------------------------------------------------


def manifest(skill) -> tuple[object, JsonDoc] | None:
    """(SourceFile, parsed JSON) of the skill's manifest.json, or None when it is absent or unreadable."""
    f = skill.files.get(MANIFEST)
    if f is None or f.text is None:
        return None
    return f, parse_json(f.text)


def manifest_data(skill) -> tuple[object, JsonDoc, dict] | None:
    """(SourceFile, doc, mapping) when the manifest is a JSON object, else None."""
    found = manifest(skill)
    if found is None or not isinstance(found[1].data, dict):
        return None
    return found[0], found[1], found[1].data


@lru_cache(maxsize=1)
def schema() -> dict:
    from importlib.resources import files

    return json.loads(files("skillsmith").joinpath("data/kvist-manifest.schema.json").read_text("utf-8"))


def owner(path: tuple, validator: str, message: str) -> str:
    """The rule that reports a schema error at *path* (KVS004 when no specific rule does)."""
    n = len(path)
    if n == 0:
        return "KVS003" if validator == "required" else "KVS004"
    head = path[0]
    if head == "id" and n == 1:
        return "KVS005"
    if head == "kind" and n == 1:
        return "KVS007"
    if head == "tools" and n >= 2:
        if n == 2 and validator == "required":
            return "KVS003"
        if n == 3 and path[2] == "name":
            return "KVS006"
    if head == "capabilities" and n >= 3:
        if n == 3 and validator == "required":
            return "KVS011" if "'reason'" in message else "KVS010"
        if n >= 4 and path[3] == "name":
            return "KVS010"
        if n >= 4 and path[3] == "reason":
            return "KVS011"
        if n >= 4 and path[3] == "scope":
            return "KVS012"
    if head == "limits" and n == 2:
        return "KVS015"
    if head == "dependencies" and n == 3 and path[1] == "python":
        return "KVS016"
    return "KVS004"


def schema_errors(data: object) -> list[tuple[tuple, str, str]]:
    """(path, validator keyword, message) of each violation of the shipped schema."""
    return list(_schema_errors(json.dumps(data, sort_keys=True)))


@lru_cache(maxsize=32)
def _schema_errors(canonical: str) -> tuple:
    """Cached by content: several rules read the errors of one manifest."""
    import jsonschema

    data = json.loads(canonical)
    validator = jsonschema.Draft202012Validator(schema())
    out = []
    for error in validator.iter_errors(data):
        out.append((tuple(error.absolute_path), str(error.validator), error.message))
    out.sort(key=lambda e: [str(p) for p in e[0]])
    return tuple(out)


# -- a tool's sample arguments against its parameters -------------------------------------------

#: how long checking one sample may take: a skill's own ``pattern`` can backtrack for minutes
#: (``^(a+)+$`` on 31 characters takes 45 s), so a schema with patterns is checked in a forked
#: child that is killed after this long
SAMPLE_SECONDS = 5.0
_REF_KEYS = ("$ref", "$dynamicRef")


def external_refs(schema: object, path: tuple = ()) -> list[tuple[tuple, str]]:
    """(path, target) of each ``$ref``/``$dynamicRef`` in *schema* that points outside it (not ``#...``)."""
    found = []
    todo = [(schema, path)]
    while todo:
        node, where = todo.pop()
        if isinstance(node, dict):
            for key, value in node.items():
                if key in _REF_KEYS and isinstance(value, str) and not value.startswith("#"):
                    found.append((where + (key,), value))
                else:
                    todo.append((value, where + (key,)))
        elif isinstance(node, list):
            todo.extend((value, where + (i,)) for i, value in enumerate(node))
    return sorted(found, key=lambda f: [str(p) for p in f[0]])


def without_external_refs(schema: object) -> object:
    """*schema* with each reference that points outside it dropped (it constrains nothing then)."""
    if isinstance(schema, dict):
        return {key: without_external_refs(value) for key, value in schema.items()
                if not (key in _REF_KEYS and isinstance(value, str) and not value.startswith("#"))}
    if isinstance(schema, list):
        return [without_external_refs(value) for value in schema]
    return schema


def has_patterns(schema: object) -> bool:
    """Whether *schema* holds a ``pattern`` or ``patternProperties`` (a regular expression of the skill's)."""
    todo = [schema]
    while todo:
        node = todo.pop()
        if isinstance(node, dict):
            if "pattern" in node or "patternProperties" in node:
                return True
            todo.extend(node.values())
        elif isinstance(node, list):
            todo.extend(node)
    return False


class SampleUnchecked(Exception):
    """The sample could not be checked against the schema: the message says why."""


def sample_errors(cls, params: dict, sample: object) -> list[tuple[tuple, str]]:
    """(path in *sample*, message) of each way *sample* breaks the schema *params* (a valid
    schema of validator class *cls*), sorted as the validator found them.

    Nothing is fetched: references that point outside the schema are dropped first (see
    :func:`external_refs`); one that points nowhere inside it ends the check with a message.
    A schema with patterns is checked in a forked child bounded by :data:`SAMPLE_SECONDS`;
    raises :class:`SampleUnchecked` when that runs out.
    """
    schema = without_external_refs(params)
    if not has_patterns(schema):
        return _sample_errors(cls, schema, sample)
    from skillsmith import forked

    try:
        return forked.call(_sample_errors, cls, schema, sample, timeout=SAMPLE_SECONDS)
    except forked.Failed as why:
        raise SampleUnchecked(str(why)) from None


def _sample_errors(cls, schema: dict, sample: object) -> list[tuple[tuple, str]]:
    import referencing
    import referencing.exceptions

    out = []
    try:
        for error in cls(schema, registry=referencing.Registry()).iter_errors(sample):
            out.append((tuple(error.absolute_path), error.message))
    except referencing.exceptions.Unresolvable as exc:
        out.append(((), f"$ref {str(getattr(exc, 'ref', exc))!r} points nowhere in the parameters; not checked further"))
    return out


def tools(data: dict) -> list[tuple[int, dict]]:
    value = data.get("tools")
    if not isinstance(value, list):
        return []
    return [(i, t) for i, t in enumerate(value) if isinstance(t, dict)]


def capabilities(data: dict) -> list[tuple[str, int, dict]]:
    """(group, index, item) for each capability under ``required`` and ``optional``."""
    caps = data.get("capabilities")
    if not isinstance(caps, dict):
        return []
    out = []
    for group in ("required", "optional"):
        items = caps.get(group)
        if isinstance(items, list):
            out.extend((group, i, item) for i, item in enumerate(items) if isinstance(item, dict))
    return out


def declared_capabilities(data: dict) -> set[str]:
    return {c["name"] for _, _, c in capabilities(data) if isinstance(c.get("name"), str)}


def unbounded(schema_node: object, path: tuple = ()) -> list[tuple[tuple, str]]:
    """(path, message) for strings without ``maxLength`` and arrays without ``maxItems``."""
    found: list[tuple[tuple, str]] = []
    if not isinstance(schema_node, dict):
        return found
    kinds = schema_node.get("type")
    kinds = set(kinds) if isinstance(kinds, list) else {kinds}
    closed = "enum" in schema_node or "const" in schema_node
    where = "/".join(str(p) for p in path if p not in ("properties",)) or "parameters"
    if "string" in kinds and not closed and "maxLength" not in schema_node:
        found.append((path, f"string {where} has no maxLength"))
    if "array" in kinds and not closed and "maxItems" not in schema_node:
        found.append((path, f"array {where} has no maxItems"))
    for key in ("properties", "patternProperties", "$defs", "definitions"):
        sub = schema_node.get(key)
        if isinstance(sub, dict):
            for name, node in sub.items():
                found.extend(unbounded(node, path + (key, name)))
    for key in ("items", "additionalProperties", "additionalItems", "contains", "not"):
        if isinstance(schema_node.get(key), dict):
            found.extend(unbounded(schema_node[key], path + (key,)))
    for key in ("anyOf", "oneOf", "allOf", "prefixItems"):
        if isinstance(schema_node.get(key), list):
            for i, node in enumerate(schema_node[key]):
                found.extend(unbounded(node, path + (key, i)))
    return found


def open_objects(schema_node: object, path: tuple = ()) -> list[tuple]:
    """Paths of object schemas (with ``properties``) that do not say ``additionalProperties: false``."""
    found: list[tuple] = []
    if not isinstance(schema_node, dict):
        return found
    if (schema_node.get("type") == "object" or "properties" in schema_node) and schema_node.get("additionalProperties") is not False:
        found.append(path)
    props = schema_node.get("properties")
    if isinstance(props, dict):
        for name, node in props.items():
            found.extend(open_objects(node, path + ("properties", name)))
    if isinstance(schema_node.get("items"), dict):
        found.extend(open_objects(schema_node["items"], path + ("items",)))
    return found


# -- plugin.py --------------------------------------------------------------------------------


@lru_cache(maxsize=32)
def parse_plugin(text: str) -> tuple[ast.Module | None, python.SyntaxProblem | None]:
    """:func:`skillsmith.lang.python.parse` of *text*, shared by the rules that read one plugin.py."""
    return python.parse(text, "plugin.py")


def entrypoint(skill) -> tuple[object, ast.Module] | None:
    """(SourceFile, module) of the skill's plugin.py when it parses, else None."""
    f = plugin_file(skill)
    if f is None or f.text is None:
        return None
    module = parse_plugin(f.text)[0]
    return (f, module) if module is not None else None


def plugin_file(skill):
    """The entrypoint's SourceFile: manifest's ``entrypoint`` when it names a file inside the skill, else ``plugin.py``."""
    found = manifest_data(skill)
    entry = found[2].get("entrypoint") if found is not None else None
    if not isinstance(entry, str) or not entry:
        return skill.files.get("plugin.py")
    rel = skill_path(entry).rel
    return skill.files.get(rel) if rel is not None else None  # outside the skill: KVS009


def top_function(module: ast.Module, name: str) -> ast.FunctionDef | None:
    for node in module.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == name:
            return node
    return None


def own_nodes(func: ast.AST):
    """Nodes of *func*'s body, not descending into nested functions, classes or lambdas."""
    stack = list(ast.iter_child_nodes(func))
    while stack:
        node = stack.pop()
        yield node
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            continue
        stack.extend(ast.iter_child_nodes(node))


def raises_on_unknown(func: ast.FunctionDef) -> bool:
    """Whether ``execute`` can raise for a tool it does not know.

    A ``raise`` statement in its own body counts, and so does a lookup ``TABLE[tool_name]``
    (a ``KeyError`` for an unknown name), but not one that catches that error itself.
    """
    params = [a.arg for a in func.args.args]
    tool_param = params[0] if params else "tool_name"
    for node in own_nodes(func):
        if isinstance(node, ast.Raise):
            return True
        if (isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Name) and node.slice.id == tool_param
                and isinstance(node.ctx, ast.Load)):
            return True
    return False


def context_names(module: ast.Module) -> set[str]:
    """Parameter names that carry the context: execute's third one, and ``context``/``ctx``."""
    names = {"context", "ctx"}
    execute = top_function(module, "execute")
    if execute is not None and len(execute.args.args) >= 3:
        names.add(execute.args.args[2].arg)
    return names


def capability_for(namespace: str, member: str | None) -> str | None:
    """The catalogue capability a ``context.<namespace>.<member>`` use needs (None: no capability)."""
    if namespace in FREE_NAMESPACES:
        return None
    if namespace in CATALOGUE:
        return namespace
    candidate = f"{namespace}.{member}" if member else None
    if candidate in CATALOGUE:
        return candidate
    if namespace == "files":
        return "files.write" if member in _WRITE_METHODS else "files.read"
    if namespace == "processes":
        return "processes.run" if member in (None, "run", "call") else "processes.background"
    if namespace == "git":
        return "git.read"
    if namespace == "http":
        return "http.request"
    if namespace == "models":
        return "models.call"
    if namespace == "sessions":
        return "sessions.read"
    if namespace == "memory":
        return "memory.write" if member in _WRITE_METHODS else "memory.read"
    if namespace == "permissions":
        return "permissions.request"
    if namespace == "web":
        return "web.fetch" if member != "search" else "web.search"
    if namespace == "ui":
        return "ui.notify"
    return None


def context_uses(module: ast.Module) -> list[tuple[str, int, int, str]]:
    """(capability, line, column, as written) for each ``context.<ns>[.<member>]`` use."""
    names = context_names(module)
    out = []
    inner_done: set[int] = set()
    for node in ast.walk(module):  # breadth first: ``context.files.read`` before ``context.files``
        if not isinstance(node, ast.Attribute):
            continue
        if isinstance(node.value, ast.Attribute) and isinstance(node.value.value, ast.Name) \
                and node.value.value.id in names:
            inner = node.value
            namespace, member = inner.attr, node.attr
            inner_done.add(id(inner))
        elif isinstance(node.value, ast.Name) and node.value.id in names and id(node) not in inner_done:
            inner, namespace, member = node, node.attr, None
        else:
            continue
        cap = capability_for(namespace, member)
        if cap is not None:
            written = f"{inner.value.id}.{namespace}" + (f".{member}" if member else "")
            out.append((cap, inner.lineno, inner.col_offset + 1, written))
    return sorted(out, key=lambda u: (u[1], u[2]))


def dangerous_calls(module: ast.Module) -> list[tuple[str, int, int]]:
    """(what, line, column) for ``eval``, ``exec``, ``os.system`` and any use of ``subprocess``."""
    found = []
    os_names = {"os"}
    system_names: dict[str, str] = {}  # local name -> os function
    for node in ast.walk(module):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name == "subprocess" or alias.name.startswith("subprocess."):
                    found.append(("import of subprocess", node.lineno, node.col_offset + 1))
                if alias.name == "os":
                    os_names.add(alias.asname or "os")
        elif isinstance(node, ast.ImportFrom):
            if node.module and (node.module == "subprocess" or node.module.startswith("subprocess.")):
                found.append(("import from subprocess", node.lineno, node.col_offset + 1))
            if node.module == "os":
                for alias in node.names:
                    if alias.name in ("system", "popen"):
                        system_names[alias.asname or alias.name] = alias.name
        elif isinstance(node, ast.Call):
            func = node.func
            if isinstance(func, ast.Name) and func.id in ("eval", "exec"):
                found.append((f"{func.id}()", node.lineno, node.col_offset + 1))
            elif isinstance(func, ast.Name) and func.id in system_names:
                found.append((f"os.{system_names[func.id]}()", node.lineno, node.col_offset + 1))
            elif (isinstance(func, ast.Attribute) and func.attr in ("system", "popen")
                  and isinstance(func.value, ast.Name) and func.value.id in os_names):
                found.append((f"os.{func.attr}()", node.lineno, node.col_offset + 1))
            elif isinstance(func, ast.Name) and func.id == "__import__" and node.args and \
                    isinstance(node.args[0], ast.Constant) and node.args[0].value == "subprocess":
                found.append(("__import__('subprocess')", node.lineno, node.col_offset + 1))
    return sorted(found, key=lambda f: (f[1], f[2]))


def dataclass_with_future_annotations(module: ast.Module) -> tuple[int, int] | None:
    """(line, column) of a ``@dataclass`` in a module with ``from __future__ import annotations``."""
    future = any(
        isinstance(n, ast.ImportFrom) and n.module == "__future__" and any(a.name == "annotations" for a in n.names)
        for n in module.body
    )
    if not future:
        return None
    for node in ast.walk(module):
        if isinstance(node, ast.ClassDef):
            for dec in node.decorator_list:
                target = dec.func if isinstance(dec, ast.Call) else dec
                name = target.attr if isinstance(target, ast.Attribute) else getattr(target, "id", None)
                if name == "dataclass":
                    return dec.lineno, dec.col_offset
    return None


def describe_tools(module: ast.Module) -> list[tuple[str, int, int]] | None:
    """Tool names ``describe()`` returns when it returns a literal ``{"tools": [...]}``."""
    func = top_function(module, "describe")
    if func is None:
        return None
    names = []
    literal = False
    for node in own_nodes(func):
        if isinstance(node, ast.Return) and isinstance(node.value, ast.Dict):
            for key, value in zip(node.value.keys, node.value.values):
                if isinstance(key, ast.Constant) and key.value == "tools" and isinstance(value, (ast.List, ast.Tuple)):
                    literal = True
                    for elt in value.elts:
                        if isinstance(elt, ast.Constant) and isinstance(elt.value, str):
                            names.append((elt.value, elt.lineno, elt.col_offset + 1))
    return names if literal else None


# -- the target -------------------------------------------------------------------------------


def has_kvist_manifest(model) -> bool:
    """Whether *model* is a skill with a kvist ``manifest.json`` (one that names a ``plugin_api``)."""
    from skillsmith.model.skill import Skill  # the skill model loads the language facts: not for --help

    f = model.files.get(MANIFEST) if isinstance(model, Skill) else None
    return f is not None and bool(f.text) and '"plugin_api"' in f.text


#: the longest one-line summary ``new`` writes into the manifest and SKILL.md
SUMMARY_MAX = 300


def new_summary_problem(summary: object) -> str | None:
    """Why *summary* cannot be the one-line summary of a new kvist skill, or None."""
    if not isinstance(summary, str) or not summary.strip():
        return "the summary is empty"
    if "\n" in summary or "\r" in summary:
        return "the summary must be one line"
    if len(summary) > SUMMARY_MAX:
        return f"the summary is {len(summary)} characters long; the limit is {SUMMARY_MAX}"
    return None


def new_id_problem(name: object) -> str | None:
    """Why *name* cannot be the id, and so the folder name, of a new kvist skill, or None."""
    if not isinstance(name, str) or not name or name in (".", "..") or "/" in name or "\\" in name:
        return f"{name!r} cannot be a folder name"
    return ident_problem(name, "id")


TARGET = Target(
    name="kvist",
    summary="kvist tools skills: `manifest.json`, `plugin.py` and `tests/contract.json` (seed 003)",
    detect=has_kvist_manifest,
    priority=20,  # a kvist manifest decides, even for a SKILL.md with progressive: frontmatter
    fields=frozenset({"version"}),
    named_in_frontmatter=False,
    new=Scaffold(template="kvist", name_problem=new_id_problem, description_problem=new_summary_problem,
                 identifier="kvist id"),
    suites=("run.sh", "unittest", "contract"),  # tests/test_*.py and tests/contract.json (seed 003)
)
