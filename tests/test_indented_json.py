"""``output.indented_json`` writes the very text of ``json.dumps(doc, indent=2, ensure_ascii=False)``."""

from __future__ import annotations

import json

import pytest

from conftest import run_cli, write_tree
from skillsmith.cli.output import indented_json

FINDING = {"rule": "SPC011", "path": "skills/a/SKILL.md", "line": 3, "column": 1, "end_line": None,
           "end_column": None, "severity": "warning", "message": "x", "fix": None}

DOCS = [
    {"data": [FINDING, {**FINDING, "line": 4, "fix": "safe"}], "meta": {"count": 2, "schema": "s/v1", "units": 1}},
    {"data": [], "meta": {}},
    {"data": [{**FINDING, "message": 'a "quoted" },\n  { brace\tand tab \\ \u00e9 \u2028 \U0001f600 \x00 \x1f'}]},
    [FINDING, {**FINDING, "end_line": True, "end_column": False}],  # booleans
    [FINDING, {**FINDING, "line": 1.5}],  # a float: the general path
    [FINDING, {"path": "x", "rule": "y"}],  # other keys
    [FINDING, {k: FINDING[k] for k in reversed(list(FINDING))}],  # the same keys in another order
    [FINDING, {**FINDING, "line": [1, 2]}],  # a nested value
    [{"a": {}}, {"a": {}}],
    [{}, {}],
    [{"a": 1}, 2, "three", None],
    [{"\u00e9": "\u00e9", "k\"ey": "v"}, {"\u00e9": "x", "k\"ey": "y"}],
    [[FINDING, FINDING], [FINDING]],  # lists of findings one level down
    {"nested": {"data": [FINDING, FINDING]}},
    [{"n": 10**30, "m": -7, "z": 0}],
    ("a", [FINDING]),
]


@pytest.mark.parametrize("doc", DOCS, ids=range(len(DOCS)))
def test_the_text_is_json_dumps_indent_2(doc):
    assert indented_json(doc) == json.dumps(doc, indent=2, ensure_ascii=False)


def test_a_report_is_json_dumps_indent_2(tmp_path):
    """The real report: findings of several rules with fixes and end columns."""
    write_tree(tmp_path / "skills" / "one", {"SKILL.md": "---\nname: One\ndescription: Converts <file>.\n---\n# one\n",
                                             "scripts/run.sh": '#!/bin/sh\necho $1\n'})
    run = run_cli("check", str(tmp_path / "skills"), "--json", "--no-cache", cwd=tmp_path)
    assert run.code == 10 and run.json()["meta"]["count"] >= 2
    assert run.stdout == json.dumps(run.json(), indent=2, ensure_ascii=False) + "\n"
