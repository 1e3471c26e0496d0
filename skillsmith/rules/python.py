"""Python script rules, PYS (Skill Resource Protocol §2, §4-§6)."""

from __future__ import annotations

import ast
import sys

from skillsmith.lang.python import (
    dotted,
    is_envelope,
    is_status_text,
    keyword,
    main_returns_codes,
    qualified,
)
from skillsmith.lang.python_evidence import RAW_FORMATTERS
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
    if not _python(script) or script.py_facts is None:
        return []
    return script.py_facts.parsers


@rule("PYS002", "argparse-epilog-missing", summary="An ArgumentParser has no epilog with examples.", seed="000 §2.3", scope="script", fix="safe")
def argparse_epilog_missing(script):
    """
    ## What it does
    Flags `argparse.ArgumentParser(...)` calls (aliases included) without an `epilog=` that
    shows examples. A parser whose description is the module docstring (`description=__doc__`)
    shows the docstring's examples already, and is left alone.

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
    Safe: adds `epilog=` built from the docstring's Examples; existing keywords stay.
    """
    ev = script.py_evidence if _python(script) else None
    for call in _parsers(script):
        if ev is not None and ev.help_has_examples(call):
            continue  # description=__doc__, and the docstring shows the examples
        epilog = keyword(call, "epilog")
        can = ev is not None and ev.epilog_fixable(call)
        why = "" if can else "; by hand: a worked invocation (none in SKILL.md or the docstring that the parser accepts)"
        if epilog is None:
            yield Hit(script.path, "ArgumentParser has no epilog; add one with an examples section" + why,
                      call.lineno, call.col_offset + 1, fix=DECLARED if can else None)
        elif isinstance(epilog.value, ast.Constant) and isinstance(epilog.value.value, str) and "example" not in epilog.value.value.lower():
            yield Hit(script.path, "the ArgumentParser epilog has no examples" + why, epilog.value.lineno,
                      epilog.value.col_offset + 1, fix=DECLARED if can else None)


@rule("PYS003", "argparse-formatter-missing", summary="An ArgumentParser reflows its epilog (no RawDescriptionHelpFormatter).", seed="000 §2.3", scope="script", fix="safe")
def argparse_formatter_missing(script):
    """
    ## What it does
    Flags `ArgumentParser(...)` calls without `formatter_class=RawDescriptionHelpFormatter`
    (or `RawTextHelpFormatter`) whose help text is laid out in lines: an epilog or description
    of several lines, or `description=__doc__`. A parser with no such text is left alone (an
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
            # a project's own formatter class may subclass a raw one; only flag the known non-raw ones
            if name.rsplit(".", 1)[-1] in ("HelpFormatter", "ArgumentDefaultsHelpFormatter", "MetavarTypeHelpFormatter"):
                yield Hit(script.path, f"formatter_class={name} rewraps the examples; use RawDescriptionHelpFormatter "
                                       "(a person chooses: the fix keeps the author's formatter)",
                          fmt.value.lineno, fmt.value.col_offset + 1, fix=None)


@rule("PYS004", "subprocess-shell-true", summary="A subprocess call uses shell=True.", seed="000 §6", scope="script", library=True)
def subprocess_shell_true(script):
    """
    ## What it does
    Flags calls with `shell=True` (`subprocess.run`, `Popen`, `check_output`, ...).

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
    for name, call in script.py_facts.calls:
        kw = keyword(call, "shell")
        if kw is not None and not (isinstance(kw.value, ast.Constant) and not kw.value.value):
            yield Hit(script.path, f"{name}(..., shell=True) runs a shell; pass a list of arguments instead", call.lineno, call.col_offset + 1)


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


@rule("PYS050", "json-helpers-missing", summary="A script writes JSON without the envelope helpers.",
      seed="000 §4", scope="script", severity="warning", fix="unsafe")
def json_helpers_missing(script):
    """
    ## What it does
    Flags entry scripts that print JSON (`json.dumps`, `json.dump`) or accept `--json`, but
    neither define an `emit_json` helper nor build the envelope (a dict with a `"data"` or
    `"error"` key) anywhere.

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
    dumps = [call for name, call in facts.calls if name in ("json.dumps", "json.dump")]
    if not dumps and "--json" not in facts.strings:
        return
    if defines(module, "emit_json"):
        return
    for node in facts.nodes or ast.walk(module):
        if is_envelope(node):
            return
    at = dumps[0] if dumps else None
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
    every caller must be updated. The fix runs only with `--unsafe-fixes`, and only where the
    `emit_json` helper exists (PYS050's fix adds it).
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
    (integers or `EXIT_*` constants).

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
    with "...".

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
    if facts is None:
        return
    for name, call in facts.calls:
        if name != "print" or not call.args or keyword(call, "file") is not None:
            continue
        if any(isinstance(a, ast.Starred) for a in call.args):
            continue
        first = call.args[0]
        if isinstance(first, ast.Constant) and isinstance(first.value, str):
            text = first.value
        elif isinstance(first, ast.JoinedStr):
            head = first.values[0] if first.values else None
            text = head.value if isinstance(head, ast.Constant) and isinstance(head.value, str) else ""
            if not text and not first.values:
                continue
        else:
            continue
        if is_status_text(text):
            yield Hit(script.path, "status message on stdout; print it to sys.stderr",
                      call.lineno, call.col_offset + 1)
