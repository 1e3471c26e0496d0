"""``bash -n`` for many scripts with few processes.

``bash -n`` parses without executing anything. One process per script is the slow part of a
cold check, so scripts that tree-sitter parses cleanly are checked together in one ``bash -n``
run, each wrapped in its own ``{ ... }`` group; only when that run fails, or for scripts
tree-sitter finds errors in, is each script checked on its own (which also gives the exact
line). Either way the verdict is bash's own.
"""

from __future__ import annotations

import re
import shutil
import subprocess

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
    if shutil.which("bash") is None:
        return {}
    clean, doubtful = [], []
    for s in scripts:
        if s.file.data is None or s.file.text is None:
            continue
        tree = s.sh_tree
        (doubtful if tree is None or tree.root_node.has_error or b"\0" in s.file.data else clean).append(s)
    if len(clean) > 1:
        batch = b"".join(b"{\n" + s.file.data + (b"" if s.file.data.endswith(b"\n") else b"\n") + b"}\n" for s in clean)
        if run_bash_n(batch) is not None:
            doubtful.extend(clean)
    else:
        doubtful.extend(clean)
    errors = {}
    for s in doubtful:
        problem = run_bash_n(s.file.data)
        if problem is not None:
            errors[s.rel] = problem
    return errors
