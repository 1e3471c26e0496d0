"""One finding per problem, and severities by harm.

Two rules that fire at the same place for the same cause report it once: the more specific
finding wins (``registry.YIELDS``: PYS050 yields to PYS051, ShellCheck's SC2086 to SHL051). A
finding yields only to one that is reported: ignore the winner and the other comes back.
Taste that is true of many sound skills (CON014, CON015) is opt-in: it runs only when a
selector names it, and its info findings fail the run like any other unless ``--fail-on`` says
otherwise.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from conftest import run_cli, write_tree
from test_shellcheck import SCRIPT, bundled_shellcheck, path_with

from skillsmith.rules.engine import one_per_problem
from skillsmith.rules.registry import YIELDS, get_rule

SKILL_MD = "---\nname: {0}\ndescription: Lists rows. Use when rows are wanted.\n---\n\nRun `python3 scripts/rows.py --json`.\n"

#: a script that prints bare JSON: PYS051 at the print, PYS050 (no envelope helper) at the json.dumps in it
ROWS_PY = '''\
#!/usr/bin/env python3
"""List the rows.

Usage:   rows.py [--json]
Input:   none
Output:  the rows, one per line, or JSON with --json
Stderr:  errors
Exit:    0 ok, 2 usage

Examples:
  rows.py --json
"""
import argparse
import json

ROWS = ["a", "b"]


def main() -> int:
    parser = argparse.ArgumentParser(description="List the rows.", epilog="examples:\\n  rows.py --json\\n",
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--json", action="store_true", help="print JSON")
    args = parser.parse_args()
    if args.json:
        print(json.dumps(ROWS))
    else:
        print("\\n".join(ROWS))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
'''


def rows_skill(tmp_path: Path, script: str = ROWS_PY) -> Path:
    root = write_tree(tmp_path / "rows", {"SKILL.md": SKILL_MD.format("rows"), "scripts/rows.py": script})
    (root / "scripts" / "rows.py").chmod(0o755)
    return root


def findings(path: Path, *args: str, env: dict | None = None) -> list[tuple[str, int]]:
    r = run_cli("check", str(path), "--json", "--no-cache", *args, env=env)
    assert r.code in (0, 10), r.stdout + r.stderr
    return [(f["rule"], f["line"]) for f in r.json()["data"]]


def test_bare_json_is_one_finding_at_its_print(tmp_path):
    root = rows_skill(tmp_path)
    assert findings(root) == [("PYS051", 25)]  # PYS050 fired at the same line before


def test_a_finding_yields_only_to_one_that_is_reported(tmp_path):
    root = rows_skill(tmp_path)
    assert findings(root, "--ignore", "PYS051") == [("PYS050", 25)]
    text = ROWS_PY.replace("print(json.dumps(ROWS))", "print(json.dumps(ROWS))  # skillsmith: ignore[PYS051]")
    assert findings(rows_skill(tmp_path / "suppressed", text)) == [("PYS050", 25)]


def test_json_written_elsewhere_keeps_its_own_finding(tmp_path):
    """json.dump(x, sys.stdout) is no print(json.dumps(x)): PYS051 is silent, so PYS050 says it."""
    text = ROWS_PY.replace("import json\n", "import json\nimport sys\n").replace(
        "print(json.dumps(ROWS))", "json.dump(ROWS, sys.stdout)")
    assert findings(rows_skill(tmp_path, text)) == [("PYS050", 26)]


#: test_shellcheck's script with $name unquoted three times on two lines: in `[ $name = x ]`
#: (ShellCheck's SC2086 alone: SHL051 leaves test brackets to it) and twice in `echo $name $name`
#: (both see each: one finding each, SHL051's)
LS_SH = SCRIPT.replace('cd "$1"\nls\n', 'name=${1:-x}\nif [ $name = x ]; then\n  echo $name $name\nfi\n')


def ls_skill(tmp_path: Path, script: str) -> Path:
    root = write_tree(tmp_path / "ls", {
        "SKILL.md": SKILL_MD.format("ls").replace("python3 scripts/rows.py --json", "bash scripts/ls.sh /tmp"),
        "scripts/ls.sh": script,
    })
    (root / "scripts" / "ls.sh").chmod(0o755)
    return root


def test_an_unquoted_expansion_is_one_finding_where_both_see_it(tmp_path):
    exe = bundled_shellcheck() or (Path(shutil.which("shellcheck")) if shutil.which("shellcheck") else None)
    if exe is None:
        pytest.skip("shellcheck is not installed: pip install -e '.[shellcheck]'")
    root = ls_skill(tmp_path, LS_SH)
    env = {"PATH": path_with(tmp_path, exe)}
    assert findings(root, env=env) == [("SC2086", 19), ("SHL051", 20), ("SHL051", 20)]
    assert findings(root, "--ignore", "SHL051", env=env) == [("SC2086", 19), ("SC2086", 20), ("SC2086", 20)]


def place(rule: str, line: int, column: int, end_column: int | None) -> dict:
    return {"path": "/s/scripts/x.sh", "line": line, "column": column, "rule": rule, "message": "m",
            "severity": "warning", "end_line": None if end_column is None else line, "end_column": end_column,
            "fix": None}


def test_the_same_place_is_the_same_line_and_overlapping_columns():
    sc_a, sc_b = place("SC2086", 9, 12, 24), place("SC2086", 9, 25, 34)
    shl = place("SHL051", 9, 25, 34)
    assert one_per_problem([sc_a, sc_b, shl]) == [sc_a, shl]  # the other expansion on the line stays
    assert one_per_problem([place("SC2086", 8, 25, 34), shl]) == [place("SC2086", 8, 25, 34), shl]
    # without end columns the line is the place
    assert one_per_problem([place("PYS050", 4, 11, None), place("PYS051", 4, 5, None)]) == [place("PYS051", 4, 5, None)]


def test_every_yield_names_real_rules():
    for loser, winners in YIELDS.items():
        assert get_rule(loser) is not None or loser.startswith(get_rule("SHL090").codes), loser
        assert all(get_rule(w) is not None for w in winners), winners


#: every expansion quoted, every exit code a literal
LITERAL_SH = LS_SH.replace('exit "$EXIT_USAGE"', "exit 2").replace("readonly EXIT_USAGE=2\n", "").replace(
    "echo $name $name", 'echo "$name"').replace("[ $name = x ]", '[ "$name" = x ]')


def test_taste_is_opt_in_and_info_fails_only_below_the_bar(tmp_path):
    root = ls_skill(tmp_path, LITERAL_SH)
    plain = run_cli("check", str(root), "--no-cache", "--ignore", "SHL090")
    assert (plain.code, plain.stdout) == (0, ""), plain.stdout  # neither CON014 nor CON015 by default
    assert findings(root, "--select", "CON", "--ignore", "SHL090") == []  # a prefix does not name them
    chosen = run_cli("check", str(root), "--json", "--no-cache", "--select", "ALL,CON014,CON015", "--ignore", "SHL090")
    assert chosen.code == 10  # info counts by default (--fail-on info)
    assert sorted((f["rule"], f["severity"]) for f in chosen.json()["data"]) == [("CON014", "info"), ("CON015", "info")]
    bar = run_cli("check", str(root), "--no-cache", "--select", "CON014,CON015", "--fail-on", "warning")
    assert bar.code == 0 and "CON014" in bar.stdout


def test_the_rule_list_says_which_rules_are_opt_in():
    listed = run_cli("rules", "--json").json()["data"]
    assert {r["id"] for r in listed if r["opt_in"]} >= {"CON014", "CON015"}
    assert not next(r for r in listed if r["id"] == "CON001")["opt_in"]
    text = run_cli("rules", "CON014").stdout
    assert "opt-in (runs only when selected by its ID or name)" in text and "## Severity" in text
    line = next(ln for ln in run_cli("rules", "CON").stdout.splitlines() if ln.startswith("CON014"))
    assert line.endswith("(opt-in)") and " info " in line
