"""`skillsmith fix` repairs SKILL.md frontmatter that is not valid YAML (SPC004), byte for byte.

Each ``tests/fixtures/fix_frontmatter/<case>.md`` becomes ``<case>/SKILL.md`` of its own skill;
all are checked and fixed once with the CLI. A case with ``<case>.fixed.md`` must come out equal
to it byte for byte (BOM, CRLF, mixed line endings, comments, trailing spaces and key order kept;
only the broken value's lines change), and ``check`` must have marked its finding fixable
(``[*]``). A case without one is ambiguous: ``check`` must not mark it fixable, ``fix`` must
leave it byte for byte, and SPC004 must stay with the message ``<case>.txt`` pins (where the
YAML broke and how to quote it). A second run changes nothing.
"""

from __future__ import annotations

import shutil

import pytest
import yaml
from conftest import FIXTURES, run_cli

CASES = FIXTURES / "fix_frontmatter"
NAMES = sorted(p.name[:-3] for p in CASES.glob("*.md") if not p.name.endswith(".fixed.md"))
REPAIRED = [n for n in NAMES if (CASES / f"{n}.fixed.md").exists()]
REFUSED = [n for n in NAMES if n not in REPAIRED]

#: what the author meant each repaired value to be, written out by hand
MEANT = {
    "colon-in-description": ("description", "Verification loop for Django projects: migrations, linting and tests. "
                                            "Use before a release."),
    "bom-crlf-comments": ("description", "Use when: the user asks for a report"),
    "apostrophe": ("description", "It's simple: run it when the user's build breaks."),
    "both-quotes": ("description", "Use when the user writes \"wispr fix: X to Y\" or it's misheard."),
    "backslash": ("description", "Cleans paths like C:\\temp\\x: use on Windows."),
    "argument-hint": ("argument-hint", "[pr-number] [--strict]"),
    "at-sign": ("description", "@Observable state management and navigation patterns for SwiftUI. Use when asked."),
    "backtick": ("description", "`jq` recipes for JSON. Use when the user pipes JSON."),
    "quoted-then-text": ("description", "\"Fast\" PDF tools. Use when the user has a PDF."),
    "asterisk": ("description", "*Always* run the linter first. Use before committing."),
    "unindented-continuation": ("description", "Summarises meetings. Use when the user asks for notes or minutes."),
    "indented-continuation": ("description", "Summarises meetings. Use when the user asks: notes, minutes."),
    "tabs": ("metadata", {"author": "someone", "version": "1.0"}),
    "nested-value": ("metadata", {"short-description": "Fast: very", "author": "someone"}),
    "two-values": ("argument-hint", "[file] [options]"),
    "mixed-line-endings": ("description", "Converts files: PDF to text. Use when asked."),
}


@pytest.fixture(scope="module")
def fixed_tree(tmp_path_factory):
    """Every case as a skill in one folder: checked, fixed, fixed again, checked again."""
    root = tmp_path_factory.mktemp("fixfm")
    # the broken forms come from Claude Code skills (argument-hint is one of its fields)
    (root / "skillsmith.toml").write_text('target = "claude-code"\n')
    for name in NAMES:
        (root / name).mkdir()
        shutil.copyfile(CASES / f"{name}.md", root / name / "SKILL.md")
    before = run_cli("check", str(root), "--json", "--no-cache")
    first = run_cli("fix", str(root), "--json")
    second = run_cli("fix", str(root), "--check")
    after = run_cli("check", str(root), "--json", "--no-cache")
    return root, before, first, second, after


def by_skill(run) -> dict[str, list[dict]]:
    out: dict[str, list[dict]] = {}
    for f in run.json()["data"]:
        out.setdefault(f["path"].split("/")[-2], []).append(f)
    return out


def test_every_broken_form_has_a_case():
    assert set(MEANT) == set(REPAIRED)
    assert {"lost-line-break", "comment-in-value", "python-tag", "broken-list", "mixed-tabs",
            "key-like-continuation"} <= set(REFUSED)
    assert all((CASES / f"{n}.txt").exists() for n in REFUSED)
    assert (CASES / "bom-crlf-comments.md").read_bytes().startswith(b"\xef\xbb\xbf---\r\n")


@pytest.mark.parametrize("name", REPAIRED)
def test_repaired_output_matches_byte_for_byte(fixed_tree, name):
    root, _, first, _, _ = fixed_tree
    assert first.code == 10, first.stderr  # the refused cases remain
    assert (root / name / "SKILL.md").read_bytes() == (CASES / f"{name}.fixed.md").read_bytes()
    [item] = [i for i in first.json()["data"] if i["path"].split("/")[-2] == name]
    assert item["status"] == "fixed" and item["fixers"] == ["frontmatter-quote"]


@pytest.mark.parametrize("name", REPAIRED)
def test_repaired_value_is_what_the_author_meant(fixed_tree, name):
    root, _, _, _, after = fixed_tree
    text = (root / name / "SKILL.md").read_bytes().decode("utf-8-sig").replace("\r\n", "\n")
    data = yaml.safe_load(text.split("---\n")[1])
    key, meant = MEANT[name]
    assert data[key] == meant
    assert data["name"] == name
    assert by_skill(after).get(name) is None, "a finding remains in a repaired skill"


def test_check_marks_exactly_the_repairable_findings(fixed_tree):
    _, before, _, _, _ = fixed_tree
    found = by_skill(before)
    assert set(found) == set(NAMES)
    for name, findings in found.items():
        [f] = findings
        assert f["rule"] == "SPC004"
        assert f["fix"] == ("safe" if name in REPAIRED else None), name


@pytest.mark.parametrize("name", REFUSED)
def test_ambiguous_frontmatter_is_left_alone_with_a_helpful_message(fixed_tree, name):
    root, _, first, _, after = fixed_tree
    assert (root / name / "SKILL.md").read_bytes() == (CASES / f"{name}.md").read_bytes()
    [f] = by_skill(after)[name]
    assert f["rule"] == "SPC004" and f["fix"] is None
    assert f"{f['line']}:{f['column']}: {f['message']}\n" == (CASES / f"{name}.txt").read_text()
    assert not [i for i in first.json()["data"] if i["path"].split("/")[-2] == name], "fix listed a refused file"


def test_second_run_changes_nothing(fixed_tree):
    _, _, _, second, _ = fixed_tree
    assert second.code == 0, second.stdout + second.stderr
    assert second.stdout == ""
