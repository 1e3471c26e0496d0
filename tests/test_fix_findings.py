"""Fixes belong to findings (ruff's model): `fix` changes what `check` marks, and nothing else.

- A rule's declared fix safety (``Rule.fix``) and its fixers' ``SAFE``/``RULES`` say the same.
- A fix edits only for the findings it answers: a line whose finding is suppressed
  (``# skillsmith: ignore[CON014]``) stays as it is, in shell and in Python; ``--select`` and
  per-file ignores hold for ``fix`` exactly as for ``check``.
- ``check`` marks ``[*]`` (and "N fixable") only what ``fix`` really changes: after ``fix``,
  no finding marked safe is left, and ``fix --check`` has nothing more to do.
"""

from __future__ import annotations

from pathlib import Path

from conftest import WITH_CON014, run_cli, write_tree

from skillsmith.fix.engine import MODE_RULES, load_fixers
from skillsmith.rules import registry

SHELL = """#!/usr/bin/env bash
# Check that two files are not empty.
#
# Usage:   pair.sh A B
# Input:   two paths
# Output:  nothing
# Stderr:  errors
# Exit:    0 ok, 2 usage, 4 invalid input
#
# Examples:
#   pair.sh a b
set -euo pipefail
case "${1:-}" in
  -h|--help) echo "pair.sh A B"; exit 0 ;;
  -*) echo "pair.sh: unknown option: $1" >&2; exit 2 ;;
esac
[ $# -eq 2 ] || exit 2
[ -s "$2" ] || exit 4
[ -s "$1" ] || exit 4  # skillsmith: ignore[CON014]
"""

PYTHON = '''#!/usr/bin/env python3
"""Check that two files are not empty.

Usage: pair.py A B
Input: two paths
Output: nothing
Stderr: errors
Exit: 0 ok, 2 usage, 3 not found, 4 invalid input

Examples:
  pair.py a b
"""
import argparse
import os
import sys


def main():
    parser = argparse.ArgumentParser(description="Check that two files are not empty.", epilog="Example: pair.py a b")
    parser.add_argument("a")
    parser.add_argument("b")
    args = parser.parse_args()
    if not os.path.exists(args.b):
        sys.exit(3)
    if not os.path.getsize(args.a):
        sys.exit(4)  # skillsmith: ignore[CON014]
    return 0


if __name__ == "__main__":
    main()
'''


def test_declared_fix_safety_is_what_the_fixers_do():
    registry.load_rules()
    fixers = [fx for kind in ("python", "shell", "file") for fx in load_fixers(kind)]
    ids = {r.id for r in registry.all_rules()}
    for fx in fixers:
        assert fx.rules <= ids, f"{fx.name} fixes rules that do not exist: {fx.rules - ids}"
    for rule in registry.all_rules():
        own = [fx for fx in fixers if rule.id in fx.rules]
        if rule.id in MODE_RULES or any(fx.safe for fx in own):
            expected = "safe"
        else:
            expected = "unsafe" if own else None
        assert rule.fix == expected, f"{rule.id} declares fix={rule.fix!r}, its fixers make it {expected!r}: " \
                                     f"{[(fx.name, fx.safe) for fx in own]}"


def test_a_suppressed_shell_exit_is_not_rewritten(tmp_path):
    root = write_tree(tmp_path, {"scripts/pair.sh": SHELL})
    before = run_cli("check", "scripts", "--json", "--no-cache", *WITH_CON014, cwd=root).json()["data"]
    assert [(f["rule"], f["line"], f["fix"]) for f in before if f["rule"] == "CON014"] == [
        ("CON014", 15, "safe"), ("CON014", 17, "safe"), ("CON014", 18, "safe")]
    r = run_cli("fix", "scripts", *WITH_CON014, cwd=root)
    assert r.code == 0, r.stdout + r.stderr
    text = (root / "scripts/pair.sh").read_text()
    assert '[ -s "$1" ] || exit 4  # skillsmith: ignore[CON014]\n' in text
    assert '[ -s "$2" ] || exit "$EXIT_VALIDATION"\n' in text and '[ $# -eq 2 ] || exit "$EXIT_USAGE"\n' in text
    assert run_cli("fix", "scripts", "--check", *WITH_CON014, cwd=root).code == 0


def test_a_suppressed_python_exit_is_not_rewritten(tmp_path):
    root = write_tree(tmp_path, {"scripts/pair.py": PYTHON})
    run_cli("fix", "scripts", *WITH_CON014, cwd=root)
    text = (root / "scripts/pair.py").read_text()
    assert "        sys.exit(4)  # skillsmith: ignore[CON014]\n" in text
    compile(text, "pair.py", "exec")


def test_select_limits_fix_to_the_selected_findings(tmp_path):
    root = write_tree(tmp_path, {"scripts/pair.sh": SHELL.replace("# Input:   two paths\n", "")})
    r = run_cli("fix", "scripts", "--select", "CON014", cwd=root)
    assert r.code == 0, r.stdout + r.stderr
    text = (root / "scripts/pair.sh").read_text()
    assert 'exit "$EXIT_USAGE"' in text
    assert "Input:" not in text  # CON006 was not selected
    left = run_cli("check", "scripts", "--json", "--no-cache", cwd=root).json()["data"]
    assert [f["rule"] for f in left] == ["CON006"] and left[0]["fix"] == "safe"


def test_per_file_ignores_hold_for_fix(tmp_path):
    root = write_tree(tmp_path, {
        "skillsmith.toml": '[per-file-ignores]\n"scripts/pair.sh" = ["CON014"]\n',
        "scripts/pair.sh": SHELL.replace("# Input:   two paths\n", ""),
    })
    r = run_cli("fix", "scripts", *WITH_CON014, cwd=root)
    assert r.code == 0, r.stdout + r.stderr
    text = (root / "scripts/pair.sh").read_text()
    assert "EXIT_" not in text and "|| exit 2\n" in text
    assert "# Input:   arguments as in Usage\n" in text  # the other findings are fixed


def test_fixable_means_fix_changes_it(tmp_path):
    """What `check` counts as fixable is what `fix` changes: afterwards nothing marked safe is left."""
    root = write_tree(tmp_path, {
        "scripts/pair.sh": SHELL,
        # the description runs onto the next line, and no code says what exit 5 means
        "scripts/wrap.sh": "#!/usr/bin/env bash\n# Wrap a command\n# and report how it went.\nset -uo pipefail\n"
                           "[ -n \"${1:-}\" ] || exit 5\n\"$@\"\n",
    })
    before = run_cli("check", "scripts", "--json", "--no-cache", *WITH_CON014, cwd=root).json()["data"]
    marked = [(Path(f["path"]).name, f["rule"]) for f in before if f["fix"] == "safe"]
    assert ("wrap.sh", "CON005") not in marked and ("wrap.sh", "CON014") not in marked
    r = run_cli("fix", "scripts", *WITH_CON014, cwd=root)
    assert "could not be applied" not in r.stderr
    after = run_cli("check", "scripts", "--json", "--no-cache", *WITH_CON014, cwd=root).json()["data"]
    assert [f for f in after if f["fix"] == "safe"] == []
    assert run_cli("fix", "scripts", "--check", *WITH_CON014, cwd=root).code == 0
