"""One answer to "is this path inside the skill": links in SKILL.md, kvist's manifest, StablEdge's resources."""

from __future__ import annotations

import json
import shutil

import pytest
from conftest import FIXTURES, run_cli

from skillsmith.model.skillpath import ABSOLUTE, DRIVE, HOME, PARENT, skill_path


@pytest.mark.parametrize("raw, rel, why", [
    ("SKILL.md", "SKILL.md", None),
    ("./references//api.md", "references/api.md", None),
    ("references/../SKILL.md", "SKILL.md", None),
    ("a/b/../../c", "c", None),
    ("references\\api.md", "references/api.md", None),
    ("references/", "references", None),
    (".", "", None),
    ("a/..", "", None),
    ("../x.md", None, PARENT),
    ("a/../../x.md", None, PARENT),
    ("..\\x.md", None, PARENT),
    ("/etc/passwd", None, ABSOLUTE),
    ("\\share\\x.md", None, ABSOLUTE),
    ("~/notes.md", None, HOME),
    ("C:\\x.md", None, DRIVE),
    ("c:/x.md", None, DRIVE),
])
def test_skill_path_normalises_or_says_why_it_leaves(raw, rel, why):
    assert skill_path(raw) == (rel, why)
    assert skill_path(raw).inside is (rel is not None)


@pytest.fixture
def kvist_skill(tmp_path):
    skill = tmp_path / "log_digest"
    shutil.copytree(FIXTURES / "compliant" / "kvist_echo", skill)
    (skill / "lib").mkdir()
    return skill


def set_manifest(skill, **fields):
    manifest = json.loads((skill / "manifest.json").read_text())
    manifest.update(fields)
    (skill / "manifest.json").write_text(json.dumps(manifest, indent=2))


def rules(run):
    return sorted(f["rule"] for f in run.json()["data"])


def test_kvist_manifest_paths_that_stay_inside_are_accepted(kvist_skill):
    """KVS008/KVS009 promise "a file inside the skill folder": ``lib/../plugin.py`` is one."""
    set_manifest(kvist_skill, instructions="lib/../SKILL.md", entrypoint="./lib/../plugin.py")
    r = run_cli("check", str(kvist_skill), "--json", "--no-cache")
    assert r.code == 0, r.stdout
    # the entrypoint is found through the normalised path, so its rules still read it
    (kvist_skill / "plugin.py").write_text((kvist_skill / "plugin.py").read_text() + "\nimport subprocess\n")
    r = run_cli("check", str(kvist_skill), "--json", "--no-cache")
    assert "KVS009" not in rules(r) and rules(r), r.stdout


@pytest.mark.parametrize("value", ["lib/../../plugin.py", "/plugin.py", "~/plugin.py", "C:plugin.py"])
def test_kvist_manifest_paths_that_leave_are_flagged(kvist_skill, value):
    set_manifest(kvist_skill, entrypoint=value)
    r = run_cli("check", str(kvist_skill), "--json", "--no-cache")
    messages = [f["message"] for f in r.json()["data"] if f["rule"] == "KVS009"]
    assert messages == [f"entrypoint {value!r} must be a path inside the skill folder"], r.stdout


def test_skill_md_links_are_judged_by_where_they_lead(tmp_path):
    skill = tmp_path / "with-resources"
    shutil.copytree(FIXTURES / "compliant" / "with-resources", skill)
    md = skill / "SKILL.md"
    md.write_text(md.read_text() + "Fill in [the template](scripts/../assets/template.csv).\n"
                  "See [the notes](references/../../notes.md).\n")
    r = run_cli("check", str(skill), "--json", "--no-cache")
    found = [(f["rule"], f["message"]) for f in r.json()["data"]]
    assert found == [("RES003", "references/../../notes.md leaves the skill folder with '..'; "
                                "cite paths relative to the skill")], r.stdout


def test_stabledge_refuses_any_dotdot_even_one_that_stays_inside(tmp_path):
    """The seed: a resource path "cannot contain .."; StablEdge refuses the item although it stays
    inside, so the file it names counts as undeclared (STE016) too."""
    skill = tmp_path / "stabledge-report"
    shutil.copytree(FIXTURES / "compliant" / "stabledge-report", skill)
    md = skill / "SKILL.md"
    md.write_text(md.read_text().replace("  - path: assets/report-template.md",
                                         "  - path: references/..\\assets/report-template.md"))
    r = run_cli("check", str(skill), "--json", "--no-cache")
    assert sorted(f["rule"] for f in r.json()["data"]) == ["STE005", "STE016"], r.stdout
