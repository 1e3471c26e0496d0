"""Safe shell fixes keep what a script does: each script runs with bash before and after `fix`.

Every case is a small skill written for the test around one hazard found in real skills:
a pipeline whose reader stops early (with and without `set -e`), a library other scripts
source (with the exec bit and no shebang), a `readonly` constant that a sourced file assigns
too, a dispatcher that passes its arguments on, a CRLF script, conditional assignments under
`set -u`. Each is run with the same arguments, stdin and environment before and after the
safe fix; exit code, stdout and stderr must be identical. The one exception is `--help` of a
script that got a help branch (that output is the fix). bash's own error messages name the
script's line, which a new header moves: they are compared without the number.

Each case also checks what the fix did and what the finding says, so a case cannot pass by
the fix doing nothing where it could have.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from conftest import WITH_CON014, run_cli

SKILL_MD = """---
name: {name}
description: A skill written for the behaviour tests of the shell fixes.
---
# {name}

{body}
"""


@dataclass
class Case:
    name: str
    files: dict[str, str | bytes]  # scripts/...: content; mode 755 unless listed in `modes`
    runs: list[tuple[str, list[str], str]]  # (script, args, stdin)
    body: str = "Run the scripts below."
    modes: dict[str, int] = field(default_factory=dict)


CASES = [
    Case(
        "early-exit",
        {"scripts/occurs.sh": """#!/usr/bin/env bash
# Say whether a number occurs in the sequence 1..100000.
#
# Usage:   occurs.sh [N]
# Input:   N, a number (default 5)
# Output:  yes or no
# Stderr:  nothing
# Exit:    0 ok
#
# Examples:
#   occurs.sh 5
set -u
n="${1:-5}"
if seq 1 100000 | grep -q "^${n}\\$"; then
  echo yes
else
  echo no
fi
"""},
        [("scripts/occurs.sh", ["5"], ""), ("scripts/occurs.sh", ["100001"], ""), ("scripts/occurs.sh", [], "")],
        body="Check a number: `bash scripts/occurs.sh 5`",
    ),
    Case(
        "errexit-head",
        {"scripts/first.sh": """#!/usr/bin/env bash
# Print the first entry of a long listing and how many letters follow.
#
# Usage:   first.sh
# Input:   none
# Output:  two lines
# Stderr:  nothing
# Exit:    0 ok
#
# Examples:
#   first.sh
set -e
first=$(seq 1 200000 | head -n 1)
echo "first: $first"
count=$(printf '%s\\n' a b c | wc -l)
echo "letters: $count"
"""},
        [("scripts/first.sh", [], "")],
        body="List: `bash scripts/first.sh`",
    ),
    Case(
        "sourced-library",
        {
            "scripts/common.sh": """# Shared helpers for the summary scripts.
log() { printf '%s\\n' "$*" >&2; }
REPORT_DIR="${REPORT_DIR:-reports}"
""",
            "scripts/summary.sh": """#!/usr/bin/env bash
# Say whether a number occurs in a long sequence, logging to stderr.
. "$(dirname "$0")/common.sh"
case "${1:-}" in
  -h|--help) echo "Usage: summary.sh [N]"; exit 0 ;;
esac
if seq 1 100000 | grep -q "^${1:-7}\\$"; then
  log "seen in $REPORT_DIR"
  echo yes
else
  echo no
fi
""",
            "scripts/count.sh": """#!/usr/bin/env bash
# Count the arguments.
source "$(dirname "$0")/common.sh"
log "counting"
echo "$#"
""",
        },
        [("scripts/summary.sh", ["--help"], ""), ("scripts/summary.sh", ["7"], ""), ("scripts/summary.sh", ["100001"], ""),
         ("scripts/count.sh", ["a", "b"], ""), ("scripts/count.sh", ["--help"], "")],
        body="Summarise: `bash scripts/summary.sh 7`; count: `bash scripts/count.sh a b`. Both source `scripts/common.sh`.",
        modes={"scripts/common.sh": 0o755},  # the exec bit, and no shebang
    ),
    Case(
        "readonly-collision",
        {
            "scripts/_lib/common.sh": """# Exit codes and checks shared by the skill's scripts.
EXIT_NOT_FOUND=3
need_file() { [ -f "$1" ] || { echo "missing: $1" >&2; exit "$EXIT_NOT_FOUND"; }; }
""",
            "scripts/check.sh": """#!/usr/bin/env bash
# Check that a file exists and print its line count.
#
# Usage:   check.sh FILE
# Input:   FILE, a path
# Output:  the number of lines
# Stderr:  errors
# Exit:    0 ok, 2 usage, 3 not found
#
# Examples:
#   check.sh SKILL.md
set -euo pipefail
[ $# -eq 1 ] || { echo "usage: check.sh FILE" >&2; exit 2; }
source "$(dirname "$0")/_lib/common.sh"
need_file "$1"
[ -r "$1" ] || exit 3
wc -l < "$1"
""",
        },
        [("scripts/check.sh", ["SKILL.md"], ""), ("scripts/check.sh", ["nope.txt"], ""), ("scripts/check.sh", [], "")],
        body="Check a file: `bash scripts/check.sh SKILL.md`",
        modes={"scripts/_lib/common.sh": 0o644},
    ),
    Case(
        "dispatcher",
        {
            "scripts/probe.sh": """#!/usr/bin/env bash
# Run the probe of this platform with the same arguments.
#
# Usage:   probe.sh [ARG...]
# Input:   the arguments of the platform's probe
# Output:  the probe's output
# Stderr:  the probe's messages
# Exit:    the probe's exit code
#
# Examples:
#   probe.sh example.org
set -euo pipefail
os=linux
exec bash "$(dirname "$0")/$os/probe.sh" "$@"
""",
            "scripts/linux/probe.sh": """#!/usr/bin/env bash
# Probe a host (Linux).
case "${1:-}" in
  -h|--help) echo "Usage: probe.sh HOST  (the Linux probe)"; exit 0 ;;
esac
echo "probing ${1:-localhost}"
""",
        },
        [("scripts/probe.sh", ["--help"], ""), ("scripts/probe.sh", ["example.org"], "")],
        body="Probe: `bash scripts/probe.sh example.org`",
    ),
    Case(
        "crlf",
        {"scripts/shout.sh": b"#!/usr/bin/env bash\r\n# Shout a word.\r\n#\r\n# Usage:   shout.sh WORD\r\n"
                             b"word=\"${1:-hi}\"\r\necho \"$word\" | tr a-z A-Z\r\nexit 2\r\n"},
        [("scripts/shout.sh", ["abc"], ""), ("scripts/shout.sh", [], "")],
        body="Shout: `bash scripts/shout.sh abc`",
    ),
    Case(
        "conditional-assignment",
        {"scripts/mode.sh": """#!/usr/bin/env bash
# Print the chosen mode.
#
# Usage:   mode.sh [-v]
# Input:   -v for the verbose mode
# Output:  the mode
# Stderr:  nothing
# Exit:    0 ok, 2 usage
#
# Examples:
#   mode.sh -v
while getopts "v" opt; do
  case $opt in
    v) verbose=1 ;;
    *) exit 2 ;;
  esac
done
if [ "$verbose" = 1 ]; then echo verbose; else echo quiet; fi
"""},
        [("scripts/mode.sh", [], ""), ("scripts/mode.sh", ["-v"], ""), ("scripts/mode.sh", ["-x"], "")],
        body="Pick a mode: `bash scripts/mode.sh -v`",
    ),
    Case(
        "all-safe",
        {"scripts/greet.sh": """#!/usr/bin/env bash
# Greet someone by name.
#
# Usage:   greet.sh NAME
# Exit:    0 ok, 2 usage
#
# Examples:
#   greet.sh Ada
set -e
name="${1:-}"
case "$name" in
  -*) echo "greet.sh: unknown option: $name" >&2; exit 2 ;;
  "") echo "greet.sh: NAME required" >&2; exit 2 ;;
esac
printf 'Hello, %s!\\n' "$name"
"""},
        [("scripts/greet.sh", [], ""), ("scripts/greet.sh", ["Ada"], ""), ("scripts/greet.sh", ["-x"], ""),
         ("scripts/greet.sh", ["--help"], "")],
        body="Greet: `bash scripts/greet.sh Ada`",
    ),
    Case(
        "reads-stdin",
        {"scripts/lengths.sh": """#!/usr/bin/env bash
# Print the length of each line read from stdin, longest first.
while IFS= read -r line; do
  echo "${#line}"
done | sort -rn
"""},
        [("scripts/lengths.sh", [], "a\nabc\nab\n"), ("scripts/lengths.sh", [], "")],
        body="Lengths: `printf 'a\\nabc\\n' | bash scripts/lengths.sh`",
    ),
]


def write_skill(root: Path, case: Case) -> Path:
    skill = root / case.name
    skill.mkdir()
    (skill / "SKILL.md").write_text(SKILL_MD.format(name=case.name, body=case.body))
    for rel, content in case.files.items():
        path = skill / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content if isinstance(content, bytes) else content.encode())
        path.chmod(case.modes.get(rel, 0o755))
    return skill


def run_script(skill: Path, script: str, args: list[str], stdin: str) -> tuple[int, str, str]:
    """``bash SCRIPT ARGS`` from the skill's folder with a fixed environment."""
    env = {"PATH": os.environ["PATH"], "LC_ALL": "C", "HOME": str(skill), "TMPDIR": str(skill)}
    proc = subprocess.run(["bash", script, *args], cwd=skill, env=env, input=stdin, capture_output=True,
                          text=True, timeout=60)
    # bash names the line in its own messages; a header the fix adds moves it
    stderr = re.sub(r"(: line )\d+(:)", r"\1N\2", proc.stderr)
    return proc.returncode, proc.stdout, stderr


def fixed_case(tmp_path: Path, case: Case):
    skill = write_skill(tmp_path, case)
    before = {i: run_script(skill, s, a, i_) for i, (s, a, i_) in enumerate(case.runs)}
    original = {rel: (skill / rel).read_bytes() for rel in case.files}
    r = run_cli("fix", str(skill), "--json", *WITH_CON014, cwd=tmp_path)
    assert r.code in (0, 10), r.stdout + r.stderr
    after = {i: run_script(skill, s, a, i_) for i, (s, a, i_) in enumerate(case.runs)}
    return skill, before, after, original, r.json()["data"]


def got_help_branch(original: bytes, now: bytes) -> bool:
    return b"-h|--help) awk" in now and b"-h|--help) awk" not in original


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_the_safe_fix_keeps_exit_code_stdout_and_stderr(tmp_path, case):
    skill, before, after, original, _rows = fixed_case(tmp_path, case)
    for i, (script, args, _stdin) in enumerate(case.runs):
        if "--help" in args and got_help_branch(original[script], (skill / script).read_bytes()):
            assert after[i][0] == 0  # the new branch prints the header
            continue
        assert after[i] == before[i], f"{script} {args}: behaviour changed"


def findings(skill: Path, rel: str) -> list[dict]:
    r = run_cli("check", str(skill), "--json", "--no-cache", *WITH_CON014)
    return [f for f in r.json()["data"] if f["path"].endswith(rel)]


def test_pipefail_waits_where_a_reader_stops_early(tmp_path):
    case = next(c for c in CASES if c.name == "early-exit")
    skill, before, after, *_ = fixed_case(tmp_path, case)
    text = (skill / "scripts/occurs.sh").read_text()
    assert "pipefail" not in text
    assert before[0][1] == "yes\n"
    (shl001,) = [f for f in findings(skill, "occurs.sh") if f["rule"] == "SHL001"]
    assert shl001["fix"] == "unsafe"
    assert "`grep -q \"^${n}\\$\"` may stop reading early" in shl001["message"]
    # the hazard is real: the unsafe fix turns `yes` into `no`
    r = run_cli("fix", str(skill), "--unsafe-fixes", "--select", "SHL001", cwd=tmp_path)
    assert r.code in (0, 10), r.stderr
    assert "pipefail" in (skill / "scripts/occurs.sh").read_text()
    assert run_script(skill, "scripts/occurs.sh", ["5"], "")[1] == "no\n"


def test_pipefail_waits_under_errexit(tmp_path):
    case = next(c for c in CASES if c.name == "errexit-head")
    skill, before, *_ = fixed_case(tmp_path, case)
    assert before[0][1] == "first: 1\nletters: 3\n"
    assert "pipefail" not in (skill / "scripts/first.sh").read_text()
    (shl001,) = [f for f in findings(skill, "first.sh") if f["rule"] == "SHL001"]
    assert shl001["fix"] == "unsafe" and "head -n 1" in shl001["message"]


def test_a_sourced_library_gets_no_code(tmp_path):
    case = next(c for c in CASES if c.name == "sourced-library")
    skill, *_ = fixed_case(tmp_path, case)
    lib = (skill / "scripts/common.sh").read_text()
    assert "set -" not in lib and "case " not in lib and "readonly" not in lib
    # a caller's strict mode would run the library's code too, which the check cannot see
    assert "pipefail" not in (skill / "scripts/count.sh").read_text()
    # the callers keep their own --help
    assert run_script(skill, "scripts/summary.sh", ["--help"], "")[1] == "Usage: summary.sh [N]\n"


def test_no_readonly_where_a_sourced_file_assigns_the_name(tmp_path):
    case = next(c for c in CASES if c.name == "readonly-collision")
    skill, before, *_ = fixed_case(tmp_path, case)
    assert before[1] == (3, "", "missing: nope.txt\n")
    assert "readonly" not in (skill / "scripts/check.sh").read_text()
    con014 = [f for f in findings(skill, "check.sh") if f["rule"] == "CON014"]
    assert con014 and all(f["fix"] == "unsafe" and "readonly variable" in f["message"] for f in con014)
    # the hazard is real: with the unsafe fix the sourced assignment fails and set -e stops the script
    run_cli("fix", str(skill), "--unsafe-fixes", "--select", "CON014", cwd=tmp_path)
    code, _out, err = run_script(skill, "scripts/check.sh", ["nope.txt"], "")
    assert "readonly variable" in err and code == 1


def test_a_dispatcher_keeps_the_help_of_the_program_it_runs(tmp_path):
    case = next(c for c in CASES if c.name == "dispatcher")
    skill, before, after, *_ = fixed_case(tmp_path, case)
    assert before[0][1] == after[0][1] == "Usage: probe.sh HOST  (the Linux probe)\n"
    (con009,) = [f for f in findings(skill, "scripts/probe.sh") if f["rule"] == "CON009"]
    assert con009["fix"] == "unsafe" and "passes all its arguments" in con009["message"]


def test_a_crlf_script_gets_comments_only(tmp_path):
    case = next(c for c in CASES if c.name == "crlf")
    skill, _b, _a, original, _rows = fixed_case(tmp_path, case)
    data = (skill / "scripts/shout.sh").read_bytes()
    assert data.count(b"\r\n") == data.count(b"\n")
    code_lines = lambda d: [ln for ln in d.split(b"\r\n") if ln and not ln.startswith(b"#")]  # noqa: E731
    assert code_lines(data) == code_lines(original["scripts/shout.sh"])
    assert data != original["scripts/shout.sh"]  # the header got fields


def test_nounset_waits_for_variables_assigned_on_some_paths(tmp_path):
    case = next(c for c in CASES if c.name == "conditional-assignment")
    skill, *_ = fixed_case(tmp_path, case)
    text = (skill / "scripts/mode.sh").read_text()
    assert "set -u" not in text
    (shl001,) = [f for f in findings(skill, "mode.sh") if f["rule"] == "SHL001"]
    assert "where it reads $verbose (line" in shl001["message"]


def test_a_script_with_nothing_at_risk_gets_every_safe_fix(tmp_path):
    case = next(c for c in CASES if c.name == "all-safe")
    skill, _b, after, original, rows = fixed_case(tmp_path, case)
    text = (skill / "scripts/greet.sh").read_text()
    assert "set -euo pipefail" in text and 'exit "$EXIT_USAGE"' in text and "-h|--help) awk" in text
    assert {"sh_header", "sh_help", "sh_strict_mode", "sh_exit_constants"} <= set(rows[0]["fixers"])
    code, out, _ = after[3]
    assert code == 0 and out.startswith("Greet someone by name.\n")


def test_the_fixed_skills_need_nothing_more_from_fix(tmp_path):
    for case in CASES:
        skill = write_skill(tmp_path, case)
        run_cli("fix", str(skill), *WITH_CON014, cwd=tmp_path)
        r = run_cli("fix", str(skill), "--check", *WITH_CON014, cwd=tmp_path)
        assert r.code == 0, f"{case.name}: {r.stdout}{r.stderr}"
        shutil.rmtree(skill)
