"""Run rules: how entry scripts behave when run. Only with ``check --run``.

Each run goes through :mod:`skillsmith.sandbox`: in a bubblewrap sandbox (no network, the
skill read-only, a private temporary HOME and working folder, nothing of the user's home,
nothing left running afterwards), or, only with ``--unsandboxed``, as the user with a
process-tree kill; stdin closed, a trimmed environment, a timeout and bounded output either
way. The interpreter follows the script's shebang, else its extension.
"""

from __future__ import annotations

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
      seed="000 §5, §6", scope="run")
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
