"""`skillsmith link` and the project-scope rules (SUC001-SUC003) on real folders."""

from __future__ import annotations

import os
from pathlib import Path

from conftest import run_cli


def project(tmp_path: Path, agent: bool = True, skills: bool = True) -> Path:
    root = tmp_path / "project"
    root.mkdir()
    if agent:
        (root / "AGENT.md").write_text("# Conventions\n\nRun the tests.\n")
    if skills:
        (root / ".skills" / "fmt").mkdir(parents=True)
    return root


def test_creates_both_links_relative(tmp_path):
    root = project(tmp_path)
    r = run_cli("link", str(root))
    assert r.code == 0, r.stderr
    assert os.readlink(root / "CLAUDE.md") == "AGENT.md"
    assert os.readlink(root / ".claude" / "skills") == "../.skills"
    assert (root / ".claude" / "skills" / "fmt").is_dir()
    assert (root / "CLAUDE.md").read_text() == "# Conventions\n\nRun the tests.\n"
    lines = r.stdout.splitlines()
    assert [line.split()[0] for line in lines] == ["created", "created"]
    assert r.stdout.count(" -> ") == 2


def test_is_idempotent(tmp_path):
    root = project(tmp_path)
    assert run_cli("link", str(root)).code == 0
    before = {p: os.readlink(root / p) for p in ("CLAUDE.md", ".claude/skills")}
    r = run_cli("link", str(root), "--json")
    assert r.code == 0
    doc = r.json()
    assert doc["meta"]["schema"] == "skillsmith.link/v1"
    assert [i["status"] for i in doc["data"]] == ["linked", "linked"]
    assert {p: os.readlink(root / p) for p in before} == before


def test_agent_org_is_linked_when_there_is_no_agent_md(tmp_path):
    root = project(tmp_path, agent=False, skills=False)
    (root / "AGENT.org").write_text("* Conventions\n")
    assert run_cli("link", str(root)).code == 0
    assert os.readlink(root / "CLAUDE.md") == "AGENT.org"


def test_dry_run_changes_nothing(tmp_path):
    root = project(tmp_path)
    r = run_cli("link", str(root), "--dry-run", "--json")
    assert r.code == 0
    assert [i["status"] for i in r.json()["data"]] == ["would-create", "would-create"]
    assert not os.path.lexists(root / "CLAUDE.md")
    assert not os.path.lexists(root / ".claude")


def test_both_exist_warns_and_never_overwrites(tmp_path):
    root = project(tmp_path)
    (root / "CLAUDE.md").write_text("# Another copy\n")
    (root / ".claude" / "skills").mkdir(parents=True)
    r = run_cli("link", str(root))
    assert r.code == 10
    assert r.stdout.count("conflict") == 2
    assert "left alone" in r.stderr and "warning" in r.stderr
    assert (root / "CLAUDE.md").read_text() == "# Another copy\n"
    assert not (root / ".claude" / "skills").is_symlink()
    # and check flags it
    c = run_cli("check", str(root), "--json", "--no-cache")
    assert c.code == 10
    assert {f["rule"] for f in c.json()["data"]} == {"SUC001"}


def test_claude_folder_that_is_a_link_is_not_written_through(tmp_path):
    root = project(tmp_path, agent=False)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (root / ".claude").symlink_to(elsewhere)
    r = run_cli("link", str(root), "--json")
    assert r.code == 10
    assert r.json()["data"][0]["status"] == "conflict"
    assert list(elsewhere.iterdir()) == []


def test_broken_link_is_reported_and_kept(tmp_path):
    root = project(tmp_path, agent=False, skills=False)
    (root / "CLAUDE.md").symlink_to("AGENT.md")
    r = run_cli("link", str(root))
    assert r.code == 10
    assert r.stdout.startswith("broken")
    assert os.readlink(root / "CLAUDE.md") == "AGENT.md"
    c = run_cli("check", str(root), "--json", "--no-cache")
    assert [(f["rule"], f["path"].endswith("CLAUDE.md")) for f in c.json()["data"]] == [("SUC002", True)]


def test_missing_link_is_flagged_by_check_until_linked(tmp_path):
    root = project(tmp_path)
    c = run_cli("check", str(root), "--json", "--no-cache")
    assert c.code == 10
    assert sorted(f["rule"] for f in c.json()["data"]) == ["SUC003", "SUC003"]
    assert run_cli("link", str(root)).code == 0
    assert run_cli("check", str(root), "--no-cache").code == 0


def test_project_rules_follow_the_target(tmp_path):
    root = project(tmp_path)
    assert run_cli("check", str(root), "--target", "agentskills", "--no-cache").code == 0


def test_a_plain_folder_is_not_a_project(tmp_path):
    (tmp_path / "notes.txt").write_text("nothing to see\n")
    r = run_cli("check", str(tmp_path), "--json", "--no-cache")
    assert r.code == 0 and r.json()["data"] == []
    n = run_cli("link", str(tmp_path))
    assert n.code == 0 and n.stdout == "" and "nothing to link" in n.stderr


def test_missing_root_is_exit_3(tmp_path):
    r = run_cli("link", str(tmp_path / "nope"), "--json")
    assert r.code == 3
    assert r.json()["error"]["code"] == "NOT_FOUND"


def test_help_has_examples():
    r = run_cli("link", "--help")
    assert r.code == 0 and "examples:" in r.stdout


def test_skills_below_a_project_are_still_checked(tmp_path):
    root = project(tmp_path, skills=False)
    (root / ".skills" / "fmt").mkdir(parents=True)
    (root / ".skills" / "fmt" / "SKILL.md").write_text("# no frontmatter\n")
    assert run_cli("link", str(root)).code == 0
    r = run_cli("check", str(root), "--json", "--no-cache")
    rules = {f["rule"] for f in r.json()["data"]}
    assert "SPC002" in rules and not any(rule.startswith("SUC") for rule in rules)
    # the skill is found once, through .skills/, never again through the .claude/skills link
    assert sum(1 for f in r.json()["data"] if f["rule"] == "SPC002") == 1
