"""``check --run``: entry scripts really run, in a throwaway setting, and only when asked."""

from __future__ import annotations

import json
import os
import time

import pytest
from conftest import EXAMPLE, run_cli, write_tree

SKILL_MD = """---
name: {name}
description: A skill whose scripts are run by the tests. Use when testing check --run.
---

# {name}

Run `scripts/tool.sh --json input.txt` or `python3 scripts/tool.py input.txt`.
"""

GOOD_SH = """#!/usr/bin/env bash
# Echo a file name.
#
# Usage:   tool.sh [--json] FILE
# Input:   FILE
# Output:  the name
# Stderr:  errors only
# Exit:    0 ok, 2 usage
#
# Examples:
#   tool.sh input.txt
set -uo pipefail
case "${1:-}" in
  -h|--help) sed -n '2,11p' "$0" | sed 's/^# \\{0,1\\}//'; exit 0 ;;
  -*) echo "tool.sh: unknown option: $1" >&2; exit 2 ;;
esac
echo "${1:-}"
"""

GOOD_PY = '''#!/usr/bin/env python3
"""Echo a file name.

Usage: tool.py FILE
"""
import argparse

EPILOG = """examples:
  tool.py input.txt
"""

def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, epilog=EPILOG,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("file")
    args = parser.parse_args()
    print(args.file)
    return 0

if __name__ == "__main__":
    raise SystemExit(main())
'''


def make_skill(tmp_path, scripts: dict[str, str], name="runner"):
    root = tmp_path / name
    write_tree(root, {"SKILL.md": SKILL_MD.format(name=name), **{f"scripts/{k}": v for k, v in scripts.items()}})
    return root


def run_findings(root, *extra):
    r = run_cli("check", str(root), "--run", "--select", "RUN", "--json", "--no-cache", *extra, timeout=120)
    assert "Traceback" not in r.stderr
    return r, r.json()["data"]


def test_well_behaved_scripts_pass(tmp_path):
    root = make_skill(tmp_path, {"tool.sh": GOOD_SH, "tool.py": GOOD_PY})
    r, found = run_findings(root)
    assert found == [], r.stdout
    assert r.code == 0


def test_example_skill_passes_with_run():
    r = run_cli("check", str(EXAMPLE), "--run", "--no-cache")
    assert r.code == 0, r.stdout + r.stderr


def test_help_on_stderr_with_exit_1_is_run001(tmp_path):
    script = "#!/usr/bin/env bash\nset -uo pipefail\nif [ \"${1:-}\" = --help ]; then echo 'Examples: x' >&2; exit 1; fi\nexit 2\n"
    root = make_skill(tmp_path, {"bad.sh": script})
    r, found = run_findings(root)
    assert r.code == 10
    messages = [f["message"] for f in found if f["rule"] == "RUN001"]
    assert any("exited 1; want 0" in m for m in messages), messages
    assert any("help belongs on stdout" in m for m in messages), messages
    assert {f["rule"] for f in found} == {"RUN001"}


def test_help_without_examples_is_run001(tmp_path):
    script = GOOD_PY.replace('EPILOG = """examples:\n  tool.py input.txt\n"""', 'EPILOG = "see the docs"')
    root = make_skill(tmp_path, {"tool.py": script})
    r, found = run_findings(root)
    assert [(f["rule"], "EXAMPLES" in f["message"]) for f in found] == [("RUN001", True)]


def test_unknown_flag_accepted_is_run002(tmp_path):
    script = GOOD_SH.replace('  -*) echo "tool.sh: unknown option: $1" >&2; exit 2 ;;\n', "")
    root = make_skill(tmp_path, {"tool.sh": script})
    r, found = run_findings(root)
    assert [(f["rule"], f["path"].endswith("scripts/tool.sh")) for f in found] == [("RUN002", True)]
    assert "exited 0; want 2" in found[0]["message"]


def probe_script(marker) -> str:
    """A script that records where and how it ran."""
    return f"""#!/usr/bin/env python3
import json, os, sys
with open({str(marker)!r}, "a") as fh:
    fh.write(json.dumps({{"argv": sys.argv[1:], "cwd": os.getcwd(), "env": dict(os.environ),
                          "stdin": sys.stdin.read()}}) + "\\n")
print("examples: probe.py --help")
sys.exit(0 if sys.argv[1:] == ["--help"] else 2)
"""


def test_nothing_runs_without_run(tmp_path):
    marker = tmp_path / "ran.jsonl"
    root = make_skill(tmp_path, {"probe.py": probe_script(marker)})
    r = run_cli("check", str(root), "--json", "--no-cache")
    assert "Traceback" not in r.stderr
    assert not marker.exists()
    assert not any(f["rule"].startswith("RUN") for f in r.json()["data"])


def test_run_setting_is_trimmed_and_temporary(tmp_path):
    marker = tmp_path / "ran.jsonl"
    root = make_skill(tmp_path, {"probe.py": probe_script(marker)})
    r = run_cli("check", str(root), "--run", "--select", "RUN", "--json", "--no-cache",
                env={"SKILLSMITH_TEST_SECRET": "hunter2"}, input="data on stdin")
    assert r.code == 0, r.stdout + r.stderr
    runs = [json.loads(line) for line in marker.read_text().splitlines()]
    assert sorted(run["argv"][0] for run in runs) == ["--help", "--skillsmith-no-such-flag"]
    for run in runs:
        env = run["env"]
        assert "SKILLSMITH_TEST_SECRET" not in env
        assert env["TERM"] == "dumb"
        assert env["HOME"] != os.environ.get("HOME")
        assert "skillsmith-run-" in env["HOME"]
        assert run["cwd"] != str(root) and "skillsmith-run-" in run["cwd"]
        assert run["stdin"] == ""  # the checker's own stdin is not passed on
        assert not os.path.exists(env["HOME"])  # removed after the run
    assert not (root / "scripts" / "__pycache__").exists()


def test_timeout_kills_the_process_group(tmp_path):
    pidfile = tmp_path / "child.pid"
    script = f"""#!/usr/bin/env bash
set -uo pipefail
sleep 300 &
echo $! >> {pidfile}
sleep 300
"""
    root = make_skill(tmp_path, {"hang.sh": script})
    started = time.monotonic()
    r, found = run_findings(root, "--timeout", "1")
    assert time.monotonic() - started < 60  # both runs were cut short (a guard, not a timing goal)
    assert sorted(f["rule"] for f in found) == ["RUN001", "RUN002"]
    assert all("did not finish within 1 s" in f["message"] for f in found)
    for pid in map(int, pidfile.read_text().split()):
        assert not os.path.exists(f"/proc/{pid}") or "Z" in open(f"/proc/{pid}/stat").read().split()[2]


def test_libraries_are_not_run(tmp_path):
    marker = tmp_path / "ran.jsonl"
    root = make_skill(tmp_path, {"tool.sh": GOOD_SH, "lib/probe.py": probe_script(marker)})
    r, found = run_findings(root)
    assert found == [], r.stdout
    assert not marker.exists()


def test_bad_timeout_is_usage_error(tmp_path):
    root = make_skill(tmp_path, {"tool.sh": GOOD_SH})
    r = run_cli("check", str(root), "--run", "--timeout", "0", "--json")
    assert r.code == 2
    assert r.json()["error"]["code"] == "USAGE"


@pytest.mark.parametrize("value", ["inf", "-inf", "infinity"])
def test_an_endless_timeout_is_usage_error(tmp_path, value):
    """`--timeout inf` was accepted: no run could ever time out (`nan`: tests/test_cli_user_errors.py)."""
    root = make_skill(tmp_path, {"tool.sh": GOOD_SH})
    r = run_cli("check", str(root), "--run", f"--timeout={value}", "--json")
    assert r.code == 2, r.stdout + r.stderr
    assert r.json()["error"]["code"] == "USAGE" and "--timeout" in r.stderr
