"""Every word the shell header fix writes is true: expected header text per script, and examples that run.

Each case is a skill written for the test, whose scripts say what they do in their own way
(a ``usage()`` function, an author's exit list, ``$1`` and stdin reads, worked invocations in
``SKILL.md``, some with placeholders). After ``fix`` the header block of each script must be
exactly the expected text: fields from evidence, none without. Then every example the fix
wrote is run from a copy of the skill in a temporary folder: it must not exit 2 (usage) nor
say that its own arguments are not found.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from conftest import WITH_CON014, run_cli, write_tree

SKILL_MD = """---
name: logs
description: Summarise logs and check repositories, written for the truth tests of the shell fixes.
---
# logs

Summarise a log: `bash scripts/summarise.sh --top 3 assets/app.log`
Or any log: `scripts/summarise.sh <file>`; help: `scripts/summarise.sh --help`.

```bash
scripts/gitcheck.sh
scripts/report.sh --team TEAM_FILE
printf 'a\\nb\\n' | bash scripts/env_report.sh
REPORT_TOKEN=x bash scripts/env_report.sh < assets/app.log
scripts/bare.sh
```
"""

SCRIPTS = {
    "scripts/summarise.sh": """#!/usr/bin/env bash
# Summarise a log file: the most frequent lines first.
set -euo pipefail

usage() {
  echo "Usage: $(basename "$0") [--json] [--top N] FILE"
}

top=10
json=0
while [[ $# -gt 0 ]]; do
  case "$1" in
    --json) json=1; shift ;;
    --top) top="$2"; shift 2 ;;
    -*) usage >&2; exit 2 ;;
    *) break ;;
  esac
done
file="${1:-}"
[ -n "$file" ] || { usage >&2; exit 2; }
[ -f "$file" ] || { echo "summarise.sh: no such file: $file" >&2; exit 3; }
if [ "$json" = 1 ]; then
  sort "$file" | uniq -c | sort -rn | head -n "$top" | awk '{ printf "{\\"count\\": %d}\\n", $1 }'
else
  sort "$file" | uniq -c | sort -rn | head -n "$top"
fi
""",
    "scripts/gitcheck.sh": """#!/usr/bin/env bash
# Tell whether the current folder is inside a git work tree.
set -uo pipefail

usage() {
  cat <<EOF
Usage: gitcheck.sh

Exit codes:
  0  inside a work tree
  2  not a git repository
EOF
}

if ! git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  echo "gitcheck.sh: not a git repository" >&2
  exit 2
fi
echo inside
""",
    "scripts/env_report.sh": """#!/usr/bin/env bash
# Count the lines on stdin, tagged with the report token.
set -uo pipefail
count=0
while IFS= read -r _line; do
  count=$((count + 1))
done
echo "${REPORT_TOKEN:-none}: $count"
""",
    "scripts/report.sh": """#!/usr/bin/env bash
# Print the members of a team file.
team=""
case "${1:-}" in
  --team) team="$2" ;;
esac
cat "$team"
""",
    "scripts/bare.sh": """#!/usr/bin/env bash
set -uo pipefail
echo "no header here"
""",
}

#: the header block of each script after the fix, line for line
EXPECTED = {
    "scripts/summarise.sh": [
        "# Summarise a log file: the most frequent lines first.",
        "#",
        "# Usage:   summarise.sh [--json] [--top N] FILE",
        "# Input:   arguments as in Usage",
        "# Output:  text on stdout; with --json, JSON",
        "# Stderr:  error messages",
        "# Exit:    0 ok, 2 usage, 3 not found",
        "#",
        "# Examples:",
        "#   bash scripts/summarise.sh --top 3 assets/app.log",
    ],
    "scripts/gitcheck.sh": [
        "# Tell whether the current folder is inside a git work tree.",
        "#",
        "# Usage:   gitcheck.sh",
        "# Input:   none",
        "# Output:  text on stdout",
        "# Stderr:  error messages",
        "# Exit:    0 inside a work tree, 2 not a git repository",
        "#",
        "# Examples:",
        "#   scripts/gitcheck.sh",
    ],
    "scripts/env_report.sh": [
        "# Count the lines on stdin, tagged with the report token.",
        "#",
        "# Usage:   env_report.sh",
        "# Input:   stdin; environment REPORT_TOKEN",
        "# Output:  text on stdout",
        "# Exit:    0 ok",
        "#",
        "# Examples:",
        "#   printf 'a\\nb\\n' | bash scripts/env_report.sh",
        "#   REPORT_TOKEN=x bash scripts/env_report.sh < assets/app.log",
    ],
    "scripts/report.sh": [
        "# Print the members of a team file.",
        "#",
        "# Usage:   report.sh [--team TEAM]",
        "# Input:   arguments as in Usage",
        "# Output:  text on stdout",
        "# Exit:    0 ok",
    ],
    "scripts/bare.sh": None,  # no description anywhere: no header is written
}


@pytest.fixture(scope="module")
def fixed_skill(tmp_path_factory):
    root = tmp_path_factory.mktemp("truth")
    skill = write_tree(root / "logs", {"SKILL.md": SKILL_MD, "assets/app.log": "a\nb\na\n", **SCRIPTS})
    r = run_cli("fix", str(skill), *WITH_CON014, cwd=root)
    assert r.code in (0, 10), r.stdout + r.stderr
    check = run_cli("check", str(skill), "--json", "--no-cache", *WITH_CON014, cwd=root).json()["data"]
    return skill, check


def header_block(path: Path) -> list[str] | None:
    lines = path.read_text().splitlines()
    block = []
    for line in lines[1:]:
        if not line.startswith("#"):
            break
        block.append(line)
    return block or None


@pytest.mark.parametrize("rel", sorted(EXPECTED))
def test_the_header_says_what_the_script_does(fixed_skill, rel):
    skill, _ = fixed_skill
    assert header_block(skill / rel) == EXPECTED[rel]


def test_a_code_the_author_gave_another_meaning_keeps_its_number(fixed_skill):
    skill, check = fixed_skill
    assert "exit 2\n" in (skill / "scripts/gitcheck.sh").read_text()  # not EXIT_USAGE
    (con014,) = [f for f in check if f["rule"] == "CON014" and f["path"].endswith("gitcheck.sh")]
    assert con014["fix"] is None
    assert 'exit 2 means "not a git repository" here, but the protocol\'s 2 is usage' in con014["message"]


def test_what_has_no_evidence_is_left_to_a_person_and_said(fixed_skill):
    _, check = fixed_skill
    by = {(Path(f["path"]).name, f["rule"]): f for f in check}
    assert "add a one-line description" in by[("bare.sh", "CON004")]["message"]
    assert by[("bare.sh", "CON004")]["fix"] is None
    report = by[("report.sh", "CON006")]
    assert report["fix"] is None and "Examples: add a worked invocation" in report["message"]
    assert not any(f["fix"] == "safe" for f in check if f["path"].endswith(".sh"))


def examples(skill: Path) -> list[tuple[str, str]]:
    found = []
    for path in sorted((skill / "scripts").glob("*.sh")):
        block = header_block(path) or []
        inside = False
        for line in block:
            text = re.sub(r"^# ?", "", line)
            if text.startswith("Examples:"):
                inside = True
                continue
            if inside and text.startswith("  "):
                found.append((path.name, text.strip()))
    return found


def test_no_example_is_a_help_flag_or_a_placeholder(fixed_skill):
    skill, _ = fixed_skill
    written = [ex for _name, ex in examples(skill)]
    assert written, "the cases write examples"
    assert not any("--help" in ex or re.search(r"<\w", ex) or "TEAM_FILE" in ex for ex in written)


def test_every_example_runs_from_a_copy_of_the_skill(fixed_skill, tmp_path):
    skill, _ = fixed_skill
    copy = tmp_path / "logs"
    shutil.copytree(skill, copy)
    subprocess.run(["git", "init", "-q"], cwd=copy, check=True)  # gitcheck.sh is run inside a work tree
    env = {"PATH": os.environ["PATH"], "LC_ALL": "C", "HOME": str(tmp_path)}
    for name, example in examples(copy):
        proc = subprocess.run(["bash", "-c", example], cwd=copy, env=env, capture_output=True, text=True,
                              timeout=60, stdin=subprocess.DEVNULL)
        assert proc.returncode != 2, f"{name}: `{example}` is a usage error: {proc.stderr}"
        args = example.split()[example.split().index(next(w for w in example.split() if w.endswith(name))) + 1:]
        said = (proc.stdout + proc.stderr).lower()
        for arg in args:
            assert not re.search(rf"(not found|no such file)[^\n]*{re.escape(arg.lower())}", said), \
                f"{name}: `{example}` reports {arg} as not found"



GENERATOR = """#!/usr/bin/env bash
# Write a Dockerfile for a Go program.

set -euo pipefail

PORT=8080
ALPINE=0

usage() {
    cat <<EOF
Usage: $0 [OPTIONS]

OPTIONS:
    -p, --port PORT   port to expose (default: 8080)
    --alpine          use an Alpine base
    -h, --help        show this help

EXAMPLES:
    # the defaults
    $0

    # Alpine, another port
    $0 --alpine --port 9090

EOF
    exit 0
}

while [[ $# -gt 0 ]]; do
    case $1 in
        -p|--port) PORT="$2"; shift 2 ;;
        --alpine) ALPINE=1; shift ;;
        -h|--help) usage ;;
        *) echo "unknown option: $1" >&2; exit 2 ;;
    esac
done
printf 'FROM %s\\nEXPOSE %s\\n' "$([ "$ALPINE" = 1 ] && echo golang:alpine || echo golang)" "$PORT"
"""


def test_examples_spaced_out_under_their_comments_are_all_read(tmp_path):
    """A usage text whose examples each follow a comment and a blank line: every one is an example."""
    root = write_tree(tmp_path / "gen", {
        "SKILL.md": "---\nname: gen\ndescription: Write Dockerfiles. Use when containerising a Go program.\n---\n"
                    "Run `bash scripts/gen.sh --port 8081`.\n",
        "scripts/gen.sh": GENERATOR,
    })
    run_cli("fix", str(root))
    text = (root / "scripts" / "gen.sh").read_text()
    head = text.split("\nset -euo pipefail")[0]
    assert "#   gen.sh --alpine --port 9090" in head, head
    for example in ("bash scripts/gen.sh --port 8081", "bash scripts/gen.sh --alpine --port 9090"):
        proc = subprocess.run(example.split(), cwd=root, capture_output=True, text=True, timeout=30,
                              stdin=subprocess.DEVNULL)
        assert proc.returncode == 0 and "EXPOSE" in proc.stdout, (example, proc.stderr)


def test_output_says_when_a_shell_script_writes_files(tmp_path):
    """A generator that writes its product with `cat > "$OUT"`: stdout is not all it makes."""
    root = write_tree(tmp_path / "gen", {
        "SKILL.md": "---\nname: gen\ndescription: Write a file. Use when a file is wanted.\n---\n"
                    "Run `bash scripts/make.sh out.txt`.\n",
        "scripts/make.sh": '#!/usr/bin/env bash\n# Write a greeting into a file.\n\nset -uo pipefail\n\n'
                           'out="${1:-out.txt}"\ncat > "$out" <<EOF\nhello\nEOF\necho "wrote $out"\n',
    })
    run_cli("fix", str(root))
    head = (root / "scripts" / "make.sh").read_text().split("\nset -uo pipefail")[0]
    assert "# Output:  text on stdout; writes files" in head, head
