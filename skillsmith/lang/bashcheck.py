"""``bash -n`` for many scripts with few processes.

``bash -n`` parses without executing anything. One process per script is the slow part of a
cold check, so scripts that tree-sitter parses cleanly are checked together in one ``bash -n``
run, each wrapped in its own ``{ ... }`` group, also across units (the checker loads units in
batches); when that run fails the batch is split in halves down to single scripts, and scripts
tree-sitter finds errors in are checked on their own (which also gives the exact line). Either
way the verdict is bash's own.

A check that could not run is not a pass. When ``bash -n`` gives no verdict (bash is not
installed, cannot start, or runs longer than :data:`TIMEOUT`), :func:`syntax_error` raises
:class:`NotChecked`: ``check`` says so in a note (it is not a syntax error finding) and
``fix`` does not write a script it could not verify.
"""

from __future__ import annotations

import re
import shutil
import subprocess

#: the rule these verdicts serve: the checker shares one run among many units when it is enabled
RULE = "SHL002"
#: seconds one ``bash -n`` run may take before it counts as "not checked"
TIMEOUT = 30.0

#: why :class:`NotChecked` is raised when there is no bash
BASH_MISSING = "bash not found on PATH"

_LINE = re.compile(r"line (\d+):\s*(.*)")
_ENV = {"PATH": "/usr/bin:/bin", "LC_ALL": "C"}


class NotChecked(Exception):
    """``bash -n`` gave no verdict; the message says why (bash not found, a timeout)."""


def syntax_error(data: bytes, timeout: float = TIMEOUT) -> tuple[int, str] | None:
    """(line, message) of the first syntax error ``bash -n`` finds in *data*, or None when it accepts it.

    Raises :class:`NotChecked` when there is no verdict: bash (looked up on ``PATH``) is
    missing or cannot start, or the run takes longer than *timeout* seconds.
    """
    bash = shutil.which("bash")
    if bash is None:
        raise NotChecked(BASH_MISSING)
    try:
        proc = subprocess.run([bash, "-n"], input=data, capture_output=True, timeout=timeout, env=_ENV)
    except subprocess.TimeoutExpired:
        raise NotChecked(f"bash -n ran longer than {timeout:g} s") from None
    except (OSError, subprocess.SubprocessError) as exc:
        raise NotChecked(f"bash -n could not run: {exc}") from None
    if proc.returncode == 0:
        return None
    err = proc.stderr.decode("utf-8", "replace").strip().splitlines()
    first = err[0] if err else "syntax error"
    m = _LINE.search(first)
    return (int(m.group(1)), m.group(2)) if m else (1, first)


def syntax_errors(scripts) -> dict[str, tuple[int, str] | NotChecked]:
    """rel -> (line, message) for the shell *scripts* ``bash -n`` rejects, or the NotChecked it could not check."""
    found = errors_by_script(scripts)
    return {s.rel: found[id(s)] for s in scripts if id(s) in found}


def share(models) -> None:
    """Fill in ``bash_errors`` of many units (skills or loose scripts) from as few runs as possible."""
    groups = [[s for s in m.scripts if s.language == "shell" and s.other_interpreter is None] for m in models]
    found = errors_by_script([s for g in groups for s in g])
    for model, group in zip(models, groups):
        model.__dict__["bash_errors"] = {s.rel: found[id(s)] for s in group if id(s) in found}


def errors_by_script(scripts) -> dict[int, tuple[int, str] | NotChecked]:
    """id(script) -> (line, message) for the *scripts* ``bash -n`` rejects, or the NotChecked it could not check."""
    clean, doubtful = [], []
    for s in scripts:
        if s.file.data is None or s.file.text is None:
            continue
        tree = s.sh_tree
        (doubtful if tree is None or tree.root_node.has_error or b"\0" in s.file.data else clean).append(s)
    if (clean or doubtful) and shutil.which("bash") is None:
        missing = NotChecked(BASH_MISSING)
        return {id(s): missing for s in clean + doubtful}
    errors: dict[int, tuple[int, str] | NotChecked] = {}
    bisect(clean, errors)
    for s in doubtful:
        _check_one(s, errors)
    return errors


def _check_one(script, errors: dict) -> None:
    try:
        problem = syntax_error(script.file.data)
    except NotChecked as why:
        problem = why
    if problem is not None:
        errors[id(script)] = problem


def bisect(scripts: list, errors: dict) -> None:
    """Check *scripts* together; when bash rejects the batch (or gives no verdict), check each half, down to single scripts."""
    if not scripts:
        return
    if len(scripts) == 1:
        _check_one(scripts[0], errors)
        return
    batch = b"".join(b"{\n" + s.file.data + (b"" if s.file.data.endswith(b"\n") else b"\n") + b"}\n" for s in scripts)
    try:
        if syntax_error(batch) is None:
            return
    except NotChecked:
        pass
    middle = len(scripts) // 2
    bisect(scripts[:middle], errors)
    bisect(scripts[middle:], errors)
