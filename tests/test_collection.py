"""Rules over a whole run (SPC021 duplicate skill names): with the cache, selectors, suppressions, reporters.

The run-scope rules see a summary of every unit, which each unit's cached result carries, so
a warm run (whole, or only some units from the cache) reports what a cold one does.
"""

from __future__ import annotations

import json

from conftest import run_cli, write_tree


def skill_md(name: str, name_line: str | None = None) -> str:
    return (f"---\n{name_line or 'name: ' + name}\ndescription: Reads PDF files. Use when the user gives a PDF.\n"
            f"---\n\n# {name}\n\nFollow the steps.\n")


def two_categories(root):
    """Two skills named `pdf` in one skills folder (categories), nothing else wrong."""
    return write_tree(root, {"skills/documents/pdf/SKILL.md": skill_md("pdf"),
                             "skills/office/pdf/SKILL.md": skill_md("pdf")})


def found(r) -> list[str]:
    return sorted(f"{f['rule']} {f['path']}:{f['line']}" for f in r.json()["data"])


BOTH = ["SPC021 skills/documents/pdf/SKILL.md:2", "SPC021 skills/office/pdf/SKILL.md:2"]


def test_each_duplicate_is_reported_at_its_name_line_naming_the_other(tmp_path):
    two_categories(tmp_path)
    r = run_cli("check", ".", "--json", "--no-cache", cwd=tmp_path)
    assert r.code == 10, r.stdout + r.stderr
    assert found(r) == BOTH
    messages = {f["path"]: f["message"] for f in r.json()["data"]}
    assert "skills/office/pdf/SKILL.md, in the same skills folder" in messages["skills/documents/pdf/SKILL.md"]
    assert "skills/documents/pdf/SKILL.md, in the same skills folder" in messages["skills/office/pdf/SKILL.md"]


def test_a_warm_run_reports_it_from_the_whole_run_and_from_each_units_cache(tmp_path):
    cache = {"SKILLSMITH_CACHE_DIR": str(tmp_path / "cache")}
    tree = two_categories(tmp_path / "tree")
    cold = run_cli("check", ".", "--json", cwd=tree, env=cache)
    warm = run_cli("check", ".", "--json", cwd=tree, env=cache)  # the whole run from the cache
    assert found(cold) == found(warm) == BOTH
    # a third skill: the run is new, the two old units come from their cached results
    write_tree(tree, {"skills/documents/pdf-tools/SKILL.md": skill_md("pdf-tools")})
    partly = run_cli("check", ".", "--json", cwd=tree, env=cache)
    assert found(partly) == BOTH, partly.stdout + partly.stderr
    # and a new skill with the same name meets the cached two
    write_tree(tree, {"skills/media/pdf/SKILL.md": skill_md("pdf")})
    more = run_cli("check", ".", "--json", cwd=tree, env=cache)
    assert found(more) == sorted(BOTH + ["SPC021 skills/media/pdf/SKILL.md:2"])
    media = next(f["message"] for f in more.json()["data"] if f["path"] == "skills/media/pdf/SKILL.md")
    assert "skills/documents/pdf/SKILL.md, skills/office/pdf/SKILL.md," in media


def test_select_ignore_config_and_inline_suppression(tmp_path):
    two_categories(tmp_path)
    assert run_cli("check", ".", "--json", "--no-cache", "--ignore", "SPC021", cwd=tmp_path).json()["data"] == []
    assert found(run_cli("check", ".", "--json", "--no-cache", "--select", "duplicate-skill-name", cwd=tmp_path)) == BOTH
    assert run_cli("check", ".", "--json", "--no-cache", "--select", "CON", cwd=tmp_path).json()["data"] == []
    # an ignore for one file keeps the other skill's finding: the clash is still there
    (tmp_path / "skillsmith.toml").write_text('[per-file-ignores]\n"skills/office/**" = ["SPC021"]\n')
    assert found(run_cli("check", ".", "--json", "--no-cache", cwd=tmp_path)) == BOTH[:1]
    (tmp_path / "skillsmith.toml").unlink()
    write_tree(tmp_path, {"skills/office/pdf/SKILL.md": skill_md("pdf", "name: pdf  # skillsmith: ignore[SPC021]")})
    assert found(run_cli("check", ".", "--json", "--no-cache", cwd=tmp_path)) == BOTH[:1]


def test_every_reporter_shows_it(tmp_path):
    two_categories(tmp_path)
    text = run_cli("check", ".", "--no-cache", cwd=tmp_path)
    assert text.code == 10
    assert "skills/office/pdf/SKILL.md:2:1: SPC021 " in text.stdout
    github = run_cli("check", ".", "--no-cache", "--format", "github", cwd=tmp_path)
    assert "file=skills/office/pdf/SKILL.md,line=2" in github.stdout and "title=SPC021" in github.stdout
    sarif = json.loads(run_cli("check", ".", "--no-cache", "--format", "sarif", cwd=tmp_path).stdout)
    results = sarif["runs"][0]["results"]
    assert sorted(x["ruleId"] for x in results) == ["SPC021", "SPC021"]


def test_skills_of_two_checked_folders_meet_only_in_their_own_collections(tmp_path):
    # two repositories given in one run, each with a skill named `pdf` outside any skills folder
    write_tree(tmp_path, {"repo-a/pdf/SKILL.md": skill_md("pdf"), "repo-b/pdf/SKILL.md": skill_md("pdf")})
    assert run_cli("check", "repo-a", "repo-b", "--json", "--no-cache", cwd=tmp_path).json()["data"] == []
    # one repository with it in two folders that are not skills folders (jscraik keeps Codex's system
    # skills in skills-system/ apart from utilities/): no host loads the two side by side
    write_tree(tmp_path, {"repo-c/tools/pdf/SKILL.md": skill_md("pdf"), "repo-c/extra/pdf/SKILL.md": skill_md("pdf")})
    assert run_cli("check", "repo-c", "--json", "--no-cache", cwd=tmp_path).json()["data"] == []
    # two siblings with one name (a copied SKILL.md): the copy gets SPC008, the original hears of the clash
    write_tree(tmp_path, {"repo-c/tools/pdf-copy/SKILL.md": skill_md("pdf")})
    assert found(run_cli("check", "repo-c", "--json", "--no-cache", "--select", "SPC008,SPC021", cwd=tmp_path)) == [
        "SPC008 repo-c/tools/pdf-copy/SKILL.md:2", "SPC021 repo-c/tools/pdf/SKILL.md:2"]


def test_skills_below_a_hidden_folder_of_a_skills_folder_are_among_their_siblings_only(tmp_path):
    """On real skills (fresh set Q): a repository's ``skills/`` holds two Replit project snapshots,
    each with ``.local/secondary_skills/ai-recruiter/``; no host loads the two side by side. Category
    folders (``skills/office/pdf``) still make one collection."""
    write_tree(tmp_path, {"skills/Lesson-Navigator/.local/secondary_skills/ai-recruiter/SKILL.md": skill_md("ai-recruiter"),
                          "skills/Storage-Map-1/.local/secondary_skills/ai-recruiter/SKILL.md": skill_md("ai-recruiter")})
    assert found(run_cli("check", ".", "--json", "--no-cache", cwd=tmp_path)) == []
    two_categories(tmp_path)
    assert found(run_cli("check", ".", "--json", "--no-cache", cwd=tmp_path)) == BOTH
