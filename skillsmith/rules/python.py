"""Python script rules, PYS (Skill Resource Protocol §2, §4-§6)."""

from __future__ import annotations

import ast
import re
import sys
import weakref

from skillsmith.lang.python import (
    dotted,
    is_envelope,
    keyword,
    main_returns_codes,
    parent_map,
    qualified,
)
from skillsmith.lang.python_evidence import RAW_FORMATTERS
from skillsmith.lang.status import is_status_text
from skillsmith.rules.finding import DECLARED, Hit, display_path
from skillsmith.rules.registry import RuleUnavailable, rule



def _python(script):
    return script.language == "python"


@rule("PYS001", "python-syntax", summary="The Python script does not parse.", seed="000 §2.6", scope="script", library=True)
def python_syntax(script):
    """
    ## What it does
    Parses each Python script with `ast` (nothing is run). When the failing line looks written
    for a newer Python than the one running skillsmith (a 3.12 f-string, `type X = ...`), that
    is a fact about this machine, not the script: no finding, but a note that says which
    version it needs and that its Python rules were not checked.

    ## Why is this bad?
    A script that does not compile fails when the agent runs it, usually in the middle of a task.

    ## Example
    ```python
    print("unclosed
    ```

    Use instead: make `python3 -m py_compile script.py` pass.
    """
    if not _python(script) or script.file.text is None:
        return
    problem = script.py[1]
    if problem is None:
        return
    running = f"{sys.version_info[0]}.{sys.version_info[1]}"
    if problem.needs:
        # a fact about this machine, not the script: a note, not a finding
        raise RuleUnavailable(f"{display_path(script.path)} needs Python {problem.needs} or newer (line {problem.line} "
                              f"uses newer syntax); skillsmith runs on {running} and could not check its Python rules")
    else:
        msg = f"does not parse: {problem.message}"
    yield Hit(script.path, msg, problem.line, problem.column)


def _parsers(script):
    """The script's ArgumentParser calls that print a help of their own: not a parent parser made with
    ``add_help=False`` (whose arguments ``parents=[...]`` copies into the parsers that print help)."""
    if not _python(script) or script.py_facts is None:
        return []
    return [call for call in script.py_facts.parsers
            if not ((k := keyword(call, "add_help")) is not None and isinstance(k.value, ast.Constant) and k.value.value is False)]


#: a heading of examples in an epilog: "Examples:", 示例用法 / 范例 (zh), 使用例 (ja), 예시 (ko)
_EXAMPLES_WORD = re.compile("example|\u793a\u4f8b|\u8303\u4f8b|\u7bc4\u4f8b|\u4f7f\u7528\u4f8b|\uc608\uc2dc", re.I)


@rule("PYS002", "argparse-epilog-missing", summary="An ArgumentParser has no epilog with examples.", seed="000 §2.3", scope="script", fix="safe", severity="warning")
def argparse_epilog_missing(script):
    """
    ## What it does
    Flags `argparse.ArgumentParser(...)` calls (aliases included) without an `epilog=` that
    shows examples. A parser whose description is the module docstring (`description=__doc__`)
    shows the docstring's examples already (an Examples section, or indented calls of the
    script: `    python3 scripts/find.py "query" --domain x`), and is left alone, as is a parent parser
    (`add_help=False`, given to others as `parents=[...]`), which prints no help. An epilog
    whose examples are headed in another language (`示例用法:`, `使用例:`) has examples.

    ## Why is this bad?
    `--help` must end with an EXAMPLES section: it is what the agent copies from. argparse
    prints only options unless you give it an epilog.

    ## Example
    ```python
    parser = argparse.ArgumentParser(description="Fetch a page.")
    ```

    Use instead:
    ```python
    parser = argparse.ArgumentParser(
        description="Fetch a page.",
        epilog="examples:\\n  fetch.py https://example.com\\n",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    ```

    ## Fix safety
    Safe: adds `epilog=` built from the docstring's Examples; existing keywords stay. A script
    that builds several parsers (one per command, each fed `sys.argv[2:]`) keeps the finding for a
    person: its calls are the script's, not one parser's.

    ## Severity
    Warning: without examples in `--help` the agent composes the call from the options; the
    script works.
    """
    ev = script.py_evidence if _python(script) else None
    for call in _parsers(script):
        if ev is not None and ev.help_has_examples(call):
            continue  # description=__doc__, and the docstring shows the examples
        epilog = keyword(call, "epilog")
        can = ev is not None and ev.epilog_fixable(call)
        why = "" if can else _epilog_by_hand(ev, call, script.invocations)
        if epilog is None:
            yield Hit(script.path, "ArgumentParser has no epilog; add one with an examples section" + why,
                      call.lineno, call.col_offset + 1, fix=DECLARED if can else None)
        elif isinstance(epilog.value, ast.Constant) and isinstance(epilog.value.value, str) \
                and not _EXAMPLES_WORD.search(epilog.value.value):
            yield Hit(script.path, "the ArgumentParser epilog has no examples" + why, epilog.value.lineno,
                      epilog.value.col_offset + 1, fix=DECLARED if can else None)


#: a placeholder in a cited command: ``<export.zip>``, ``<file>``, ``/path/to/fresh.json``
_PLACEHOLDER = re.compile(r"<[^<>\s]{1,60}>|/path/to/[^\s\"']{0,60}")


def _epilog_by_hand(ev, call, invocations: list[str]) -> str:
    """What keeps the epilog fix out of the ArgumentParser *call*, for a person to do instead."""
    if ev is None or not ev.examples(for_epilog=True):
        shown = [m.group(0) for command in invocations if (m := _PLACEHOLDER.search(command))]
        if shown and len(shown) == len(invocations):
            return (f"; by hand: a worked invocation (SKILL.md shows it only with placeholders such as {shown[0]}, "
                    "which an example must fill with real values)")
        if shown:
            return (f"; by hand: a worked invocation (SKILL.md's calls of it hold placeholders such as {shown[0]}, "
                    "or lack what the parser requires)")
        return "; by hand: a worked invocation (none in SKILL.md or the docstring that the parser accepts)"
    if ev.several_parsers:
        return f"; by hand: the script builds {len(ev.facts.parsers)} parsers, so its calls are not this parser's alone"
    if ev.docstring_is_help(call):
        return "; by hand: its help is the docstring (description=__doc__), so add the Examples there"
    if any(k.arg is None for k in call.keywords):
        return "; by hand: the call passes **kwargs, which may hold an epilog"
    formatter = keyword(call, "formatter_class")
    name = (dotted(formatter.value) or "its formatter_class").rsplit(".", 1)[-1] if formatter is not None else None
    if name is not None and name not in RAW_FORMATTERS:
        return f"; by hand: {name} would rewrap an added epilog; give the examples with RawDescriptionHelpFormatter"
    return "; by hand: its epilog is not one string literal to add the examples to"


@rule("PYS003", "argparse-formatter-missing", summary="An ArgumentParser reflows its epilog (no RawDescriptionHelpFormatter).", seed="000 §2.3", scope="script", fix="safe", severity="warning")
def argparse_formatter_missing(script):
    """
    ## What it does
    Flags `ArgumentParser(...)` calls without `formatter_class=RawDescriptionHelpFormatter`
    (or `RawTextHelpFormatter`) whose help text is laid out in lines: an epilog or description
    of several lines, or `description=__doc__` of a docstring of several lines. A parser with
    no such text (a one-line docstring) is left alone (an
    epilog the fix adds for PYS002 comes with the formatter).

    ## Why is this bad?
    The default formatter rewraps the epilog into one paragraph, so the examples come out as
    a single unreadable line.

    ## Example
    ```python
    argparse.ArgumentParser(epilog=EXAMPLES)
    ```

    Use instead:
    ```python
    argparse.ArgumentParser(epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    ```

    ## Fix safety
    Safe: adds the keyword; an existing `formatter_class` is left alone.

    ## Severity
    Warning: the help text's lines run together, which hides the layout of its examples; the
    script works.
    """
    ev = script.py_evidence if _python(script) else None
    for call in _parsers(script):
        fmt = keyword(call, "formatter_class")
        if fmt is None:
            if ev is None or not ev.reflows(call):
                continue  # nothing laid out in lines to rewrap (an epilog the fix adds brings the formatter: PYS002)
            can = ev.formatter_fixable(call)
            yield Hit(script.path, "ArgumentParser has no formatter_class=argparse.RawDescriptionHelpFormatter; "
                                   "its help text's lines get joined into one paragraph",
                      call.lineno, call.col_offset + 1, fix=DECLARED if can else None)
            continue
        name = dotted(fmt.value) or ""
        if isinstance(fmt.value, ast.Name) or isinstance(fmt.value, ast.Attribute):
            if name.rsplit(".", 1)[-1] in RAW_FORMATTERS:
                continue
            # a project's own formatter class may subclass a raw one; only flag the known non-raw ones,
            # and only where there is text laid out in lines for them to rewrap
            if name.rsplit(".", 1)[-1] in ("HelpFormatter", "ArgumentDefaultsHelpFormatter", "MetavarTypeHelpFormatter") \
                    and ev is not None and ev.reflows(call):
                yield Hit(script.path, f"formatter_class={name} rewraps the examples; use RawDescriptionHelpFormatter "
                                       "(a person chooses: the fix keeps the author's formatter)",
                          fmt.value.lineno, fmt.value.col_offset + 1, fix=None)


@rule("PYS004", "subprocess-shell-true", summary="A subprocess call uses shell=True.", seed="000 §6", scope="script", library=True)
def subprocess_shell_true(script):
    """
    ## What it does
    Flags calls with `shell=True` (`subprocess.run`, `Popen`, `check_output`, ...). Not flagged:
    a command line the script writes out, as a string literal or as the parameter of a helper
    that every call in the module gives one (`def run(cmd): subprocess.run(cmd, shell=True)`
    called only as `run("webctl setup")`): no input reaches the shell.

    ## Why is this bad?
    Agents fabricate plausible inputs; with `shell=True` any of them can become shell
    injection. The protocol says never `shell=True` with agent-supplied data.

    ## Example
    ```python
    subprocess.run(f"grep {pattern} {path}", shell=True)
    ```

    Use instead:
    ```python
    subprocess.run(["grep", "--", pattern, path], check=False)
    ```
    """
    if not _python(script) or script.py_facts is None:
        return
    facts = script.py_facts
    for name, call in facts.calls:
        kw = keyword(call, "shell")
        if kw is not None and not (isinstance(kw.value, ast.Constant) and not kw.value.value):
            if call.args and fixed_command(call.args[0], call, facts):
                continue  # a command written out in the script (`run("webctl setup")`): no input reaches the shell
            yield Hit(script.path, f"{name}(..., shell=True) runs a shell; pass a list of arguments instead", call.lineno, call.col_offset + 1)


def fixed_command(command: ast.expr, call: ast.Call, facts) -> bool:
    """Whether the command line *command* (of *call*) is a string the script writes out: a literal, or
    the parameter of the function holding *call* that each call of it in the module passes a literal
    (``def run(cmd): subprocess.run(cmd, shell=True)`` called as ``run("webctl setup")``)."""
    if isinstance(command, ast.Constant):
        return isinstance(command.value, str)
    if not isinstance(command, ast.Name):
        return False
    parents = parent_map(facts)
    holder = parents.get(id(call))
    while holder is not None and not isinstance(holder, (ast.FunctionDef, ast.AsyncFunctionDef)):
        holder = parents.get(id(holder))
    if holder is None or holder.name.startswith("__"):
        return False
    params = [a.arg for a in (*holder.args.posonlyargs, *holder.args.args)]
    if command.id not in params or any(isinstance(n, ast.Name) and n.id == command.id and isinstance(n.ctx, ast.Store)
                                       for n in ast.walk(holder)):
        return False  # not a parameter, or one the function rebinds
    at = params.index(command.id) - (1 if params and params[0] in ("self", "cls") else 0)
    uses = [c for name, c in facts.calls if name in (holder.name, f"self.{holder.name}", f"cls.{holder.name}")]
    if not uses:
        return False
    for use in uses:
        value = use.args[at] if 0 <= at < len(use.args) else next((k.value for k in use.keywords if k.arg == command.id), None)
        if not (isinstance(value, ast.Constant) and isinstance(value.value, str)):
            return False
    return True


@rule("PYS005", "os-system", summary="os.system or os.popen runs a shell command line.", seed="000 §6", scope="script", library=True)
def os_system(script):
    """
    ## What it does
    Flags `os.system(...)` and `os.popen(...)`.

    ## Why is this bad?
    Both hand a string to the shell (injection from agent-made inputs), and `os.system`
    mixes the child's output into stdout and loses its error.

    ## Example
    ```python
    os.system("git log " + ref)
    ```

    Use instead:
    ```python
    subprocess.run(["git", "log", ref], check=False)
    ```
    """
    if not _python(script) or script.py_facts is None:
        return
    for name, call in script.py_facts.calls:
        if name in ("os.system", "os.popen"):
            yield Hit(script.path, f"{name}() runs a shell command line; use subprocess.run([...]) with a list", call.lineno, call.col_offset + 1)


def _facts(script):
    if script.language != "python":
        return None
    return script.py_facts


def defines(module: ast.Module, name: str) -> bool:
    for node in module.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node.name == name:
            return True
        if isinstance(node, (ast.Import, ast.ImportFrom)) and any((a.asname or a.name) == name for a in node.names):
            return True
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name for t in node.targets):
            return True
    return False


def json_prints(facts) -> list[ast.Call]:
    """``print(json.dumps(x))`` calls whose *x* is not an envelope literal."""
    found = []
    for name, call in facts.calls:
        if name != "print" or len(call.args) != 1 or call.keywords:
            continue
        inner = call.args[0]
        if isinstance(inner, ast.Call) and qualified(inner.func, facts.aliases) == "json.dumps":
            if len(inner.args) == 1 and not inner.keywords and not is_envelope(inner.args[0]):
                found.append(call)
    return found


def _fails(stmt) -> bool:
    """Whether *stmt* ends the script with an error: ``sys.exit(1)``, ``exit(2)``, ``raise SystemExit(1)``."""
    call = stmt.exc if isinstance(stmt, ast.Raise) else stmt.value if isinstance(stmt, ast.Expr) else None
    if not isinstance(call, ast.Call) or dotted(call.func) not in ("sys.exit", "exit", "SystemExit"):
        return False
    code = call.args[0] if call.args else None
    return isinstance(code, ast.Constant) and isinstance(code.value, int) and code.value != 0


def _sample_before_failing(module: ast.Module, call: ast.Call) -> bool:
    """Whether *call* prints a constant JSON sample in the block that then exits with an error
    (``Create connections.json with format:`` and a literal): a hint for people, not output."""
    printed = call.args[0] if call.args else None
    value = printed.args[0] if isinstance(printed, ast.Call) and printed.args else None
    try:
        ast.literal_eval(value)
    except (ValueError, TypeError, SyntaxError, RecursionError, MemoryError):
        return False
    for node in ast.walk(module):
        for body in (getattr(node, "body", None), getattr(node, "orelse", None)):
            if not isinstance(body, list):
                continue
            for i, stmt in enumerate(body):
                if isinstance(stmt, ast.Expr) and stmt.value is call:
                    return any(_fails(later) for later in body[i + 1:])
    return False


@rule("PYS050", "json-helpers-missing", summary="A script writes JSON without the envelope helpers.",
      seed="000 §4", scope="script", severity="warning", fix="unsafe")
def json_helpers_missing(script):
    """
    ## What it does
    Flags entry scripts that print JSON (`json.dumps`, `json.dump`) or accept `--json`, but
    neither define an `emit_json` helper nor build the envelope (a dict with a `"data"` or
    `"error"` key) anywhere. A constant sample printed on the way to an error exit (the format
    of a missing config file) is a hint for people, not output.

    ## Why is this bad?
    Agents parse `--json` output by the protocol's envelope: `{"data": [...], "meta":
    {"count", "schema"}}` on success, `{"error": {"code", "message", "details"}}` on failure.
    A script that prints bare JSON makes every caller special-case it.

    ## Example
    ```python
    print(json.dumps(rows))
    ```

    Use instead:
    ```python
    def emit_json(data, schema):
        items = data if isinstance(data, list) else [data]
        print(json.dumps({"data": items, "meta": {"count": len(items), "schema": schema}}))

    emit_json(rows, "my-skill.list_rows/v1")
    ```

    ## Fix safety
    Unsafe: the fix routes the JSON the script prints to stdout (`print(json.dumps(x))`,
    `json.dump(x, sys.stdout)`) through an added `emit_json(data, schema)`, so the output's
    shape changes. A helper that nothing calls is never added.
    """
    facts = _facts(script)
    if facts is None:
        return
    module = script.py[0]
    ev = script.py_evidence
    dumps = [c for c in ev.json_on_stdout if not _sample_before_failing(module, c)] if ev is not None else []
    if not dumps and not (ev is not None and ev.json_flag and "--json" in facts.strings):
        return  # JSON only written into files, or no --json switch of its own
    if defines(module, "emit_json"):
        return
    for node in facts.nodes or ast.walk(module):
        if is_envelope(node):
            return
    at = dumps[0] if dumps else None
    if at is not None and dotted(at.func) == "print" and at.args and isinstance(at.args[0], ast.Call):
        at = at.args[0]  # the json.dumps(...) inside the print
    yield Hit(script.path, "writes JSON but never the --json envelope (no emit_json helper)",
              at.lineno if at else 1, at.col_offset + 1 if at else 1)


@rule("PYS051", "json-output-bare", summary="print(json.dumps(x)) prints JSON outside the envelope.",
      seed="000 §4", scope="script", severity="warning", fix="unsafe")
def json_output_bare(script):
    """
    ## What it does
    Flags `print(json.dumps(x))` where `x` is not already an envelope (a dict literal with a
    `"data"` or `"error"` key).

    ## Why is this bad?
    The protocol's `--json` output is always the envelope, so callers can read
    `.data[]` and `.meta.count` without knowing the script. Bare JSON breaks that.

    ## Example
    ```python
    print(json.dumps(rows))
    ```

    Use instead:
    ```python
    emit_json(rows, "my-skill.list_rows/v1")
    ```

    ## Fix safety
    Unsafe: the output's shape changes (`rows` becomes `{"data": rows, "meta": {...}}`), so
    every caller must be updated. The fix runs only with `--unsafe-fixes`; it adds the
    `emit_json` helper with the first call that needs it (the fix PYS050 has too).
    """
    facts = _facts(script)
    if facts is None:
        return
    for call in json_prints(facts):
        yield Hit(script.path, "prints bare JSON; wrap it in the envelope with emit_json(data, schema)",
                  call.lineno, call.col_offset + 1)


def final_main_call(module: ast.Module) -> ast.Call | None:
    """The bare ``main()`` that ends the module (inside the ``__main__`` guard or not)."""
    if not module.body:
        return None
    last = module.body[-1]
    if isinstance(last, ast.If) and isinstance(last.test, ast.Compare) and dotted(last.test.left) == "__name__":
        last = last.body[-1] if last.body else None
    if isinstance(last, ast.Expr) and isinstance(last.value, ast.Call) and dotted(last.value.func) == "main" \
            and not last.value.args and not last.value.keywords:
        return last.value
    return None


@rule("PYS052", "exit-code-dropped", summary="main() returns exit codes but the script ignores them.",
      seed="000 §5", scope="script", fix="unsafe")
def exit_code_dropped(script):
    """
    ## What it does
    Flags a script that ends with a bare `main()` call although `main` returns exit codes
    (integers or `EXIT_*` constants). A `main` whose only returns are `return 0` (failures
    `sys.exit(1)` on their own) loses nothing when its value is dropped, and is left alone.

    ## Why is this bad?
    The codes `main` returns are thrown away: the script exits 0 on every failure, and the
    agent takes a failed run for a success.

    ## Example
    ```python
    if __name__ == "__main__":
        main()
    ```

    Use instead:
    ```python
    if __name__ == "__main__":
        sys.exit(main())
    ```

    ## Fix safety
    Unsafe: the script exits with the codes `main` returns instead of 0, so a caller that took
    every run for a success now sees the failures. Offered only when every `return` in `main`
    returns an int, an `EXIT_*` name or None (which `sys.exit` turns into exactly those codes).
    """
    facts = _facts(script)
    if facts is None:
        return
    module = script.py[0]
    call = final_main_call(module)
    if call is not None and main_returns_codes(module):
        yield Hit(script.path, "main() returns exit codes but they are dropped; call sys.exit(main())",
                  call.lineno, call.col_offset + 1)


@rule("PYS053", "status-on-stdout", summary="A status message is printed to stdout.",
      seed="000 §4", scope="script", severity="warning", fix="unsafe")
def status_on_stdout(script):
    """
    ## What it does
    Flags `print(...)` calls without `file=` whose literal text is clearly status, not data:
    it starts with words like "Processing", "Loading", "Done", "Warning:", "Error:" or ends
    with "...". Only scripts that print data for a program are judged, as for shell's echo
    (SHL052): they print JSON to stdout (`print(json.dumps(...))`, `json.dump(x, sys.stdout)`)
    or take `--json`. A script that prints text for a person (a report, a log of what it
    did) may well be read on stdout: whether a line in it is status is the author's call. A word glued to `=`, `_` or `-` is a key (`f"running={n}"`), not status. A field
    of a listing is data: `f"  Info: {info}"` right after
    `f"  Reward: {reward}"` at the same indent is not flagged, nor the line that ends a
    listing, `f"  ... {n} more"`, nor a checker's report, a line per finding it lists
    (`for w in warnings: print(f"WARN: {w}")`). Nor a script whose stdout gets nothing but such
    messages (`print(f"Wrote {n} fields to {out}")` after `json.dump(info, f)`), or gets only
    lines of text beside them while its results go to files (`print(f"  Title: {title}")`,
    `print("Summary:")`, no value printed alone, no JSON): there is no output for them to
    spoil. Nor a message in the branch that writes the output to a file when the other branch
    prints it (`if args.out: ...write_text(text); print(f"wrote {args.out}")` / `else:
    print(text)`): stdout carries nothing else there.

    ## Why is this bad?
    stdout is the agent's input. A progress line in it breaks `| jq` and every parser
    downstream; status belongs on stderr.

    ## Example
    ```python
    print(f"Processing {path}...")
    ```

    Use instead:
    ```python
    print(f"Processing {path}...", file=sys.stderr)
    ```

    ## Fix safety
    Unsafe: a caller that reads these lines from stdout stops seeing them there.
    """
    facts = _facts(script)
    evidence = script.py_evidence
    if facts is None or evidence is None or not (evidence.json_on_stdout or evidence.json_flag):
        return  # no data for a program on stdout: nothing for a status line to spoil
    printed = {}
    for name, call in facts.calls:
        if name != "print" or not call.args or keyword(call, "file") is not None:
            continue
        if any(isinstance(a, ast.Starred) for a in call.args):
            continue
        first = call.args[0]
        if isinstance(first, ast.Constant) and isinstance(first.value, str):
            printed[call] = first.value
        elif isinstance(first, ast.JoinedStr):
            head = first.values[0] if first.values else None
            text = head.value if isinstance(head, ast.Constant) and isinstance(head.value, str) else ""
            if len(first.values) > 1 and text.strip() == "...":
                continue  # a listing's last line: f"  ... {n} more", not a trailing "..." of progress
            if text or first.values:
                printed[call] = text
    fields = {(call.lineno, m.group(1)): m.group(2) for call, text in printed.items() if (m := _FIELD.match(text))}
    listed = _report_lines(facts)
    status = [call for call, text in printed.items() if is_status_text(text) and not _in_listing(call.lineno, text, fields)
              and not (id(call) in listed and _SEVERITY.fullmatch(text))]
    if not _data_on_stdout(evidence, status):
        return  # only messages: no output for them to spoil (its results go to files)
    status = _besides_the_output(facts, evidence, status)
    for call in status:
        yield Hit(script.path, "status message on stdout; print it to sys.stderr", call.lineno, call.col_offset + 1)


def _data_on_stdout(evidence, status: list[ast.Call]) -> bool:
    """Whether the script writes anything to stdout beside the *status* lines and blank ``print()``s,
    and, in a script that writes its results to files, beside lines of text (``print(f"  Title:
    {title}")``, ``print("Summary:")``): a log for a person, with no value printed alone or JSON."""
    flagged = {id(c) for c in status}
    others = [c for c in evidence.stdout_calls
              if id(c) not in flagged and (c.args or not (isinstance(c.func, ast.Name) and c.func.id == "print"))]
    if others and evidence.writes_files and not evidence.json_on_stdout:
        return not all(map(_prints_text, others))
    return bool(others)


def _prints_text(call: ast.Call) -> bool:
    """Whether *call* is a ``print`` of literal text and f-strings only (a log line), no value alone."""
    return isinstance(call.func, ast.Name) and call.func.id == "print" and all(
        isinstance(a, ast.JoinedStr) or isinstance(a, ast.Constant) and isinstance(a.value, str) for a in call.args)


def _besides_the_output(facts, evidence, status: list[ast.Call]) -> list[ast.Call]:
    """The *status* prints that share stdout with the output: not those in the branch of an ``if``
    that writes the output to a file while its other branch prints it (``if args.out:
    args.out.write_text(text); print(f"wrote {args.out}") else: print(text)``)."""
    flagged = {id(c) for c in status}
    data = {id(c) for c in evidence.stdout_calls if id(c) not in flagged}
    writes = evidence.file_writes()
    kept = set(flagged)
    for test in facts.by_type.get(ast.If, ()):
        if not test.orelse:
            continue
        body, other = ({id(n) for stmt in branch for n in ast.walk(stmt)} for branch in (test.body, test.orelse))
        for mine, theirs in ((body, other), (other, body)):
            if mine & writes and not mine & data and theirs & data:
                kept -= mine
    return [c for c in status if id(c) in kept]


#: all the literal text before the finding a checker's report line gives: ``WARN: {w}``, ``ERROR:``, ``  [FAIL] [``
_SEVERITY = re.compile(r"\s*\[?(?:warn(?:ing)?|error|fail(?:ed)?|info|note)\]?:?\s*\[?", re.I)


def _report_lines(facts) -> set[int]:
    """The ``print`` calls (by id) that list what a loop goes over: ``for w in warnings: print(f"WARN: {w}")``,
    one line per finding of a checker's report (its data), not a message about its progress."""
    out = set()
    for loop in facts.by_type.get(ast.For, ()):
        names = {n.id for n in ast.walk(loop.target) if isinstance(n, ast.Name)}
        for stmt in loop.body:
            call = stmt.value if isinstance(stmt, ast.Expr) else None
            if (isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id == "print"
                    and any(isinstance(n, ast.Name) and n.id in names for a in call.args for n in ast.walk(a))):
                out.add(id(call))
    return out


#: an indented label before its value: ``f"  Reward: {reward}"``, one field of a listing
_FIELD = re.compile(r"^([ \t]+)(\w+):\s*$")


def _in_listing(line: int, text: str, fields: dict) -> bool:
    """Whether the print at *line* is one field of a listing: it is ``"  Info: "`` and the print on the
    line before or after gives another field at the same indent whose label is not status
    (``"  Reward: "`` before ``"  Info: "``, ``"    Database: "`` before ``"    Created: "``)."""
    m = _FIELD.match(text)
    if m is None:
        return False
    return any((label := fields.get((near, m.group(1)))) is not None and not is_status_text(label + ":")
               for near in (line - 1, line + 1))


#: files that declare a skill's Python dependencies
REQUIREMENT_FILES = ("pyproject.toml", "setup.py", "setup.cfg", "Pipfile", "environment.yml", "environment.yaml", "uv.lock")


def _declares_requirements(rel: str) -> bool:
    name = rel.rsplit("/", 1)[-1]
    return name in REQUIREMENT_FILES or (name.startswith("requirements") and name.endswith((".txt", ".in")))


def _own_module(script, name: str) -> bool:
    """Whether *name* is a module of the skill itself (``name.py`` or a package folder ``name/``)."""
    if script.skill is None:
        folder = script.path.parent
        return (folder / f"{name}.py").exists() or (folder / name).is_dir()
    return any(rel.rsplit("/", 1)[-1] == f"{name}.py" or f"/{rel}".find(f"/{name}/") >= 0
               for rel in script.skill.files)


#: the last skill asked about and its answer (the rule asks once per script, skill after skill)
_SAYS_TO_INSTALL: list = [None, False]


def _skill_says_to_install(script) -> bool:
    """Whether a file of the skill tells its reader to install Python packages (a Markdown file,
    a wrapper script that sets up a virtualenv, the script's own docstring)."""
    from skillsmith.lang.python_checklist import says_to_install

    skill = script.skill
    if skill is None:
        return script.file.text is not None and says_to_install(script.file.text)
    known, answer = _SAYS_TO_INSTALL
    if known is not None and known() is skill:
        return answer
    answer = any(f.text is not None and says_to_install(f.text) for f in skill.files.values())
    _SAYS_TO_INSTALL[:] = [weakref.ref(skill), answer]
    return answer


def _skill_names_package(script, name: str) -> bool:
    """Whether a Markdown file of the skill names the package (a prerequisite list, an install line)."""
    from skillsmith.lang.python_checklist import names_package

    if script.skill is None:
        return False
    return any(rel.endswith(".md") and f.text is not None and names_package(f.text, name)
               for rel, f in script.skill.files.items())


@rule("PYS054", "import-undeclared", summary="An import from outside the standard library has no guard and no declared dependency.",
      seed="000 §2, §10", scope="script", severity="warning")
def import_undeclared(script):
    """
    ## What it does
    Flags `import x` / `from x import y` of a module that is not in Python's standard library
    (`sys.stdlib_module_names`) when nothing makes it safe:

    - no `try: ... except ImportError:` (or `ModuleNotFoundError`) around it, and it is not
      under `if TYPE_CHECKING:`;
    - the script has no PEP 723 block (`# /// script` with its `dependencies`);
    - the skill has no requirements file (`requirements*.txt`, `pyproject.toml`, `setup.py`,
      `Pipfile`, `environment.yml`), none of its files tells the reader to install Python
      packages (`pip install ...`, `uv add ...` in a Markdown file, a wrapper script that sets
      up a virtualenv, the script's own docstring: what they install may bring this one along)
      and no Markdown file names any of the script's packages (`- NumPy, SciPy` under
      Prerequisites: the others may come with the ones named);
    - it is not a module of the skill itself (`helpers.py` or a package folder beside it),
      and the script does not add folders to `sys.path` (its imports may then be modules
      kept beside the skill); nor a private module (`import _bootstrap`), a file of the
      skill (perhaps missing from it) rather than a package anyone would install.

    ## Why is this bad?
    On a machine without the package the script dies with a `ModuleNotFoundError` stack
    trace, and nothing in the skill says what to install. A declared dependency can be
    installed (`uv run` reads PEP 723); a guarded import can exit 5 with an install hint.

    ## Example
    ```python
    import requests
    ```

    Use instead:
    ```python
    # /// script
    # requires-python = ">=3.9"
    # dependencies = ["requests"]
    # ///
    import requests
    ```

    or a guard:
    ```python
    try:
        import requests
    except ImportError:
        print("needs requests: pip install requests", file=sys.stderr)
        sys.exit(EXIT_PRECONDITION)
    ```
    """
    facts = _facts(script)
    if facts is None:
        return
    from skillsmith.lang.python_checklist import PEP723, changes_import_path, unguarded_imports

    if PEP723.search(script.file.text or "") or changes_import_path(facts.calls):
        return
    if script.skill is not None and any(_declares_requirements(rel) for rel in script.skill.files):
        return
    imports = [(name, node) for name, node in unguarded_imports(script.py[0])
               if not _own_module(script, name) and not name.startswith("_")]
    if not imports or _skill_says_to_install(script):
        return
    if any(_skill_names_package(script, name) for name, _ in imports):
        return  # the skill documents what the script needs; the rest may come with it
    for name, node in imports:
        yield Hit(script.path, f"imports {name}, which is not in the standard library, with no ImportError guard "
                  "and no declared dependency (a PEP 723 block or a requirements file)", node.lineno, node.col_offset + 1)


@rule("PYS055", "unknown-arguments-accepted", summary="parse_known_args() throws the unknown arguments away.",
      seed="000 §6", scope="script", severity="warning")
def unknown_arguments_accepted(script):
    """
    ## What it does
    Flags `parser.parse_known_args()` when the unknown arguments it returns are thrown away:
    `parse_known_args()[0]`, `args, _ = parser.parse_known_args()`, a name for them the
    script never reads, or a call whose result is not kept. A script that passes them on
    (`args, rest = ...; subprocess.run([tool, *rest])`) is not flagged.

    ## Why is this bad?
    Agents invent flags. `--dry-run` that the script does not know is silently dropped, and
    the script does the real thing and reports success. The protocol wants a hard usage
    error (exit 2) for unknown flags and extra positionals, which `parse_args()` gives.

    ## Example
    ```python
    args, _ = parser.parse_known_args()
    ```

    Use instead:
    ```python
    args = parser.parse_args()
    ```
    """
    facts = _facts(script)
    if facts is None:
        return
    from skillsmith.lang.python_checklist import discarded_extras

    for call in discarded_extras(script.py[0]):
        yield Hit(script.path, "parse_known_args() drops the arguments it does not know; use parse_args() so they "
                  "are a usage error (exit 2)", call.lineno, call.col_offset + 1)


@rule("PYS056", "rmtree-without-confirmation", summary="shutil.rmtree of a path the caller gave, with no --force, --yes or --dry-run.",
      seed="000 §6", scope="script", severity="warning")
def rmtree_without_confirmation(script):
    """
    ## What it does
    Flags `shutil.rmtree(...)` of a path taken from the command line (`args.out` of a
    `parse_args()` result, `sys.argv`) in a script that offers no `--force`, `--yes` or
    `--dry-run` option and asks no `[y/N]` question.

    ## Why is this bad?
    Agents fabricate plausible inputs. One wrong argument and the script deletes a folder
    tree without a word. The protocol wants destructive steps behind an explicit
    `--force`/`--yes`, or a dry run by default.

    ## Example
    ```python
    shutil.rmtree(args.output)
    ```

    Use instead:
    ```python
    parser.add_argument("--force", action="store_true", help="remove OUTPUT if it exists")
    ...
    if os.path.exists(args.output) and not args.force:
        parser.error(f"{args.output} exists; pass --force to replace it")
    shutil.rmtree(args.output, ignore_errors=True)
    ```
    """
    facts = _facts(script)
    if facts is None:
        return
    from skillsmith.lang.python_checklist import argument_removals

    for call in argument_removals(script.py[0], facts.calls, facts.aliases, facts.strings):
        yield Hit(script.path, "removes a folder the caller named with shutil.rmtree, with no --force/--yes or dry run",
                  call.lineno, call.col_offset + 1)


@rule("PYS057", "write-in-place", summary="The destination given on the command line is written in place, not through a temp file and rename.",
      seed="000 §6, §10", scope="script", severity="info")
def write_in_place(script):
    """
    ## What it does
    Flags `open(args.out, "w")` (modes `w`, `x`, `wb`, ...) and `Path(args.out).write_text(...)`
    where the path comes from the command line (`args.<name>` of a `parse_args()` result,
    `sys.argv`), in a script that never renames a file (`os.replace`, `os.rename`,
    `shutil.move`, `path.replace(dest)`) nor uses `tempfile`.

    ## Why is this bad?
    A run that fails or is killed half-way leaves a truncated destination, and the old
    content is gone. The protocol: write `<dest>.tmp`, then rename it over the destination,
    so the destination is always either the old file or the new one.

    ## Example
    ```python
    with open(args.output, "w") as fh:
        fh.write(report)
    ```

    Use instead:
    ```python
    tmp = f"{args.output}.tmp"
    with open(tmp, "w") as fh:
        fh.write(report)
    os.replace(tmp, args.output)
    ```
    """
    facts = _facts(script)
    if facts is None:
        return
    from skillsmith.lang.python_checklist import in_place_writes

    for call in in_place_writes(script.py[0], facts.calls, facts.aliases):
        yield Hit(script.path, "writes the destination from the command line in place; write a temp file and "
                  "os.replace() it", call.lineno, call.col_offset + 1)


@rule("PYS058", "input-prompt", summary="The script waits for someone to type (input(), getpass, click.confirm).",
      seed="Agent Skills: using scripts", scope="script", severity="warning")
def input_prompt(script):
    """
    ## What it does
    Flags calls that wait for a person at a keyboard: `input("Continue? ")` (with a prompt),
    `getpass.getpass()`, `click.prompt`/`click.confirm`, `typer.prompt`, `rich.prompt`'s
    `ask`, and `questionary`/`inquirer` questions. It stays quiet when the script has another
    way to run: it asks `isatty()`, offers `--yes`, `--force` or `--non-interactive` (or
    prompts only under an opt-in `--interactive`), calls itself interactive or a wizard, the
    prompt is the fallback for an option left out (`url = args.url or input("URL: ")`), or it
    sits in a `try` that handles `EOFError`. One finding per script, at its first prompt.

    ## Why is this bad?
    Agents run scripts in shells with no terminal
    ([Agent Skills: using scripts](https://agentskills.io/skill-creation/using-scripts),
    "Avoid interactive prompts"). The prompt waits for input that never comes, and the agent
    hangs until its tool call times out, or `input()` reads end-of-file and the script dies
    with an `EOFError` traceback. Take the answer as an option or an environment variable.

    ## Example
    ```python
    if input("Delete the old report? [y/N] ") != "y":
        sys.exit(0)
    ```

    Use instead:
    ```python
    parser.add_argument("--yes", action="store_true", help="delete the old report without asking")
    ...
    if not args.yes:
        sys.exit(EXIT_USAGE)
    ```
    """
    facts = _facts(script)
    if facts is None:
        return
    from skillsmith.lang.keyboard import waiting_message
    from skillsmith.lang.python_checklist import keyboard_prompts

    calls = keyboard_prompts(script.py[0], facts.calls, facts.aliases, facts.strings)
    if calls:  # one finding per script, at its first prompt
        yield Hit(script.path, waiting_message(len(calls)), calls[0].lineno, calls[0].col_offset + 1)
