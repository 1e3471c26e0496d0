"""``bash -n`` for many scripts with few processes.

``bash -n`` parses without executing anything. One process per script is the slow part of a
cold check, so scripts that tree-sitter parses cleanly are checked together in one ``bash -n``
run, each wrapped in its own ``{ ... }`` group, also across units (the checker loads units in
batches); when that run fails the batch is split in halves down to single scripts, and scripts
tree-sitter finds errors in are checked on their own (which also gives the exact line). Either
way the verdict is bash's own.
"""

from __future__ import annotations

import re
import shutil
import subprocess

#: the rule these verdicts serve: the checker shares one run among many units when it is enabled
RULE = "SHL002"

_LINE = re.compile(r"line (\d+):\s*(.*)")
_ENV = {"PATH": "/usr/bin:/bin", "LC_ALL": "C"}


def run_bash_n(data: bytes) -> tuple[int, str] | None:
    """(line, message) of the first syntax error in *data*, or None when bash accepts it."""
    bash = shutil.which("bash")
    if bash is None:
        return None
    try:
        proc = subprocess.run([bash, "-n"], input=data, capture_output=True, timeout=30, env=_ENV)
    except (OSError, subprocess.SubprocessError):
        return None
    if proc.returncode == 0:
        return None
    err = proc.stderr.decode("utf-8", "replace").strip().splitlines()
    first = err[0] if err else "syntax error"
    m = _LINE.search(first)
    return (int(m.group(1)), m.group(2)) if m else (1, first)


def syntax_errors(scripts) -> dict[str, tuple[int, str]]:
    """rel -> (line, message) for the shell *scripts* that ``bash -n`` rejects."""
    found = errors_by_script(scripts)
    return {s.rel: found[id(s)] for s in scripts if id(s) in found}


def share(models) -> None:
    """Fill in ``bash_errors`` of many units (skills or loose scripts) from as few runs as possible."""
    groups = [[s for s in m.scripts if s.language == "shell"] for m in models]
    found = errors_by_script([s for g in groups for s in g])
    for model, group in zip(models, groups):
        model.__dict__["bash_errors"] = {s.rel: found[id(s)] for s in group if id(s) in found}


def errors_by_script(scripts) -> dict[int, tuple[int, str]]:
    """id(script) -> (line, message) for the *scripts* that ``bash -n`` rejects."""
    if shutil.which("bash") is None:
        return {}
    clean, doubtful = [], []
    for s in scripts:
        if s.file.data is None or s.file.text is None:
            continue
        tree = s.sh_tree
        (doubtful if tree is None or tree.root_node.has_error or b"\0" in s.file.data else clean).append(s)
    errors: dict[int, tuple[int, str]] = {}
    bisect(clean, errors)
    for s in doubtful:
        problem = run_bash_n(s.file.data)
        if problem is not None:
            errors[id(s)] = problem
    return errors


def bisect(scripts: list, errors: dict) -> None:
    """Check *scripts* together; when bash rejects the batch, check each half, down to single scripts."""
    if not scripts:
        return
    if len(scripts) == 1:
        problem = run_bash_n(scripts[0].file.data)
        if problem is not None:
            errors[id(scripts[0])] = problem
        return
    batch = b"".join(b"{\n" + s.file.data + (b"" if s.file.data.endswith(b"\n") else b"\n") + b"}\n" for s in scripts)
    if run_bash_n(batch) is None:
        return
    middle = len(scripts) // 2
    bisect(scripts[:middle], errors)
    bisect(scripts[middle:], errors)
