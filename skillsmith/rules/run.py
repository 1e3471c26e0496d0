"""Run rules: how entry scripts behave when run. Only with ``check --run``.

Each run goes through :mod:`skillsmith.sandbox`: in a bubblewrap sandbox (no network, the
skill read-only, a private temporary HOME and working folder, nothing of the user's home,
nothing left running afterwards), or, only with ``--unsandboxed``, as the user with a
process-tree kill; stdin closed, a trimmed environment, a timeout and bounded output either
way. The interpreter follows the script's shebang, else its extension.
"""

from __future__ import annotations

import json
import re
import shlex
import shutil
import sys

from skillsmith import sandbox
from skillsmith.lang.interpreter import LAUNCHERS, interpreter_language, shebang_interpreter
from skillsmith.rules.finding import Hit
from skillsmith.rules.registry import rule

#: a flag no script defines
UNKNOWN_FLAG = "--skillsmith-no-such-flag"
DEFAULT_SHELL = "bash"


def command(script) -> list[str] | None:
    """The interpreter and script path: the shebang's interpreter when installed, else by extension."""
    wanted = shebang_interpreter(script.file.shebang)
    runs_it = wanted and interpreter_language(wanted) == script.language and wanted not in LAUNCHERS
    found = shutil.which(wanted) if runs_it else None  # a launcher (uv run) may not be installed: run it plainly
    if found is None:
        found = sys.executable if script.language == "python" else shutil.which(DEFAULT_SHELL) or shutil.which("sh")
    return [found, str(script.path)] if found else None


def run_script(script, args: list[str], options) -> sandbox.Outcome:
    """Run *script* with *args* as ``options`` say (sandboxed unless ``options.unsandboxed``)."""
    cmd = command(script)
    if cmd is None:
        return sandbox.Outcome(None, error=f"no interpreter found for a {script.language} script")
    unit = script.unit if script.unit is not None else script.skill
    readable = [unit.root] if unit is not None else [script.path.parent]
    return sandbox.run([*cmd, *args], readable=readable, timeout=options.run_timeout,
                       sandboxed=not options.unsandboxed)


def runnable(script) -> bool:
    return script.file.data is not None and script.file.text is not None


def shown(seconds: float) -> str:
    return f"{seconds:g} s"


@rule("RUN001", "help-run", summary="Running the script with --help does not exit 0 with EXAMPLES on stdout.",
      seed="000 §2.3", scope="run")
def help_run(subject):
    """
    ## What it does
    With `check --run`, runs each entry script with `--help` in a sandbox (bubblewrap: no
    network, the skill read-only, a temporary HOME and working folder, stdin closed, a trimmed
    environment, a timeout) and wants exit code 0 and an EXAMPLES section on stdout. Nothing
    runs without `--run`; without bubblewrap `--run` refuses (exit 5) unless `--unsandboxed`
    is given too.

    ## Why is this bad?
    An agent's first move with an unfamiliar script is `--help`. Help that fails, hangs, goes
    to stderr or shows no worked example leaves the agent guessing at arguments.

    ## Example
    ```python
    if sys.argv[1:] == ["--help"]:
        print(__doc__, file=sys.stderr)
        sys.exit(1)
    ```

    Use instead: argparse with an epilog of examples; `--help` prints to stdout and exits 0.
    """
    script, options = subject
    if not runnable(script):
        return
    rel = script.rel
    outcome = run_script(script, ["--help"], options)
    if outcome.error:
        yield Hit(script.path, f"could not run {rel}: {outcome.error}")
        return
    if outcome.timed_out:
        yield Hit(script.path, f"`{rel} --help` did not finish within {shown(options.run_timeout)}")
        return
    if outcome.code != 0:
        yield Hit(script.path, f"`{rel} --help` exited {outcome.code}; want 0")
    if "examples" not in outcome.stdout.lower():
        where = " (it printed help on stderr; help belongs on stdout)" if "examples" in outcome.stderr.lower() else ""
        yield Hit(script.path, f"`{rel} --help` printed no EXAMPLES section on stdout{where}")


@rule("RUN002", "unknown-flag-run", summary="Running the script with an unknown flag does not exit 2.",
      seed="000 §5, §6", scope="run", severity="warning")
def unknown_flag_run(subject):
    """
    ## What it does
    With `check --run`, runs each entry script with a flag it cannot know
    (`--skillsmith-no-such-flag`) in the same setting as RUN001 and wants exit code 2, the
    usage error. Nothing runs without `--run`.

    ## Why is this bad?
    Agents invent flags. A script that ignores an unknown flag does something the agent did
    not ask for and reports success; one that exits 1 looks like a runtime failure rather than
    a mistake in the call.

    ## Example
    ```bash
    case "$1" in
      --json) json=1 ;;
      *) file="$1" ;;   # an unknown flag becomes a file name
    esac
    ```

    Use instead: a branch for unknown options that prints a usage line on stderr and exits 2
    (argparse does this by itself).

    ## Severity
    Warning: as SHL003 (an unknown flag that is not a usage error), seen by running the script.
    """
    script, options = subject
    if not runnable(script):
        return
    rel = script.rel
    outcome = run_script(script, [UNKNOWN_FLAG], options)
    if outcome.error:
        yield Hit(script.path, f"could not run {rel}: {outcome.error}")
    elif outcome.timed_out:
        yield Hit(script.path, f"`{rel} {UNKNOWN_FLAG}` did not finish within {shown(options.run_timeout)}; want exit 2")
    elif outcome.code != 2:
        yield Hit(script.path, f"`{rel} {UNKNOWN_FLAG}` exited {outcome.code}; want 2 (usage error)")


_JSON_FLAG = re.compile(r"(?<![\w-])--json\b")
#: a path no sandbox holds: the input a --json error probe names
MISSING_INPUT = "/nonexistent/skillsmith-missing-input.txt"
#: tokens that end a script's own arguments in a worked invocation
_ENDS = ("|", "||", "&&", ";", "&", ">", ">>", "<", "<<", "2>", "2>&1", ">&2")


def accepts_json(script) -> bool:
    """Whether the script handles a ``--json`` option (Python: a string literal; shell: its code)."""
    if script.language == "python":
        facts = script.py_facts
        return facts is not None and any(_JSON_FLAG.search(s) for s in facts.strings)
    return bool(_JSON_FLAG.search("\n".join(line.split("#", 1)[0] for line in (script.file.text or "").splitlines())))


def cited_arguments(script) -> list[list[str]]:
    """The arguments SKILL.md (and the Markdown it links) writes after each citation of *script*
    in code, up to the end of the code span or the first ``|``, ``;``, ``&&`` or redirect."""
    if script.skill is None:
        return []
    found = []
    for f, c in script.skill.linked_citations:
        if c.target != script.rel or f.text is None:
            continue
        after = c.after
        before = f.lines[c.line - 1][:c.column - 1]
        if before.count("`") % 2:
            after = after.split("`", 1)[0]
        try:
            lexer = shlex.shlex(after, posix=True, punctuation_chars=True)
            lexer.whitespace_split = True
            words = list(lexer)
        except ValueError:
            continue
        args = []
        for w in words:
            if w in _ENDS or w[0] in "|;&<>" or w.startswith("2>"):
                break
            args.append(w)
        if args not in found:
            found.append(args)
    return found


def json_arguments(script) -> list[str] | None:
    """The arguments of the first worked ``--json`` invocation SKILL.md shows that can run as written.

    Paths that name files of the skill are made absolute (the run's working folder is empty).
    """
    from skillsmith.lang.shell_evidence import placeholder_free

    for args in cited_arguments(script):
        if "--json" not in args or not placeholder_free(args):
            continue
        skill = script.skill
        return [str(skill.root / a) if (a[2:] if a.startswith("./") else a) in skill.files else a for a in args]
    return None


def envelope_problem(stdout: str) -> str | None:
    """What keeps *stdout* from being the §4 success envelope, or None."""
    try:
        doc = json.loads(stdout)
    except ValueError:
        return "is not one JSON document"
    if not isinstance(doc, dict) or "data" not in doc:
        return 'has no "data" list'
    if not isinstance(doc["data"], list):
        kind = {dict: "object", str: "string", bool: "boolean", int: "number", float: "number"}.get(type(doc["data"]), "null")
        return f'has a "data" {kind} where the envelope has a list (one report is a list of one)'
    meta = doc.get("meta")
    if not isinstance(meta, dict) or type(meta.get("count")) is not int or not isinstance(meta.get("schema"), str):
        return 'has no "meta" with an integer "count" and a "schema" name'
    return None


def error_envelope_problem(stdout: str) -> str | None:
    """What keeps *stdout* from being the §4 error envelope, or None."""
    try:
        doc = json.loads(stdout)
    except ValueError:
        return "nothing on stdout" if not stdout.strip() else "stdout is not one JSON document"
    error = doc.get("error") if isinstance(doc, dict) else None
    if not isinstance(error, dict) or not isinstance(error.get("code"), str) or not isinstance(error.get("message"), str):
        return 'stdout has no "error" object with a "code" and a "message"'
    return None


@rule("RUN003", "json-envelope-run", summary="The --json output of a worked invocation is not the success envelope.",
      seed="000 §4", scope="run", severity="warning")
def json_envelope_run(subject):
    """
    ## What it does
    With `check --run`, runs the first worked invocation with `--json` that SKILL.md shows
    for a script (one that can run as written: no `<placeholders>` or `$VARS`; paths of the
    skill's own files are passed as absolute paths), in the same sandbox as RUN001. When it
    succeeds (exit 0, or a domain signal 10 or above) stdout must be one JSON document, the
    §4 envelope: a `"data"` list and a `"meta"` object with an integer `"count"` and a
    `"schema"` name. A script SKILL.md never shows with `--json`, or a run that fails, is not
    judged here (RUN004 judges the failure).

    ## Why is this bad?
    Agents read `--json` output by the envelope (`.data[]`, `.meta.count`) without reading the
    script. Bare JSON, JSON Lines or text mixed into it breaks `| jq` and every caller.

    ## Example
    ```python
    print(json.dumps(rows))
    ```

    Use instead:
    ```python
    print(json.dumps({"data": rows, "meta": {"count": len(rows), "schema": "my-skill.rows/v1"}}))
    ```
    """
    script, options = subject
    if not runnable(script) or not accepts_json(script):
        return
    args = json_arguments(script)
    if args is None:
        return
    outcome = run_script(script, args, options)
    if outcome.error or outcome.timed_out or outcome.code is None or not (outcome.code == 0 or outcome.code >= 10):
        return
    if outcome.code >= 126:
        return  # the shell could not run it (126, 127) or a signal killed it
    problem = envelope_problem(outcome.stdout)
    if problem is not None:
        shown_args = " ".join(shlex.quote(a) for a in args)
        yield Hit(script.path, f"`{script.rel} {shown_args}` exited {outcome.code} but its stdout {problem} "
                  "(want {\"data\": [...], \"meta\": {\"count\", \"schema\"}})")


@rule("RUN004", "json-error-run", summary="A --json run that fails does not print the error envelope on stdout and a line on stderr.",
      seed="000 §4, §5", scope="run", severity="warning")
def json_error_run(subject):
    """
    ## What it does
    With `check --run`, runs each script that handles `--json` as `--json` plus an input path
    that cannot exist (`/nonexistent/skillsmith-missing-input.txt`), in the same sandbox as
    RUN001. When that fails with an error code (1 to 9 except 2: a usage error is argparse's
    and not judged here), stdout must be the §4 error envelope, `{"error": {"code": "...",
    "message": "..."}}`, and stderr must carry a line for a person. A run that succeeds,
    exits 2, or ends with a domain signal (10 or above) is not judged.

    ## Why is this bad?
    Under `--json` the agent parses stdout. A stack trace, an empty stdout or a bare message
    leaves it with nothing to branch on; the protocol wants the error as JSON on stdout and
    a human line on stderr.

    ## Example
    ```python
    with open(args.file) as fh:   # FileNotFoundError: a traceback, nothing on stdout
        ...
    ```

    Use instead:
    ```python
    except FileNotFoundError:
        print(f"{args.file}: no such file", file=sys.stderr)
        if args.json:
            print(json.dumps({"error": {"code": "NOT_FOUND", "message": f"{args.file}: no such file", "details": {}}}))
        return EXIT_NOT_FOUND
    ```
    """
    script, options = subject
    if not runnable(script) or not accepts_json(script):
        return
    args = ["--json", MISSING_INPUT]
    outcome = run_script(script, args, options)
    if outcome.error or outcome.timed_out or outcome.code is None or outcome.code in (0, 2) or outcome.code >= 10:
        return
    problem = error_envelope_problem(outcome.stdout)
    if problem is None and not outcome.stderr.strip():
        problem = "nothing on stderr for a person"
    if problem is not None:
        yield Hit(script.path, f"`{script.rel} --json {MISSING_INPUT}` exited {outcome.code}: {problem} "
                  "(want the error envelope on stdout and a line on stderr)")
