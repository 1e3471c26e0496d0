"""Random Python and shell scripts through ``check`` and ``fix``: no error, idempotent, newlines kept.

Each example is a skill holding one generated script (lines from a pool of script fragments
and random text, an optional BOM, LF or CRLF line endings, sometimes mixed). ``check`` and
``fix`` run in this process through :mod:`skillsmith.api`; ``fix`` runs twice. Asserted: no
exception and no internal error; the second ``fix`` changes nothing; a file with one line
ending style keeps it on every line; a file with mixed styles is not written.
"""

from __future__ import annotations

import codecs
import os
import shutil
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from skillsmith import api

SKILL_MD = "---\nname: fuzz-fix\ndescription: Fuzzes the fixer. Use when fuzzing.\n---\n\nRun `scripts/{name}`.\n"
SH_LINES = [
    "#!/usr/bin/env bash", "#!/bin/sh", "set -e", "set -euo pipefail", 'echo "hi $1"', "echo $1", "exit 3",
    'case "${1:-}" in', "  -h|--help) echo usage; exit 0 ;;", "esac", "# Usage: tool.sh ARG", "# A tool.",
    "# Exit: 0 ok", "# Examples:", "#   tool.sh x", 'eval "$@"', "if true; then", "fi", "for x in a b; do", "done",
    "f() {", "}", "cat <<EOF", "EOF", "x=$(date)", "rm -rf $dir/tmp", "", "\t", "# café",
]
PY_LINES = [
    "#!/usr/bin/env python3", "# -*- coding: utf-8 -*-", '"""A tool."""', "import sys", "import argparse",
    "import json", "def main():", "    return 0", "    return 3", "    print('hi')", "    sys.exit(2)",
    "    parser = argparse.ArgumentParser()", "    parser.add_argument('x')", "    args = parser.parse_args()",
    'if __name__ == "__main__":', "    main()", "    sys.exit(main())", "print(json.dumps({}))", "x = 1",
    "Usage: tool.py", "'''", "", "# café", "    pass",
]


def script(lines_pool):
    line = st.one_of(st.sampled_from(lines_pool), st.text(st.characters(blacklist_categories=("Cs",)), max_size=12))
    return st.tuples(
        st.lists(line, min_size=1, max_size=14),
        st.lists(st.sampled_from(["\n", "\r\n"]), min_size=1, max_size=14),
        st.booleans(),  # a BOM
        st.booleans(),  # a final newline
    ).map(_assemble)


def _assemble(parts) -> bytes:
    lines, endings, bom, final = parts
    if len(set(endings)) > 1 and len(endings) > len(lines):
        endings = endings[:len(lines)]
    text = "".join(ln.replace("\r", "").replace("\n", "") + endings[i % len(endings)] for i, ln in enumerate(lines))
    if not final:
        text = text.rstrip("\r\n")
    return (codecs.BOM_UTF8 if bom else b"") + text.encode("utf-8")


def styles(data: bytes) -> set[str]:
    lines = data.split(b"\n")[:-1]
    return {"crlf" if ln.endswith(b"\r") else "lf" for ln in lines}


@pytest.fixture(scope="module", autouse=True)
def private_cache():
    folder = tempfile.mkdtemp(prefix="skillsmith-fuzz-cache-")
    old = os.environ.get("SKILLSMITH_CACHE_DIR")
    os.environ["SKILLSMITH_CACHE_DIR"] = folder
    yield
    if old is None:
        os.environ.pop("SKILLSMITH_CACHE_DIR", None)
    else:
        os.environ["SKILLSMITH_CACHE_DIR"] = old
    shutil.rmtree(folder, ignore_errors=True)


@settings(max_examples=500, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(kind=st.sampled_from(["sh", "py"]), data=st.data())
def test_fix_is_idempotent_and_keeps_newline_styles(kind, data):
    content = data.draw(script(SH_LINES if kind == "sh" else PY_LINES))
    name = f"tool.{kind}"
    base = Path(tempfile.mkdtemp(prefix="skillsmith-fuzz-fix-"))
    try:
        skill = base / "fuzz-fix"
        (skill / "scripts").mkdir(parents=True)
        (skill / "SKILL.md").write_text(SKILL_MD.format(name=name))
        target = skill / "scripts" / name
        target.write_bytes(content)
        checked = api.check_result([str(skill)], api.Options(use_cache=False, jobs=1))
        assert checked.internal_errors == 0, checked.notes
        first = api.fix([skill])
        assert first.internal_errors == 0, first.notes
        once = target.read_bytes()
        second = api.fix([skill])
        assert second.internal_errors == 0, second.notes
        assert target.read_bytes() == once, "a second fix changed the file again"
        assert not [f for f in second.files if f.written], "a second fix wrote again"
        before = styles(content)
        if len(before) > 1:
            assert once == content, "a file with mixed line endings was written"
        elif once != content and before:
            assert styles(once) == before, "the fix changed the line ending style"
    finally:
        shutil.rmtree(base, ignore_errors=True)
