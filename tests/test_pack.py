"""`skillsmith pack`: the .skill archive, unpacked and compared with the skill it came from."""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import zipfile
from pathlib import Path

import pytest
from conftest import FIXTURES, run_cli

SKILL_MD = """\
---
name: python-counter
description: Counts rows of CSV files. Use when the user asks how many rows a CSV has.
---

# python-counter

Count rows: `python3 scripts/count.py data.csv`

Read [the notes](references/notes.md) for CSV dialects, [the same notes](notes-link.md) by
their short name, and show [the logo](assets/logo.png). The defaults are in [.defaults.json](.defaults.json).
"""

#: what the archive must hold (relative to the skill), with the modes the skill's files have
PACKED = {"SKILL.md": 0o644, "scripts/count.py": 0o755, "references/notes.md": 0o644,
          "assets/logo.png": 0o644, ".defaults.json": 0o644, "notes-link.md": 0o644, "tests/run.sh": 0o644}


def make_skill(parent: Path) -> Path:
    """A clean skill plus everything a host skips."""
    skill = parent / "python-counter"
    shutil.copytree(FIXTURES / "compliant" / "python-counter", skill)
    (skill / "SKILL.md").write_text(SKILL_MD)
    (skill / "references").mkdir()
    (skill / "references" / "notes.md").write_text("# Notes\n\nRFC 4180 dialect.\n")
    (skill / "assets").mkdir()
    (skill / "assets" / "logo.png").write_bytes(b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR")
    (skill / ".defaults.json").write_text('{"delimiter": ","}\n')  # a dotfile SKILL.md cites
    (skill / "notes-link.md").symlink_to("references/notes.md")  # a link inside the skill
    # left out: the answers file, other dotfiles and dot-folders, caches, dependencies, VCS data
    (skill / ".skillsmith-answers.yml").write_text("_src_path: skill\nname: python-counter\n")
    (skill / ".env").write_text("TOKEN=secret\n")
    (skill / ".hidden").mkdir()
    (skill / ".hidden" / "conf").write_text("x\n")
    (skill / "scripts" / "__pycache__").mkdir()
    (skill / "scripts" / "__pycache__" / "count.cpython-311.pyc").write_bytes(b"\0" * 16)
    (skill / "node_modules" / "left").mkdir(parents=True)
    (skill / "node_modules" / "left" / "index.js").write_text("1\n")
    (skill / ".git").mkdir()
    (skill / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
    (skill / "evals").mkdir()
    (skill / "evals" / "evals.json").write_text("[]\n")
    for f in skill.rglob("*"):
        if f.is_file() and not f.is_symlink() and f.suffix != ".py":
            f.chmod(0o644)
    return skill


def members(archive: Path) -> dict[str, int]:
    with zipfile.ZipFile(archive) as zf:
        return {i.filename: stat.S_IMODE(i.external_attr >> 16) for i in zf.infolist()}


def test_archive_holds_the_skill_folder_with_its_files_and_modes(tmp_path):
    skill = make_skill(tmp_path)
    r = run_cli("pack", str(skill), "--json", cwd=tmp_path)
    assert r.code == 0, r.stdout + r.stderr
    archive = tmp_path / "python-counter.skill"
    assert r.json()["meta"]["archive"] == "python-counter.skill" and archive.is_file()
    assert members(archive) == {f"python-counter/{rel}": mode for rel, mode in PACKED.items()}
    assert {i["path"] for i in r.json()["data"]} == {f"python-counter/{rel}" for rel in PACKED}
    left = {x["path"] for x in r.json()["meta"]["left_out"]}
    assert {".skillsmith-answers.yml", ".env", ".hidden/conf", "evals/evals.json"} <= left

    out = tmp_path / "unpacked"
    out.mkdir()
    if shutil.which("unzip"):  # a real unzip restores the modes the archive records
        subprocess.run(["unzip", "-q", str(archive), "-d", str(out)], check=True, timeout=60)
    else:
        zipfile.ZipFile(archive).extractall(out)
        for name, mode in members(archive).items():
            (out / name).chmod(mode)
    got = {p.relative_to(out / "python-counter").as_posix(): stat.S_IMODE(p.stat().st_mode)
           for p in (out / "python-counter").rglob("*") if p.is_file()}
    assert got == PACKED
    for rel in PACKED:
        assert (out / "python-counter" / rel).read_bytes() == (skill / rel).read_bytes()
    assert not (out / "python-counter" / "notes-link.md").is_symlink()  # a link goes in as its file


def test_two_packs_of_the_same_tree_are_byte_identical(tmp_path):
    first = make_skill(tmp_path / "one")
    assert run_cli("pack", str(first), "-o", str(tmp_path / "a.skill")).code == 0
    # the same tree elsewhere, made later, with other timestamps
    second = make_skill(tmp_path / "two")
    for p in second.rglob("*"):
        if not p.is_symlink():
            os.utime(p, (1_000_000_000, 1_000_000_000))
    assert run_cli("pack", str(second), "-o", str(tmp_path / "b.skill")).code == 0
    assert run_cli("pack", str(first), "-o", str(tmp_path / "c.skill"), "--json").code == 0
    a, b, c = ((tmp_path / n).read_bytes() for n in ("a.skill", "b.skill", "c.skill"))
    assert a == b == c
    with zipfile.ZipFile(tmp_path / "a.skill") as zf:
        names = zf.namelist()
        assert names == sorted(names)
        assert {i.date_time for i in zf.infolist()} == {(1980, 1, 1, 0, 0, 0)}


def test_a_skill_with_errors_is_refused_unless_forced(tmp_path):
    skill = make_skill(tmp_path)
    (skill / "SKILL.md").write_text("# no frontmatter\n")
    r = run_cli("pack", str(skill), "--json", cwd=tmp_path)
    assert r.code == 10, r.stdout + r.stderr
    error = r.json()["error"]
    assert error["code"] == "FINDINGS" and "not packed" in error["message"]
    assert "SPC002" in {f["rule"] for f in error["details"]["findings"]}
    assert not (tmp_path / "python-counter.skill").exists()
    text = run_cli("pack", str(skill), cwd=tmp_path)
    assert text.code == 10 and "SPC002" in text.stdout and "--force" in text.stderr

    forced = run_cli("pack", str(skill), "--force", "--json", cwd=tmp_path)
    assert forced.code == 0, forced.stderr
    assert forced.json()["meta"]["forced"] is True and forced.json()["meta"]["errors"] >= 1
    assert "python-counter/SKILL.md" in members(tmp_path / "python-counter.skill")


def test_links_out_of_the_skill_are_never_followed(tmp_path):
    skill = make_skill(tmp_path)
    secret = tmp_path / "secret.txt"
    secret.write_text("outside the skill\n")
    (skill / "references" / "secret.md").symlink_to(secret)
    (skill / "references" / "up.md").symlink_to("../../secret.txt")
    (skill / "references" / "gone.md").symlink_to("nowhere.md")
    (skill / "references" / "dir").symlink_to("../scripts")
    r = run_cli("pack", str(skill), "--force", "--json", cwd=tmp_path)  # RES007 flags the links
    assert r.code == 0, r.stderr
    reasons = {x["path"]: x["reason"] for x in r.json()["meta"]["left_out"]}
    assert "outside the skill" in reasons["references/secret.md"]
    assert "outside the skill" in reasons["references/up.md"]
    assert "does not exist" in reasons["references/gone.md"]
    assert "not to a file" in reasons["references/dir"]
    with zipfile.ZipFile(tmp_path / "python-counter.skill") as zf:
        assert all(b"outside the skill" not in zf.read(n) for n in zf.namelist())


def test_output_folder_and_stabledge_limits(tmp_path):
    skill = make_skill(tmp_path)
    dist = tmp_path / "dist"
    dist.mkdir()
    assert run_cli("pack", str(skill), "-o", str(dist)).code == 0
    assert (dist / "python-counter.skill").is_file()
    # StablEdge (seed 001): copy_file refuses files over 20 MB, so pack does too (STE013)
    big = skill / "assets" / "video.bin"
    with open(big, "wb") as fh:
        fh.truncate(21 * 1024 * 1024)  # sparse
    r = run_cli("pack", str(skill), "--target", "stabledge", "--json", cwd=tmp_path)
    assert r.code == 10
    assert "STE013" in {f["rule"] for f in r.json()["error"]["details"]["findings"]}


def test_not_a_skill_and_missing_paths(tmp_path):
    (tmp_path / "plain").mkdir()
    r = run_cli("pack", str(tmp_path / "plain"), "--json")
    assert r.code == 4 and r.json()["error"]["code"] == "INVALID_INPUT"
    assert run_cli("pack", str(tmp_path / "nope")).code == 3


def test_an_archive_path_that_is_a_link_is_not_written_through(tmp_path):
    skill = make_skill(tmp_path)
    target = tmp_path / "elsewhere.skill"
    target.write_bytes(b"keep")
    (tmp_path / "out.skill").symlink_to(target)
    r = run_cli("pack", str(skill), "-o", str(tmp_path / "out.skill"))
    assert r.code == 4, r.stderr
    assert target.read_bytes() == b"keep"


def test_help_has_examples():
    r = run_cli("pack", "--help")
    assert r.code == 0 and "examples:" in r.stdout and "skill-creator" in r.stdout and "20 MB" in r.stdout
