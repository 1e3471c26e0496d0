"""docs/rules.md is generated from the rule registry and must not go stale."""

from __future__ import annotations

import subprocess
import sys

from conftest import ROOT

from skillsmith.rules.registry import all_rules

RULES_MD = ROOT / "docs" / "rules.md"
REGENERATE = "python -m skillsmith.rules.docs > docs/rules.md"


def test_rules_md_is_up_to_date():
    generated = subprocess.run(
        [sys.executable, "-m", "skillsmith.rules.docs"], capture_output=True, text=True, check=True, cwd=ROOT,
    ).stdout
    current = RULES_MD.read_text(encoding="utf-8") if RULES_MD.exists() else ""
    assert current == generated, f"docs/rules.md is stale; regenerate it with `{REGENERATE}`"


def test_every_rule_is_documented_in_rules_md():
    text = RULES_MD.read_text(encoding="utf-8")
    for r in all_rules():
        assert f"### {r.id} `{r.name}`" in text
        assert r.doc, f"{r.id} has no docstring"
        assert "## What it does" in r.doc and "## Why is this bad?" in r.doc, f"{r.id}: docstring sections missing"


def test_rules_command_explains_a_rule_like_the_doc():
    from conftest import run_cli

    r = run_cli("rules", "FIL003")
    assert r.code == 0
    assert "FIL003 `not-utf8`" in r.stdout
    assert "## What it does" in r.stdout
