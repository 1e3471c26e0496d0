"""The targets: one protocol, one list, read by the CLI, detection, the registry, `new` and `fix`."""

from __future__ import annotations

import ast
import re

import pytest
from conftest import ROOT, run_cli, write_tree

from skillsmith import targets
from skillsmith.fix.engine import load_fixers
from skillsmith.rules import registry


def choices(help_text: str) -> tuple[str, ...]:
    return tuple(re.search(r"--target \{([a-z,-]+)\}", help_text).group(1).split(","))


def test_the_cli_offers_the_listed_targets():
    assert targets.names() == ("agentskills", "stabledge", "kvist", "sucoder", "claude-code", "codex")
    assert choices(run_cli("check", "--help").stdout) == targets.names()
    assert targets.new_targets() == ("agentskills", "stabledge", "kvist")  # sucoder has no template
    assert choices(run_cli("new", "--help").stdout) == targets.new_targets()


def test_the_registry_accepts_only_listed_targets():
    assert all(r.targets <= set(targets.names()) for r in registry.all_rules())
    with pytest.raises(ValueError, match="bad targets"):
        registry.rule("SPC999", "no-such-host", summary="-", seed="-", scope="skill", targets=["nowhere"])
    with pytest.raises(LookupError, match=r"unknown target 'nowhere' \(known: agentskills, stabledge, kvist, sucoder, claude-code, codex\)"):
        targets.get("nowhere")


def rules_found(path, *args: str) -> set[str]:
    r = run_cli("check", str(path), "--json", "--no-cache", *args)
    assert r.code in (0, 10), r.stdout + r.stderr
    return {f["rule"] for f in r.json()["data"]}


def test_a_kvist_manifest_outranks_progressive_frontmatter(tmp_path):
    assert run_cli("new", "log_digest", "--target", "kvist", "--dest", str(tmp_path)).code == 0
    skill = tmp_path / "log_digest"
    md = skill / "SKILL.md"
    md.write_text("---\nname: log_digest\nprogressive: true\n---\n" + md.read_text(), encoding="utf-8")
    found = rules_found(skill, "--target", "kvist")
    assert "SPC030" in found and not {r for r in found if r.startswith("STE")}  # progressive: is a stabledge field, no kvist one
    assert {r for r in rules_found(skill, "--target", "stabledge") if r.startswith("STE")}


def test_a_project_root_is_checked_for_sucoder(tmp_path):
    write_tree(tmp_path, {"AGENT.md": "# Project\n"})
    assert {r for r in rules_found(tmp_path) if r.startswith("SUC")}
    assert not {r for r in rules_found(tmp_path, "--target", "agentskills") if r.startswith("SUC")}


def test_file_fixers_are_the_targets():
    declared = [(ff.name, ff.fix) for t in targets.TARGETS for ff in t.file_fixers]
    assert [(fx.name, fx.impl) for fx in load_fixers("file")] == declared
    assert [name for name, _ in declared] == ["frontmatter-quote", "stabledge-resources"]


def target_name_branches(path) -> list[str]:
    """Comparisons with a target's name, and dicts keyed by one, in a module's code."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = set(targets.names())

    def named(node) -> bool:
        if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
            return any(named(e) for e in node.elts)
        return isinstance(node, ast.Constant) and node.value in names

    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare) and any(named(n) for n in [node.left, *node.comparators]):
            found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
        elif isinstance(node, ast.Dict) and any(k is not None and named(k) for k in node.keys):
            found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    return found


def test_nothing_outside_the_targets_branches_on_a_target_name():
    modules = [p for p in (ROOT / "skillsmith").rglob("*.py") if "targets" not in p.relative_to(ROOT).parts]
    assert modules
    assert [hit for p in sorted(modules) for hit in target_name_branches(p)] == []
