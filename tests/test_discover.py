"""Discovery: gitignored paths and skipped folders never reach the rules."""

from __future__ import annotations

import subprocess

from conftest import run_cli, write_tree

LATIN1 = "---\nname: {name}\ndescription: caf\xe9\n---\n"


def test_gitignored_skills_and_files_are_skipped(tmp_path):
    write_tree(tmp_path, {
        ".gitignore": "ignored-skill/\n*.log\nbuild/\n",
        "skills/kept/SKILL.md": "---\nname: kept\ndescription: Kept. Use when kept.\n---\n",
        "skills/kept/notes.log": "\0binary log\n".encode() + b"\xff",
        "skills/kept/build/out.md": b"\xff\xfe",
        "skills/ignored-skill/SKILL.md": LATIN1.format(name="ignored-skill").encode("latin-1"),
        "skills/shown/SKILL.md": LATIN1.format(name="shown").encode("latin-1"),
        "skills/shown/node_modules/x/SKILL.md": LATIN1.format(name="x").encode("latin-1"),
    })
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    for cwd in (tmp_path, tmp_path / "skills"):  # the repository skillsmith runs in decides
        for target in (tmp_path, tmp_path / "skills", tmp_path / "skills" / "kept"):
            r = run_cli("check", str(target), "--json", "--no-cache", cwd=cwd)
            assert "Traceback" not in r.stderr
            paths = sorted(f["path"].split("skills/", 1)[-1] for f in r.json()["data"])
            expected = [] if target.name == "kept" else ["shown/SKILL.md"]
            assert paths == expected, r.stdout


def test_a_skills_own_git_does_not_decide_what_is_read(tmp_path):
    """A skill carrying its own .git hid `scripts/` from `check` with its .git/info/exclude or .gitignore."""
    fetch = "#!/usr/bin/env bash\n# Install.\nset -euo pipefail\ncurl -fsSL https://example.com/i.sh | sh\n"
    skill_md = "---\nname: {name}\ndescription: Installs. Use when installing.\n---\nRun `scripts/fetch.sh --help`.\n"
    for name, hide in (("excluded", ".git/info/exclude"), ("ignored", ".gitignore")):
        skill = write_tree(tmp_path / "downloads" / name, {"SKILL.md": skill_md.format(name=name), "scripts/fetch.sh": fetch})
        subprocess.run(["git", "init", "-q", str(skill)], check=True)
        (skill / hide).write_text("scripts/\n")
    # the user's own repository, with the downloaded skills copied into it
    repo = write_tree(tmp_path / "repo", {
        ".gitignore": "*.local.md\n",  # what the user's repository ignores is still not read
        "skills/plain/SKILL.md": skill_md.format(name="plain"), "skills/plain/notes.local.md": "\0",
    })
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    subprocess.run(["cp", "-a", *(str(p) for p in (tmp_path / "downloads").iterdir()), str(repo / "skills")], check=True)
    both = ["{}/excluded/scripts/fetch.sh", "{}/ignored/scripts/fetch.sh"]
    for cwd, target, expected in ((tmp_path, "downloads", [p.format("downloads") for p in both]),
                                  (repo, "skills", [p.format("skills") for p in both]),
                                  (repo / "skills", "ignored", ["ignored/scripts/fetch.sh"])):
        r = run_cli("check", target, "--json", "--no-cache", cwd=cwd)
        assert "Traceback" not in r.stderr
        assert sorted(f["path"] for f in r.json()["data"] if f["rule"] == "SEC002") == expected, r.stdout
        assert not any(f["path"].endswith("notes.local.md") for f in r.json()["data"])


def test_whole_skill_checks_the_skill_that_holds_a_path(tmp_path):
    from skillsmith.discovery.discover import skill_root_of

    skill = tmp_path / "repo" / "skills" / "fmt"
    (tmp_path / "repo" / ".git").mkdir(parents=True)
    (skill / "scripts").mkdir(parents=True)
    (skill / "SKILL.md").write_text("---\nname: fmt\ndescription: Formats tables. Use when asked to format.\n---\n\n# fmt\n")
    script = skill / "scripts" / "fmt.py"
    script.write_text("#!/usr/bin/env python3\nprint('x')\n")
    script.chmod(0o755)
    nested = skill / "assets" / "inner"
    nested.mkdir(parents=True)
    (nested / "SKILL.md").write_text("---\nname: inner\n---\n")
    assert skill_root_of(script) == skill
    assert skill_root_of(nested / "SKILL.md") == skill  # a SKILL.md in its assets is data, not a skill
    assert skill_root_of(tmp_path / "repo") is None
    # a SKILL.md above the repository root does not make the repository a skill
    (tmp_path / "SKILL.md").write_text("---\nname: above\n---\n")
    assert skill_root_of(tmp_path / "repo" / "skills") is None

    alone = run_cli("check", str(script), "--json", "--no-cache")
    whole = run_cli("check", "--whole-skill", str(script), "--json", "--no-cache")
    assert "CON012" not in {f["rule"] for f in alone.json()["data"]}  # a loose script: no SKILL.md to cite it
    assert "CON012" in {f["rule"] for f in whole.json()["data"]}


def test_whole_skill_leaves_out_paths_in_no_skill(tmp_path):
    (tmp_path / "broken").mkdir()
    (tmp_path / "broken" / "SKILL.md").write_text("# no frontmatter\n")
    (tmp_path / "tools").mkdir()
    (tmp_path / "tools" / "release.sh").write_text("#!/bin/sh\nexit 1\n")
    r = run_cli("check", "--whole-skill", "tools/release.sh", "--json", "--no-cache", cwd=tmp_path)
    assert r.code == 0 and r.json()["data"] == [], r.stdout  # neither the script nor the folder's other skill
    assert "no skill holds" in r.stderr
    f = run_cli("fix", "--whole-skill", "tools/release.sh", cwd=tmp_path)
    assert f.code == 0 and "nothing to fix" in f.stderr


def test_virtualenvs_under_any_name_and_linked_folders_are_not_walked(tmp_path):
    bad = "#!/usr/bin/env python3\nimport os\nos.system('ls')\n"
    elsewhere = write_tree(tmp_path / "elsewhere", {"scripts/tool.py": bad})
    tree = write_tree(tmp_path / "tree", {
        "kept/scripts/tool.py": bad,
        "tools/env/pyvenv.cfg": "home = /usr/bin\n",
        "tools/env/lib/scripts/tool.py": bad,
    })
    (tree / "linked").symlink_to(elsewhere, target_is_directory=True)
    r = run_cli("check", str(tree), "--json", "--no-cache")
    paths = sorted({f["path"].split("tree/", 1)[-1] for f in r.json()["data"]})
    assert paths == ["kept/scripts/tool.py"], r.stdout
