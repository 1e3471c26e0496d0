"""`fix` works from the check run: each file is read once and each version of a file parsed once.

The fix runs in a real subprocess watched by audit hooks (``open`` and ``compile`` events,
which ``ast.parse`` raises) and a counting wrapper around ``libcst.parse_module``. Every
process of the run (the forked workers too) appends what it saw to one log, so a folder of
many scripts, fixed in several units and worker processes, is counted as a small skill is.
"""

from __future__ import annotations

import collections
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
log = os.open(sys.argv[2], os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)  # forked workers write here too
watching = True


def record(kind, what):
    os.write(log, (json.dumps([kind, what]) + "\n").encode())


tokens = [0]  # libcst code generation in this process since the last record: tokens written


def flush_tokens():
    if tokens[0]:
        record("codegen", tokens[0])
        tokens[0] = 0


def hook(event, args):
    if not watching:
        return
    flush_tokens()  # a file's code is generated before its new text is parsed (and before the next file)
    if event == "open":
        path, _mode, flags = args
        if isinstance(path, (str, bytes)) and not (flags or 0) & (os.O_WRONLY | os.O_RDWR):
            path = os.fsdecode(path)
            if os.path.realpath(path).startswith(root + os.sep) and os.path.isfile(path):
                record("open", os.path.relpath(os.path.realpath(path), root))
    elif event == "compile":
        source, _filename = args
        if isinstance(source, str):
            record("compile", source)
        elif isinstance(source, bytes):
            record("compile", source.decode("utf-8", "replace"))


import libcst

real_parse = libcst.parse_module


def counting_parse(source, *args, **kwargs):
    record("cst", source if isinstance(source, str) else source.decode())
    return real_parse(source, *args, **kwargs)


libcst.parse_module = counting_parse
from libcst._nodes.internal import CodegenState

real_add_token = CodegenState.add_token


def counting_add_token(self, value):
    if watching:
        tokens[0] += 1
    return real_add_token(self, value)


CodegenState.add_token = counting_add_token
sys.addaudithook(hook)

from skillsmith import api

result = api.fix([root])
flush_tokens()
watching = False
# what printing each changed Python file once costs, counted the same way: the floor
floor = 0
for f in result.changed:
    if f.file.path.suffix == ".py":
        watching = True
        real_parse((f.file.data or b"").decode()).code
        watching = False
        floor += tokens[0]
        tokens[0] = 0
print(json.dumps({
    "changed": [os.path.relpath(f.file.path, root) for f in result.changed],
    "skipped": [f.skipped for f in result.skipped], "remaining": len(result.remaining),
    "codegen_floor": floor,
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
    """What a real fix of *skill* did, and what every process of it opened and parsed, per file of *originals*."""
    env = dict(os.environ, SKILLSMITH_CACHE_DIR=str(cache_dir))
    log = cache_dir.parent / "events.log"
    proc = subprocess.run([sys.executable, "-c", WATCH, str(skill), str(log)], capture_output=True, text=True,
                          timeout=600, env=env)
    assert proc.returncode == 0, proc.stderr
    seen = json.loads(proc.stdout.splitlines()[-1])
    events = {"open": collections.Counter(), "compile": collections.Counter(), "cst": collections.Counter()}
    seen["codegen"] = 0
    for line in log.read_text().splitlines():
        kind, what = json.loads(line)
        if kind == "codegen":
            seen["codegen"] += what
        else:
            events[kind][what] += 1
    texts = {rel: (skill / rel).read_text(encoding="utf-8") for rel in originals}
    seen["opens"] = dict(events["open"])
    seen["compiled"] = {rel: [events["compile"][t] for t in (orig, texts[rel])] for rel, orig in originals.items()}
    seen["cst_parsed"] = {rel: events["cst"][orig] for rel, orig in originals.items()}
    # every text ast parsed that is a version of the file (the original, the fixed, anything between)
    seen["compiled_versions"] = {rel: sum(n for text, n in events["compile"].items() if marker(orig) in text)
                                 for rel, orig in originals.items()}
    return seen


def marker(text):
    """A line that tells one fixture script's versions from the others' (its description)."""
    return next((line.strip() for line in text.splitlines() if "description=" in line or '"""' in line), text)


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
    # libcst prints each file about once (the round-trip check; then only the statements the codemods
    # replaced), not once for the check, once for a codemod and once for the result
    assert seen["codegen"] <= 1.25 * seen["codegen_floor"], (seen["codegen"], seen["codegen_floor"])
    # the untouched script is parsed by ast once (the check), never by libcst
    assert seen["compiled"]["scripts/clean.py"][0] == 1
    assert seen["cst_parsed"]["scripts/clean.py"] == 0


def test_a_folder_of_many_scripts_is_fixed_in_units_and_each_file_parsed_once_per_pass(tmp_path):
    """A scripts-only tree is checked and fixed in units of 32 scripts, across worker processes; still
    each file is read once, parsed by ast once per version and by libcst at most once, and printed
    by libcst about once."""
    folder = tmp_path / "scripts"
    files = {f"tool_{i:02d}.py": PY_SCRIPT.format(what=f"words of kind {i}") for i in range(70)}
    write_tree(folder, files)
    originals = {rel: (folder / rel).read_text() for rel in files}
    (tmp_path / "cache").mkdir()

    seen = run_watched(folder, tmp_path / "cache", originals)

    assert sorted(seen["changed"]) == sorted(files)
    assert seen["opens"] == {rel: 1 for rel in files}, "each file read exactly once"
    for rel in files:
        assert seen["compiled"][rel] == [1, 1], f"{rel}: ast parses of the original and of the fixed text"
        assert seen["cst_parsed"][rel] == 1, f"{rel}: libcst parses"
    assert seen["codegen"] <= 1.25 * seen["codegen_floor"], (seen["codegen"], seen["codegen_floor"])


def test_the_check_after_the_fix_reruns_file_rules_only_on_the_written_files(tmp_path, monkeypatch):
    """The check after writing reruns the file-scope rules on the files the fix wrote only, and keeps
    what it knows of SKILL.md (parsed once); its findings are those of a fresh check of the fixed skill."""
    from skillsmith import api
    from skillsmith.model import frontmatter
    from skillsmith.rules import registry

    skill = tmp_path / "demo"
    make_skill(skill)
    monkeypatch.setenv("SKILLSMITH_CACHE_DIR", str(tmp_path / "cache"))
    registry.load_rules()
    checked = collections.Counter()  # rel -> file-scope rule runs on it
    parsed = collections.Counter()  # SKILL.md frontmatter parses
    real_parse = frontmatter.parse

    def counting_parse(text, *args, **kwargs):
        parsed[text] += 1
        return real_parse(text, *args, **kwargs)

    def counting(check):
        def counted(subject):
            checked[subject[1].rel] += 1
            return check(subject)
        return counted

    monkeypatch.setattr(frontmatter, "parse", counting_parse)
    file_rules = [(r, r.check) for r in registry.all_rules() if r.scope == "file"]
    for r, check in file_rules:
        object.__setattr__(r, "check", counting(check))  # rules are frozen dataclasses
    try:
        result = api.fix([skill])
    finally:
        for r, check in file_rules:
            object.__setattr__(r, "check", check)

    written = {f.file.path.relative_to(skill).as_posix() for f in result.changed}
    assert written == {"scripts/words.py", "scripts/lines.py", "scripts/chars.py", "scripts/tidy.sh", "scripts/list.sh"}
    once = checked["SKILL.md"]  # SKILL.md is not written: checked by the check before the fix only
    assert once > 0
    for rel in {p.relative_to(skill).as_posix() for p in skill.rglob("*") if p.is_file()}:
        assert checked[rel] == (2 if rel in written else 1) * once, rel
    assert list(parsed.values()) == [1], "SKILL.md parsed once, for the check before the fix"
    monkeypatch.setenv("SKILLSMITH_CACHE_DIR", str(tmp_path / "fresh-cache"))
    assert result.remaining == api.check([skill])


def test_a_revised_skill_keeps_what_skill_md_says_while_it_and_the_markdown_it_cites_are_the_same(tmp_path):
    from skillsmith.model.skill import Skill
    from skillsmith.model.sourcefile import SourceFile

    def file(rel, text):
        return SourceFile.from_bytes(tmp_path / rel, rel, text.encode())

    files = {f.rel: f for f in (
        file("SKILL.md", "---\nname: demo\ndescription: Demo.\n---\nSee [notes](references/notes.md).\n"),
        file("references/notes.md", "Run `python scripts/a.py --json x`.\n"),
        file("scripts/a.py", "print(1)\n"),
    )}
    skill = Skill(tmp_path, files)
    assert [s.invocations for s in skill.scripts] == [("python scripts/a.py --json x",)]

    new_script = skill.revised({**files, "scripts/a.py": file("scripts/a.py", "print(2)\n")})
    assert new_script.doc is skill.doc and new_script.linked_citations is skill.linked_citations
    assert new_script.scripts[0].invocations is skill.scripts[0].invocations

    notes = file("references/notes.md", "Run `python scripts/a.py --json y`.\n")
    new_notes = skill.revised({**files, "references/notes.md": notes})
    assert new_notes.doc is not skill.doc
    assert [s.invocations for s in new_notes.scripts] == [("python scripts/a.py --json y",)]
