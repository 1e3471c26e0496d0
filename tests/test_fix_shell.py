"""`skillsmith fix` on shell scripts: expected outputs byte for byte, then run the results.

Each ``tests/fixtures/fix_shell/<case>.sh`` is fixed (as ``scripts/<case>.sh``, mode 644) and
must equal ``<case>.fixed.sh`` byte for byte; ``library.sh`` is a sourced library and must be
left exactly as it was. A second run changes nothing, every result passes ``bash -n``, its
``--help`` (where it has one) exits 0 and prints the header, and ``check`` finds no
safe-fixable finding left: ``[*]`` marks exactly what ``fix`` changes.
"""

from __future__ import annotations

import os
import re
import shutil
import stat
import subprocess
from pathlib import Path

import pytest
from conftest import FIXTURES, WITH_CON014, run_cli

CASES = FIXTURES / "fix_shell"
NAMES = sorted(p.stem for p in CASES.glob("*.sh") if not p.name.endswith(".fixed.sh"))
LEFT_ALONE = {"library"}
#: bash cannot run a CRLF script (`$'\r'`: command not found): syntax is checked on its lines
NOT_RUNNABLE = {"crlf"}


@pytest.fixture(scope="module")
def fixed_tree(tmp_path_factory):
    """Every case copied into one scripts/ folder (mode 644) and fixed once with the CLI."""
    root = tmp_path_factory.mktemp("fixsh")
    scripts = root / "scripts"
    scripts.mkdir()
    for name in NAMES:
        target = scripts / f"{name}.sh"
        shutil.copyfile(CASES / f"{name}.sh", target)
        target.chmod(0o644)
    first = run_cli("fix", "scripts", "--json", *WITH_CON014, cwd=root)
    second = run_cli("fix", "scripts", "--check", *WITH_CON014, cwd=root)
    return root, first, second


def unmark(line: str) -> str:
    return re.sub(r"^# ?", "", line)


def fixed(root: Path, name: str) -> Path:
    return root / "scripts" / f"{name}.sh"


def test_the_required_constructs_have_cases():
    required = {
        "heredoc_plain", "heredoc_quoted", "heredoc_dash", "heredoc_in_subst", "strict_present",
        "no_errexit", "long_options", "library", "posix_sh", "crlf", "sed_help_bug", "arrays",
        "regex_match", "arithmetic", "ansi_c", "unset_reads",
    }
    assert required <= set(NAMES)
    assert all((CASES / f"{n}.fixed.sh").exists() for n in NAMES if n not in LEFT_ALONE)
    assert b"\r\n" in (CASES / "crlf.sh").read_bytes()


@pytest.mark.parametrize("name", NAMES)
def test_fixed_output_matches_byte_for_byte(fixed_tree, name):
    root, first, _ = fixed_tree
    assert first.code in (0, 10), first.stderr
    path = fixed(root, name)
    if name in LEFT_ALONE:
        assert path.read_bytes() == (CASES / f"{name}.sh").read_bytes()
        assert stat.S_IMODE(path.stat().st_mode) == 0o644
    else:
        assert path.read_bytes() == (CASES / f"{name}.fixed.sh").read_bytes()
        # a CRLF script's shebang does not run ("bash\r"): no exec bit without a shebang that works
        assert path.stat().st_mode & 0o111 == (0 if name in NOT_RUNNABLE else 0o111)


def test_second_run_changes_nothing(fixed_tree):
    _, _, second = fixed_tree
    assert second.code == 0, second.stdout + second.stderr
    assert second.stdout == ""


@pytest.mark.parametrize("name", NAMES)
def test_fixed_script_passes_bash_n(fixed_tree, name):
    root, _, _ = fixed_tree
    data = fixed(root, name).read_bytes()
    if name in NOT_RUNNABLE:
        assert data.count(b"\r\n") == data.count(b"\n")  # still CRLF throughout
        data = data.replace(b"\r\n", b"\n")
    proc = subprocess.run(["bash", "-n"], input=data, capture_output=True)
    assert proc.returncode == 0, proc.stderr.decode()


#: scripts whose --help the fix may not add: their own usage text prints it (CON009 is unsafe there),
#: or part of the script does not parse, so nothing proves what --help reached before
OWN_HELP = {"no_errexit", "heredoc_quoted", "parse_error_region"}


@pytest.mark.parametrize("name", sorted(set(NAMES) - LEFT_ALONE - NOT_RUNNABLE - OWN_HELP))
def test_fixed_script_help_prints_the_header(fixed_tree, name):
    root, _, _ = fixed_tree
    path = fixed(root, name)
    proc = subprocess.run([str(path), "--help"], capture_output=True, text=True, timeout=20,
                          cwd=root, env={"PATH": os.environ["PATH"], "LC_ALL": "C"})
    assert proc.returncode == 0, proc.stderr
    lines = path.read_text().splitlines()
    header = []
    for line in lines[1:]:
        if not line.startswith("#"):
            break
        header.append(line)
    # a script's own pipe may strip "# " but leave a bare "#": compare without markers
    assert [unmark(ln) for ln in proc.stdout.splitlines()] == [unmark(ln) for ln in header]
    assert any(unmark(h).startswith("Usage:") for h in header)
    assert proc.stderr == ""


def test_no_safe_fixable_shell_finding_remains(fixed_tree):
    root, _, _ = fixed_tree
    r = run_cli("check", "scripts", "--json", "--no-cache", *WITH_CON014, cwd=root)
    findings = r.json()["data"]
    assert [(Path(f["path"]).stem, f["rule"]) for f in findings if f["fix"] == "safe"] == []
    # set -u would stop unset_reads.sh on `[ -z "$1" ]` and $TMPDIR: nounset waits for --unsafe-fixes
    assert ("unset_reads", "SHL001", "unsafe") in {(Path(f["path"]).stem, f["rule"], f["fix"]) for f in findings}
    # every finding left without a fix says what a person must do
    for f in findings:
        if f["fix"] is None and f["rule"] in ("CON006", "CON007", "CON014"):
            assert ";" in f["message"], f
    # (ShellCheck's own SC codes, when it is installed, are advice with no fix)
    rules = {f["rule"] for f in findings if not f["rule"].startswith("SC")}
    assert rules <= {"CON003", "CON006", "CON007", "CON009", "CON014", "SHL001", "SHL002", "SHL003", "SHL051"}


def test_json_reports_each_fixed_file(fixed_tree):
    _, first, _ = fixed_tree
    rows = {Path(row["path"]).stem: row for row in first.json()["data"]}
    assert set(rows) == set(NAMES) - LEFT_ALONE
    assert all(row["status"] == "fixed" for row in rows.values())
    assert "sh_help_range" in rows["sed_help_bug"]["fixers"]
    assert "sh_help_range" in rows["header_grows"]["fixers"]  # the header grew past its sed range
    assert "sh_strict_mode" not in rows["strict_present"]["fixers"]
    assert "sh_strict_mode" not in rows["no_errexit"]["fixers"]


def test_never_adds_errexit(fixed_tree):
    root, _, _ = fixed_tree
    for name in ("no_errexit", "heredoc_in_subst", "posix_sh", "no_shebang", "split_set"):
        before = [ln for ln in (CASES / f"{name}.sh").read_text().splitlines() if ln.startswith("set ")]
        after = [ln for ln in fixed(root, name).read_text().splitlines() if ln.startswith("set ")]
        assert any("-e" in ln for ln in after) == any("-e" in ln for ln in before), after
    assert "set -uo pipefail  # deliberately no -e" in fixed(root, "no_errexit").read_text()
    assert "\nset -u\n" in fixed(root, "posix_sh").read_text()  # no pipefail in POSIX sh


def test_heredoc_bodies_are_untouched(fixed_tree):
    root, _, _ = fixed_tree
    assert "Hello, $name!\nexit 3\nset -e\nEOF\n" in fixed(root, "heredoc_plain").read_text()
    assert "\t\ttoo many arguments: $#\n\t\texit 4\n\tEOF\n" in fixed(root, "heredoc_dash").read_text()
    assert '{"title": "$title", "exit": 5}\nJSON\n)' in fixed(root, "heredoc_in_subst").read_text()
    assert "# Usage: not a header\n[section]\nvalue = $HOME\nEOF\n" in fixed(root, "heredoc_quoted").read_text()


def test_unsafe_quoting_only_with_the_flag(tmp_path):
    scripts = tmp_path / "scripts"
    scripts.mkdir()
    target = scripts / "arrays.sh"
    shutil.copyfile(CASES / "arrays.fixed.sh", target)
    target.chmod(0o755)
    safe = run_cli("fix", "scripts", "--check", cwd=tmp_path)
    assert safe.code == 0, safe.stderr
    r = run_cli("fix", "scripts", "--unsafe-fixes", "--diff", cwd=tmp_path)
    assert r.code == 10
    assert '-  ls ${dirs[@]} $d || exit "$EXIT_NOT_FOUND"\n+  ls "${dirs[@]}" "$d" || exit "$EXIT_NOT_FOUND"\n' in r.stdout
    assert target.read_bytes() == (CASES / "arrays.fixed.sh").read_bytes()  # --diff writes nothing
    r = run_cli("fix", "scripts", "--unsafe-fixes", cwd=tmp_path)
    assert r.code == 10, r.stdout + r.stderr  # what is left needs a person
    left = run_cli("check", "scripts", "--json", "--no-cache", cwd=tmp_path).json()["data"]
    # no evidence for Stderr: and Examples: (it reads no argument, so no unknown-option branch is asked for)
    assert sorted(f["rule"] for f in left) == ["CON006"]
    assert all(f["fix"] is None for f in left)
    text = target.read_text()
    # never inside [[ ]], assignments, declarations or strings
    assert 'if [[ -n "${seen[$d]:-}" ]]' in text and "dirs=(src" in text and 'echo "${#dirs[@]} folders"' in text


def test_a_script_bash_rejects_is_left_byte_for_byte(tmp_path):
    scripts = tmp_path / "scripts"
    scripts.mkdir()
    # tree-sitter parses a bare `coproc` as a command, so the fixes edit the file; bash -n rejects it
    broken = b"#!/usr/bin/env bash\n# Broken.\necho hi\ncoproc\n"
    (scripts / "broken.sh").write_bytes(broken)
    (scripts / "broken.sh").chmod(0o755)
    r = run_cli("fix", "scripts", "--json", cwd=tmp_path)
    assert (scripts / "broken.sh").read_bytes() == broken
    rows = r.json()["data"]
    assert rows and rows[0]["status"] == "skipped" and "bash -n" in rows[0]["reason"]


def test_regions_tree_sitter_cannot_parse_are_never_edited():
    from skillsmith.lang import shell
    from skillsmith.lang.shell_layout import Layout

    source = (CASES / "parse_error_region.sh").read_bytes()
    layout = Layout(source, shell.parse(source))
    assert layout.errors, "tree-sitter-bash parses `paste <<A - <<B` with an error node"
    (start, end), = layout.errors
    assert not layout.free(start, start) and not layout.free(start - 1, end + 1)
    assert layout.free(0, 0)
    fixed_source = (CASES / "parse_error_region.fixed.sh").read_bytes()
    assert fixed_source.endswith(source[source.index(b"paste <<A"):])  # the region and what follows, as it was


def test_nounset_for_scripts_that_read_unset_variables_needs_unsafe_fixes(tmp_path):
    scripts = tmp_path / "scripts"
    scripts.mkdir()
    target = scripts / "unset_reads.sh"
    shutil.copyfile(CASES / "unset_reads.fixed.sh", target)
    target.chmod(0o755)
    assert "\nset -eo pipefail\n" in target.read_text()  # the safe fix added pipefail only
    r = run_cli("check", "scripts", "--json", "--no-cache", cwd=tmp_path)
    (finding,) = [f for f in r.json()["data"] if f["rule"] == "SHL001"]
    assert "$1 (line 18), $TMPDIR (line 24)" in finding["message"]
    assert finding["fix"] == "unsafe"
    assert run_cli("fix", "scripts", "--check", cwd=tmp_path).code == 0
    r = run_cli("fix", "scripts", "--unsafe-fixes", "--select", "SHL001", "--json", cwd=tmp_path)
    assert r.json()["data"][0]["fixers"] == ["sh_strict_unsafe"]
    assert "\nset -euo pipefail\n" in target.read_text()
