"""`skillsmith add script`: one compliant script, its test cases and a worked invocation."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import yaml
from conftest import EXAMPLE, ROOT, run_cli

from skillsmith.scaffold.add import insert_scripts_entry
from skillsmith.scaffold.answers import CASES_MARKER

TEMPLATES = ROOT / "templates"


def new_skill(tmp_path, *args: str):
    r = run_cli("new", "demo", "--defaults", *args, cwd=tmp_path)
    assert r.code == 0, r.stderr
    return tmp_path / "demo"


def test_added_scripts_are_clean_tested_and_cited(tmp_path):
    skill = new_skill(tmp_path, "--target", "stabledge")
    before = (skill / "SKILL.md").read_text().splitlines()
    r = run_cli("add", "script", str(skill), "fetch.sh", "--description", "Fetch the day's report")
    assert r.code == 0, r.stderr
    assert r.stdout.splitlines() == [f"{skill}/scripts/fetch.sh", f"{skill}/tests/run.sh", f"{skill}/SKILL.md"]
    assert run_cli("add", "script", str(skill), "render.py", "--json").json()["data"][0]["files"][0] == "scripts/render.py"
    after = (skill / "SKILL.md").read_text()
    # only insertions: every original line is still there, in order
    remaining = iter(after.splitlines())
    assert all(any(line == other for other in remaining) for line in before)
    assert "`bash scripts/fetch.sh assets/sample-input.txt`" in after
    assert "`python3 scripts/render.py --json assets/sample-input.txt | jq '.data[0]'`" in after
    fm = yaml.safe_load(after.split("---\n")[1])
    assert {"path": "scripts/fetch.sh", "role": "executable"} in fm["resources"]
    assert {"path": "scripts/render.py", "role": "executable"} in fm["resources"]
    assert (skill / "scripts" / "fetch.sh").read_text().splitlines()[1] == "# Fetch the day's report."
    check = run_cli("check", str(skill))
    assert check.code == 0, check.stdout
    suite = subprocess.run(["bash", str(skill / "tests" / "run.sh")], capture_output=True, text=True, timeout=120)
    assert suite.returncode == 0, suite.stdout + suite.stderr
    assert suite.stdout.strip().endswith("0 failed") and "fetch.sh" not in suite.stderr
    help_ = subprocess.run(["bash", str(skill / "scripts" / "fetch.sh"), "--help"], capture_output=True, text=True)
    assert help_.returncode == 0 and "Examples:" in help_.stdout
    bad = subprocess.run([sys.executable, str(skill / "scripts" / "render.py"), "--nope", "x"], capture_output=True, text=True)
    assert bad.returncode == 2


def test_add_writes_the_script_and_cases_new_writes(tmp_path):
    """`add script` renders from the skill template's own scripts/ and _partials/, the one copy."""
    (tmp_path / "made").mkdir()
    (tmp_path / "grown").mkdir()
    made = new_skill(tmp_path / "made", "--script", "main.py", "--script", "fetch.sh")
    grown = new_skill(tmp_path / "grown", "--script", "main.py")
    assert run_cli("add", "script", str(grown), "fetch.sh").code == 0
    for rel in ("scripts/fetch.sh", "tests/run.sh"):
        assert (grown / rel).read_bytes() == (made / rel).read_bytes(), rel
    assert [p.relative_to(TEMPLATES).as_posix() for p in TEMPLATES.rglob("_partials")] == ["skill/_partials"]


def test_add_follows_the_skills_json_choice(tmp_path):
    skill = new_skill(tmp_path, "--no-script-json")
    assert run_cli("add", "script", str(skill), "plain.py").code == 0
    text = (skill / "scripts" / "plain.py").read_text()
    assert "--json" not in text
    assert run_cli("check", str(skill)).code == 0


def test_add_to_a_hand_written_skill_adds_the_scripts_section(tmp_path):
    skill = tmp_path / "table-formatter"
    subprocess.run(["cp", "-r", str(EXAMPLE), str(skill)], check=True)
    md = (skill / "SKILL.md").read_bytes().replace(b"\n", b"\r\n")
    (skill / "SKILL.md").write_bytes(md)
    r = run_cli("add", "script", str(skill), "summarise.py")
    assert r.code == 0, r.stderr
    out = (skill / "SKILL.md").read_bytes()
    assert out.startswith(md.split(b"## References")[0].rstrip(b"\r\n"))
    assert b"\n" not in out.replace(b"\r\n", b"")  # CRLF stays CRLF
    assert b"`python3 scripts/summarise.py --json notes.txt | jq '.data[0]'`\r\n" in out
    # the example's own suite gets the new script's cases, and still passes
    assert "# cases: scripts/summarise.py" in (skill / "tests" / "run.sh").read_text()
    suite = subprocess.run(["bash", str(skill / "tests" / "run.sh")], capture_output=True, text=True, timeout=120,
                           stdin=subprocess.DEVNULL)
    assert suite.returncode == 0 and " 0 failed" in suite.stdout, suite.stdout + suite.stderr
    assert run_cli("check", str(skill)).code == 0


def test_insert_scripts_entry_appends_a_section_when_missing():
    assert insert_scripts_entry("# T\n\nText.", "- x\n") == "# T\n\nText.\n\n## Scripts\n\n- x\n"
    text = "# T\n\n## Scripts\n\n- a\n  more about a\n\nProse.\n\n## Other\n"
    assert insert_scripts_entry(text, "- b\n") == "# T\n\n## Scripts\n\n- a\n  more about a\n- b\n\nProse.\n\n## Other\n"
    assert insert_scripts_entry("## Scripts\n## Other\n", "- x\n") == "## Scripts\n\n- x\n\n## Other\n"


def test_add_script_errors(tmp_path):
    skill = new_skill(tmp_path)
    exists = run_cli("add", "script", str(skill), "main.py", "--json")
    assert exists.code == 2 and exists.json()["error"]["code"] == "USAGE" and "already exists" in exists.stderr
    assert run_cli("add", "script", str(skill), "main.sh").code == 2  # same stem
    assert run_cli("add", "script", str(skill), "x.rb").code == 2
    assert run_cli("add", "script", str(skill), "x.py", "--description", 'say "hi"').code == 2
    assert run_cli("add", "script", str(tmp_path / "nope"), "x.py").code == 3
    run_sh = skill / "tests" / "run.sh"
    run_sh.write_text(run_sh.read_text().replace(CASES_MARKER, "# cases end"))
    r = run_cli("add", "script", str(skill), "x.py")
    assert r.code == 4 and "new cases go above this line" in r.stderr
    assert not (skill / "scripts" / "x.py").exists()
    assert run_cli("add", cwd=tmp_path).code == 2


def test_add_never_writes_through_a_symlinked_folder(tmp_path):
    skill = new_skill(tmp_path)
    outside = tmp_path / "outside"
    outside.mkdir()
    (skill / "scripts" / "main.py").rename(outside / "main.py")
    (skill / "scripts").rmdir()
    (skill / "scripts").symlink_to(outside)
    r = run_cli("add", "script", str(skill), "x.py")
    assert r.code == 4 and "symbolic link" in r.stderr
    assert sorted(p.name for p in outside.iterdir()) == ["main.py"]


def test_add_writes_skill_md_back_as_it_was_encoded(tmp_path):
    skill = tmp_path / "table-formatter"
    subprocess.run(["cp", "-r", str(EXAMPLE), str(skill)], check=True)
    md = b"\xef\xbb\xbf" + (skill / "SKILL.md").read_bytes().rstrip(b"\n").replace(b"\n", b"\r\n")
    (skill / "SKILL.md").write_bytes(md)
    r = run_cli("add", "script", str(skill), "summarise.py")
    assert r.code == 0, r.stderr
    out = (skill / "SKILL.md").read_bytes()
    assert out.startswith(b"\xef\xbb\xbf---\r\n")  # BOM kept
    assert b"\n" not in out.replace(b"\r\n", b"")  # CRLF stays CRLF
    assert not out.endswith(b"\n")  # no trailing newline, as before
    assert b"`python3 scripts/summarise.py --json notes.txt | jq '.data[0]'`" in out


def test_a_test_suite_that_is_not_utf8_is_invalid_input(tmp_path):
    skill = new_skill(tmp_path)
    run_sh = skill / "tests" / "run.sh"
    run_sh.write_bytes(run_sh.read_bytes() + b"# caf\xe9\n")
    before = (skill / "SKILL.md").read_bytes()
    r = run_cli("add", "script", str(skill), "x.py", "--json")
    assert r.code == 4, r.stderr
    assert r.json()["error"]["code"] == "INVALID_INPUT" and "run.sh" in r.stderr
    assert not (skill / "scripts" / "x.py").exists() and (skill / "SKILL.md").read_bytes() == before


def test_add_to_a_skill_without_a_test_suite_suggests_only_what_exists(tmp_path):
    """No tests/run.sh: the hint does not send the user to a file that does not exist."""
    skill = new_skill(tmp_path)
    (skill / "tests" / "run.sh").unlink()
    (skill / "tests").rmdir()
    r = run_cli("add", "script", str(skill), "fetch.sh", cwd=tmp_path)
    assert r.code == 0, r.stderr
    assert r.stdout.splitlines() == [f"{skill}/scripts/fetch.sh", f"{skill}/SKILL.md"]
    assert "run.sh" not in r.stderr
    assert r.stderr == f"skillsmith: added scripts/fetch.sh; try: {Path(sys.executable)} -m skillsmith check {skill}\n" \
        or r.stderr == f"skillsmith: added scripts/fetch.sh; try: {Path(sys.executable).name} -m skillsmith check {skill}\n"
    assert not (skill / "tests").exists()


def test_add_to_a_skill_with_a_test_suite_suggests_running_it(tmp_path):
    skill = new_skill(tmp_path)
    r = run_cli("add", "script", str(skill), "fetch.sh", cwd=tmp_path)
    assert r.code == 0, r.stderr
    hint = r.stderr.split("try: ", 1)[1]
    assert hint.startswith(f"bash {skill}/tests/run.sh && ") and hint.endswith(f" -m skillsmith check {skill}\n")
    ran = subprocess.run(["bash", "-c", hint], capture_output=True, text=True, timeout=120)
    assert ran.returncode == 0, ran.stdout + ran.stderr
