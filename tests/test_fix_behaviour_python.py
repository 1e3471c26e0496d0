"""Safe fixes keep what Python scripts do: each case runs before and after ``fix`` alike.

Each case is a small skill written for the test. It is copied twice; one copy is fixed with the
safe fixes (the default). Then every run of the case (arguments, stdin, environment) is made in
both copies: exit code, stdout and stderr must be identical, except for the output of
``--help`` itself. Files that are not entry scripts (a test module, a library a sibling imports)
must come out byte for byte and mode for mode as they went in.
"""

from __future__ import annotations

import os
import re
import stat
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from conftest import WITH_CON014, run_cli


@dataclass
class Run:
    script: str
    args: tuple[str, ...] = ()
    stdin: str = ""
    env: tuple[tuple[str, str], ...] = ()


SKILL_MD = """---
name: {name}
description: A small skill written to test that fix keeps behaviour. Use when testing skillsmith.
---

# {name}

{body}
"""

CASES: dict[str, tuple[dict[str, str | bytes], str, list[Run]]] = {
    # main() returns codes but the script ends with a bare main(): sys.exit(main()) would change the exit code
    "exit_main": ({
        "scripts/words.py": '''#!/usr/bin/env python3
"""Count the words of a file.

Usage:   words.py FILE
"""
import sys


def main():
    if len(sys.argv) != 2:
        print("words.py: give one file", file=sys.stderr)
        return 2
    try:
        with open(sys.argv[1], encoding="utf-8") as fh:
            print(len(fh.read().split()))
    except FileNotFoundError:
        print("words.py: no such file", file=sys.stderr)
        return 3
    return 0


if __name__ == "__main__":
    main()
''',
        "notes.txt": "a b c\n",
    }, "Count: `python3 scripts/words.py notes.txt`", [
        Run("scripts/words.py", ("notes.txt",)), Run("scripts/words.py", ("missing.txt",)), Run("scripts/words.py"),
        Run("scripts/words.py", ("--help",)),
    ]),
    # a test module and a library a sibling imports, both mode 755 without a shebang
    "test_and_library": ({
        "scripts/textlib.py": '''"""Text helpers shared by the scripts."""
import re

WORD = re.compile(r"[A-Za-z']+")


def words(text):
    return WORD.findall(text)
''',
        "scripts/count.py": '''#!/usr/bin/env python3
"""Count the words on stdin.

Usage:   count.py < FILE
"""
import sys

from textlib import words

print(len(words(sys.stdin.read())))
''',
        "scripts/tests/test_textlib.py": '''import sys
import unittest

sys.path.insert(0, __file__.rsplit("/", 2)[0])
from textlib import words  # noqa: E402


class WordsTest(unittest.TestCase):
    def test_words(self):
        self.assertEqual(words("it's a dog"), ["it's", "a", "dog"])


if __name__ == "__main__":
    unittest.main()
''',
        "scripts/test_count.py": '''import subprocess
import sys
import unittest


class CountTest(unittest.TestCase):
    def test_count(self):
        out = subprocess.run([sys.executable, __file__.replace("test_count", "count")], input="a b", text=True,
                             capture_output=True).stdout
        self.assertEqual(out.strip(), "2")


if __name__ == "__main__":
    unittest.main()
''',
    }, "Count: `python3 scripts/count.py < notes.txt`", [
        Run("scripts/count.py", stdin="one two three\n"), Run("scripts/tests/test_textlib.py"),
        Run("scripts/test_count.py"),
    ]),
    # PEP 723: the shebang that runs it is its runner's, never a plain python3 one
    "pep723": ({
        "scripts/pyver.py": '''# /// script
# requires-python = ">=3.9"
# dependencies = []
# ///
"""Print the major version of the Python that runs this script."""
import sys

print(sys.version_info[0])
''',
    }, "Version: `uv run scripts/pyver.py`", [Run("scripts/pyver.py"), Run("scripts/pyver.py", ("x",))]),
    # CRLF: a shebang line ending in CR does not run, so the exec bit would not help
    "crlf": ({
        "scripts/echo_args.py": b'#!/usr/bin/env python3\r\n"""Echo the arguments"""\r\nimport sys\r\n\r\n'
                                b'if len(sys.argv) < 2:\r\n    sys.exit(2)\r\nprint(" ".join(sys.argv[1:]))\r\n',
    }, "Echo: `python3 scripts/echo_args.py hello world`", [
        Run("scripts/echo_args.py", ("hello", "world")), Run("scripts/echo_args.py"),
    ]),
    # an exit code the author suppressed keeps its literal; the others keep their codes
    "suppressed": ({
        "scripts/check_json.py": '''#!/usr/bin/env python3
"""Check that a file holds valid JSON.

Usage:   check_json.py FILE
Exit:    0 valid, 3 not found, 4 not JSON
"""
import json
import sys


def main():
    try:
        with open(sys.argv[1], encoding="utf-8") as fh:
            json.load(fh)
    except FileNotFoundError:
        sys.exit(3)
    except json.JSONDecodeError:
        sys.exit(4)  # skillsmith: ignore[CON014]
    print("valid")


if __name__ == "__main__":
    main()
''',
        "good.json": '{"a": 1}\n', "bad.json": "{a: 1}\n",
    }, "Check: `python3 scripts/check_json.py good.json`", [
        Run("scripts/check_json.py", ("good.json",)), Run("scripts/check_json.py", ("bad.json",)),
        Run("scripts/check_json.py", ("nope.json",)), Run("scripts/check_json.py", ("--help",)),
    ]),
    # no argparse: the -h/--help branch answers only -h/--help; every other call is as before
    "help_branch": ({
        "scripts/greet.py": '''#!/usr/bin/env python3
"""Greet the people named on the command line.

Usage:   greet.py NAME...
"""
import os
import sys

greeting = os.environ.get("GREETING", "Hello")
for name in sys.argv[1:] or ["world"]:
    print(f"{greeting}, {name}!")
''',
    }, "Greet: `python3 scripts/greet.py Ada`", [
        Run("scripts/greet.py", ("Ada", "Grace")), Run("scripts/greet.py"), Run("scripts/greet.py", ("x", "--help")),
        Run("scripts/greet.py", ("Ada",), env=(("GREETING", "Hi"),)), Run("scripts/greet.py", ("--help",)),
    ]),
    # a byte-order mark before the first line: no shebang can go there, so no exec bit either
    "bom": ({
        "scripts/bom.py": '\ufeff"""Print a word."""\nimport sys\n\nprint("caf\\u00e9")\nsys.exit(1)\n'.encode(),
    }, "Print: `python3 scripts/bom.py`", [Run("scripts/bom.py")]),
}


def _write(root: Path, name: str, files: dict[str, str | bytes], body: str) -> None:
    (root / "SKILL.md").parent.mkdir(parents=True, exist_ok=True)
    (root / "SKILL.md").write_text(SKILL_MD.format(name=name, body=body))
    for rel, content in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content if isinstance(content, bytes) else content.encode())
        path.chmod(0o755 if name == "test_and_library" and rel.startswith("scripts/") else 0o644)


def _run(root: Path, run: Run) -> tuple[int, str, str]:
    env = {"PATH": os.environ["PATH"], "HOME": str(root), "LANG": "C.UTF-8", "PYTHONDONTWRITEBYTECODE": "1"}
    env.update(dict(run.env))
    proc = subprocess.run([sys.executable, run.script, *run.args], cwd=root, input=run.stdin, capture_output=True,
                          text=True, env=env, timeout=60)
    return proc.returncode, proc.stdout, re.sub(r"in \d+\.\d+s", "in Ns", proc.stderr)  # unittest's timing


@pytest.fixture(scope="module")
def fixed(tmp_path_factory):
    """``fixed(name)``: (copy before, copy after the safe fix) of case *name*, made once."""
    done: dict[str, tuple[Path, Path]] = {}

    def make(name: str) -> tuple[Path, Path]:
        if name not in done:
            files, body, _ = CASES[name]
            base = tmp_path_factory.mktemp(name)
            before, after = base / "before" / name, base / "after" / name
            _write(before, name, files, body)
            _write(after, name, files, body)
            result = run_cli("fix", str(after), "--json", *WITH_CON014)
            assert result.code in (0, 10), result.stdout + result.stderr
            done[name] = before, after
        return done[name]

    return make


def _findings(root: Path) -> list[dict]:
    return run_cli("check", str(root), "--json", "--no-cache", *WITH_CON014).json()["data"]


@pytest.mark.parametrize("name", sorted(CASES))
def test_every_run_is_the_same_before_and_after(fixed, name):
    before, after = fixed(name)
    assert (before / "scripts").exists()
    for run in CASES[name][2]:
        if run.args[:1] in (("--help",), ("-h",)):
            continue  # what --help prints is what the fix may change
        assert _run(before, run) == _run(after, run), (name, run)


@pytest.mark.parametrize("name", ["help_branch", "suppressed"])
def test_help_answers_after_the_fix(fixed, name):
    _, after = fixed(name)
    script = next(run.script for run in CASES[name][2])
    code, out, _ = _run(after, Run(script, ("--help",)))
    assert code == 0 and "Usage:" in out


def test_files_that_are_not_entry_scripts_are_left_alone(fixed):
    before, after = fixed("test_and_library")
    for rel in ("scripts/textlib.py", "scripts/tests/test_textlib.py", "scripts/test_count.py"):
        assert (after / rel).read_bytes() == (before / rel).read_bytes(), rel
        assert stat.S_IMODE((after / rel).stat().st_mode) == 0o755, rel
        assert not [f for f in _findings(after) if f["path"].endswith(rel) and f["rule"][:3] in ("CON", "PYS")], rel
    assert (after / "scripts" / "count.py").read_bytes() != (before / "scripts" / "count.py").read_bytes()


def test_exit_main_is_left_to_unsafe_fixes(fixed):
    _, after = fixed("exit_main")
    assert (after / "scripts" / "words.py").read_text().endswith("\n    main()\n")
    [finding] = [f for f in _findings(after) if f["rule"] == "PYS052"]
    assert finding["fix"] == "unsafe"


def test_no_exec_bit_on_a_crlf_script(fixed):
    before, after = fixed("crlf")
    assert (after / "scripts" / "echo_args.py").stat().st_mode & 0o111 == 0  # "python3\r" is not an interpreter
    assert _run(after, Run("scripts/echo_args.py", ("a",))) == _run(before, Run("scripts/echo_args.py", ("a",)))


def test_no_shebang_and_no_exec_bit_after_a_byte_order_mark(fixed):
    _, after = fixed("bom")
    data = (after / "scripts" / "bom.py").read_bytes()
    assert data.startswith(b'\xef\xbb\xbf"""') and b"#!" not in data
    assert (after / "scripts" / "bom.py").stat().st_mode & 0o111 == 0


def test_a_pep723_script_keeps_its_runner(fixed):
    _, after = fixed("pep723")
    path = after / "scripts" / "pyver.py"
    assert path.read_bytes().startswith(b"#!/usr/bin/env -S uv run --script\n# /// script\n")
    assert path.stat().st_mode & 0o111 == 0o111
    assert not [f for f in _findings(after) if f["rule"] == "CON002"]  # uv run runs Python: no mismatch


def test_a_suppressed_line_is_not_rewritten(fixed):
    _, after = fixed("suppressed")
    text = (after / "scripts" / "check_json.py").read_text()
    assert "        sys.exit(4)  # skillsmith: ignore[CON014]\n" in text
    assert "sys.exit(EXIT_NOT_FOUND)" in text and "EXIT_NOT_FOUND = 3" in text
