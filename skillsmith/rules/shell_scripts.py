"""Shell script rules (Skill Resource Protocol §2, §3, §10)."""

from __future__ import annotations

from skillsmith import shell
from skillsmith.finding import Hit
from skillsmith.registry import rule
from skillsmith.sourcefile import shebang_interpreter


def _tree(script):
    if script.language != "shell" or script.sh_tree is None:
        return None
    return script.sh_tree


def is_posix_sh(script) -> bool:
    return shebang_interpreter(script.file.shebang) in ("sh", "dash")


@rule("SHL001", "strict-mode-missing", summary="An entry script does not turn on nounset and pipefail.", seed="000 §2.6", scope="script", fix="safe")
def strict_mode_missing(script):
    """
    ## What it does
    Checks that an entry script turns on `nounset` and `pipefail` at top level, in any
    spelling: `set -uo pipefail`, `set -euo pipefail`, `set -o nounset -o pipefail`,
    `set -eu` plus a later `set -o pipefail`. `-e` is optional and never required.

    For `#!/bin/sh` scripts only `nounset` is required: `pipefail` is not available in every
    POSIX shell (dash 0.5.12, /bin/sh on Debian 12, rejects it: `set -o pipefail` aborts the
    script with "Illegal option -o pipefail"). The fix adds `set -u` to such scripts.

    ## Why is this bad?
    Without `nounset` a typo in a variable name expands to nothing (`rm -rf "$DIR/"`);
    without `pipefail` `curl ... | jq` succeeds even when the download failed, and the agent
    trusts a wrong result.

    ## Example
    ```bash
    #!/usr/bin/env bash
    set -e
    ```

    Use instead:
    ```bash
    #!/usr/bin/env bash
    set -euo pipefail
    ```

    ## Fix safety
    Safe: merges into an existing top-level `set` line (`set -e` becomes `set -euo pipefail`)
    or inserts `set -uo pipefail` after the header block. It never adds `-e`.

    When the script reads a variable that may be unset (`$1` without a default, an
    environment variable it never assigns such as `$TMPDIR`), `set -u` would stop it there
    instead of reading an empty string, so the safe fix adds only `pipefail` and the finding
    stays; `--unsafe-fixes` adds `nounset` too. Give such reads a default (`${1:-}`) first.
    """
    tree = _tree(script)
    if tree is None:
        return
    on = shell.set_options(tree.root_node, script.file.data)
    need = ["nounset"] if is_posix_sh(script) else ["nounset", "pipefail"]
    missing = [o for o in need if o not in on]
    if missing:
        message = f"strict mode is missing {' and '.join(missing)}; add 'set -uo pipefail' after the header"
        unset = shell.possibly_unset(tree.root_node, script.file.data, script.sh_nodes) if "nounset" in missing else []
        if unset:
            shown = ", ".join("$" + name for name in unset[:3])
            message += f" (first give {shown} a default: set -u stops the script on an unset variable)"
        yield Hit(script.path, message)


@rule("SHL002", "bash-syntax", summary="`bash -n` reports a syntax error.", seed="000 §10", scope="script", library=True)
def bash_syntax(script):
    """
    ## What it does
    Runs `bash -n` (syntax check only: nothing is executed) on each shell script.

    ## Why is this bad?
    A script with a syntax error fails when the agent runs it, often after doing part of its work.

    ## Example
    ```bash
    if [ -f "$1" ]; then
      echo found
    ```

    Use instead: close every `if`/`case`/loop so that `bash -n script.sh` passes.
    """
    if script.language != "shell" or script.unit is None:
        return
    problem = script.unit.bash_errors.get(script.rel)
    if problem is not None:
        line, message = problem
        yield Hit(script.path, f"bash -n: {message}", line)


@rule("SHL003", "unknown-flag-exit-missing", summary="No branch rejects unknown options with exit 2.", seed="000 §6", scope="script")
def unknown_flag_exit_missing(script):
    """
    ## What it does
    Looks for a `case` branch for unknown options (`-*`, or `*` when the script takes no
    positionals) that exits 2, directly or through a function such as `usage`.

    ## Why is this bad?
    Agents fabricate plausible flags. A script that silently ignores `--dry-run` it does not
    know will do the real thing; exit 2 (USAGE) tells the agent its call was wrong.

    ## Example
    ```bash
    case "$1" in
      --json) json=1 ;;
    esac
    ```

    Use instead:
    ```bash
    case "$1" in
      --json) json=1 ;;
      -*) echo "unknown option: $1" >&2; exit "$EXIT_USAGE" ;;
    esac
    ```
    """
    tree = _tree(script)
    if tree is None:
        return
    if not shell.has_unknown_flag_exit(tree.root_node, script.file.data, nodes=script.sh_nodes):
        yield Hit(script.path, "no case branch rejects unknown options with exit 2 (e.g. -*) echo ... >&2; exit 2 ;;)")
