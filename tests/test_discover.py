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
    for target in (tmp_path, tmp_path / "skills", tmp_path / "skills" / "kept"):
        r = run_cli("check", str(target), "--json", "--no-cache")
        assert "Traceback" not in r.stderr
        paths = sorted(f["path"].split("skills/", 1)[-1] for f in r.json()["data"])
        expected = [] if target.name == "kept" else ["shown/SKILL.md"]
        assert paths == expected, r.stdout


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
