"""`skillsmith fix` on Python scripts: expected outputs byte for byte, safety, CLI contract.

Each ``tests/fixtures/fix_python/<case>.py`` is fixed (as ``scripts/<case>.py``) and must equal
``<case>.fixed.py`` byte for byte; a case without ``.fixed.py`` must be skipped and left as
it was. A second run changes nothing.
"""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import FIXTURES, WITH_CON014, run_cli

CASES = FIXTURES / "fix_python"
NAMES = sorted(p.stem for p in CASES.glob("*.py") if not p.name.endswith(".fixed.py"))
SKIPPED = {n for n in NAMES if not (CASES / f"{n}.fixed.py").exists()}
#: safe fixes a case must leave to a person: a shebang would push the coding cookie to line 3, or
#: would not run (after a byte-order mark, with a CRLF line end), so the exec bit waits too; fields
#: and examples nothing in the script supports; an exit code nothing explains
LEFT = {
    "cookie_second_line": {"CON001", "CON003"},
    "bom_file": {"CON001", "CON003"},
    "crlf_file": {"CON003", "PYS002"},
    "alias_parser": {"PYS002"},
    "argparse_in_main": {"PYS002"},
    "argparse_module_level": {"PYS002"},
    "partial_docstring": {"CON005", "CON006"},
    "subcommands": {"PYS002"},
}
#: cases whose shebang does not run: they stay without the exec bit
NOT_RUNNABLE = {"cookie_second_line", "bom_file", "crlf_file"}


@pytest.fixture(scope="module")
def fixed_tree(tmp_path_factory):
    """Every case copied into one scripts/ folder (mode 644) and fixed once with the CLI."""
    root = tmp_path_factory.mktemp("fixpy")
    scripts = root / "scripts"
    scripts.mkdir()
    for name in NAMES:
        target = scripts / f"{name}.py"
        shutil.copyfile(CASES / f"{name}.py", target)
        target.chmod(0o644)
    first = run_cli("fix", "scripts", "--json", *WITH_CON014, cwd=root)
    second = run_cli("fix", "scripts", "--check", *WITH_CON014, cwd=root)
    return root, first, second


def test_expected_cases_are_the_documented_ones():
    assert {"syntax_error", "fstring_312", "roundtrip_bug"} <= SKIPPED
    for required in ("argparse_in_main", "argparse_module_level", "alias_parser", "subcommands",
                     "crlf_file", "bom_file", "latin1_cookie", "partial_docstring"):
        assert required in NAMES and required not in SKIPPED


@pytest.mark.parametrize("name", NAMES)
def test_fixed_output_matches_byte_for_byte(fixed_tree, name):
    root, first, _ = fixed_tree
    got = (root / "scripts" / f"{name}.py").read_bytes()
    if name in SKIPPED:
        assert got == (CASES / f"{name}.py").read_bytes()
        assert stat.S_IMODE((root / "scripts" / f"{name}.py").stat().st_mode) == 0o644
    else:
        assert got == (CASES / f"{name}.fixed.py").read_bytes()
        mode = (root / "scripts" / f"{name}.py").stat().st_mode & 0o111
        assert mode == (0 if name in NOT_RUNNABLE else 0o111)


def test_json_lists_fixed_and_skipped_files(fixed_tree):
    _, first, _ = fixed_tree
    assert first.code == 10  # the skipped files still need a person
    doc = first.json()
    assert doc["meta"]["schema"] == "skillsmith.fix/v1"
    by_name = {Path(item["path"]).stem: item for item in doc["data"]}
    assert {n for n, i in by_name.items() if i["status"] == "skipped"} == SKIPPED
    assert "libcst" in by_name["roundtrip_bug"]["reason"]
    assert "3.11" in by_name["fstring_312"]["reason"]
    assert {"CON004", "CON014"} <= set(by_name["argparse_in_main"]["rules"])
    assert "PYS002" not in by_name["argparse_in_main"]["rules"]  # no example it can show: not fixable
    assert "PYS003" not in by_name["argparse_in_main"]["rules"]  # no text in lines for a formatter to keep
    assert "PYS052" not in by_name["argparse_in_main"]["rules"]  # sys.exit(main()) changes exit codes: unsafe
    assert "skipped" in first.stderr and "scripts/syntax_error.py" in first.stderr


def test_second_run_changes_nothing(fixed_tree):
    _, _, second = fixed_tree
    assert second.code == 0, second.stderr
    assert second.stdout == ""
    assert "would fix 0 files" in second.stderr


def test_no_safe_fixable_finding_remains(fixed_tree):
    root, _, _ = fixed_tree
    r = run_cli("check", "scripts", "--json", "--no-cache", *WITH_CON014, cwd=root)
    for f in r.json()["data"]:
        name = Path(f["path"]).stem
        if name not in SKIPPED:
            assert f["fix"] != "safe" or f["rule"] in LEFT.get(name, ()), f


@pytest.mark.parametrize("name", sorted(set(NAMES) - SKIPPED))
def test_fixed_scripts_still_answer_help(fixed_tree, name):
    root, _, _ = fixed_tree
    script = root / "scripts" / f"{name}.py"
    proc = subprocess.run([sys.executable, str(script), "--help"], capture_output=True, timeout=30,
                          stdin=subprocess.DEVNULL)
    assert proc.returncode == 0, proc.stderr
    if b"epilog=\"examples:" in (CASES / f"{name}.fixed.py").read_bytes():
        assert b"examples:" in proc.stdout


def _one_script(tmp_path: Path, name: str = "argparse_in_main") -> Path:
    scripts = tmp_path / "scripts"
    scripts.mkdir()
    target = scripts / f"{name}.py"
    shutil.copyfile(CASES / f"{name}.py", target)
    target.chmod(0o644)
    return target


def test_check_mode_exits_10_and_writes_nothing(tmp_path):
    target = _one_script(tmp_path)
    before = target.read_bytes()
    r = run_cli("fix", "scripts", "--check", cwd=tmp_path)
    assert r.code == 10
    assert r.stdout == ""
    assert "would fix 1 file" in r.stderr
    assert target.read_bytes() == before
    assert stat.S_IMODE(target.stat().st_mode) == 0o644


def test_diff_prints_the_change_and_writes_nothing(tmp_path):
    target = _one_script(tmp_path)
    before = target.read_bytes()
    r = run_cli("fix", "scripts", "--diff", cwd=tmp_path)
    assert r.code == 10
    assert "+++ b/scripts/argparse_in_main.py" in r.stdout  # relative to the current folder
    assert "+    sys.exit(main())" not in r.stdout  # unsafe: only with --unsafe-fixes
    assert "new mode 100755" in r.stdout
    assert target.read_bytes() == before
    assert list(target.parent.iterdir()) == [target]


def test_select_limits_the_fixes(tmp_path):
    target = _one_script(tmp_path)
    r = run_cli("fix", "scripts", "--select", "CON014", cwd=tmp_path)
    assert r.code == 0, r.stderr  # findings of other rules are not looked at
    text = target.read_text()
    assert "sys.exit(EXIT_VALIDATION)" in text
    assert '"""' not in text and "epilog" not in text
    assert stat.S_IMODE(target.stat().st_mode) == 0o644


def test_unsafe_fixes_need_the_flag(tmp_path):
    target = _one_script(tmp_path, "subcommands")
    assert run_cli("fix", "scripts", cwd=tmp_path).code == 10
    safe = target.read_text()
    assert 'print("Reading store...")' in safe and "emit_json" not in safe  # no helper that nothing calls
    r = run_cli("fix", "scripts", "--unsafe-fixes", cwd=tmp_path)
    assert r.code == 10, r.stderr  # the epilog's examples still need a person
    text = target.read_text()
    assert 'print("Reading store...", file=sys.stderr)' in text
    assert 'emit_json(["a", "b"], "' in text and text.count("def emit_json(") == 1
    assert 'print(json.dumps({"added": args.item}))' not in text


def test_unsafe_fixes_exit_with_mains_code(tmp_path):
    target = _one_script(tmp_path)
    run_cli("fix", "scripts", cwd=tmp_path)
    assert target.read_text().endswith("\n    main()\n")
    run_cli("fix", "scripts", "--unsafe-fixes", cwd=tmp_path)
    assert target.read_text().endswith("\n    sys.exit(main())\n")


def test_unknown_select_is_usage_error(tmp_path):
    r = run_cli("fix", str(tmp_path), "--select", "NOPE1")
    assert r.code == 2
    assert r.stdout == ""


def test_missing_path_is_not_found(tmp_path):
    r = run_cli("fix", str(tmp_path / "nope"), "--json")
    assert r.code == 3
    assert r.json()["error"]["code"] == "NOT_FOUND"


def test_symlinked_script_is_never_written_through(tmp_path):
    outside = tmp_path / "outside.py"
    shutil.copyfile(CASES / "argparse_in_main.py", outside)
    scripts = tmp_path / "skill" / "scripts"
    scripts.mkdir(parents=True)
    os.symlink(outside, scripts / "linked.py")
    before = outside.read_bytes()
    run_cli("fix", str(tmp_path / "skill" / "scripts"))
    assert outside.read_bytes() == before
    assert (scripts / "linked.py").is_symlink()


@pytest.mark.parametrize("rule_id", ["PYS050", "PYS051", "PYS052", "PYS053"])
def test_rule_fixture_is_fixed_completely(tmp_path, rule_id):
    shutil.copytree(FIXTURES / "rules" / rule_id, tmp_path / rule_id)
    r = run_cli("fix", rule_id, "--unsafe-fixes", "--json", cwd=tmp_path)
    assert r.code == 0, r.stderr
    [item] = r.json()["data"]
    assert rule_id in item["rules"]
    after = run_cli("check", rule_id, "--json", "--no-cache", cwd=tmp_path)
    assert after.code == 0, after.stdout


def test_codemods_run_under_libcst_cli(tmp_path):
    """Every codemod is listed by libcst's CLI, and one runs there on its own."""
    from importlib import resources

    config = resources.files("skillsmith.codemods") / ".libcst.codemod.yaml"
    (tmp_path / ".libcst.codemod.yaml").write_text(config.read_text())
    target = _one_script(tmp_path)
    listed = subprocess.run([sys.executable, "-m", "libcst.tool", "list"], cwd=tmp_path, capture_output=True,
                            text=True, timeout=120)
    names = {p.stem for p in (Path(__file__).resolve().parent.parent / "codemods").glob("py_*.py")}
    assert len(names) == 8
    for name in names:
        assert f"{name}." in listed.stdout
    proc = subprocess.run(
        [sys.executable, "-m", "libcst.tool", "codemod", "--no-format", "py_exit_constants.ExitConstants", "scripts"],
        cwd=tmp_path, capture_output=True, text=True, timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    text = target.read_text()
    assert "\nEXIT_VALIDATION = 4\n" in text and "sys.exit(EXIT_VALIDATION)" in text


def test_libcst_is_not_imported_when_nothing_needs_a_fix():
    from conftest import EXAMPLE

    code = ("import sys\nfrom skillsmith.cli.main import main\nrc = main(['fix', sys.argv[1]])\n"
            "print(rc, 'libcst' in sys.modules)")
    proc = subprocess.run([sys.executable, "-c", code, str(EXAMPLE)], capture_output=True, text=True, timeout=120)
    assert proc.stdout.split() == ["0", "False"], proc.stderr


def test_missing_trailing_newline_stays_missing(tmp_path):
    scripts = tmp_path / "scripts"
    scripts.mkdir()
    target = scripts / "tool.py"
    target.write_bytes(b'import argparse\nimport sys\n\n\ndef main():\n    argparse.ArgumentParser().parse_args()\n'
                       b'    print("config not found", file=sys.stderr)\n'
                       b'    sys.exit(3)\n\n\nif __name__ == "__main__":\n    main()')
    r = run_cli("fix", "scripts", *WITH_CON014, cwd=tmp_path)
    assert r.code == 10, r.stderr  # the epilog's examples need a person
    data = target.read_bytes()
    assert data.endswith(b"    main()") and b"sys.exit(EXIT_NOT_FOUND)" in data


def test_many_files_are_fixed_in_worker_processes(tmp_path):
    from skillsmith.fix.engine import POOL_THRESHOLD

    scripts = tmp_path / "scripts"
    scripts.mkdir()
    for i in range(POOL_THRESHOLD + 2):
        shutil.copyfile(CASES / "argparse_in_main.py", scripts / f"tool_{i}.py")
    r = run_cli("fix", "scripts", "--json", *WITH_CON014, cwd=tmp_path)
    assert r.code == 10, r.stderr  # each file's epilog examples still need a person
    assert r.json()["meta"]["count"] == POOL_THRESHOLD + 2
    expected = (CASES / "argparse_in_main.fixed.py").read_bytes()
    assert all(p.read_bytes() == expected for p in scripts.iterdir())


def test_python_that_exhausts_the_parser_is_skipped_not_an_internal_error(tmp_path):
    scripts = tmp_path / "scripts"
    scripts.mkdir()
    deep = scripts / "deep.py"
    deep.write_text("x=" + "-" * 200_000 + "\n")
    before = deep.read_bytes()
    r = run_cli("fix", "scripts", "--json", cwd=tmp_path)
    assert r.code == 10, r.stdout + r.stderr
    row, = r.json()["data"]
    assert row["status"] == "skipped" and "does not parse" in row["reason"]
    assert deep.read_bytes() == before


def _depth_by_recursion(node, depth=1) -> int:
    """libcst's tree depth as the ``ast`` gives it, by its definition: one level per node, and a
    ``BoolOp`` of n values is n - 1 nested binary operations in libcst."""
    import ast

    if isinstance(node, ast.BoolOp) and len(node.values) > 2:
        depth += len(node.values) - 2
    return max([depth] + [_depth_by_recursion(child, depth + 1) for child in ast.iter_child_nodes(node)])


@pytest.mark.parametrize("source", [
    "",
    "x = 1\n",
    "x = " + " and ".join(["a"] * 60) + "\n",
    "f(" * 40 + ")" * 40 + "\n",
    "def f():\n    if a:\n        return [b or c or d or e for b in g if (h and i and j)]\n",
    "class A:\n    def m(self, x: int = (1, [2, {3: 4}])) -> None:\n        try:\n            pass\n        except (E, F) as e:\n            raise\n",
], ids=["empty", "flat", "bool-chain", "nested-calls", "comprehension", "class"])
def test_libcst_depth_is_the_depth_of_the_tree_libcst_would_build(source):
    """The guard that sends deep code through libcst in a forked child measures what it says."""
    import ast

    from skillsmith.fix.python import libcst_depth

    module = ast.parse(source)
    assert libcst_depth(module) == _depth_by_recursion(module)


@pytest.mark.parametrize("source, deep", [
    ("x = " + " and ".join(["a"] * 120) + "\n", True),
    ("x = a and b and c and d and e\n" * 60, False),  # many short chains: the bound is past the limit, the tree is not
    ("f(" * 120 + ")" * 120 + "\n", True),
    ("f(" * 90 + " and ".join(["a"] * 20) + ")" * 90 + "\n", True),
    ("f(" * 90 + " and ".join(["a"] * 5) + ")" * 90 + "\n", False),
], ids=["long-chain", "short-chains", "nested-calls", "chain-in-calls", "short-chain-in-calls"])
def test_the_depth_guard_decides_as_the_exact_depth_does(source, deep):
    """The cheap bound from the check's walk never sends a file past the guard that the exact depth would stop."""
    import ast

    from skillsmith.fix.python import RISKY_DEPTH, libcst_depth, libcst_depth_bound, risky

    module = ast.parse(source)
    assert libcst_depth_bound(module) >= libcst_depth(module)
    assert (libcst_depth(module) > RISKY_DEPTH) is deep
    assert risky(source, module) is deep
