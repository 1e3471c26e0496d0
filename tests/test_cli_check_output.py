"""What `check` prints: the full format with source lines, statistics, colour, --quiet, --fail-on."""

from __future__ import annotations

import os
import shutil
import sys

import pexpect
import pytest
from conftest import FIXTURES, run_cli

OUTPUT = FIXTURES / "output"
#: findings in SKILL.md, a shell script (one under a tab) and a Python script; ShellCheck is left out
#: so the findings do not depend on whether it is installed
FULL = ("check", "report-tool", "--output-format", "full", "--ignore", "SHL090", "--no-cache")


def test_full_output_matches_the_expected_file():
    """Regenerate after a deliberate change of a message:
    ``cd tests/fixtures/output && python -m skillsmith check report-tool --output-format full
    --ignore SHL090 --no-cache > report-tool.full.txt``"""
    r = run_cli(*FULL, cwd=OUTPUT)
    assert r.code == 10, r.stderr
    assert r.stdout == (OUTPUT / "report-tool.full.txt").read_text()
    assert r.stderr == (
        "Found 10 findings (1 error, 9 warnings) in 3 files; 1 skill checked.\n"
        "6 fixable with `skillsmith fix`.\n"
        "1 more fixable with `skillsmith fix --unsafe-fixes`.\n"
    )


def test_full_output_puts_the_caret_under_the_column():
    r = run_cli(*FULL, cwd=OUTPUT)
    lines = r.stdout.splitlines()
    head = lines.index("report-tool/scripts/tool.sh:4:7: SHL051 $1 is unquoted: it is split on whitespace and "
                       "globbed; quote it (warning)")
    source, caret = lines[head + 2], lines[head + 3]
    assert source == "4 |     echo $1"  # the tab drawn as four spaces
    assert caret.index("^^") == source.index("$1")


def test_concise_is_the_default_one_line_per_finding():
    concise = run_cli("check", "report-tool", "--ignore", "SHL090", "--no-cache", cwd=OUTPUT)
    explicit = run_cli("check", "report-tool", "--ignore", "SHL090", "--no-cache", "--output-format", "concise", cwd=OUTPUT)
    assert concise.code == explicit.code == 10
    assert concise.stdout == explicit.stdout
    assert concise.stdout.count("\n") == 10
    assert concise.stdout.splitlines()[0] == "report-tool/SKILL.md:8:42: RES002 references/guide.md does not exist in the skill"


@pytest.mark.parametrize("fmt", ["--json", "--format=sarif"])
def test_output_format_belongs_to_the_text_format(fmt):
    r = run_cli("check", "report-tool", "--output-format", "full", fmt, cwd=OUTPUT)
    assert r.code == 2
    assert "--output-format shapes the text format" in r.stderr
    assert "internal error" not in r.stderr


def test_statistics_count_findings_per_rule():
    r = run_cli("check", "report-tool", "--statistics", "--ignore", "SHL090", "--no-cache", cwd=OUTPUT)
    assert r.code == 10
    lines = r.stdout.splitlines()
    assert lines[0] == "2  CON009  [*] help-missing"
    assert "1  CON012      script-not-cited" in lines
    assert len(lines) == 9  # one line per rule, not per finding
    assert "Found 10 findings" in r.stderr
    j = run_cli("check", "report-tool", "--statistics", "--json", "--ignore", "SHL090", cwd=OUTPUT).json()
    assert j["meta"]["schema"] == "skillsmith.statistics/v1"
    assert j["data"][0] == {"rule": "CON009", "name": "help-missing", "count": 2, "fix": "safe"}
    assert sum(row["count"] for row in j["data"]) == 10


def test_statistics_do_not_apply_to_sarif():
    r = run_cli("check", "report-tool", "--statistics", "--format", "sarif", cwd=OUTPUT)
    assert r.code == 2 and r.stdout == ""
    assert "--statistics prints text or JSON" in r.stderr


def test_quiet_prints_findings_and_nothing_else():
    r = run_cli("check", "report-tool", "--quiet", "--no-cache", cwd=OUTPUT, env={"PATH": "/usr/bin:/bin"})
    assert r.code == 10
    assert r.stdout.count("\n") >= 10
    assert r.stderr == ""  # no summary, and no note that ShellCheck is missing


@pytest.fixture
def warnings_only(tmp_path):
    """A compliant shell skill whose only finding is a warning (an unquoted expansion)."""
    skill = tmp_path / "shell-counter"
    shutil.copytree(FIXTURES / "compliant" / "shell-counter", skill)
    script = skill / "scripts" / "count.sh"
    script.write_text(script.read_text().replace('  echo "$rows"', "  echo $rows"))
    return skill


@pytest.mark.parametrize("threshold, code", [(None, 10), ("info", 10), ("warning", 10), ("error", 0)])
def test_fail_on_sets_the_severity_that_fails(warnings_only, threshold, code):
    args = ["check", str(warnings_only), "--ignore", "SHL090"] + (["--fail-on", threshold] if threshold else [])
    r = run_cli(*args)
    assert r.code == code, r.stdout + r.stderr
    assert r.stdout.count("\n") == 1 and "SHL051" in r.stdout  # shown whatever the threshold
    assert "1 warning" in r.stderr


def test_fail_on_error_still_fails_on_errors():
    r = run_cli("check", "report-tool", "--fail-on", "error", cwd=OUTPUT)
    assert r.code == 10


def test_fail_on_takes_only_severities():
    r = run_cli("check", "report-tool", "--fail-on", "fatal", cwd=OUTPUT)
    assert r.code == 2 and "usage: skillsmith check" in r.stderr


def spawn_check(*args: str, env: dict) -> str:
    """`check` with stdout and stderr on a real terminal: what it showed."""
    child = pexpect.spawn(sys.executable, ["-m", "skillsmith", "check", *args], cwd=str(OUTPUT), env=env,
                          encoding="utf-8", timeout=120, dimensions=(40, 200))
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 10
    return child.before


def test_colour_only_on_a_terminal_and_never_with_no_color(tmp_path):
    env = {**os.environ, "TERM": "xterm", "SKILLSMITH_CACHE_DIR": str(tmp_path)}
    env.pop("NO_COLOR", None)
    shown = spawn_check("report-tool", "--output-format", "full", env=env)
    assert "\x1b[1mreport-tool/SKILL.md:8:42:\x1b[0m \x1b[31mRES002\x1b[0m" in shown
    assert "\x1b[36m[*]\x1b[0m" in shown
    plain = spawn_check("report-tool", "--output-format", "full", env={**env, "NO_COLOR": "1"})
    assert "\x1b" not in plain
    assert "report-tool/SKILL.md:8:42: RES002 " in plain
    piped = run_cli("check", "report-tool", cwd=OUTPUT)
    assert "\x1b" not in piped.stdout + piped.stderr


def test_summary_speaks_of_skills_and_scripts(tmp_path):
    loose = tmp_path / "tools"
    loose.mkdir()
    for name in ("a.sh", "b.sh"):
        (loose / name).write_text("#!/usr/bin/env bash\necho hi\n")
    r = run_cli("check", str(loose), str(OUTPUT / "report-tool"))
    assert "1 skill and 2 scripts checked." in r.stderr
    assert "unit" not in r.stderr
    clean = run_cli("check", str(FIXTURES / "compliant" / "python-counter"))
    assert clean.code == 0 and clean.stderr == "All checks passed (1 skill checked).\n"
