"""Scripts whose text cannot be edited and written back byte for byte are skipped, with the reason.

Each case was found by fuzzing: a BOM before a shell script (the fix was not idempotent), mixed
line endings (the fix gave new lines CRLF), ``# coding: utf-7`` (re-encoded outside the edit),
an unknown coding cookie, and a script just under the read limit that the fix would push over
it (the next check could not read it).
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
    ("mixed.sh", b'echo one\r\necho "two $1"\nif true; then\r\n  echo x\nfi\n', "mixed line endings"),
    ("utf7.py", b"# coding: utf-7\n" + PY_BODY, "does not give back the same bytes"),
    ("unknown.py", b"# coding: no-such-codec\n" + PY_BODY, "coding cookie names no encoding"),
])
def test_script_text_that_cannot_round_trip_is_skipped(tmp_path, name, data, reason):
    entry, after = fix_entry(tmp_path, name, data)
    assert entry.get("status") == "skipped", entry
    assert reason in entry["reason"]
    assert after == data


def test_fix_does_not_push_a_script_over_the_read_limit(tmp_path):
    head = b'echo "hi $1"\n'
    line = b"# " + b"x" * 1000 + b"\n"
    data = head + line * ((1024 * 1024 - 100 - len(head)) // len(line))
    data += b"#" * (1024 * 1024 - 100 - len(data) - 1) + b"\n"
    assert len(data) == 1024 * 1024 - 100
    entry, after = fix_entry(tmp_path, "big.sh", data)
    assert entry.get("status") == "skipped", entry
    assert "limit" in entry["reason"]
    assert after == data
