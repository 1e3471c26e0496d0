"""Python script rules (Skill Resource Protocol §2, §6)."""

from __future__ import annotations

import ast
import sys

from skillsmith.finding import Hit
from skillsmith.python import dotted, keyword
from skillsmith.registry import rule

RAW_FORMATTERS = ("RawDescriptionHelpFormatter", "RawTextHelpFormatter")


def _python(script):
    return script.language == "python"


@rule("PYS001", "python-syntax", summary="The Python script does not parse.", seed="000 §2.6", scope="script", library=True)
def python_syntax(script):
    """
    ## What it does
    Parses each Python script with `ast` (nothing is run). When the failing line looks written
    for a newer Python than the one running skillsmith (a 3.12 f-string, `type X = ...`), the
    message says which version it needs instead of calling the file broken.

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
        msg = f"needs Python {problem.needs} or newer (line {problem.line} uses newer syntax); skillsmith runs on {running} and could not check it"
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
    shows examples.

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
    for call in _parsers(script):
        epilog = keyword(call, "epilog")
        if epilog is None:
            yield Hit(script.path, "ArgumentParser has no epilog; add one with an examples section", call.lineno, call.col_offset + 1)
        elif isinstance(epilog.value, ast.Constant) and isinstance(epilog.value.value, str) and "example" not in epilog.value.value.lower():
            yield Hit(script.path, "the ArgumentParser epilog has no examples", epilog.value.lineno, epilog.value.col_offset + 1)


@rule("PYS003", "argparse-formatter-missing", summary="An ArgumentParser reflows its epilog (no RawDescriptionHelpFormatter).", seed="000 §2.3", scope="script", fix="safe")
def argparse_formatter_missing(script):
    """
    ## What it does
    Flags `ArgumentParser(...)` calls without `formatter_class=RawDescriptionHelpFormatter`
    (or `RawTextHelpFormatter`).

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
    for call in _parsers(script):
        fmt = keyword(call, "formatter_class")
        if fmt is None:
            yield Hit(script.path, "ArgumentParser has no formatter_class=argparse.RawDescriptionHelpFormatter; the examples get rewrapped", call.lineno, call.col_offset + 1)
            continue
        name = dotted(fmt.value) or ""
        if isinstance(fmt.value, ast.Name) or isinstance(fmt.value, ast.Attribute):
            if name.rsplit(".", 1)[-1] in RAW_FORMATTERS:
                continue
            # a project's own formatter class may subclass a raw one; only flag the known non-raw ones
            if name.rsplit(".", 1)[-1] in ("HelpFormatter", "ArgumentDefaultsHelpFormatter", "MetavarTypeHelpFormatter"):
                yield Hit(script.path, f"formatter_class={name} rewraps the examples; use RawDescriptionHelpFormatter", fmt.value.lineno, fmt.value.col_offset + 1)


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
