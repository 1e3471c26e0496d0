"""kvist rules (seed 003): manifest.json, plugin.py (read with ``ast``, never run) and the tests."""

from __future__ import annotations

import difflib

from skillsmith.model.skillpath import skill_path
from skillsmith.rules.finding import Hit
from skillsmith.rules.registry import rule
from skillsmith.targets import kvist

SEED = "003"
TARGET = {"kvist"}


def _where(path: tuple) -> str:
    out = ""
    for p in path:
        out += f"[{p}]" if isinstance(p, int) else (f".{p}" if out else p)
    return out or "manifest"


def _hit(f, doc, path, message) -> Hit:
    line, column = doc.where(path)
    return Hit(f.path, message, line, column)


def _schema_hits(skill, rule_id: str):
    found = kvist.manifest_data(skill)
    if found is None:
        return
    f, doc, data = found
    for path, validator, message in kvist.schema_errors(data):
        if kvist.owner(path, validator, message) == rule_id:
            yield path, validator, message, f, doc


def _file_in_skill(skill, value: str) -> str | None:
    """Why *value* does not name a file of the skill, or None."""
    rel = skill_path(value).rel
    if rel is None:
        return f"{value!r} must be a path inside the skill folder"
    if rel in skill.files:
        return None
    if rel in skill.symlinks:
        return f"{value!r} is a symbolic link"
    return f"{value!r} does not exist in the skill folder"


# -- manifest.json ------------------------------------------------------------------------------


def json_object_problems(f, label: str, expected: str):
    """Hits for a JSON file that is not UTF-8, does not parse, or is not an object."""
    if f.text is None:
        yield Hit(f.path, f"{label} is not UTF-8 text")
        return
    doc = kvist.parse_json(f.text)
    if doc.error:
        what = "is not valid JSON: " if doc.invalid else "cannot be read: "
        yield Hit(f.path, f"{label} {what}{doc.error}", doc.error_line, doc.error_column)
    elif not isinstance(doc.data, dict):
        yield Hit(f.path, f"{label} must be {expected}")


@rule("KVS001", "manifest-missing", summary="A kvist skill has no manifest.json.", seed=f"{SEED} manifest.json",
      scope="skill", targets=TARGET)
def manifest_missing(skill):
    """
    ## What it does
    Flags a skill checked as a kvist tools skill that has no `manifest.json` next to `SKILL.md`.

    ## Why is this bad?
    kvist loads a tools skill from its manifest: the id, the tools, their parameters and the
    capabilities they need. Without it the skill is not installed.

    ## Example
    `log_digest/` with `SKILL.md` and `plugin.py` only.

    Use instead: run `skillsmith new log_digest --target kvist --description "..."` and move the
    code into the generated layout, or write `manifest.json` by hand.
    """
    if kvist.MANIFEST not in skill.files:
        yield Hit(skill.root / kvist.MANIFEST, "kvist tools skill has no manifest.json")


@rule("KVS002", "manifest-invalid-json", summary="manifest.json is not a JSON object.", seed=f"{SEED} manifest.json",
      scope="skill", targets=TARGET)
def manifest_invalid_json(skill):
    """
    ## What it does
    Flags a `manifest.json` that does not parse as JSON, is not UTF-8 text, or is not a JSON object.

    ## Why is this bad?
    kvist refuses to load the skill; every other manifest check is skipped too.

    ## Example
    ```json
    {"id": "log_digest",}
    ```

    Use instead: valid JSON without trailing commas or comments.
    """
    f = skill.files.get(kvist.MANIFEST)
    if f is None or f.data is None:
        return
    yield from json_object_problems(f, "manifest.json", "a JSON object")


@rule("KVS003", "manifest-key-missing", summary="manifest.json or one of its tools lacks a required key.",
      seed=f"{SEED} manifest.json", scope="skill", targets=TARGET)
def manifest_key_missing(skill):
    """
    ## What it does
    Checks the required keys: `manifest_version`, `id`, `version`, `plugin_api`, `kind`, `name`,
    `summary`, `instructions`, `entrypoint` and `tools`; each tool needs `name`, `summary` and
    `parameters`.

    ## Why is this bad?
    kvist rejects a manifest without them.

    ## Example
    ```json
    {"manifest_version": 1, "id": "log_digest", "tools": []}
    ```

    Use instead: start from `skillsmith new ID --target kvist`, which writes every key.
    """
    for path, _, message, f, doc in _schema_hits(skill, "KVS003"):
        key = message.split("'")[1] if message.count("'") >= 2 else message
        where = "manifest.json" if not path else _where(path)
        yield _hit(f, doc, path, f"{where} has no {key!r}")


@rule("KVS004", "manifest-schema", summary="manifest.json breaks the manifest schema.", seed=f"{SEED} manifest.json",
      scope="skill", targets=TARGET)
def manifest_schema(skill):
    """
    ## What it does
    Validates `manifest.json` against the manifest JSON Schema shipped with skillsmith
    (`skillsmith/data/kvist-manifest.schema.json`): types, `manifest_version` and `plugin_api`
    1, a semantic `version`, localized `name` and `summary` (`{"en": "..."}`), `platforms`
    `["linux"]`, known `limits` keys, tool `parameters` that are valid JSON Schemas. Violations
    another KVS rule explains better (ids, capabilities, limits ranges, pins) are left to it.

    ## Why is this bad?
    kvist validates the manifest before loading the skill and refuses it on any violation.

    ## Example
    ```json
    "name": "Log digest"
    ```

    Use instead:
    ```json
    "name": {"en": "Log digest"}
    ```
    """
    for path, _, message, f, doc in _schema_hits(skill, "KVS004"):
        yield _hit(f, doc, path, f"{_where(path)}: {message}")
    found = kvist.manifest_data(skill)
    if found is None:
        return
    f, doc, data = found
    import jsonschema

    for i, tool in kvist.tools(data):
        for key in ("parameters", "result"):
            node = tool.get(key)
            if isinstance(node, dict):
                try:
                    jsonschema.validators.validator_for(node, default=jsonschema.Draft202012Validator).check_schema(node)
                except jsonschema.SchemaError as exc:
                    path = ("tools", i, key, *exc.absolute_path)
                    yield _hit(f, doc, path, f"{_where(('tools', i, key))} is not a valid JSON Schema: {exc.message}")


@rule("KVS005", "id-invalid", summary="The skill id is not lowercase letters, digits and single '_', or is reserved.",
      seed=f"{SEED} manifest.json", scope="skill", targets=TARGET)
def id_invalid(skill):
    """
    ## What it does
    Checks `id`: lowercase letters, digits and single underscores, and none of the reserved ids
    `mcp`, `kvist`, `core`, `skill`, `skills`, `builtin`, `system`, `memory`, `helper`.

    ## Why is this bad?
    The model calls each tool as `<id>__<tool>`; other characters break that name, and a
    reserved id collides with the host's own tools.

    ## Example
    ```json
    "id": "Log-Digest"
    ```

    Use instead:
    ```json
    "id": "log_digest"
    ```
    """
    found = kvist.manifest_data(skill)
    if found is None or "id" not in found[2]:
        return
    f, doc, data = found
    problem = kvist.ident_problem(data["id"], "id")
    if problem:
        yield _hit(f, doc, ("id",), problem)


@rule("KVS006", "tool-name-invalid", summary="A tool name is not lowercase letters, digits and single '_', or repeats.",
      seed=f"{SEED} manifest.json", scope="skill", targets=TARGET)
def tool_name_invalid(skill):
    """
    ## What it does
    Checks each tool's `name`: lowercase letters, digits and single underscores, unique within
    the skill.

    ## Why is this bad?
    The model calls the tool as `<id>__<name>`: a double underscore or an unusual character
    makes that name ambiguous, and two tools with one name cannot both be called.

    ## Example
    ```json
    "name": "digest__all"
    ```

    Use instead:
    ```json
    "name": "digest_all"
    ```
    """
    found = kvist.manifest_data(skill)
    if found is None:
        return
    f, doc, data = found
    seen = set()
    for i, tool in kvist.tools(data):
        if "name" not in tool:
            continue
        problem = kvist.ident_problem(tool["name"], "tool name")
        if problem:
            yield _hit(f, doc, ("tools", i, "name"), problem)
        elif tool["name"] in seen:
            yield _hit(f, doc, ("tools", i, "name"), f"tool name {tool['name']!r} is used twice")
        if isinstance(tool["name"], str):
            seen.add(tool["name"])


@rule("KVS007", "kind-invalid", summary="'kind' is not \"tools\".", seed=f"{SEED} manifest.json", scope="skill",
      targets=TARGET)
def kind_invalid(skill):
    """
    ## What it does
    Checks that `kind` is `"tools"`, the kind of a skill that ships `plugin.py` and tools.

    ## Why is this bad?
    kvist decides by `kind` whether to load the entrypoint; with another kind the tools are
    never offered to the model.

    ## Example
    ```json
    "kind": "tool"
    ```

    Use instead:
    ```json
    "kind": "tools"
    ```
    """
    found = kvist.manifest_data(skill)
    if found is None or "kind" not in found[2]:
        return
    f, doc, data = found
    if data["kind"] != "tools":
        yield _hit(f, doc, ("kind",), f"'kind' is {data['kind']!r}; a tools skill says \"tools\"")


@rule("KVS008", "instructions-missing", summary="The 'instructions' file does not exist in the skill.",
      seed=f"{SEED} manifest.json", scope="skill", targets=TARGET)
def instructions_missing(skill):
    """
    ## What it does
    Checks that `instructions` names a file inside the skill folder (normally `SKILL.md`).

    ## Why is this bad?
    The instructions tell the model when to use each tool; kvist refuses a skill whose
    instructions file is missing.

    ## Example
    ```json
    "instructions": "README.md"
    ```
    with no `README.md` in the folder.

    Use instead: `"instructions": "SKILL.md"`.
    """
    found = kvist.manifest_data(skill)
    if found is None or not isinstance(found[2].get("instructions"), str) or not found[2]["instructions"]:
        return
    f, doc, data = found
    problem = _file_in_skill(skill, data["instructions"])
    if problem:
        yield _hit(f, doc, ("instructions",), f"instructions {problem}")


@rule("KVS009", "entrypoint-missing", summary="The 'entrypoint' file does not exist in the skill.",
      seed=f"{SEED} manifest.json", scope="skill", targets=TARGET)
def entrypoint_missing(skill):
    """
    ## What it does
    Checks that `entrypoint` names a Python file inside the skill folder (normally `plugin.py`).

    ## Why is this bad?
    kvist imports the entrypoint to call `describe()` and `execute()`; without it no tool works.

    ## Example
    ```json
    "entrypoint": "main.py"
    ```
    with the code in `plugin.py`.

    Use instead: `"entrypoint": "plugin.py"`.
    """
    found = kvist.manifest_data(skill)
    if found is None or not isinstance(found[2].get("entrypoint"), str) or not found[2]["entrypoint"]:
        return
    f, doc, data = found
    problem = _file_in_skill(skill, data["entrypoint"])
    if problem:
        yield _hit(f, doc, ("entrypoint",), f"entrypoint {problem}")
    elif not data["entrypoint"].endswith(".py"):
        yield _hit(f, doc, ("entrypoint",), f"entrypoint {data['entrypoint']!r} is not a Python file")


@rule("KVS010", "capability-unknown", summary="A capability is not in kvist's catalogue.",
      seed=f"{SEED} Capabilities", scope="skill", targets=TARGET)
def capability_unknown(skill):
    """
    ## What it does
    Checks each capability under `capabilities.required` and `capabilities.optional` against
    the catalogue: `files.read`, `files.write`, `processes.run`, `processes.background`,
    `git.read`, `web.search`, `web.fetch`, `http.request`, `artifacts`, `ui.notify`, `ui.ask`,
    `ui.present`, `storage`, `models.call`, `sessions.read`, `memory.read`, `memory.write`,
    `permissions.request`.

    ## Why is this bad?
    A capability the catalogue does not know is refused, and the skill with it.

    ## Example
    ```json
    {"name": "files.readwrite", "reason": "to edit the log"}
    ```

    Use instead: the fewest catalogue capabilities that do the job, e.g. `files.read`.
    """
    found = kvist.manifest_data(skill)
    if found is None:
        return
    f, doc, data = found
    for group, i, cap in kvist.capabilities(data):
        path = ("capabilities", group, i)
        name = cap.get("name")
        if "name" not in cap:
            yield _hit(f, doc, path, f"capabilities.{group}[{i}] has no 'name'")
        elif name not in kvist.CATALOGUE:
            close = difflib.get_close_matches(str(name), list(kvist.CATALOGUE), n=1)
            hint = f"; did you mean {close[0]!r}?" if close else ""
            yield _hit(f, doc, path + ("name",), f"capability {name!r} is not in the kvist catalogue{hint}")


@rule("KVS011", "capability-reason-missing", summary="A capability has no 'reason'.",
      seed=f"{SEED} Capabilities", scope="skill", targets=TARGET)
def capability_reason_missing(skill):
    """
    ## What it does
    Checks that every declared capability carries a non-empty `reason`.

    ## Why is this bad?
    The reason is what the person granting the permission reads; a capability without one is
    refused or, worse, granted blindly.

    ## Example
    ```json
    {"name": "files.read", "scope": {"paths": ["logs/**"]}}
    ```

    Use instead:
    ```json
    {"name": "files.read", "reason": "to read the log file you name", "scope": {"paths": ["logs/**"]}}
    ```
    """
    found = kvist.manifest_data(skill)
    if found is None:
        return
    f, doc, data = found
    for group, i, cap in kvist.capabilities(data):
        reason = cap.get("reason")
        if not isinstance(reason, str) or not reason.strip():
            what = "no 'reason'" if "reason" not in cap else "an empty 'reason'"
            yield _hit(f, doc, ("capabilities", group, i), f"capability {cap.get('name', '?')!r} has {what}")


@rule("KVS012", "capability-scope-missing", summary="A files or http capability has no scope.",
      seed=f"{SEED} Capabilities", scope="skill", targets=TARGET)
def capability_scope_missing(skill):
    """
    ## What it does
    Checks that `files.read` and `files.write` carry `scope.paths` (globs like `logs/**`) and
    `http.request` carries `scope.domains`, each a non-empty list of strings.

    ## Why is this bad?
    Without a scope the grant covers the whole workspace or the whole web; kvist checks every
    call against the scope, so a missing one either fails every call or grants far too much.

    ## Example
    ```json
    {"name": "files.read", "reason": "to read the log file you name"}
    ```

    Use instead:
    ```json
    {"name": "files.read", "reason": "to read the log file you name", "scope": {"paths": ["logs/**"]}}
    ```
    """
    found = kvist.manifest_data(skill)
    if found is None:
        return
    f, doc, data = found
    flagged = set()
    for group, i, cap in kvist.capabilities(data):
        needed = kvist.CATALOGUE.get(cap.get("name")) if isinstance(cap.get("name"), str) else None
        if needed is None:
            continue
        scope = cap.get("scope")
        value = scope.get(needed) if isinstance(scope, dict) else None
        if not (isinstance(value, list) and value and all(isinstance(v, str) and v for v in value)):
            flagged.add((group, i))
            yield _hit(f, doc, ("capabilities", group, i),
                       f"capability {cap['name']!r} needs 'scope.{needed}', a non-empty list of "
                       + ("globs like 'logs/**'" if needed == "paths" else "domains like 'api.example.com'"))
    for path, _, message, f, doc in _schema_hits(skill, "KVS012"):
        if (path[1], path[2]) not in flagged:
            yield _hit(f, doc, path, f"{_where(path)}: {message}")


@rule("KVS013", "parameters-open", summary="A tool's parameters do not say additionalProperties: false.",
      seed=f"{SEED} manifest.json", scope="skill", targets=TARGET, severity="warning")
def parameters_open(skill):
    """
    ## What it does
    Checks that each tool's `parameters` is an object schema with `"additionalProperties": false`,
    and so is every nested object schema with `properties`.

    ## Why is this bad?
    Arguments are validated before the code runs; an open schema lets the model pass keys the
    code never expected (and a typo in an optional key go unnoticed).

    ## Example
    ```json
    "parameters": {"type": "object", "properties": {"path": {"type": "string", "maxLength": 500}}}
    ```

    Use instead:
    ```json
    "parameters": {"type": "object", "additionalProperties": false,
                   "properties": {"path": {"type": "string", "maxLength": 500}}}
    ```

    ## Severity
    Warning: kvist validates the arguments against the schema either way; an open schema lets
    the model pass extra ones that the tool never reads (the guide's advice; the skill loads).
    """
    found = kvist.manifest_data(skill)
    if found is None:
        return
    f, doc, data = found
    for i, tool in kvist.tools(data):
        params = tool.get("parameters")
        if not isinstance(params, dict):
            continue
        if params.get("type") != "object":
            yield _hit(f, doc, ("tools", i, "parameters"), f"tools[{i}].parameters must be {{\"type\": \"object\", ...}}")
            continue
        for path in kvist.open_objects(params):
            where = "/".join(str(p) for p in path if p != "properties") or "parameters"
            yield _hit(f, doc, ("tools", i, "parameters", *path),
                       f"tool {tool.get('name', i)!r}: {where} does not say \"additionalProperties\": false")


@rule("KVS014", "parameters-unbounded", summary="A tool parameter string has no maxLength or an array no maxItems.",
      seed=f"{SEED} manifest.json", scope="skill", targets=TARGET, severity="warning")
def parameters_unbounded(skill):
    """
    ## What it does
    Checks that every string in a tool's `parameters` has `maxLength` and every array has
    `maxItems` (an `enum` or `const` bounds a value too).

    ## Why is this bad?
    The model can send arbitrarily large arguments; bounds make kvist reject them before the
    code runs instead of the code running out of time or memory.

    ## Example
    ```json
    "path": {"type": "string"}
    ```

    Use instead:
    ```json
    "path": {"type": "string", "maxLength": 500}
    ```

    ## Severity
    Warning: unbounded strings and arrays let one call carry oversized input (the guide's
    advice; the skill loads).
    """
    found = kvist.manifest_data(skill)
    if found is None:
        return
    f, doc, data = found
    for i, tool in kvist.tools(data):
        params = tool.get("parameters")
        for path, message in kvist.unbounded(params):
            yield _hit(f, doc, ("tools", i, "parameters", *path), f"tool {tool.get('name', i)!r}: {message}")


@rule("KVS015", "limit-out-of-range", summary="A limit is not a whole number in its allowed range.",
      seed=f"{SEED} manifest.json", scope="skill", targets=TARGET)
def limit_out_of_range(skill):
    """
    ## What it does
    Checks `limits`: `call_timeout_seconds` at most 1800, `max_result_bytes` at most 1 MiB
    (1048576), and every limit a positive whole number (`model_calls_per_task` and
    `model_tokens_per_task` may be 0).

    ## Why is this bad?
    kvist refuses values outside the range; a result limit above 1 MiB or a half-hour-plus
    timeout is never granted.

    ## Example
    ```json
    "limits": {"call_timeout_seconds": 3600}
    ```

    Use instead: split long work into steps that call `context.runtime.check()`, and keep
    `"call_timeout_seconds": 1800` or less.
    """
    found = kvist.manifest_data(skill)
    if found is None or not isinstance(found[2].get("limits"), dict):
        return
    f, doc, data = found
    known = kvist.schema()["properties"]["limits"]["properties"]
    for key, value in data["limits"].items():
        if key not in known:
            continue  # KVS004
        low = known[key].get("minimum", 1)
        high = known[key].get("maximum")
        path = ("limits", key)
        if isinstance(value, bool) or not isinstance(value, int):
            yield _hit(f, doc, path, f"limits.{key} must be a whole number, not {value!r}")
        elif value < low or (high is not None and value > high):
            bound = f"{low}-{high}" if high is not None else f"at least {low}"
            yield _hit(f, doc, path, f"limits.{key} is {value}; allowed: {bound}")


@rule("KVS016", "dependency-not-pinned", summary="A Python dependency is not an exact pin (name==1.2.3).",
      seed=f"{SEED} manifest.json", scope="skill", targets=TARGET)
def dependency_not_pinned(skill):
    """
    ## What it does
    Checks that each entry of `dependencies.python` is an exact pin, `name==1.2.3`.

    ## Why is this bad?
    kvist installs binary wheels of exactly the pinned versions; a range is refused, and every
    unpinned dependency is a supply-chain surface that changes under the skill.

    ## Example
    ```json
    "dependencies": {"python": ["regex>=2024.1"]}
    ```

    Use instead:
    ```json
    "dependencies": {"python": ["regex==2024.11.6"]}
    ```
    Better still, use the standard library.
    """
    found = kvist.manifest_data(skill)
    if found is None:
        return
    f, doc, data = found
    deps = data.get("dependencies")
    pins = deps.get("python") if isinstance(deps, dict) else None
    if not isinstance(pins, list):
        return
    for i, pin in enumerate(pins):
        problem = kvist.pin_problem(pin)
        if problem:
            yield _hit(f, doc, ("dependencies", "python", i), problem)


@rule("KVS017", "readonly-tool-writes", summary="A readonly tool is in a skill that requires write or process capabilities.",
      seed=f"{SEED} manifest.json", scope="skill", severity="warning", targets=TARGET)
def readonly_tool_writes(skill):
    """
    ## What it does
    Warns about a tool marked `"readonly": true` in a skill whose required capabilities include
    `files.write`, `memory.write`, `processes.run` or `processes.background`.

    ## Why is this bad?
    `readonly: true` means the tool writes nothing and starts nothing: reader and plan modes
    call only read-only tools. A skill that needs write or process grants for every call makes
    that promise doubtful.

    ## Example
    ```json
    "capabilities": {"required": [{"name": "files.write", "reason": "...", "scope": {"paths": ["out/**"]}}]},
    "tools": [{"name": "digest", "readonly": true, ...}]
    ```

    Use instead: drop `readonly`, or move the write capability under `optional` and ask for it
    with `context.permissions.request` in the tools that write.
    """
    found = kvist.manifest_data(skill)
    if found is None:
        return
    f, doc, data = found
    caps = data.get("capabilities")
    required = caps.get("required") if isinstance(caps, dict) else None
    writes = sorted({c.get("name") for c in required or [] if isinstance(c, dict)} & set(kvist.WRITE_OR_PROCESS))
    if not writes:
        return
    for i, tool in kvist.tools(data):
        if tool.get("readonly") is True:
            yield _hit(f, doc, ("tools", i, "readonly"),
                       f"tool {tool.get('name', i)!r} is readonly but the skill requires {', '.join(writes)}")


# -- plugin.py ----------------------------------------------------------------------------------


@rule("KVS018", "plugin-syntax-error", summary="plugin.py does not parse.", seed=f"{SEED} plugin.py", scope="skill",
      targets=TARGET)
def plugin_syntax_error(skill):
    """
    ## What it does
    Flags an entrypoint (`plugin.py`) that Python cannot parse. It is read, never imported.

    ## Why is this bad?
    The skill fails to load, and skillsmith cannot check its other plugin rules.

    ## Example
    ```python
    def execute(tool_name, arguments, context)
        ...
    ```

    Use instead: fix the syntax (`python -m py_compile plugin.py` shows the same error).
    """
    f = kvist.plugin_file(skill)
    if f is None or f.text is None:
        return
    problem = kvist.parse_plugin(f.text)[1]
    if problem is not None:
        yield Hit(f.path, f"{f.rel} does not parse: {problem.message}", problem.line)


@rule("KVS019", "describe-missing", summary="plugin.py has no top-level describe().", seed=f"{SEED} plugin.py",
      scope="skill", targets=TARGET)
def describe_missing(skill):
    """
    ## What it does
    Checks that the entrypoint defines `describe()` at module level.

    ## Why is this bad?
    kvist calls `describe()` to learn which tools the code offers; without it the skill fails
    to load.

    ## Example
    A `plugin.py` with only `execute`.

    Use instead:
    ```python
    def describe():
        return {"tools": ["digest"]}
    ```
    """
    found = kvist.entrypoint(skill)
    if found is not None and kvist.top_function(found[1], "describe") is None:
        yield Hit(found[0].path, f"{found[0].rel} defines no top-level describe()")


@rule("KVS020", "execute-missing", summary="plugin.py has no execute(tool_name, arguments, context).",
      seed=f"{SEED} plugin.py", scope="skill", targets=TARGET)
def execute_missing(skill):
    """
    ## What it does
    Checks that the entrypoint defines `execute(tool_name, arguments, context)` at module level,
    taking three positional parameters.

    ## Why is this bad?
    kvist calls every tool through `execute`; a missing function or another signature fails
    every call.

    ## Example
    ```python
    def execute(arguments):
        ...
    ```

    Use instead:
    ```python
    def execute(tool_name, arguments, context):
        ...
    ```
    """
    found = kvist.entrypoint(skill)
    if found is None:
        return
    f, module = found
    func = kvist.top_function(module, "execute")
    if func is None:
        yield Hit(f.path, f"{f.rel} defines no top-level execute(tool_name, arguments, context)")
        return
    positional = len(func.args.posonlyargs) + len(func.args.args)
    if positional != 3 and func.args.vararg is None:
        yield Hit(f.path, f"execute() takes {positional} positional parameters; kvist passes tool_name, arguments, context",
                  func.lineno, func.col_offset + 1)


@rule("KVS021", "execute-unknown-tool", summary="execute() does not raise for an unknown tool name.",
      seed=f"{SEED} plugin.py", scope="skill", targets=TARGET)
def execute_unknown_tool(skill):
    """
    ## What it does
    Checks that `execute` can raise for a tool name it does not handle: a `raise` statement in
    its body, or a lookup `HANDLERS[tool_name]`.

    ## Why is this bad?
    A call that falls through returns `None` or a default that looks like success. A returned
    "ok" that hides a failure is the worst bug a skill can have: the model believes it.

    ## Example
    ```python
    def execute(tool_name, arguments, context):
        if tool_name == "digest":
            return digest(arguments, context)
    ```

    Use instead:
    ```python
    def execute(tool_name, arguments, context):
        if tool_name != "digest":
            raise ValueError(f"unknown tool {tool_name}")
        return digest(arguments, context)
    ```
    """
    found = kvist.entrypoint(skill)
    if found is None:
        return
    f, module = found
    func = kvist.top_function(module, "execute")
    if func is not None and not kvist.raises_on_unknown(func):
        yield Hit(f.path, "execute() never raises: an unknown tool name must raise (ValueError), not return",
                  func.lineno, func.col_offset + 1)


@rule("KVS022", "dataclass-future-annotations", summary="plugin.py combines @dataclass with 'from __future__ import annotations'.",
      seed=f"{SEED} plugin.py", scope="skill", targets=TARGET)
def dataclass_future_annotations(skill):
    """
    ## What it does
    Flags a `@dataclass` in an entrypoint that also has `from __future__ import annotations`.

    ## Why is this bad?
    The runner imports the module without registering it in `sys.modules`; with string
    annotations `dataclass` looks the module up there and the plugin fails to load.

    ## Example
    ```python
    from __future__ import annotations
    from dataclasses import dataclass

    @dataclass
    class Group:
        line: str
        count: int
    ```

    Use instead: a `typing.NamedTuple` or a plain class, or drop the `__future__` import.
    """
    found = kvist.entrypoint(skill)
    if found is None:
        return
    where = kvist.dataclass_with_future_annotations(found[1])
    if where:
        yield Hit(found[0].path, "@dataclass with 'from __future__ import annotations' fails to load in kvist; "
                  "use NamedTuple or a plain class", where[0], where[1])


@rule("KVS023", "plugin-runs-code", summary="plugin.py uses eval, exec, os.system or subprocess.",
      seed=f"{SEED} plugin.py", scope="skill", targets=TARGET)
def plugin_runs_code(skill):
    """
    ## What it does
    Flags `eval()`, `exec()`, `os.system()`, `os.popen()` and any import of `subprocess` in
    the entrypoint.

    ## Why is this bad?
    Everything a skill reads is data and must never be executed; and commands run only
    through `context.processes.run`, which goes through the sandbox, the policy and the
    person's approval. Direct process calls bypass all three (and fail in the sandbox).

    ## Example
    ```python
    import subprocess
    out = subprocess.run(["git", "log"], capture_output=True)
    ```

    Use instead: declare `processes.run` (or `git.read`) and call `context.processes.run(...)`.
    """
    found = kvist.entrypoint(skill)
    if found is None:
        return
    for what, line, column in kvist.dangerous_calls(found[1]):
        yield Hit(found[0].path, f"{what} in a kvist plugin; use the context's capabilities instead", line, column)


@rule("KVS024", "capability-undeclared", summary="plugin.py uses a context capability the manifest does not declare.",
      seed=f"{SEED} Capabilities", scope="skill", targets=TARGET)
def capability_undeclared(skill):
    """
    ## What it does
    Reads every `context.<capability>` use in the entrypoint (the third parameter of `execute`,
    or a parameter named `context` or `ctx`) and checks that the manifest declares that
    capability under `required` or `optional`. `context.runtime` needs no capability.

    ## Why is this bad?
    Every call is checked against the grant: an undeclared capability fails at run time, and
    kvist's own `check` refuses the skill without running the code.

    ## Example
    ```python
    context.artifacts.save("table.csv", data)
    ```
    with no `artifacts` capability.

    Use instead: declare it, under `optional` when only some calls need it:
    ```json
    "optional": [{"name": "artifacts", "reason": "to save the full table as a file"}]
    ```
    """
    found = kvist.entrypoint(skill)
    manifest = kvist.manifest_data(skill)
    if found is None or manifest is None:
        return
    declared = kvist.declared_capabilities(manifest[2])
    reported = set()
    for cap, line, column, written in kvist.context_uses(found[1]):
        if cap not in declared and cap not in reported:
            reported.add(cap)
            yield Hit(found[0].path, f"{written} needs the {cap!r} capability, which manifest.json does not declare",
                      line, column)


@rule("KVS025", "describe-widens", summary="describe() names a tool the manifest does not declare.",
      seed=f"{SEED} plugin.py", scope="skill", targets=TARGET)
def describe_widens(skill):
    """
    ## What it does
    When `describe()` returns a literal `{"tools": [...]}`, checks that every name is a tool of
    the manifest.

    ## Why is this bad?
    `describe()` may narrow the tool list, never widen it: a tool the manifest does not declare
    has no parameters schema and is never offered.

    ## Example
    ```python
    def describe():
        return {"tools": ["digest", "purge"]}
    ```
    with only `digest` in the manifest.

    Use instead: declare the tool in `manifest.json`, or drop it from `describe()`.
    """
    found = kvist.entrypoint(skill)
    manifest = kvist.manifest_data(skill)
    if found is None or manifest is None:
        return
    names = kvist.describe_tools(found[1])
    declared = {t.get("name") for _, t in kvist.tools(manifest[2])}
    for name, line, column in names or []:
        if name not in declared:
            yield Hit(found[0].path, f"describe() offers {name!r}, which manifest.json does not declare", line, column)


# -- tests --------------------------------------------------------------------------------------


def _contract(skill):
    f = skill.files.get(kvist.CONTRACT)
    if f is None or f.text is None:
        return None
    doc = kvist.parse_json(f.text)
    if doc.error or not isinstance(doc.data, dict):
        return None
    return f, doc


@rule("KVS026", "contract-missing", summary="tests/contract.json is missing or not a JSON object.",
      seed=f"{SEED} Tests", scope="skill", targets=TARGET)
def contract_missing(skill):
    """
    ## What it does
    Checks that `tests/contract.json` exists and is a JSON object mapping each tool name to
    sample arguments.

    ## Why is this bad?
    kvist's `check` calls every tool with these samples under exactly the declared
    capabilities; without the contract nothing proves the tools run.

    ## Example
    A skill with `tests/test_plugin.py` but no `tests/contract.json`.

    Use instead:
    ```json
    {"digest": {"path": "logs/a.log"}}
    ```
    """
    if kvist.manifest_data(skill) is None:
        return
    f = skill.files.get(kvist.CONTRACT)
    if f is None:
        yield Hit(skill.root / kvist.CONTRACT, "tests/contract.json is missing: it maps each tool to sample arguments")
        return
    if f.data is not None:
        yield from json_object_problems(f, "tests/contract.json", 'a JSON object: {"tool": {arguments}}')


@rule("KVS027", "contract-tools-mismatch", summary="tests/contract.json does not name exactly the manifest's tools.",
      seed=f"{SEED} Tests", scope="skill", targets=TARGET)
def contract_tools_mismatch(skill):
    """
    ## What it does
    Checks that `tests/contract.json` has sample arguments for every tool of the manifest, and
    no entry for a tool the manifest does not declare.

    ## Why is this bad?
    A tool without a sample is never called by kvist's `check`; an entry for a renamed tool is
    a contract nobody keeps.

    ## Example
    Manifest tools `digest` and `summary`; contract `{"digest": {"path": "logs/a.log"}}`.

    Use instead: one entry per tool.
    """
    contract = _contract(skill)
    manifest = kvist.manifest_data(skill)
    if contract is None or manifest is None:
        return
    f, doc = contract
    names = [t.get("name") for _, t in kvist.tools(manifest[2]) if isinstance(t.get("name"), str)]
    for name in names:
        if name not in doc.data:
            yield Hit(f.path, f"tests/contract.json has no sample arguments for tool {name!r}", 1)
    for name in doc.data:
        if name not in names:
            line, column = doc.where((name,))
            yield Hit(f.path, f"tests/contract.json names {name!r}, which is not a tool of manifest.json", line, column)


@rule("KVS028", "contract-arguments-invalid", summary="Sample arguments in tests/contract.json break the tool's parameters.",
      seed=f"{SEED} Tests", scope="skill", targets=TARGET)
def contract_arguments_invalid(skill):
    """
    ## What it does
    Validates each tool's sample arguments in `tests/contract.json` against that tool's
    `parameters` schema.

    ## Why is this bad?
    kvist validates arguments before the code runs: a sample that breaks the schema makes
    every contract call fail before it reaches the tool.

    ## Example
    ```json
    {"digest": {"file": "logs/a.log"}}
    ```
    when `parameters` requires `path` and forbids other keys.

    Use instead:
    ```json
    {"digest": {"path": "logs/a.log"}}
    ```
    """
    contract = _contract(skill)
    manifest = kvist.manifest_data(skill)
    if contract is None or manifest is None:
        return
    import jsonschema

    f, doc = contract
    for _, tool in kvist.tools(manifest[2]):
        name, params = tool.get("name"), tool.get("parameters")
        if not isinstance(name, str) or name not in doc.data or not isinstance(params, dict):
            continue
        try:
            cls = jsonschema.validators.validator_for(params, default=jsonschema.Draft202012Validator)
            cls.check_schema(params)
        except jsonschema.SchemaError:
            continue  # KVS004
        line, column = doc.where((name,))
        for ref_path, target in kvist.external_refs(params):
            where = "/".join(str(p) for p in ref_path)
            yield Hit(f.path, f"sample for {name!r} was checked without {target!r} (parameters/{where}): "
                              "skillsmith fetches no schemas; put the definition in the parameters", line, column)
        try:
            errors = kvist.sample_errors(cls, params, doc.data[name])
        except kvist.SampleUnchecked as why:
            yield Hit(f.path, f"sample for {name!r} could not be checked against its parameters ({why}): "
                              "a `pattern` there backtracks; write one without nested repetition", line, column)
            continue
        for path, message in errors:
            line, column = doc.where((name, *path))
            where = "/".join(str(p) for p in path)
            yield Hit(f.path, f"sample for {name!r}{' at ' + where if where else ''}: {message}", line, column)


@rule("KVS029", "tests-missing", summary="A kvist skill has no tests/test_*.py.", seed=f"{SEED} Tests",
      scope="skill", severity="warning", targets=TARGET)
def tests_missing(skill):
    """
    ## What it does
    Warns when a kvist skill has no `tests/test_*.py`.

    ## Why is this bad?
    The unittest tests run in the same kind of sandbox as the skill; they are where the empty,
    oversized and malformed inputs that break tools get tested, with a fake `context`.

    ## Example
    A skill with `plugin.py` and `tests/contract.json` only.

    Use instead: `tests/test_plugin.py` that imports `plugin` and calls `execute` with a fake
    context.
    """
    if kvist.manifest_data(skill) is None:
        return
    if not any(rel.startswith("tests/test_") and rel.endswith(".py") and rel.count("/") == 1 for rel in skill.files):
        yield Hit(skill.root / "tests", "no tests/test_*.py: test the tools with unittest and a fake context")


@rule("KVS030", "tool-undocumented", summary="The instructions never name a tool by its wire name (<id>__<tool>).",
      seed=f"{SEED} SKILL.md of a tools skill", scope="skill", severity="warning", targets=TARGET)
def tool_undocumented(skill):
    """
    ## What it does
    Warns when the instructions file (`SKILL.md`) never mentions a tool by the name the model
    calls it with, `<id>__<tool>` (`log_digest__digest`).

    ## Why is this bad?
    The model matches what `SKILL.md` says against the tools it is offered; a tool described
    under another name is one it does not know when to use, or not to use.

    ## Example
    A `SKILL.md` that says "the digest tool" for `log_digest__digest`.

    Use instead: a short section per tool headed by its wire name, saying when to use it and
    when not, what each result field means and what is truncated.
    """
    found = kvist.manifest_data(skill)
    if found is None:
        return
    f, doc, data = found
    skill_id = data.get("id")
    instructions = data.get("instructions") if isinstance(data.get("instructions"), str) else "SKILL.md"
    md = skill.files.get(skill_path(instructions).rel or "")
    if kvist.ident_problem(skill_id) or md is None or md.text is None:
        return  # a bad id is KVS005's
    for i, tool in kvist.tools(data):
        name = tool.get("name")
        if kvist.ident_problem(name, "tool name") is None and f"{skill_id}__{name}" not in md.text:
            yield _hit(f, doc, ("tools", i, "name"),
                       f"{md.rel} never names tool {name!r} by its wire name {skill_id}__{name}")
