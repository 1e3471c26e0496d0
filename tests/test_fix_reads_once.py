"""`fix` works from the check run: each file is read once and each version of a file parsed once.

The fix runs in a real subprocess watched by audit hooks (``open`` and ``compile`` events,
which ``ast.parse`` raises) and a counting wrapper around ``libcst.parse_module``; the
skill is small (fewer files than the pool threshold), so everything happens in that process.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from conftest import write_tree

PY_SCRIPT = '''import argparse
import sys


def main():
    parser = argparse.ArgumentParser(description="Count the {what} of a file.")
    parser.add_argument("file")
    args = parser.parse_args()
    with open(args.file) as fh:
        print(len(fh.read().split()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
'''

SH_SCRIPT = '''#!/bin/bash
# Lists a folder.
if [ "$1" = "--help" ]; then echo "usage: {name} DIR"; exit 0; fi
ls "$1"
'''

WATCH = r'''
import collections, json, os, sys

root = os.path.realpath(sys.argv[1])
opens = collections.Counter()
compiled = collections.Counter()
cst_parsed = collections.Counter()


watching = True


def hook(event, args):
    if not watching:
        return
    if event == "open":
        path, _mode, flags = args
        if isinstance(path, (str, bytes)) and not (flags or 0) & (os.O_WRONLY | os.O_RDWR):
            path = os.fsdecode(path)
            if os.path.realpath(path).startswith(root + os.sep) and os.path.isfile(path):
                opens[os.path.relpath(os.path.realpath(path), root)] += 1
    elif event == "compile":
        source, _filename = args
        if isinstance(source, str):
            compiled[source] += 1
        elif isinstance(source, bytes):
            compiled[source.decode("utf-8", "replace")] += 1


import libcst

real_parse = libcst.parse_module


def counting_parse(source, *args, **kwargs):
    cst_parsed[source if isinstance(source, str) else source.decode()] += 1
    return real_parse(source, *args, **kwargs)


libcst.parse_module = counting_parse
sys.addaudithook(hook)

from skillsmith import api

result = api.fix([root])
watching = False
texts = {}
for rel in ORIGINALS:
    with open(os.path.join(root, rel), encoding="utf-8") as fh:
        texts[rel] = fh.read()
print(json.dumps({
    "opens": opens, "changed": [os.path.relpath(f.file.path, root) for f in result.changed],
    "skipped": [f.skipped for f in result.skipped], "remaining": len(result.remaining),
    "compiled": {rel: [compiled[t] for t in (orig, texts[rel])] for rel, orig in ORIGINALS.items()},
    "cst_parsed": {rel: cst_parsed[orig] for rel, orig in ORIGINALS.items()},
}))
'''


def make_skill(root):
    files = {
        "SKILL.md": (
            "---\nname: demo\ndescription: Counts words in files. Use when asked how long a text is.\n---\n"
            "# Demo\n\nRun `python scripts/words.py FILE`, `python scripts/lines.py FILE`,\n"
            "`python scripts/chars.py FILE`, `python scripts/clean.py FILE`, `bash scripts/tidy.sh DIR` and\n"
            "`bash scripts/list.sh DIR`. See [the notes](references/notes.md).\n"
        ),
        "references/notes.md": "# Notes\n",
        "scripts/words.py": PY_SCRIPT.format(what="words"),
        "scripts/lines.py": PY_SCRIPT.format(what="lines"),
        "scripts/chars.py": PY_SCRIPT.format(what="characters"),
        "scripts/tidy.sh": SH_SCRIPT.format(name="tidy"),
        "scripts/list.sh": SH_SCRIPT.format(name="list"),
    }
    write_tree(root, files)
    # a script that needs no fix: the fix must neither change nor re-parse it
    clean = root / "scripts" / "clean.py"
    clean.write_text('"""Nothing to fix here."""\n')
    return {rel: (root / rel).read_text() for rel in files if rel.endswith(".py")} | {
        "scripts/clean.py": clean.read_text()}


def run_watched(skill, cache_dir, originals):
    code = f"ORIGINALS = {originals!r}\n" + WATCH
    env = dict(os.environ, SKILLSMITH_CACHE_DIR=str(cache_dir))
    proc = subprocess.run([sys.executable, "-c", code, str(skill)], capture_output=True, text=True,
                          timeout=300, env=env)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout.splitlines()[-1])


@pytest.mark.parametrize("warm", [False, True], ids=["cold cache", "after a check"])
def test_fix_reads_each_file_once_and_parses_each_version_once(tmp_path, warm):
    skill = tmp_path / "demo"
    originals = make_skill(skill)
    cache_dir = tmp_path / "cache"
    if warm:  # a check first: its cached result must not make fix read anything twice either
        env = dict(os.environ, SKILLSMITH_CACHE_DIR=str(cache_dir))
        subprocess.run([sys.executable, "-m", "skillsmith", "check", str(skill)], capture_output=True,
                       env=env, timeout=120, stdin=subprocess.DEVNULL)

    seen = run_watched(skill, cache_dir, originals)

    assert sorted(seen["changed"]) == sorted(
        ["scripts/words.py", "scripts/lines.py", "scripts/chars.py", "scripts/tidy.sh", "scripts/list.sh"])
    assert seen["skipped"] == []
    every_file = {p.relative_to(skill).as_posix() for p in skill.rglob("*") if p.is_file()}
    assert seen["opens"] == {rel: 1 for rel in every_file}, "each file read exactly once"
    for rel in ("scripts/words.py", "scripts/lines.py", "scripts/chars.py"):
        original, fixed = seen["compiled"][rel]
        assert (original, fixed) == (1, 1), f"{rel}: ast parses of the original and of the fixed text"
        assert seen["cst_parsed"][rel] == 1, f"{rel}: libcst parses"
    # the untouched script is parsed by ast once (the check), never by libcst
    assert seen["compiled"]["scripts/clean.py"][0] == 1
    assert seen["cst_parsed"]["scripts/clean.py"] == 0
