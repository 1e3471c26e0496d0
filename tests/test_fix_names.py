"""A script's file name (and argparse text) never becomes code in the docstring or header ``fix`` writes.

The name goes into generated text (``Usage:``, ``Examples:``, the description); a name that
would end that text (``\"\"\"`` in a Python docstring, a line break in a shell comment) makes
``fix`` skip the file with the reason, leaving its bytes as they were.
"""

from __future__ import annotations

import pytest
from conftest import run_cli

SKILL_MD = "---\nname: named-skill\ndescription: A test skill for names. Use when testing names.\n---\n\nRun the scripts.\n"
PY = b'import sys\n\n\ndef main():\n    print("hi")\n    return 0\n\n\nif __name__ == "__main__":\n    sys.exit(main())\n'
PY_PROG = (b'import argparse\n\n\ndef main():\n    parser = argparse.ArgumentParser(prog=\'x"""\\nimport os\\n"""\')\n'
           b'    parser.parse_args()\n    return 0\n\n\nif __name__ == "__main__":\n    raise SystemExit(main())\n')
SH = b'echo "hi"\n'


@pytest.mark.parametrize("name, data", [
    ('tool"""+print(1)+""".py', PY),
    ("tool.py", PY_PROG),
    ("tool\nrm -rf x.sh", SH),
    ("tool\rrm -rf x.sh", SH),
])
def test_name_that_would_become_code_is_skipped_with_reason(tmp_path, name, data):
    skill = tmp_path / "named-skill"
    (skill / "scripts").mkdir(parents=True)
    (skill / "SKILL.md").write_text(SKILL_MD)
    target = skill / "scripts" / name
    target.write_bytes(data)
    result = run_cli("fix", str(skill), "--json")
    assert result.code != 1, result.stderr
    entries = {e["path"]: e for e in result.json()["data"]}
    entry = entries[str(target)]
    assert entry["status"] == "skipped"
    assert "into code" in entry["reason"]
    assert target.read_bytes() == data


def test_plain_name_is_still_fixed(tmp_path):
    skill = tmp_path / "named-skill"
    (skill / "scripts").mkdir(parents=True)
    (skill / "SKILL.md").write_text(SKILL_MD)
    target = skill / "scripts" / "my tool.sh"
    target.write_bytes(SH)
    run_cli("fix", str(skill))
    assert b"#   my tool.sh --help" in target.read_bytes()
