"""StablEdge progressive skills: the resources update keeps comments and is idempotent."""

from __future__ import annotations

import os

import pytest
from conftest import run_cli, write_tree

from skillsmith.config import config_for
from skillsmith.discovery.discover import load_skill
from skillsmith.model.sourcefile import MAX_BYTES
from skillsmith.targets import stabledge
from skillsmith.targets.stabledge import fix_skill_md, update_resources

ROLES = {
    "references/api.md": "reference",
    "scripts/extract.py": "executable",
    "assets/report-template.docx": "template",
    "assets/logo.png": "asset",
}

COMMENTED = """\
---
name: pdf  # the skill's id
description: >-
  Extracts text from PDF files.
  Use when the user asks what a PDF says.
progressive: true
resources:   # bundled files
  # read this first
  - path: references/api.md
    role: reference  # the API
  - path: scripts/gone.py
    role: executable

# hosts the scripts may reach
network: [api.example.com]
---
# PDF

Body text stays.
"""


def test_update_keeps_comments_and_the_rest_of_the_frontmatter():
    new = update_resources(COMMENTED, ROLES)
    assert new is not None
    for kept in ("name: pdf  # the skill's id", "resources:   # bundled files", "  # read this first",
                 "    role: reference  # the API", "# hosts the scripts may reach",
                 "network: [api.example.com]", "description: >-\n  Extracts text from PDF files.\n"):
        assert kept in new
    assert "scripts/gone.py" not in new
    assert "  - path: scripts/extract.py\n    role: executable\n" in new
    assert "  - path: assets/report-template.docx\n    role: template\n" in new
    assert "  - path: assets/logo.png\n    role: asset\n" in new
    assert new.endswith("---\n# PDF\n\nBody text stays.\n")
    # lines outside the resources block are byte for byte the same
    before, after = COMMENTED.split("resources:")[0], new.split("resources:")[0]
    assert before == after


def test_update_is_idempotent():
    once = update_resources(COMMENTED, ROLES)
    assert update_resources(once, ROLES) is None


def test_update_adds_the_list_when_absent_and_follows_existing_indentation():
    text = "---\nname: pdf\ndescription: Reads PDFs.\nprogressive: true\n---\nbody\n"
    new = update_resources(text, {"references/api.md": "reference"})
    assert new == ("---\nname: pdf\ndescription: Reads PDFs.\nprogressive: true\n"
                   "resources:\n  - path: references/api.md\n    role: reference\n---\nbody\n")
    flush = "---\nprogressive: true\nresources:\n- path: a.md\n  role: refrence\n- path: a.md\n  role: asset\nz: 1\n---\n"
    assert update_resources(flush, {"a.md": "reference"}) == (
        "---\nprogressive: true\nresources:\n- path: a.md\n  role: reference\nz: 1\n---\n")


@pytest.mark.parametrize("text", [
    "---\nname: pdf\nresources: []\n---\n",  # not progressive: resources has no effect, not ours to write
    "---\nprogressive: true\nresources: reference.md\n---\n",  # malformed: left for the author
    "# no frontmatter\n",
    "---\nprogressive: true\nbroken: [\n---\n",
])
def test_update_leaves_what_it_should_not_touch(text):
    assert update_resources(text, {"references/api.md": "reference"}) is None


def test_fixer_keeps_crlf_and_bom_and_lists_the_skills_files(tmp_path):
    skill = write_tree(tmp_path / "pdf", {
        "references/api.md": "# API\n",
        "scripts/extract.py": "print('x')\n",
        "scripts/notes.txt": "not a program\n",
        "README.md": "for people\n",
        ".skillsmith-answers.yml": "name: pdf\n",
    })
    text = "---\r\nname: pdf\r\nprogressive: true # StablEdge\r\n---\r\nbody\r\n"
    (skill / "SKILL.md").write_bytes(b"\xef\xbb\xbf" + text.encode())
    checked = load_skill(skill, config_for(skill), MAX_BYTES)
    new = fix_skill_md(checked.files["SKILL.md"], checked)
    assert new.startswith(b"\xef\xbb\xbf---\r\nname: pdf\r\nprogressive: true # StablEdge\r\n")
    assert b"\n" not in new.replace(b"\r\n", b"")
    decoded = new.decode("utf-8-sig")
    assert "path: references/api.md" in decoded and "path: scripts/extract.py" in decoded
    assert "notes.txt" not in decoded and "README" not in decoded and "answers" not in decoded
    (skill / "SKILL.md").write_bytes(new)
    checked = load_skill(skill, config_for(skill), MAX_BYTES)
    assert fix_skill_md(checked.files["SKILL.md"], checked) is None


def test_fixed_skill_has_no_resource_findings(tmp_path):
    skill = write_tree(tmp_path / "pdf-text", {
        "SKILL.md": "---\nname: pdf-text\ndescription: Extracts PDF text. Use when asked what a PDF says.\n"
                    "progressive: true\nresources:\n  - path: references/old.md\n    role: reference\n---\n"
                    "# PDF\n\nRead [references/api.md](references/api.md) first.\n",
        "references/api.md": "# API\n",
    })
    before = run_cli("check", str(skill), "--json", "--no-cache")
    assert {f["rule"] for f in before.json()["data"]} == {"STE008", "STE016"}
    checked = load_skill(skill, config_for(skill), MAX_BYTES)
    (skill / "SKILL.md").write_bytes(fix_skill_md(checked.files["SKILL.md"], checked))
    after = run_cli("check", str(skill), "--json", "--no-cache")
    assert after.code == 0, after.stdout


def test_file_over_20_mb_cannot_be_copied(tmp_path):
    skill = write_tree(tmp_path / "pdf-text", {
        "SKILL.md": "---\nname: pdf-text\ndescription: Extracts PDF text. Use when asked what a PDF says.\n"
                    "progressive: true\nresources:\n  - path: assets/sample.bin\n    role: asset\n---\n"
                    "# PDF\n\nCopy [assets/sample.bin](assets/sample.bin) to test with.\n",
    })
    big = skill / "assets" / "sample.bin"
    big.parent.mkdir()
    with open(big, "wb") as fh:  # sparse: 21 MB on paper, nothing on disk
        fh.truncate(21 * 1024 * 1024)
    r = run_cli("check", str(skill), "--json", "--no-cache", "--select", "STE")
    assert r.code == 10
    assert [(f["rule"], f["path"].rsplit("/", 2)[-2:]) for f in r.json()["data"]] == [("STE013", ["assets", "sample.bin"])]
    assert "21.0 MB" in r.json()["data"][0]["message"]


def test_stabledge_rules_do_not_run_for_other_targets(tmp_path):
    skill = write_tree(tmp_path / "notes", {
        "SKILL.md": "---\nname: notes\ndescription: Keeps notes. Use when asked to remember.\n---\n# Notes\n",
        "CHANGELOG.md": "# Changes\n",
    })
    r = run_cli("check", str(skill), "--json", "--no-cache", "--select", "STE")
    assert r.code == 0 and r.json()["data"] == []
    r = run_cli("check", str(skill), "--json", "--no-cache", "--select", "STE", "--target", "stabledge")
    assert [f["rule"] for f in r.json()["data"]] == ["STE015"]
    assert os.path.exists(skill / "CHANGELOG.md")


def test_fix_command_updates_resources_and_a_second_run_changes_nothing(tmp_path):
    skill = write_tree(tmp_path / "pdf-text", {
        "SKILL.md": "---\nname: pdf-text  # id\ndescription: Extracts PDF text. Use when asked what a PDF says.\n"
                    "progressive: true\nresources:\n  # first\n  - path: references/old.md\n    role: reference\n---\n"
                    "# PDF\n\nRead [references/api.md](references/api.md) first.\n",
        "references/api.md": "# API\n",
    })
    (skill / "SKILL.md").chmod(0o640)
    check = run_cli("fix", str(skill), "--check")
    assert check.code == 10
    r = run_cli("fix", str(skill))
    assert r.code == 0, r.stdout + r.stderr
    text = (skill / "SKILL.md").read_text()
    assert "name: pdf-text  # id\n" in text and "  # first\n  - path: references/api.md\n    role: reference\n" in text
    assert "old.md" not in text
    assert (skill / "SKILL.md").stat().st_mode & 0o777 == 0o640
    assert run_cli("check", str(skill), "--no-cache").code == 0
    again = run_cli("fix", str(skill), "--diff")
    assert again.code == 0 and again.stdout == ""


@pytest.mark.parametrize("rule_id", sorted(stabledge.RESOURCES_FIX_RULES))
def test_fix_resolves_each_fixable_stabledge_fixture(tmp_path, rule_id):
    import shutil

    from conftest import FIXTURES

    work = tmp_path / rule_id
    shutil.copytree(FIXTURES / "rules" / rule_id, work)
    r = run_cli("fix", str(work))
    assert r.code == 0, r.stdout + r.stderr
    assert run_cli("check", str(work), "--no-cache").code == 0
    assert run_cli("fix", str(work), "--check").code == 0


def test_a_declared_link_is_ste017_not_ste008_and_fix_drops_it(tmp_path):
    import shutil

    from conftest import FIXTURES

    work = tmp_path / "skill"
    shutil.copytree(FIXTURES / "rules" / "STE017", work, symlinks=True)
    assert (work / "pdf-text" / "references" / "schema.md").is_symlink()
    before = run_cli("check", str(work), "--json", "--no-cache").json()["data"]
    assert [(f["rule"], f["line"]) for f in before] == [("STE017", 8)]
    assert before[0]["message"] == ("declared resource 'references/schema.md' is a symbolic link; "
                                    "StablEdge's file listing skips links: copy the file into the skill")
    assert run_cli("fix", str(work)).code == 0
    text = (work / "pdf-text" / "SKILL.md").read_text()
    assert "references/schema.md" not in text.split("---")[1] and "references/api.md" in text
    assert run_cli("check", str(work), "--no-cache").code == 0


def test_a_resource_in_a_linked_folder_is_ste017(tmp_path):
    root = write_tree(tmp_path / "pdf", {
        "SKILL.md": "---\nname: pdf\ndescription: Reads PDFs. Use when the user shares a PDF.\nprogressive: true\n"
                    "resources:\n  - path: references/api.md\n    role: reference\n---\n# pdf\n\nRead references/api.md.\n",
        "shared/api.md": "# API\n",
    })
    (root / "references").symlink_to("shared")
    found = run_cli("check", str(root), "--json", "--no-cache", "--select", "STE").json()["data"]
    assert [(f["rule"], f["message"]) for f in found if f["rule"] in ("STE008", "STE017")] == [
        ("STE017", "declared resource 'references/api.md' lies in references, a symbolic link; "
                   "StablEdge's file listing skips links: copy the file into the skill")]


@pytest.mark.parametrize(("args", "count"), [
    (["a.csv"] * 64, 0),
    (["a.csv"] * 65, 1),
    (["x" * 8192], 0),
    (["x" * 8193], 1),
    (["a.csv", ">", "out.txt", "2>errors.log", "|", *(["b"] * 80)], 0),  # redirections and a pipe are not argv
])
def test_argv_limits_of_a_cited_invocation(tmp_path, args, count):
    import shutil

    from conftest import FIXTURES

    root = tmp_path / "stabledge-counter"
    shutil.copytree(FIXTURES / "compliant" / "stabledge-counter", root)
    md = root / "SKILL.md"
    md.write_text(md.read_text() + f"\nRun `python3 scripts/count.py {' '.join(args)}` for all of them.\n")
    found = run_cli("check", str(root), "--json", "--no-cache").json()["data"]
    assert [f["rule"] for f in found] == ["STE018"] * count, found


def test_install_high_risk_is_opt_in_and_only_for_skills_with_programs():
    from conftest import FIXTURES

    with_scripts = FIXTURES / "compliant" / "stabledge-counter"
    without = FIXTURES / "compliant" / "stabledge-report"
    for selection in ([], ["--select", "STE"], ["--select", "ALL"]):
        r = run_cli("check", str(with_scripts), "--json", "--no-cache", *selection)
        assert r.code == 0 and r.json()["data"] == [], (selection, r.stdout)
    for selector in ("STE019", "install-high-risk", "STE,STE019"):
        r = run_cli("check", str(with_scripts), str(without), "--json", "--no-cache", "--select", selector)
        found = r.json()["data"]
        assert [(f["rule"], f["severity"], os.path.basename(os.path.dirname(f["path"]))) for f in found] == [
            ("STE019", "info", "stabledge-counter")], (selector, found)
        assert found[0]["message"] == (
            "holds scripts or executable files (scripts/count.py, tests/run.sh): StablEdge's install preview marks the skill "
            "high-risk (SKILL_INSTALL_EXECUTABLE_CONTENT) and asks users to check it first")
    other = run_cli("check", str(FIXTURES / "compliant" / "python-counter"), "--json", "--no-cache", "--select", "STE019")
    assert other.json()["data"] == []  # not a StablEdge skill
