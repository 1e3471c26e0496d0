"""`skillsmith new` for the StablEdge and kvist targets: clean under check, tests pass, fix is a no-op."""

from __future__ import annotations

import subprocess
import sys

from conftest import run_cli


def test_new_kvist_skill_is_clean_and_its_tests_pass(tmp_path):
    r = run_cli("new", "log_digest", "--target", "kvist", "--description",
                "Groups repeated errors in a log file and counts them.", "--dest", str(tmp_path))
    assert r.code == 0, r.stdout + r.stderr
    skill = tmp_path / "log_digest"
    for rel in ("manifest.json", "SKILL.md", "plugin.py", "tests/test_plugin.py", "tests/contract.json"):
        assert (skill / rel).is_file(), rel
    check = run_cli("check", str(skill), "--json", "--no-cache")
    assert check.code == 0 and check.json()["data"] == [], check.stdout
    proc = subprocess.run([sys.executable, "-m", "unittest", "discover", "-s", "tests"], cwd=skill,
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr


def test_new_kvist_refuses_a_reserved_id(tmp_path):
    r = run_cli("new", "memory", "--target", "kvist", "--description", "Remembers things.", "--dest", str(tmp_path))
    assert r.code == 2
    assert "reserved" in r.stderr
    assert not (tmp_path / "memory").exists()


def test_new_stabledge_skill_is_clean_under_the_stabledge_rules(tmp_path):
    r = run_cli("new", "pdf-tools", "--target", "stabledge", "--description",
                "Extracts text from PDF files. Use when the user asks what a PDF says.",
                "--script", "extract.py", "--script", "merge.sh", "--dest", str(tmp_path))
    assert r.code == 0, r.stdout + r.stderr
    skill = tmp_path / "pdf-tools"
    text = (skill / "SKILL.md").read_text()
    assert "progressive: true" in text and "resources:" in text
    check = run_cli("check", str(skill), "--json", "--no-cache")
    assert check.code == 0 and check.json()["data"] == [], check.stdout
    assert run_cli("check", str(skill), "--select", "STE", "--target", "stabledge", "--no-cache").code == 0
    assert run_cli("fix", str(skill), "--check").code == 0
