"""The fix engine never corrupts a file: atomic writes, and a property test over many scripts."""

from __future__ import annotations

import ast
import os
import shutil
from pathlib import Path

import pytest
from conftest import FIXTURES
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from skillsmith.fix import atomic
from skillsmith.fix import engine as fixer
from skillsmith.fix.edits import Edit, apply_edits
from skillsmith.model.sourcefile import SourceFile

CASE = FIXTURES / "fix_python" / "argparse_in_main.py"


def _crash(*args, **kwargs):
    raise OSError(28, "No space left on device")


def test_crash_before_rename_leaves_original_and_no_temp_file(tmp_path, monkeypatch):
    target = tmp_path / "tool.py"
    target.write_bytes(b"original\n")
    target.chmod(0o640)
    monkeypatch.setattr(os, "replace", _crash)
    with pytest.raises(OSError):
        atomic.atomic_write(target, b"new contents\n")
    assert target.read_bytes() == b"original\n"
    assert os.listdir(tmp_path) == ["tool.py"]


def test_interrupt_during_write_leaves_no_temp_file(tmp_path, monkeypatch):
    target = tmp_path / "tool.py"
    target.write_bytes(b"original\n")

    def interrupted(fd):
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "fsync", interrupted)
    with pytest.raises(KeyboardInterrupt):
        atomic.atomic_write(target, b"new\n")
    assert target.read_bytes() == b"original\n"
    assert os.listdir(tmp_path) == ["tool.py"]


def test_engine_reports_a_failed_write_and_keeps_the_file(tmp_path, monkeypatch):
    scripts = tmp_path / "scripts"
    scripts.mkdir()
    target = scripts / "tool.py"
    shutil.copyfile(CASE, target)
    before = target.read_bytes()
    monkeypatch.setattr(os, "replace", _crash)
    result = fixer.fix_paths([scripts])
    assert target.read_bytes() == before
    assert sorted(os.listdir(scripts)) == ["tool.py"]
    assert [f.skipped for f in result.files] == ["not written: No space left on device"]


def test_atomic_write_keeps_mode_and_refuses_symlinks(tmp_path):
    target = tmp_path / "run.py"
    target.write_bytes(b"a\n")
    target.chmod(0o750)
    atomic.atomic_write(target, b"b\n")
    assert target.read_bytes() == b"b\n" and (target.stat().st_mode & 0o777) == 0o750
    outside = tmp_path / "outside.txt"
    outside.write_bytes(b"keep\n")
    link = tmp_path / "inner" / "link.py"
    link.parent.mkdir()
    link.symlink_to(outside)
    with pytest.raises(OSError):
        atomic.atomic_write(link, b"x\n")
    with pytest.raises(OSError):
        atomic.atomic_write(tmp_path / "inner" / "new.py", b"x\n", root=tmp_path / "elsewhere")
    assert outside.read_bytes() == b"keep\n"


def test_apply_edits_splices_and_rejects_overlaps():
    src = b"echo one\necho two\n"
    assert apply_edits(src, [Edit(0, 0, b"#!/bin/bash\n"), Edit(5, 8, b"1")]) == b"#!/bin/bash\necho 1\necho two\n"
    with pytest.raises(ValueError):
        apply_edits(src, [Edit(0, 6, b""), Edit(5, 8, b"")])


# -- property: fix never yields a file that fails ast.parse, and is idempotent ----------------

DOCSTRINGS = [
    "",
    '"""Do a thing"""\n',
    '"""\nUsage: tool.py FILE\nExit: 0 ok\n\nExamples:\n"""\n',
    '"""Do a thing.\n\nUsage:   tool.py FILE\nInput:   FILE\nOutput:  text\nStderr:  errors\nExit:    0 ok\n\nExamples:\n  tool.py a.txt\n"""\n',
]
IMPORTS = [
    "import argparse\nimport json\nimport sys\n",
    "from argparse import ArgumentParser as AP\nimport sys\n",
    "import argparse as ap\nimport sys\nimport json\n",
]
PARSERS = {
    0: 'argparse.ArgumentParser(description="Tool.")',
    1: 'AP(epilog="see docs")',
    2: 'ap.ArgumentParser(\n        description="Tool.",\n    )',
}
BODIES = [
    "    if not args.file:\n        sys.exit({code})\n",
    "    print(\"Loading data...\")\n",
    "    print(json.dumps([args.file]))\n" ,
    "    raise SystemExit({code})\n",
    "    if args.file == '-':\n        {ret}\n",
]


@st.composite
def scripts(draw):
    style = draw(st.integers(0, 2))
    parser = PARSERS[style]
    if style == 1:
        parser = PARSERS[1]
    imports = IMPORTS[style]
    doc = draw(st.sampled_from(DOCSTRINGS))
    code = draw(st.sampled_from([1, 2, 3, 4, 5, 7, 10, 42]))
    at_module = draw(st.booleans())
    ret = f"sys.exit({code})" if at_module else f"return {code}"
    body = "".join(b.format(code=code, ret=ret) for b in draw(st.lists(st.sampled_from(BODIES), max_size=4)))
    if "json." in body and "json" not in imports:
        imports += "import json\n"
    subparsers = draw(st.booleans())
    sub = '    sub = parser.add_subparsers(dest="cmd")\n    sub.add_parser("go")\n' if subparsers else ""
    if at_module:
        text = (doc + imports + f"\nparser = {parser}\nparser.add_argument('file')\n" + sub.replace("    ", "")
                + "args = parser.parse_args()\n" + body.replace("\n    ", "\n").lstrip(" "))
    else:
        ending = draw(st.sampled_from(["main()", "sys.exit(main())"]))
        text = (doc + imports + "\n\ndef main():\n" + f"    parser = {parser}\n    parser.add_argument('file')\n" + sub
                + "    args = parser.parse_args()\n" + body + "    return 0\n\n\nif __name__ == \"__main__\":\n    " + ending + "\n")
    if draw(st.booleans()):
        text = "#!/usr/bin/env python3\n" + text
    data = text.encode()
    if draw(st.booleans()):
        data = data.replace(b"\n", b"\r\n")
    if draw(st.booleans()):
        data = b"\xef\xbb\xbf" + data
    return data


def _parses(data: bytes) -> bool:
    try:
        ast.parse(data)
        return True
    except SyntaxError:
        return False


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scripts())
def test_fix_keeps_scripts_parsing_and_is_idempotent(data):
    ast.parse(data)  # the generator makes valid scripts
    rules = fixer.fixable_rules(unsafe=True)
    path = Path("/nonexistent/skill/scripts/tool.py")
    first = fixer.fix_file(SourceFile.from_bytes(path, "scripts/tool.py", data), rules, unsafe=True)
    assert first.skipped is None, first.skipped
    fixed = first.new_data if first.new_data is not None else data
    assert _parses(fixed)
    assert fixed.startswith(b"\xef\xbb\xbf") == data.startswith(b"\xef\xbb\xbf")
    assert (b"\r\n" in fixed) == (b"\r\n" in data)
    second = fixer.fix_file(SourceFile.from_bytes(path, "scripts/tool.py", fixed), rules, unsafe=True)
    assert second.skipped is None
    assert second.new_data is None, "a second fix changed the file again"
