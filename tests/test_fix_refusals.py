"""Scripts whose text cannot be edited and written back byte for byte are skipped, with the reason.

Each case was found by fuzzing: a BOM before a shell script (the fix was not idempotent), mixed
line endings (the fix gave new lines CRLF), ``# coding: utf-7`` (re-encoded outside the edit),
an unknown coding cookie, and a script just under the read limit that the fix would push over
it (the next check could not read it). And a script's file name (or argparse text), which goes
into the docstring or header a fix writes, never becomes code there: a name that would end that
text (``\"\"\"`` in a Python docstring, a line break in a shell comment) is a skip.
"""

from __future__ import annotations

import pytest
from conftest import run_cli

SKILL_MD = "---\nname: text-skill\ndescription: A test skill for text. Use when testing text.\n---\n\nRun the scripts.\n"
PY_BODY = b'import sys\n\n\ndef main():\n    print("caf+AOk-")\n    return 0\n\n\nif __name__ == "__main__":\n    sys.exit(main())\n'


def fix_entry(tmp_path, name: str, data: bytes) -> tuple[dict, bytes]:
    skill = tmp_path / "text-skill"
    (skill / "scripts").mkdir(parents=True)
    (skill / "SKILL.md").write_text(SKILL_MD)
    target = skill / "scripts" / name
    target.write_bytes(data)
    result = run_cli("fix", str(skill), "--json")
    assert result.code in (0, 10), result.stderr
    entries = {e["path"]: e for e in result.json()["data"]}
    return entries.get(str(target), {}), target.read_bytes()


@pytest.mark.parametrize("name, data, reason", [
    ("bom.sh", b'\xef\xbb\xbfecho "hi $1"\n', "BOM"),
    # (a description makes the header fixable, so the file is tried: no exec bit goes on a CRLF script)
    ("mixed.sh", b'# Print two lines.\r\necho one\r\necho "two $1"\nif true; then\r\n  echo x\nfi\n',
     "mixed line endings"),
    ("utf7.py", b"# coding: utf-7\n" + PY_BODY, "does not give back the same bytes"),
    ("unknown.py", b"# coding: no-such-codec\n" + PY_BODY, "coding cookie names no encoding"),
])
def test_script_text_that_cannot_round_trip_is_skipped(tmp_path, name, data, reason):
    entry, after = fix_entry(tmp_path, name, data)
    assert entry.get("status") == "skipped", entry
    assert reason in entry["reason"]
    assert after == data


def test_fix_does_not_push_a_script_over_the_read_limit(tmp_path):
    # the description is evidence for a header, whose fields would push the file over the limit
    head = b'#!/bin/bash\n# Say hi to someone.\necho "hi $1"\n'
    line = b"# " + b"x" * 1000 + b"\n"
    data = head + line * ((1024 * 1024 - 100 - len(head)) // len(line))
    data += b"#" * (1024 * 1024 - 100 - len(data) - 1) + b"\n"
    assert len(data) == 1024 * 1024 - 100
    entry, after = fix_entry(tmp_path, "big.sh", data)
    assert entry.get("status") == "skipped", entry
    assert "limit" in entry["reason"]
    assert after == data


#: a description (the comment, argparse's): the docstring fix then writes the name into Usage
PY = b'# Say hi.\nimport sys\n\n\ndef main():\n    print("hi")\n    return 0\n\n\nif __name__ == "__main__":\n    sys.exit(main())\n'
PY_PROG = (b'import argparse\n\n\ndef main():\n    parser = argparse.ArgumentParser(prog=\'x"""\\nimport os\\n"""\', '
           b'description="Say hi.")\n'
           b'    parser.parse_args()\n    return 0\n\n\nif __name__ == "__main__":\n    raise SystemExit(main())\n')
#: a description: the header fix then writes the name into Usage
SH = b'# Say hi.\necho "hi"\n'


@pytest.mark.parametrize("name, data", [
    ('tool"""+print(1)+""".py', PY),
    ("tool.py", PY_PROG),
    ("tool\nrm -rf x.sh", SH),
    ("tool\rrm -rf x.sh", SH),
])
def test_name_that_would_become_code_is_skipped_with_reason(tmp_path, name, data):
    entry, after = fix_entry(tmp_path, name, data)
    assert entry.get("status") == "skipped", entry
    assert "into code" in entry["reason"]
    assert after == data


def test_plain_name_is_still_fixed(tmp_path):
    _, after = fix_entry(tmp_path, "my tool.sh", SH)
    assert b"# Usage:   my tool.sh\n" in after
