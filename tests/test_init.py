"""`skillsmith init`: adopt skillsmith in a collection; the config and the baseline keep every other byte."""

from __future__ import annotations

import difflib
import re
import sys
from pathlib import Path

import pytest
from conftest import run_cli, write_tree

from skillsmith.fix.baseline import inline_ignores
from skillsmith.model.sourcefile import SourceFile
from skillsmith.rules.finding import Finding
from skillsmith.scaffold.adopt import baseline_reason

#: a pyproject.toml as people write them: comments everywhere, odd spacing, CRLF-free but
#: tab-indented arrays, a dotted key, a table after the one skillsmith adds to
PYPROJECT = """\
# The collection's own project file.   Keep this comment.

[project]
name    =   "skills"        # spaced out on purpose
version = '1.0'
dependencies = [
	"requests>=2",   # tab-indented
	# a comment inside an array
]

[tool.ruff]   # ruff's table
line-length=120
lint.select = [ "E", "F" ]

# --- trailing notes ---
[tool.other.deep]
x = { a = 1, b = [1,2,] }
"""

SKILL_MD = """\
---
name: demo
description: Formats <tables>. Use when the user pastes CSV.
---
# Demo

Read [the notes](../notes.md) first.

Run `bash scripts/run.sh data.csv` to format a table.
Run `python3 scripts/tool.py data.csv` for the JSON form.

```bash
bash scripts/run.sh x
```
"""

RUN_SH = """\
#!/usr/bin/env bash
# Format a CSV table as Markdown.
# Usage: run.sh FILE
# Exit:  0 ok
cat <<TXT
exit 1 is not code here
TXT
if [[ $# -lt 1 ]]; then
  echo "usage: run.sh FILE" >&2
  exit 2
fi
cat "$1"
exit 1
"""

TOOL_PY = '''\
#!/usr/bin/env python3
"""Format a CSV table as JSON."""
import argparse
import sys


def main() -> int:
    parser = argparse.ArgumentParser(description="Format a CSV table as JSON.")
    parser.add_argument("file")
    args = parser.parse_args()
    print(args.file)
    return 0


if __name__ == "__main__":
    sys.exit(main())
'''

#: hidden Unicode in the middle of a sentence (SEC001, a security finding check always runs)
INJECTION = "Align the\u200b columns, then print the totals.\n"


def collection(tmp_path: Path, *, security: bool = False, pyproject: str | None = PYPROJECT) -> Path:
    root = tmp_path / "collection"
    files = {
        "skills/demo/SKILL.md": SKILL_MD + (INJECTION if security else ""),
        "skills/demo/scripts/run.sh": RUN_SH,
        "skills/demo/scripts/tool.py": TOOL_PY,
    }
    if pyproject is not None:
        files["pyproject.toml"] = pyproject
    write_tree(root, files)
    for script in (root / "skills" / "demo" / "scripts").iterdir():
        script.chmod(0o755)
    return root


def program() -> str:
    """How the hints name the program that ran the tests' `python -m skillsmith`."""
    import shutil

    found = shutil.which(Path(sys.executable).name)
    same = found is not None and Path(found).absolute() == Path(sys.executable).absolute()
    return f"{Path(sys.executable).name if same else sys.executable} -m skillsmith"


def snapshot(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def only_insertions(old: bytes, new: bytes) -> list[bytes]:
    """The bytes *new* adds to *old*; fails when anything of *old* was changed or removed."""
    matcher = difflib.SequenceMatcher(None, old, new, autojunk=False)
    added = []
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        assert op in ("equal", "insert"), f"{op}: {old[i1:i2]!r} -> {new[j1:j2]!r}"
        if op == "insert":
            added.append(new[j1:j2])
    return added


# -- the config -------------------------------------------------------------------------------


def test_init_adds_its_table_and_keeps_every_other_byte(tmp_path):
    root = collection(tmp_path)
    before = (root / "pyproject.toml").read_bytes()
    r = run_cli("init", cwd=root)
    assert r.code == 0, r.stderr
    assert r.stdout == "pyproject.toml\n"
    lines = r.stderr.splitlines()
    assert lines[0] == "skillsmith: wrote pyproject.toml (target = 'agentskills')"
    assert lines[1:] == [f"skillsmith: check reports 9 finding(s); '{program()} init . --baseline' records them "
                         "so check passes while you fix them"]
    after = (root / "pyproject.toml").read_bytes()
    assert only_insertions(before, after) == [b'\n[tool.skillsmith]\ntarget = "agentskills"\n']
    assert after.startswith(before)
    again = run_cli("init", cwd=root)
    assert again.code == 0 and again.stdout == ""
    assert again.stderr.startswith("skillsmith: kept pyproject.toml (target = 'agentskills')\n")
    assert (root / "pyproject.toml").read_bytes() == after


def test_init_writes_into_an_existing_table_in_the_middle(tmp_path):
    pyproject = PYPROJECT.replace("[tool.ruff]", "[tool.skillsmith]   # ours\nignore = [\"CON013\"]   # not now\n\n[tool.ruff]")
    root = collection(tmp_path, pyproject=pyproject)
    before = (root / "pyproject.toml").read_bytes()
    r = run_cli("init", "--baseline", "--no-inline", cwd=root)
    assert r.code == 0, r.stderr
    after = (root / "pyproject.toml").read_bytes()
    added = b"".join(only_insertions(before, after))
    assert added.startswith(b'target = "agentskills"\n')
    assert b"[tool.skillsmith.per-file-ignores]\n# baseline of " in added
    # the other tables are where they were, and still say what they said
    assert after.index(b"[tool.skillsmith]") < after.index(b"[tool.skillsmith.per-file-ignores]") < after.index(b"[tool.ruff]")
    assert run_cli("init", "--baseline", "--no-inline", cwd=root).stdout == ""
    assert (root / "pyproject.toml").read_bytes() == after


def test_without_a_pyproject_init_writes_a_skillsmith_toml(tmp_path):
    root = collection(tmp_path, pyproject=None)
    r = run_cli("init", str(root), "--json")
    assert r.code == 0, r.stderr
    doc = r.json()["data"][0]
    assert doc["config"] == str(root / "skillsmith.toml") and doc["target"] == "agentskills"
    assert doc["detected"] == {"agentskills": 1}
    text = (root / "skillsmith.toml").read_text()
    assert text.startswith("# skillsmith's configuration") and 'target = "agentskills"\n' in text


def test_a_config_above_the_collection_is_the_one_written(tmp_path):
    """A skillsmith.toml above ROOT applies to it already: init writes there, not a second one that hides it."""
    (tmp_path / "skillsmith.toml").write_text('# team settings\nignore = ["CON013"]\n')
    root = collection(tmp_path, pyproject=None)
    r = run_cli("init", str(root))
    assert r.code == 0, r.stderr
    assert not (root / "skillsmith.toml").exists()
    assert (tmp_path / "skillsmith.toml").read_text() == '# team settings\nignore = ["CON013"]\ntarget = "agentskills"\n'


def test_a_mixed_collection_gets_no_target(tmp_path):
    root = collection(tmp_path, pyproject=None)
    write_tree(root, {"skills/kv/manifest.json": '{"plugin_api": 1}\n', "skills/kv/SKILL.md": "# kv\n"})
    r = run_cli("init", str(root))
    assert r.code == 0, r.stderr
    assert "target" not in (root / "skillsmith.toml").read_text()
    assert "skillsmith: the skills are written for several targets (agentskills: 1, kvist: 1); no target is " \
        "written, so each is detected as before" in r.stderr


def test_an_invalid_config_is_exit_4_and_nothing_is_written(tmp_path):
    root = collection(tmp_path, pyproject=PYPROJECT + '\n[tool.skillsmith]\nselect = ["CON14"]\n')
    before = snapshot(root)
    r = run_cli("init", str(root), "--baseline", "--json")
    assert r.code == 4, r.stderr
    assert r.json()["error"]["code"] == "INVALID_INPUT" and "CON14" in r.stderr
    assert snapshot(root) == before


# -- the baseline -----------------------------------------------------------------------------


COMMENT = re.compile(rb"^(  # skillsmith: ignore\[[A-Z0-9, ]+\] baseline: [a-z0-9, -]+"
                     rb"| <!-- skillsmith: ignore\[[A-Z0-9, ]+\] baseline: [a-z0-9, -]+ -->)$")


def test_baseline_makes_check_pass_and_only_adds_comments_and_config(tmp_path):
    root = collection(tmp_path)
    before = snapshot(root)
    assert run_cli("check", str(root)).code == 10
    r = run_cli("init", "--baseline", cwd=root)
    assert r.code == 0, r.stderr
    assert sorted(r.stdout.splitlines()) == [
        "pyproject.toml", "skills/demo/SKILL.md", "skills/demo/scripts/run.sh", "skills/demo/scripts/tool.py"]
    assert r.stderr.splitlines()[1:] == [
        "skillsmith: baseline of 9 finding(s): 6 inline ignore(s) in 3 file(s), 3 in per-file-ignores",
        "skillsmith: check now finds nothing (exit 0)",
    ]
    check = run_cli("check", str(root), "--no-cache")
    assert check.code == 0, check.stdout
    after = snapshot(root)
    for rel in ("skills/demo/SKILL.md", "skills/demo/scripts/run.sh", "skills/demo/scripts/tool.py"):
        old, new = before[rel].split(b"\n"), after[rel].split(b"\n")
        assert len(old) == len(new)
        changed = [(a, b) for a, b in zip(old, new) if a != b]
        assert changed and all(b.startswith(a) and COMMENT.match(b[len(a):]) for a, b in changed), changed
    md = after["skills/demo/SKILL.md"].decode()
    assert "description: Formats <tables>. Use when the user pastes CSV.  # skillsmith: ignore[SPC011] " \
        "baseline: description-angle-brackets\n" in md
    assert "Read [the notes](../notes.md) first. <!-- skillsmith: ignore[RES003] baseline: path-escapes-skill -->" in md
    sh = after["skills/demo/scripts/run.sh"].decode()
    assert sh.startswith(RUN_SH.split("\n", 1)[0] + "\n")  # no comment on the shebang line
    assert "exit 1 is not code here\n" in sh  # nor in the heredoc
    assert "  exit 2  # skillsmith: ignore[CON010] baseline: exit-code-undocumented\n" in sh
    py = after["skills/demo/scripts/tool.py"].decode().split("\n")
    assert py[1] == '"""Format a CSV table as JSON."""  # skillsmith: ignore[CON006] baseline: header-field-missing'
    assert py[7].startswith('    parser = argparse.ArgumentParser(description="Format a CSV table as JSON.")  # '
                            "skillsmith: ignore[PYS002] baseline: argparse-epilog-missing")
    toml = after["pyproject.toml"].decode()
    assert toml.endswith('"skills/demo/scripts/run.sh" = ["CON006", "CON009", "SHL001"] # baseline: '
                         "header-field-missing, help-missing, strict-mode-missing\n")
    assert only_insertions(before["pyproject.toml"], after["pyproject.toml"])
    # a second run finds nothing to record and changes nothing
    again = run_cli("init", "--baseline", cwd=root)
    assert (again.code, again.stdout) == (0, ""), again.stderr
    assert snapshot(root) == after


def behaviour(root: Path) -> list[tuple]:
    """The scripts of the collection run with fixed arguments: exit code, stdout, stderr."""
    import subprocess

    scripts = root / "skills" / "demo" / "scripts"
    (root / "data.csv").write_text("a,b\n1,2\n")
    out = []
    for command in (["bash", scripts / "run.sh"], ["bash", scripts / "run.sh", "data.csv"],
                    [sys.executable, scripts / "tool.py", "--help"], [sys.executable, scripts / "tool.py", "data.csv"],
                    [sys.executable, scripts / "tool.py"]):
        proc = subprocess.run([str(c) for c in command], cwd=root, capture_output=True, text=True, timeout=60,
                              stdin=subprocess.DEVNULL)
        out.append((proc.returncode, proc.stdout, proc.stderr))
    (root / "data.csv").unlink()
    return out


def test_the_scripts_behave_the_same_after_the_baseline(tmp_path):
    root = collection(tmp_path)
    before = behaviour(root)
    assert run_cli("init", "--baseline", cwd=root).code == 0
    assert "skillsmith: ignore" in (root / "skills" / "demo" / "scripts" / "run.sh").read_text()
    assert "skillsmith: ignore" in (root / "skills" / "demo" / "scripts" / "tool.py").read_text()
    assert behaviour(root) == before


def test_security_findings_are_left_out_until_asked_for(tmp_path):
    root = collection(tmp_path, security=True)
    r = run_cli("init", "--baseline", "--json", cwd=root)
    assert r.code == 10, r.stderr
    doc = r.json()["data"][0]
    assert [f["rule"] for f in doc["left_out"]] == ["SEC001"] and [f["rule"] for f in doc["remaining"]] == ["SEC001"]
    assert "skillsmith: left out 1 security finding(s) (SEC001 x1): review them with " in r.stderr
    assert "once reviewed, rerun with --baseline-security" in r.stderr
    assert "skillsmith: check still reports 1 finding(s) (exit 10)" in r.stderr
    assert "SEC001" not in (root / "skills" / "demo" / "SKILL.md").read_text().replace(INJECTION, "")
    assert "SEC" not in (root / "pyproject.toml").read_text()
    check = run_cli("check", str(root), "--no-cache")
    assert check.code == 10 and "SEC001" in check.stdout
    accepted = run_cli("init", "--baseline", "--baseline-security", cwd=root)
    assert accepted.code == 0, accepted.stderr
    # in the user's own config, not inline (a tree's inline ignore of a security rule counts for nothing)
    assert "ignore[SEC001]" not in (root / "skills" / "demo" / "SKILL.md").read_text()
    assert '"skills/demo/SKILL.md" = ["SEC001"] # baseline: ' in (root / "pyproject.toml").read_text()
    # and the tree's own inline ignores of security rules stay powerless: no allow-security-ignores
    assert "allow-security-ignores" not in (root / "pyproject.toml").read_text()
    assert run_cli("check", ".", "--no-cache", cwd=root).code == 0
    # a security finding that arrives later with its own inline ignore is still reported
    notes = root / "skills" / "demo" / "references" / "notes.md"
    notes.parent.mkdir()
    notes.write_text("# Notes\n\n" + INJECTION.rstrip("\n") + " <!-- skillsmith: ignore[SEC001] -->\n")
    later = run_cli("check", ".", "--no-cache", cwd=root)
    assert later.code == 10 and "references/notes.md:3:10: SEC001" in later.stdout, later.stdout


def test_no_inline_touches_only_the_config(tmp_path):
    root = collection(tmp_path)
    before = snapshot(root)
    r = run_cli("init", "--baseline", "--no-inline", cwd=root)
    assert (r.code, r.stdout) == (0, "pyproject.toml\n"), r.stderr
    after = snapshot(root)
    assert {k for k in after if after[k] != before.get(k)} == {"pyproject.toml"}
    assert run_cli("check", str(root), "--no-cache").code == 0


def test_baseline_options_need_baseline(tmp_path):
    root = collection(tmp_path)
    r = run_cli("init", str(root), "--no-inline", "--json")
    assert r.code == 2 and r.json()["error"]["code"] == "USAGE"
    assert r.stderr == "skillsmith: error: --no-inline and --baseline-security go with --baseline\n"
    assert run_cli("init", str(tmp_path / "nope")).code == 3


def test_comments_keep_the_files_encoding(tmp_path):
    """A CRLF script with a BOM stays CRLF with its BOM; only the comment is new."""
    root = collection(tmp_path, pyproject=None)
    script = root / "skills" / "demo" / "scripts" / "run.sh"
    crlf = RUN_SH.replace("\n", "\r\n").encode()
    script.write_bytes(crlf)
    r = run_cli("init", str(root), "--baseline")
    assert r.code == 0, r.stderr
    data = script.read_bytes()
    assert b"\n" not in data.replace(b"\r\n", b"")
    assert b"  exit 2  # skillsmith: ignore[CON010] baseline: exit-code-undocumented\r\n" in data
    assert only_insertions(crlf, data)


# -- where a comment may go: proved by parsing, not assumed --------------------------------------


def finding(path: Path, line: int, rule: str = "CON014") -> Finding:
    return Finding(path=str(path), line=line, column=1, rule=rule, message="m", severity="warning")


@pytest.mark.parametrize("name, text, line, at", [
    # Python: inside a multi-line string, after a backslash, on a line with a comment: nowhere
    ("a.py", 'x = """one\ntwo\n"""\n', 2, None),
    ("a.py", "x = 1 + \\\n    2\n", 1, None),
    ("a.py", "x = 1  # why\n", 1, None),
    ("a.py", "import sys\nsys.exit(1)\n", 2, 2),
    # shell: a heredoc's body (the line above, the redirect, may carry it), a line continuation,
    # arithmetic, the shebang
    ("a.sh", "#!/bin/sh\ncat <<EOF\nexit 1\nEOF\n", 3, 2),
    ("a.sh", "#!/bin/sh\ncat <<EOF\none\nexit 1\nEOF\n", 4, None),
    ("a.sh", "#!/bin/sh\necho a \\\n  b\nexit 1\n", 2, None),
    # (bash -n accepts a '#' in arithmetic; running it fails: the tree says where bash reads a comment)
    ("a.sh", "#!/bin/sh\nx=$((1 +\n 2))\nexit 1\n", 2, None),
    ("a.sh", "#!/bin/bash\n(( i = 1 +\n 2 ))\nexit 1\n", 2, None),
    ("a.sh", '#!/bin/sh\necho "a\nb"\nexit 1\n', 2, None),
    ("a.sh", "#!/bin/sh\necho ${x:-a\nb}\nexit 1\n", 2, None),
    ("a.sh", "#!/bin/sh\ntrue &&\n  exit 1\n", 3, 3),
    ("a.sh", "#!/bin/sh\nf() {\n  exit 1\n}\n", 3, 3),
    ("a.sh", "#!/bin/sh\nexit 1\n", 1, None),
    ("a.sh", "#!/bin/sh\nexit 1\n", 2, 2),
    # Markdown: in a code block, a table, a heading: nowhere
    ("a.md", "# T\n\n```\nrun it\n```\n", 4, None),
    ("a.md", "| a | b |\n|---|---|\n| 1 | 2 |\n", 3, None),
    ("a.md", "# Title\n\ntext\n", 1, None),
    ("a.md", "# Title\n\ntext\n", 3, 3),
])
def test_a_comment_goes_only_where_it_changes_nothing(tmp_path, name, text, line, at):
    path = tmp_path / name
    path.write_text(text)
    result = inline_ignores(SourceFile.from_path(path, name), [finding(path, line)], baseline_reason)
    if at is None:
        assert (result.text, result.placed) == (None, []), result.text
        return
    old, new = text.split("\n"), result.text.split("\n")
    assert [i for i, (a, b) in enumerate(zip(old, new), 1) if a != b] == [at]
    assert "skillsmith: ignore[CON014] baseline: exit-code-literal" in new[at - 1]
