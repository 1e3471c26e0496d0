"""Run rules: how entry scripts behave when run. Only with ``check --run``.

Each run has a timeout, stdin closed (``/dev/null``), a temporary HOME and working folder, a
trimmed environment and its own process group, which is killed when the run ends or times
out. The interpreter follows the script's shebang, else its extension.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from skillsmith.lang.interpreter import LAUNCHERS, interpreter_language, shebang_interpreter
from skillsmith.rules.finding import Hit
from skillsmith.rules.registry import rule

#: a flag no script defines
UNKNOWN_FLAG = "--skillsmith-no-such-flag"
#: how much of each output stream is kept
OUTPUT_LIMIT = 64 * 1024
DEFAULT_SHELL = "bash"


@dataclass
class Outcome:
    code: int | None  # None when the run timed out or could not start
    stdout: str = ""
    stderr: str = ""
    timed_out: bool = False
    error: str | None = None  # why the script could not be started


def command(script) -> list[str] | None:
    """The interpreter and script path: the shebang's interpreter when installed, else by extension."""
    wanted = shebang_interpreter(script.file.shebang)
    runs_it = wanted and interpreter_language(wanted) == script.language and wanted not in LAUNCHERS
    found = shutil.which(wanted) if runs_it else None  # a launcher (uv run) may not be installed: run it plainly
    if found is None:
        found = sys.executable if script.language == "python" else shutil.which(DEFAULT_SHELL) or shutil.which("sh")
    return [found, str(script.path)] if found else None


def environment(home: Path, tmp: Path) -> dict[str, str]:
    """What a script sees: a PATH, a UTF-8 locale, a dumb terminal, a throwaway HOME."""
    return {
        "PATH": os.environ.get("PATH", os.defpath),
        "HOME": str(home),
        "TMPDIR": str(tmp),
        "LANG": "C.UTF-8",
        "LC_ALL": "C.UTF-8",
        "TERM": "dumb",
        "NO_COLOR": "1",
        "PYTHONDONTWRITEBYTECODE": "1",  # leave no __pycache__ in the skill
        "PYTHONIOENCODING": "utf-8",
    }


def run_script(script, args: list[str], timeout: float) -> Outcome:
    """Run *script* with *args* in a sandbox-like setting and return what happened."""
    cmd = command(script)
    if cmd is None:
        return Outcome(None, error=f"no interpreter found for a {script.language} script")
    with tempfile.TemporaryDirectory(prefix="skillsmith-run-") as scratch:
        base = Path(scratch)
        home, work, tmp = base / "home", base / "work", base / "tmp"
        for folder in (home, work, tmp):
            folder.mkdir()
        with open(base / "stdout", "w+b") as out, open(base / "stderr", "w+b") as err:
            try:
                proc = subprocess.Popen(
                    [*cmd, *args], stdin=subprocess.DEVNULL, stdout=out, stderr=err, cwd=work,
                    env=environment(home, tmp), start_new_session=True,
                )
            except OSError as exc:
                return Outcome(None, error=exc.strerror or str(exc))
            timed_out = False
            try:
                code: int | None = proc.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                timed_out, code = True, None
            finally:
                kill_group(proc.pid)  # also whatever the script left running in the background
                proc.wait()
            return Outcome(code, read_back(out), read_back(err), timed_out)


def kill_group(pgid: int) -> None:
    try:
        os.killpg(pgid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def read_back(fh) -> str:
    fh.seek(0)
    return fh.read(OUTPUT_LIMIT).decode("utf-8", "replace")


def runnable(script) -> bool:
    return script.file.data is not None and script.file.text is not None


def shown(seconds: float) -> str:
    return f"{seconds:g} s"


@rule("RUN001", "help-run", summary="Running the script with --help does not exit 0 with EXAMPLES on stdout.",
      seed="000 §2.3", scope="run")
def help_run(subject):
    """
    ## What it does
    With `check --run`, runs each entry script with `--help` (stdin closed, a temporary HOME
    and working folder, a trimmed environment, a timeout) and wants exit code 0 and an
    EXAMPLES section on stdout. Nothing runs without `--run`.

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
    outcome = run_script(script, ["--help"], options.run_timeout)
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
    outcome = run_script(script, [UNKNOWN_FLAG], options.run_timeout)
    if outcome.error:
        yield Hit(script.path, f"could not run {rel}: {outcome.error}")
    elif outcome.timed_out:
        yield Hit(script.path, f"`{rel} {UNKNOWN_FLAG}` did not finish within {shown(options.run_timeout)}; want exit 2")
    elif outcome.code != 2:
        yield Hit(script.path, f"`{rel} {UNKNOWN_FLAG}` exited {outcome.code}; want 2 (usage error)")
