"""A fix never creates a finding that was not there: `check` after `fix` on every fixture.

Every fixture under ``tests/fixtures`` (the rule fixtures, the compliant skills and the
codemods' expected-output cases) is copied, checked, fixed and checked again; the findings
after the fix must be a subset of those before, by file and rule. One allowance: a script
with no header (CON004, whose message lists every part of the missing block) may come out
with a header that still lacks parts the evidence could not fill (CON005, CON006, CON007).

All fixtures go through one ``check``, one ``fix`` and one ``check`` (each path given on its
own, as when checked alone), to keep the suite fast.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from conftest import FIXTURES, run_cli

#: a finding that stands for parts of itself: after the fix, those parts may be reported instead
COVERS = {"CON004": {"CON005", "CON006", "CON007"}}
CODEMOD_CASES = {"fix_shell": ".sh", "fix_python": ".py"}


def fixture_paths(root: Path) -> list[Path]:
    """Copies of every fixture below *root*, one path per fixture as it is checked on its own."""
    paths = []
    for group in ("rules", "compliant"):
        for case in sorted((FIXTURES / group).iterdir()):
            if case.is_dir():
                shutil.copytree(case, root / group / case.name, symlinks=True)
                paths.append(root / group / case.name)
    for group, suffix in CODEMOD_CASES.items():
        for case in sorted((FIXTURES / group).glob(f"*{suffix}")):
            if ".fixed." in case.name:
                continue
            target = root / group / case.stem / "scripts" / case.name
            target.parent.mkdir(parents=True)
            shutil.copyfile(case, target)
            target.chmod(0o644)
            paths.append(target.parent)
    return paths


def by_file(findings: list[dict], root: Path) -> dict[str, set[str]]:
    found: dict[str, set[str]] = {}
    for f in findings:
        rel = (root / f["path"]).resolve().relative_to(root.resolve()).as_posix()  # shown relative to cwd
        found.setdefault(rel, set()).add(f["rule"])
    return found


@pytest.fixture(scope="module")
def before_and_after(tmp_path_factory):
    root = tmp_path_factory.mktemp("every-fixture")
    paths = [str(p) for p in fixture_paths(root)]
    before = run_cli("check", *paths, "--json", "--no-cache", cwd=root, timeout=600)
    assert before.code in (0, 10), before.stderr
    fixed = run_cli("fix", *paths, "--json", cwd=root, timeout=600)
    assert fixed.code in (0, 10), fixed.stderr
    after = run_cli("check", *paths, "--json", "--no-cache", cwd=root, timeout=600)
    assert after.code in (0, 10), after.stderr
    changed = [row["path"] for row in fixed.json()["data"] if row["status"] == "fixed"]
    return root, by_file(before.json()["data"], root), by_file(after.json()["data"], root), changed


def test_the_fixtures_are_fixed(before_and_after):
    _root, _before, _after, changed = before_and_after
    assert len(changed) > 30  # the comparison below is about files the fixes really changed


def test_no_fix_creates_a_finding(before_and_after):
    _root, before, after, _changed = before_and_after
    created = {}
    for rel, rules in after.items():
        had = before.get(rel, set())
        allowed = had | {r for cover in had for r in COVERS.get(cover, ())}
        if rules - allowed:
            created[rel] = sorted(rules - allowed)
    assert created == {}
