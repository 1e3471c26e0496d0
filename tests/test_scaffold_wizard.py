"""The `skillsmith new` wizard, driven through a real pseudo-terminal."""

from __future__ import annotations

import os
import sys

import pexpect
from conftest import run_cli

from skillsmith.targets.agentskills import name_problem

ENTER = "\r"
ERASE = "\x15"  # ctrl-u: clear the line


def spawn(cwd, *args: str) -> pexpect.spawn:
    env = {**os.environ, "PROMPT_TOOLKIT_NO_CPR": "1", "TERM": "xterm", "NO_COLOR": "1", "COLUMNS": "120"}
    return pexpect.spawn(sys.executable, ["-m", "skillsmith", "new", *args], cwd=str(cwd), env=env,
                         encoding="utf-8", timeout=60, dimensions=(40, 120))


def answer(child: pexpect.spawn, prompt: str, text: str) -> None:
    child.expect_exact(prompt)
    child.send(ERASE + text + ENTER)


def finish(child: pexpect.spawn, create: bool) -> None:
    """Take the defaults of the kind (asked for Python scripts) and the yes/no questions, then answer
    "Create it?" and wait for the end."""
    for prompt in ("Script kind", "Include example", "accept --json", "staleness verifier"):
        child.expect_exact(prompt)
        child.send(ENTER)
    child.expect_exact("Create it?")
    child.send("y" if create else "n")
    child.expect(pexpect.EOF)
    child.close()


def test_wizard_asks_validates_summarises_and_creates(tmp_path):
    child = spawn(tmp_path)
    child.expect_exact("Target host:")
    child.send("\x1b[B" + ENTER)  # arrow down: stabledge
    child.expect_exact("Skill name:")
    child.send("Bad_Name")
    # the answer is refused as typed, with check's own message
    child.send(ENTER)
    child.expect_exact(name_problem("Bad_Name")[:40])
    child.send(ERASE + "word-count" + ENTER)
    answer(child, "Description", "Counts words in drafts. Use when the user asks how long a text is.")
    answer(child, "License", "MIT")
    answer(child, "Author", "Ada")
    child.expect_exact("Scripts")
    child.send(ERASE + "count.py tally.rb" + ENTER)
    child.expect_exact("must end in .py or .sh")
    child.send(ERASE + "count.py tally.sh" + ENTER)
    child.expect_exact("Include example references/ and assets/?")
    child.send("n")
    child.expect_exact("Scripts accept --json?")
    child.send("y")
    child.expect_exact("staleness verifier")
    child.send("y")
    child.expect_exact("Summary:")
    child.expect_exact("stabledge")
    child.expect_exact("count.py, tally.sh")
    child.expect_exact("Create it?")
    child.send("y")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0, child.before
    skill = tmp_path / "word-count"
    text = (skill / "SKILL.md").read_text()
    assert "name: word-count" in text and "progressive: true" in text and 'license: "MIT"' in text
    assert sorted(p.name for p in (skill / "scripts").iterdir()) == ["count.py", "tally.sh", "verify_facts.py"]
    assert not (skill / "references").exists()


def up_to_the_scripts(child: pexpect.spawn, name: str, description: str, scripts: str) -> None:
    """The default target, then *name*, *description*, no license or author, and *scripts*."""
    child.expect_exact("Target host:")
    child.send(ENTER)
    answer(child, "Skill name:", name)
    answer(child, "Description", description)
    for prompt in ("License", "Author", "Scripts"):
        answer(child, prompt, scripts if prompt == "Scripts" else "")


def test_wizard_can_be_declined(tmp_path):
    child = spawn(tmp_path)
    up_to_the_scripts(child, "demo", "A demo. Use in tests.", "main.py")
    finish(child, create=False)
    assert child.exitstatus == 0
    assert "nothing created" in child.before
    assert not (tmp_path / "demo").exists()


def test_wizard_refuses_what_check_would_flag(tmp_path):
    """An answer the new skill would fail `check` on is refused as it is typed: '<' in the description
    (SPC011) and a license that is not an SPDX id."""
    child = spawn(tmp_path)
    child.expect_exact("Target host:")
    child.send(ENTER)
    answer(child, "Skill name:", "demo")
    answer(child, "Description", "Use for <file> conversions.")
    child.expect_exact("contains '<' or '>'")
    child.send(ERASE + "Converts files. Use when the user asks for a conversion." + ENTER)
    answer(child, "License", "Apache 2.0")
    child.expect_exact("is not an SPDX license expression")
    child.send(ERASE + "apache-2.0" + ENTER)
    answer(child, "Author", "")
    answer(child, "Scripts", "main.py")
    finish(child, create=True)
    assert child.exitstatus == 0, child.before
    text = (tmp_path / "demo" / "SKILL.md").read_text()
    assert 'license: "Apache-2.0"' in text and "Converts files." in text
    check = run_cli("check", "--json", str(tmp_path / "demo"))
    assert (check.code, check.json()["data"]) == (0, [])


def test_wizard_asks_the_script_kind_for_python_scripts(tmp_path):
    child = spawn(tmp_path)
    up_to_the_scripts(child, "lint-input", "Scans inputs before work. Use before editing a config file.", "scan.py")
    child.expect_exact("Script kind")
    child.send("\x1b[B" + ENTER)  # arrow down: scanner
    for prompt in ("Include example", "accept --json", "staleness verifier"):
        child.expect_exact(prompt)
        child.send(ENTER)
    child.expect_exact("Summary:")
    child.expect_exact("scanner")
    child.expect_exact("Create it?")
    child.send("y")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0, child.before
    script = (tmp_path / "lint-input" / "scripts" / "scan.py").read_text()
    assert "10 findings" in script and "def scan(text):" in script
