"""Reporters: JSON finding shape, SARIF 2.1.0 against the official schema, GitHub, text."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import jsonschema
import pytest
from conftest import FIXTURES, run_cli, write_tree

SARIF_SCHEMA = Path(__file__).parent / "schemas" / "sarif-schema-2.1.0.json"
KEYS = ["rule", "path", "line", "column", "end_line", "end_column", "severity", "message", "fix"]


@pytest.fixture
def project(tmp_path):
    """A folder with an error (FIL003), a warning (SPC011) and a clean skill, as a user has them."""
    for rule_id in ("FIL003", "SPC011"):
        for skill in (FIXTURES / "rules" / rule_id).iterdir():
            shutil.copytree(skill, tmp_path / "skills" / skill.name)
    write_tree(tmp_path / "skills" / "odd, name: here", {
        "SKILL.md": "---\nname: odd-name\ndescription: x\n---\n# Odd\n",
    })
    return tmp_path


def test_json_finding_shape_and_relative_paths(project):
    r = run_cli("check", "skills", "--json", "--no-cache", cwd=project)
    assert r.code == 10
    doc = r.json()
    assert doc["meta"]["schema"] == "skillsmith.check/v1"
    assert doc["meta"]["count"] == len(doc["data"]) >= 3
    for f in doc["data"]:
        assert list(f) == KEYS
        assert isinstance(f["line"], int) and isinstance(f["column"], int) and f["line"] >= 1
        assert f["severity"] in ("error", "warning", "info")
        assert f["fix"] in ("safe", "unsafe", None)
        assert f["path"].startswith("skills/"), f["path"]  # relative to the current directory
    by_rule = {f["rule"]: f for f in doc["data"]}
    assert by_rule["FIL003"]["path"] == "skills/latin1-skill/SKILL.md"
    assert (by_rule["FIL003"]["line"], by_rule["FIL003"]["column"]) == (3, 25)
    assert by_rule["SPC011"]["severity"] == "warning"
    # an absolute path below the current directory is shown relative too
    again = run_cli("check", str(project / "skills"), "--json", "--no-cache", cwd=project)
    assert again.json()["data"] == doc["data"]


def test_json_clean_run_is_an_empty_envelope(tmp_path):
    write_tree(tmp_path / "fine", {"SKILL.md": "---\nname: fine\ndescription: Fine. Use when fine.\n---\n# Fine\n"})
    r = run_cli("check", "fine", "--json", "--no-cache", cwd=tmp_path)
    assert r.code == 0, r.stdout
    assert r.json() == {"data": [], "meta": {"count": 0, "schema": "skillsmith.check/v1", "units": 1}}


def sarif_validator():
    schema = json.loads(SARIF_SCHEMA.read_text(encoding="utf-8"))
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    return cls(schema, format_checker=cls.FORMAT_CHECKER)


def test_sarif_validates_against_the_official_schema(project):
    r = run_cli("check", "skills", "--format", "sarif", "--no-cache", cwd=project)
    assert r.code == 10
    doc = json.loads(r.stdout)
    errors = sorted(sarif_validator().iter_errors(doc), key=str)
    assert errors == [], "\n".join(e.message for e in errors[:5])
    broken = json.loads(r.stdout)
    broken["runs"][0]["results"][0]["level"] = "fatal"  # the schema really is enforced
    assert list(sarif_validator().iter_errors(broken))
    run = doc["runs"][0]
    rules = run["tool"]["driver"]["rules"]
    results = run["results"]
    assert {x["ruleId"] for x in results} >= {"FIL003", "SPC011"}
    for x in results:
        assert rules[x["ruleIndex"]]["id"] == x["ruleId"]
        assert not x["locations"][0]["physicalLocation"]["artifactLocation"]["uri"].startswith("/")
    assert {x["level"] for x in results} >= {"error", "warning"}
    odd = [x for x in results if "odd" in x["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]]
    assert odd and all(" " not in x["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for x in odd)


def test_sarif_without_findings_validates(tmp_path):
    write_tree(tmp_path / "fine", {"SKILL.md": "---\nname: fine\ndescription: Fine. Use when fine.\n---\n# Fine\n"})
    r = run_cli("check", "fine", "--format", "sarif", "--no-cache", cwd=tmp_path)
    assert r.code == 0
    doc = json.loads(r.stdout)
    assert list(sarif_validator().iter_errors(doc)) == []
    assert doc["runs"][0]["results"] == []


def test_github_workflow_commands(project):
    r = run_cli("check", "skills", "--format", "github", "--no-cache", cwd=project)
    assert r.code == 10
    lines = r.stdout.splitlines()
    assert lines and all(line.startswith(("::error ", "::warning ", "::notice ")) for line in lines)
    assert "::error file=skills/latin1-skill/SKILL.md,line=3,col=25,title=FIL003::FIL003 " in r.stdout
    assert any(line.startswith("::warning file=skills/angle-brackets/SKILL.md,") for line in lines)
    # ',' and ':' in a file name are escaped inside properties
    assert any("file=skills/odd%2C name%3A here/SKILL.md," in line for line in lines), r.stdout
    assert "Found" in r.stderr and "Found" not in r.stdout


def test_text_lines_and_summary_on_stderr(project):
    r = run_cli("check", "skills", "--no-cache", cwd=project)
    assert r.code == 10
    assert "skills/latin1-skill/SKILL.md:3:25: FIL003 " in r.stdout
    assert any(line.endswith("(warning)") and "SPC011" in line for line in r.stdout.splitlines())
    assert r.stderr.strip().startswith("Found")
    assert "Found" not in r.stdout
