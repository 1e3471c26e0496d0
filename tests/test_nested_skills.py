"""A SKILL.md nested in a skill is a skill of its own: its own unit, every rule, its files not the outer skill's.

A SKILL.md in the outer skill's templates, examples or tests is data, not a skill.
(The findings on a real-shaped bundle are in tests/fixtures/precision/nested-skill-own-unit.)
"""

from __future__ import annotations

from conftest import run_cli, write_tree

OUTER = "---\nname: suite\ndescription: Bundles helpers. Use when the user asks for a review.\n---\n\n# Suite\n\nSee [debugging](debugging/SKILL.md).\n"
INNER = "---\nname: debugging\ndescription: Finds root causes. Use when a test fails.\n---\n\n# Debugging\n\nBisect.\n"


def bundle(root):
    return write_tree(root, {
        ".git/HEAD": "ref: refs/heads/main\n",
        "suite/SKILL.md": OUTER,
        "suite/debugging/SKILL.md": INNER,
        "suite/debugging/references/uncited.md": "# Uncited\n",
        "suite/templates/new-skill/SKILL.md": "---\nname: {{ name }}\n---\n",
    })


def found(r) -> list[str]:
    return sorted(f"{f['rule']} {f['path']}:{f['line']}" for f in r.json()["data"])


def test_the_nested_skill_is_a_unit_and_its_files_are_its_own(tmp_path):
    bundle(tmp_path)
    for given in ("suite", "."):  # the outer skill given, or the folder around it
        r = run_cli("check", given, "--json", "--no-cache", cwd=tmp_path)
        assert r.code == 10, r.stdout + r.stderr
        # one finding, the nested skill's own (its message names the file as that skill's), none from the outer
        assert found(r) == ["RES001 suite/debugging/references/uncited.md:1"]
        assert r.json()["data"][0]["message"].startswith("references/uncited.md ")
    assert "2 skills checked" in run_cli("check", "suite", "--no-cache", cwd=tmp_path).stderr


def test_whole_skill_of_a_file_in_a_nested_skill_is_the_nested_skill(tmp_path):
    from skillsmith.discovery.discover import skill_root_of

    bundle(tmp_path)
    assert skill_root_of(tmp_path / "suite/debugging/references/uncited.md") == tmp_path / "suite" / "debugging"
    assert skill_root_of(tmp_path / "suite/templates/new-skill/SKILL.md") == tmp_path / "suite"  # data
    r = run_cli("check", "--whole-skill", "suite/debugging/references/uncited.md", "--json", "--no-cache", cwd=tmp_path)
    assert found(r) == ["RES001 suite/debugging/references/uncited.md:1"]
    assert r.json()["data"][0]["message"].startswith("references/uncited.md ")  # the nested skill's finding
    assert "; 1 skill checked" in run_cli("check", "--whole-skill", "suite/debugging/SKILL.md", "--no-cache",
                                          cwd=tmp_path).stderr


def test_a_warm_run_gives_the_same_findings(tmp_path):
    bundle(tmp_path)
    cache = {"SKILLSMITH_CACHE_DIR": str(tmp_path / ".cache")}
    cold = run_cli("check", "suite", "--json", cwd=tmp_path, env=cache)
    (tmp_path / "suite" / "debugging" / "references" / "uncited.md").write_text("# Uncited, edited\n")
    warm = run_cli("check", "suite", "--json", cwd=tmp_path, env=cache)  # the outer unit from the cache
    assert found(cold) == found(warm) == ["RES001 suite/debugging/references/uncited.md:1"]
