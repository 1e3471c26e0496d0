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


# -- every host's folders, and the cross-client names

ALL_LINKS = {
    "CLAUDE.md": "AGENT.md", "AGENTS.md": "AGENT.md", "GEMINI.md": "AGENT.md",
    ".claude/skills": "../.skills", ".agents/skills": "../.skills", ".github/skills": "../.skills",
    ".cursor/skills": "../.skills", ".gemini/skills": "../.skills", ".opencode/skills": "../.skills",
}


def test_every_host_gets_a_relative_link_to_the_one_skills_folder(tmp_path):
    root = project(tmp_path)
    (root / ".github" / "workflows").mkdir(parents=True)
    (root / ".github" / "workflows" / "ci.yml").write_text("on: push\n")
    r = run_cli("link", str(root), "--host", "all", "--json")
    assert r.code == 0, r.stderr
    assert {Path(i["path"]).relative_to(root).as_posix(): i["status"] for i in r.json()["data"]} == \
        {rel: "created" for rel in ALL_LINKS}
    assert {rel: os.readlink(root / rel) for rel in ALL_LINKS} == ALL_LINKS
    for host_folder in (".claude", ".agents", ".github", ".cursor", ".gemini", ".opencode"):
        assert (root / host_folder / "skills" / "fmt").is_dir()
    assert (root / ".github" / "workflows" / "ci.yml").read_text() == "on: push\n"
    assert {i["host"] for i in r.json()["data"]} == {"claude", "codex", "copilot", "cursor", "gemini", "opencode"}
    again = run_cli("link", str(root), "--host", "all", "--json")
    assert {i["status"] for i in again.json()["data"]} == {"linked"}


def test_cross_client_names_are_canonical_when_sucoders_are_absent(tmp_path):
    root = tmp_path / "project"
    (root / ".agents" / "skills" / "fmt").mkdir(parents=True)
    (root / "AGENTS.md").write_text("# Conventions\n")
    r = run_cli("link", str(root))
    assert r.code == 0, r.stderr
    assert os.readlink(root / "CLAUDE.md") == "AGENTS.md"
    assert os.readlink(root / ".claude" / "skills") == "../.agents/skills"
    assert (root / ".claude" / "skills" / "fmt").is_dir()
    # Codex reads AGENTS.md and .agents/skills themselves: nothing to link for it
    codex = run_cli("link", str(root), "--host", "codex")
    assert codex.code == 0 and codex.stdout == "" and "nothing to link" in codex.stderr


def test_a_host_folder_that_exists_is_warned_about_and_never_overwritten(tmp_path):
    root = project(tmp_path)
    (root / ".cursor" / "skills" / "own").mkdir(parents=True)  # Cursor's own copy
    (root / ".agents" / "skills").mkdir(parents=True)  # a second canonical, independent of .skills
    r = run_cli("link", str(root), "--host", "claude", "--host", "cursor", "--host", "codex", "--json")
    assert r.code == 10
    status = {Path(i["path"]).relative_to(root).as_posix(): i["status"] for i in r.json()["data"]}
    assert status == {"CLAUDE.md": "created", "AGENTS.md": "created", ".claude/skills": "created",
                      ".agents/skills": "conflict", ".cursor/skills": "conflict"}
    assert "warning" in r.stderr and "left alone" in r.stderr
    assert not (root / ".cursor" / "skills").is_symlink() and (root / ".cursor" / "skills" / "own").is_dir()
    assert not (root / ".agents" / "skills").is_symlink()


def test_unknown_host_is_a_usage_error(tmp_path):
    root = project(tmp_path)
    r = run_cli("link", str(root), "--host", "vim", "--json")
    assert r.code == 2 and r.json()["error"]["code"] == "USAGE"
    assert not os.path.lexists(root / "CLAUDE.md")


def test_help_cites_each_hosts_documentation():
    from skillsmith.targets.sucoder import HOSTS

    r = run_cli("link", "--help")
    for host in HOSTS:
        assert host.skills in r.stdout and all(url in r.stdout for url in host.docs)


def test_a_claude_md_that_imports_the_canonical_file_is_one_source(tmp_path):
    """``CLAUDE.md`` that imports ``@AGENT.md`` (Claude Code's import), alone or with sections of its own for Claude
    (oaustegard/claude-skills), or a short pointer to it ("You MUST read `AGENT.md`", oyi77/1ai-skills), takes its
    instructions from the one source: no SUC001. A CLAUDE.md of its own still is a second copy."""
    root = project(tmp_path)
    for text in ("@AGENT.md\n", "@AGENT.md\n\n## Claude Code on the web\n\nBe brief.\n",
                 "# CLAUDE.md\n\n**You MUST read `AGENT.md` in this repo's root.**\n\nRead `AGENT.md` now.\n"):
        (root / "CLAUDE.md").write_text(text)
        c = run_cli("check", str(root), "--json", "--no-cache")
        assert "SUC001" not in {f["rule"] for f in c.json()["data"]}, text
    (root / "CLAUDE.md").write_text("# Rules\n\n" + "- Be brief and run the tests before you commit.\n" * 30)
    c = run_cli("check", str(root), "--json", "--no-cache")
    assert "SUC001" in {f["rule"] for f in c.json()["data"]}


def test_a_skills_folder_of_links_one_per_skill_is_one_source(tmp_path):
    """SUC001 on real skills: ``npx skills add`` makes ``.claude/skills/<name> -> ../../.agents/skills/<name>``
    for each skill; a Claude-only skill may sit beside them as a folder of its own."""
    root = tmp_path / "project"
    for name in ("fmt", "lint"):
        (root / ".agents" / "skills" / name).mkdir(parents=True)
        (root / ".agents" / "skills" / name / "SKILL.md").write_text(f"---\nname: {name}\ndescription: Formats. Use when asked.\n---\n")
    (root / "AGENTS.md").write_text("# Conventions\n")
    (root / "CLAUDE.md").symlink_to("AGENTS.md")
    claude = root / ".claude" / "skills"
    claude.mkdir(parents=True)
    for name in ("fmt", "lint"):
        (claude / name).symlink_to(f"../../.agents/skills/{name}")
    (claude / "only-claude").mkdir()
    c = run_cli("check", str(root), "--json", "--no-cache", "--select", "SUC")
    assert c.json()["data"] == [], c.stdout
    # one real copy of a skill the canonical folder holds: the two drift
    os.unlink(claude / "lint")
    (claude / "lint").mkdir()
    c = run_cli("check", str(root), "--json", "--no-cache", "--select", "SUC")
    assert [f["rule"] for f in c.json()["data"]] == ["SUC001"]
