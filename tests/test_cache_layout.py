"""After an edit, the run that re-checks only the edited unit gives what a check without the cache gives.

The whole-run walk keys two things besides the run: which skills are below a path (by the
tree's layout: names, types, modes, ignore files; ``snapshot.layout_key``), and each skill
(``snapshot.unit_digests``; skills nested in one another as one cluster).
"""

from __future__ import annotations

import json
import subprocess
import time

from conftest import run_cli, write_tree
from test_cache_pool import ANGLE, cache_entries, plant


def findings(run) -> list[tuple[str, str]]:
    return [(f["path"].split("/")[-2], f["rule"]) for f in run.json()["data"]]


def skills_entries(cache):
    """The stored lists of the skills found below a path."""
    return [e for e in cache_entries(cache) if "skills" in json.loads(e.read_text())]


def test_an_edit_of_content_takes_the_skills_from_the_cache_and_a_new_entry_walks_again(tmp_path):
    cache = tmp_path / "cache"
    env = {"SKILLSMITH_CACHE_DIR": str(cache)}
    for name in ("one", "two"):
        write_tree(tmp_path / "skills" / name, {"SKILL.md": ANGLE.format(name=name)})
    time.sleep(0.25)  # past the clock granularity (snapshot.racy)
    assert {s for s, _ in findings(run_cli("check", str(tmp_path / "skills"), "--json", env=env))} == {"one", "two"}
    [entry] = skills_entries(cache)
    doc = json.loads(entry.read_text())
    assert [p.split("/")[-1] for p in doc["skills"]] == ["one", "two"]
    # planted: the stored list names "one" only, so a run that uses it finds no "two"
    entry.write_text(json.dumps({**doc, "skills": [p for p in doc["skills"] if p.endswith("/one")]}))
    skill_md = tmp_path / "skills" / "one" / "SKILL.md"
    skill_md.write_text(skill_md.read_text() + "\nMore.\n")  # the content changes, the layout does not
    edited = run_cli("check", str(tmp_path / "skills"), "--json", env=env)
    assert {s for s, _ in findings(edited)} == {"one"}
    # a new entry changes the layout: the skills are found by a walk again
    (tmp_path / "skills" / "two" / "notes.md").write_text("# notes\n")
    again = run_cli("check", str(tmp_path / "skills"), "--json", env=env)
    assert again.json() == run_cli("check", str(tmp_path / "skills"), "--json", "--no-cache", env=env).json()
    assert {s for s, _ in findings(again)} == {"one", "two"}


def test_an_ignore_file_rewritten_under_its_name_changes_the_skills_found(tmp_path):
    """git reads a .gitignore's content: rewriting it keeps every name, yet hides a skill."""
    repo = tmp_path / "repo"
    env = {"SKILLSMITH_CACHE_DIR": str(tmp_path / "cache")}
    for name in ("one", "two"):
        write_tree(repo / "skills" / "team" / name, {"SKILL.md": ANGLE.format(name=name)})
    ignore = repo / "skills" / "team" / ".gitignore"  # below the checked folder: an entry of its walk
    ignore.write_text("build/\n")
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    time.sleep(0.25)
    first = run_cli("check", "skills", "--json", cwd=repo, env=env)
    assert {s for s, _ in findings(first)} == {"one", "two"}
    ignore.write_text("two/\n")
    time.sleep(0.25)  # not too fresh to key on: only its content tells
    hidden = run_cli("check", "skills", "--json", cwd=repo, env=env)
    assert hidden.json() == run_cli("check", "skills", "--json", "--no-cache", cwd=repo, env=env).json()
    assert {s for s, _ in findings(hidden)} == {"one"}


def test_a_config_edit_in_an_outer_skill_rechecks_the_skill_nested_in_it(tmp_path):
    """A nested skill reads its outer skill's config: both are keyed by everything below the outer one."""
    cache = tmp_path / "cache"
    env = {"SKILLSMITH_CACHE_DIR": str(cache)}
    outer = write_tree(tmp_path / "skills" / "outer", {"SKILL.md": ANGLE.format(name="outer"),
                                                       "skillsmith.toml": "ignore = []\n"})
    write_tree(outer / "parts" / "inner", {"SKILL.md": ANGLE.format(name="inner")})
    write_tree(tmp_path / "skills" / "plain", {"SKILL.md": ANGLE.format(name="plain")})
    time.sleep(0.25)
    first = run_cli("check", str(tmp_path / "skills"), "--json", env=env)
    assert sorted(findings(first)) == [("inner", "SPC011"), ("outer", "SPC011"), ("plain", "SPC011")]
    # each skill, the nested ones too: by metadata, by content, by the walk; the run; the skills below the path
    assert len(cache_entries(cache)) == 3 * 3 + 1 + 1
    plant(cache_entries(cache), "from the cache")
    (outer / "skillsmith.toml").write_text('ignore = ["SPC011"]\n')
    time.sleep(0.25)
    edited = run_cli("check", str(tmp_path / "skills"), "--json", env=env)
    assert findings(edited) == [("plain", "SPC011")]
    assert {f["message"] for f in edited.json()["data"]} == {"from the cache"}  # "plain" was not checked again
    fresh = run_cli("check", str(tmp_path / "skills"), "--json", "--no-cache", env=env)
    assert [(f["path"], f["rule"]) for f in edited.json()["data"]] == [(f["path"], f["rule"]) for f in fresh.json()["data"]]


def test_an_edit_outside_the_skills_keeps_their_walk_digests_unless_a_unit_reads_it(tmp_path):
    """A plugin's own script or README outside its skills is no skill's content: editing it keeps
    every skill's digest (so the run takes them from the cache by the walk, with no pool); the
    files a unit does read outside it (config, ignore files, a plugin's manifest) still count."""
    from skillsmith.rules import snapshot

    plugin = tmp_path / "plugin"
    for name in ("one", "two"):
        write_tree(plugin / "skills" / name, {"SKILL.md": ANGLE.format(name=name)})
    write_tree(plugin, {"scripts/tool.py": "print('hi')\n", "README.md": "# Plugin\n",
                        ".claude-plugin/plugin.json": '{"name": "plugin"}\n', "skillsmith.toml": "ignore = []\n"})
    roots = [str(plugin / "skills" / "one"), str(plugin / "skills" / "two")]

    def digests():
        time.sleep(0.25)  # past the clock granularity (snapshot.racy)
        return snapshot.unit_digests(snapshot.tree_state([str(plugin)], b"test"), roots)

    first = digests()
    assert set(first) == set(roots)
    (plugin / "scripts" / "tool.py").write_text("print('hello')\n")
    (plugin / "README.md").write_text("# Plugin, edited\n")
    assert digests() == first
    for rel, text in ((".claude-plugin/plugin.json", '{"name": "plugin", "version": "2"}\n'),
                      ("skillsmith.toml", 'ignore = ["SPC011"]\n'), ("scripts/new.py", "")):
        before = digests()
        (plugin / rel).write_text(text)
        after = digests()
        assert after[roots[0]] != before[roots[0]] and after[roots[1]] != before[roots[1]], rel
    before = digests()
    skill_md = plugin / "skills" / "one" / "SKILL.md"
    skill_md.write_text(skill_md.read_text() + "\nMore.\n")
    after = digests()
    assert after[roots[0]] != before[roots[0]] and after[roots[1]] == before[roots[1]]
