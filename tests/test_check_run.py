"""``check --run``: entry scripts really run, in a sandbox (or, when asked, without one), and only when asked."""

from __future__ import annotations

import json
import os
import shutil
import socket
import sys
import threading
import time
import uuid

import pytest
from conftest import EXAMPLE, RUN_FLAGS, needs_sandbox, run_cli, survivors, write_tree

#: both ways scripts run: in the sandbox (where there is one) and --unsandboxed
MODES = [pytest.param([], id="sandbox", marks=needs_sandbox), pytest.param(["--unsandboxed"], id="unsandboxed")]

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


def run_findings(root, *extra, mode=None, **kw):
    flags = RUN_FLAGS if mode is None else mode
    r = run_cli("check", str(root), "--run", *flags, "--select", "RUN", "--json", "--no-cache", *extra, timeout=120, **kw)
    assert "Traceback" not in r.stderr
    return r, r.json()["data"]


def test_well_behaved_scripts_pass(tmp_path):
    root = make_skill(tmp_path, {"tool.sh": GOOD_SH, "tool.py": GOOD_PY})
    r, found = run_findings(root)
    assert found == [], r.stdout
    assert r.code == 0


def test_example_skill_passes_with_run():
    r = run_cli("check", str(EXAMPLE), "--run", *RUN_FLAGS, "--no-cache")
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


def test_unsandboxed_setting_is_trimmed_and_temporary(tmp_path):
    marker = tmp_path / "ran.jsonl"
    root = make_skill(tmp_path, {"probe.py": probe_script(marker)})
    r = run_cli("check", str(root), "--run", "--unsandboxed", "--select", "RUN", "--json", "--no-cache",
                env={"SKILLSMITH_TEST_SECRET": "hunter2"}, input="data on stdin")
    assert r.code == 0, r.stdout + r.stderr
    assert "--unsandboxed: the scripts ran as you" in r.stderr
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


def judging_probe(**baked) -> str:
    """A script that checks, from inside, what it can reach; it exits 2 (and prints EXAMPLES for
    --help) only when it could reach none of it, else 3 with what it reached on stderr. It
    also tries to write each path of ``write``.

    Run with ``--select RUN``: no finding means the script ran and reached nothing.
    """
    return f"""#!/usr/bin/env python3
import os, socket, sys
baked = {baked!r}
reached = []
if "secret_env" in baked and baked["secret_env"] in os.environ:
    reached.append("the checker's environment")
if "real_home" in baked and os.environ.get("HOME") == baked["real_home"]:
    reached.append("the real HOME variable")
for path in baked.get("read", []):
    try:
        with open(path) as fh:
            fh.read()
        reached.append("read " + path)
    except OSError:
        pass
for path in baked.get("write", []):  # whether it arrives is for the test to see
    try:
        with open(path, "w") as fh:
            fh.write("escaped")
    except OSError:
        pass
for port in baked.get("connect", []):
    try:
        socket.create_connection(("127.0.0.1", port), timeout=3).close()
        reached.append("connected to port %d" % port)
    except OSError:
        pass
if sys.stdin.read():
    reached.append("the checker's stdin")
for place in ("HOME", "TMPDIR"):  # its own folders are writable
    with open(os.path.join(os.environ[place], "scratch"), "w") as fh:
        fh.write("ok")
with open("in-cwd", "w") as fh:
    fh.write("ok")
if reached:
    print("reached: " + ", ".join(reached), file=sys.stderr)
    sys.exit(3)
if sys.argv[1:] == ["--help"]:
    print("examples: probe.py --help")
    sys.exit(0)
sys.exit(2)
"""


@needs_sandbox
def test_sandbox_setting_is_trimmed_and_private(tmp_path):
    real_home = tmp_path / "home"
    real_home.mkdir()
    secret = real_home / ".secret"
    secret.write_text("hunter2")
    probe = judging_probe(secret_env="SKILLSMITH_TEST_SECRET", real_home=str(real_home), read=[str(secret)])
    root = make_skill(tmp_path, {"probe.py": probe})
    r, found = run_findings(root, mode=[], env={"SKILLSMITH_TEST_SECRET": "hunter2", "HOME": str(real_home)},
                            input="data on stdin")
    assert found == [], r.stdout  # it ran, and reached none of it
    assert r.code == 0
    assert not (root / "scripts" / "__pycache__").exists()


@needs_sandbox
def test_sandboxed_script_cannot_write_outside_its_temporary_folders(tmp_path):
    outside = tmp_path / "outside.txt"
    in_skill = tmp_path / "runner" / "scripts" / "dropped.txt"
    root = make_skill(tmp_path, {"probe.py": judging_probe(write=[str(outside), str(in_skill)])})
    r, found = run_findings(root, mode=[])
    assert found == [], r.stdout
    assert not outside.exists() and not in_skill.exists()


@needs_sandbox
def test_sandboxed_script_writes_to_a_private_tmp(tmp_path):
    host_tmp = f"/tmp/skillsmith-test-{uuid.uuid4().hex}"
    script = f"#!/usr/bin/env bash\necho escaped > {host_tmp} || exit 7\nexit 2\n"
    root = make_skill(tmp_path, {"tmp.sh": script})
    r, found = run_findings(root, mode=[])
    assert any("--help` exited 2; want 0" in f["message"] for f in found), r.stdout  # it ran, and could write its /tmp
    assert {f["rule"] for f in found} == {"RUN001"}
    assert not os.path.exists(host_tmp)


@needs_sandbox
def test_sandboxed_script_cannot_open_a_connection(tmp_path):
    accepted = []
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        server.settimeout(0.2)
        port = server.getsockname()[1]
        done = threading.Event()

        def accept():
            while not done.is_set():
                try:
                    accepted.append(server.accept()[0])
                except OSError:
                    pass

        thread = threading.Thread(target=accept)
        thread.start()
        try:
            root = make_skill(tmp_path, {"probe.py": judging_probe(connect=[port])})
            r, found = run_findings(root, mode=[])
        finally:
            done.set()
            thread.join()
    assert accepted == [] and found == [], r.stdout


@pytest.fixture
def marker():
    """A unique process name; whatever still carries it after the test is killed."""
    name = f"skillsmith-escapee-{uuid.uuid4().hex[:12]}"
    yield name
    for pid in survivors(name):
        os.kill(pid, 9)


def escaping_script(marker: str, then: str) -> str:
    """A script that leaves a double-forked sleeper named *marker* in a new session, then runs *then*."""
    return f"""#!/usr/bin/env bash
set -uo pipefail
( setsid bash -c 'exec -a {marker} sleep 300' < /dev/null > /dev/null 2>&1 & )
sleep 0.5
{then}
"""


needs_proc = pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="needs /proc to look for processes")


@needs_proc
@pytest.mark.parametrize("mode", MODES)
def test_nothing_outlives_a_run(tmp_path, marker, mode):
    root = make_skill(tmp_path, {"leave.sh": escaping_script(marker, "exit 2")})
    r, found = run_findings(root, mode=mode)
    assert any("--help` exited 2; want 0" in f["message"] for f in found), r.stdout  # it ran
    assert {f["rule"] for f in found} == {"RUN001"}
    assert survivors(marker) == []


@needs_proc
@pytest.mark.parametrize("mode", MODES)
def test_timeout_kills_everything_the_script_started(tmp_path, marker, mode):
    root = make_skill(tmp_path, {"hang.sh": escaping_script(marker, f"exec -a {marker}-fg sleep 300")})
    started = time.monotonic()
    r, found = run_findings(root, "--timeout", "2", mode=mode)
    assert time.monotonic() - started < 60  # both runs were cut short (a guard, not a timing goal)
    assert sorted(f["rule"] for f in found) == ["RUN001", "RUN002"]
    assert all("did not finish within 2 s" in f["message"] for f in found)
    assert survivors(marker) == []


@pytest.mark.parametrize("mode", MODES)
def test_endless_output_is_not_spooled_to_disk(tmp_path, mode):
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    root = make_skill(tmp_path, {"flood.sh": "#!/usr/bin/env bash\nexec yes skillsmith-flood\n"})
    largest = [0]
    stop = threading.Event()

    def watch():  # the most the checker's temporary folder held at any moment
        while not stop.is_set():
            size = 0
            for folder, _, names in os.walk(scratch):
                for name in names:
                    try:
                        size += os.lstat(os.path.join(folder, name)).st_size
                    except OSError:
                        pass
            largest[0] = max(largest[0], size)
            time.sleep(0.05)

    thread = threading.Thread(target=watch)
    thread.start()
    try:
        r, found = run_findings(root, "--timeout", "2", mode=mode, env={"TMPDIR": str(scratch)})
    finally:
        stop.set()
        thread.join()
    assert sorted(f["rule"] for f in found) == ["RUN001", "RUN002"], r.stdout
    assert largest[0] < 1024 * 1024, f"{largest[0]} bytes of output spooled to {scratch}"


def test_without_a_sandbox_run_refuses(tmp_path):
    marker = tmp_path / "ran.jsonl"
    root = make_skill(tmp_path, {"probe.py": probe_script(marker)})
    tools = tmp_path / "bin"  # a PATH with the interpreters and no bwrap
    tools.mkdir()
    (tools / "python3").symlink_to(os.path.realpath(sys.executable))
    for tool in ("bash", "true"):
        (tools / tool).symlink_to(os.path.realpath(shutil.which(tool)))
    env = {"PATH": str(tools)}
    r = run_cli("check", str(root), "--run", "--select", "RUN", "--json", "--no-cache", env=env)
    assert r.code == 5, r.stdout + r.stderr
    error = r.json()["error"]
    assert error["code"] == "MISSING_DEPENDENCY"
    assert "bubblewrap" in error["message"] and "--unsandboxed" in error["message"]
    assert not marker.exists()  # nothing ran
    r = run_cli("check", str(root), "--run", "--unsandboxed", "--select", "RUN", "--json", "--no-cache", env=env)
    assert r.code == 0, r.stdout + r.stderr
    assert marker.exists()


def test_libraries_are_not_run(tmp_path):
    marker = tmp_path / "ran.jsonl"
    root = make_skill(tmp_path, {"tool.sh": GOOD_SH, "lib/probe.py": probe_script(marker)})
    r, found = run_findings(root)
    assert found == [], r.stdout
    assert not marker.exists()


def test_bad_timeout_is_usage_error(tmp_path):
    root = make_skill(tmp_path, {"tool.sh": GOOD_SH})
    r = run_cli("check", str(root), "--run", *RUN_FLAGS, "--timeout", "0", "--json")
    assert r.code == 2
    assert r.json()["error"]["code"] == "USAGE"


@pytest.mark.parametrize("value", ["inf", "-inf", "infinity"])
def test_an_endless_timeout_is_usage_error(tmp_path, value):
    """`--timeout inf` was accepted: no run could ever time out (`nan`: tests/test_cli_user_errors.py)."""
    root = make_skill(tmp_path, {"tool.sh": GOOD_SH})
    r = run_cli("check", str(root), "--run", f"--timeout={value}", "--json")
    assert r.code == 2, r.stdout + r.stderr
    assert r.json()["error"]["code"] == "USAGE" and "--timeout" in r.stderr


JSON_PY = '''#!/usr/bin/env python3
"""Count the lines of a file.

Usage: tool.py [--json] FILE
"""
import argparse
import json
import sys

EPILOG = """examples:
  tool.py --json input.txt
"""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, epilog=EPILOG,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("file")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    try:
        with open(args.file, encoding="utf-8") as fh:
            rows = [{"line": line.rstrip("\\n")} for line in fh]
    except FileNotFoundError:
        MISSING
    OUTPUT
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
'''
ENVELOPE = 'print(json.dumps({"data": rows, "meta": {"count": len(rows), "schema": "runner.tool/v1"}}))'
ERROR_ENVELOPE = ('print(f"tool.py: {args.file}: no such file", file=sys.stderr)\n'
                  '        print(json.dumps({"error": {"code": "NOT_FOUND", "message": "no such file", "details": {}}}))\n'
                  '        return 3')
JSON_SKILL_MD = SKILL_MD.replace("Run `scripts/tool.sh --json input.txt` or `python3 scripts/tool.py input.txt`.",
                                 "Count lines: `python3 scripts/tool.py --json assets/input.txt | jq '.data[]'`.")


def json_skill(tmp_path, missing: str, output: str):
    root = tmp_path / "runner"
    script = JSON_PY.replace("MISSING", missing).replace("OUTPUT", output)
    write_tree(root, {"SKILL.md": JSON_SKILL_MD.format(name="runner"), "scripts/tool.py": script,
                      "assets/input.txt": "a\nb\n"})
    return root


def test_json_envelopes_pass_run003_and_run004(tmp_path):
    root = json_skill(tmp_path, ERROR_ENVELOPE, ENVELOPE)
    r, found = run_findings(root)
    assert found == [], r.stdout


def test_bare_json_of_a_worked_invocation_is_run003(tmp_path):
    root = json_skill(tmp_path, ERROR_ENVELOPE, "print(json.dumps(rows))")
    r, found = run_findings(root)
    assert [f["rule"] for f in found] == ["RUN003"], r.stdout
    assert 'has no "data" list' in found[0]["message"]
    assert "assets/input.txt" in found[0]["message"]  # the skill's own file, passed by its absolute path


def test_a_json_error_without_the_envelope_is_run004(tmp_path):
    root = json_skill(tmp_path, "raise", ENVELOPE)  # a traceback on stderr, nothing on stdout
    r, found = run_findings(root)
    assert [f["rule"] for f in found] == ["RUN004"], r.stdout
    assert "exited 1: nothing on stdout" in found[0]["message"]


def test_a_usage_error_under_json_is_not_run004(tmp_path):
    root = json_skill(tmp_path, "parser.error('no such file')", ENVELOPE)  # exit 2: argparse's, not judged
    r, found = run_findings(root)
    assert found == [], r.stdout
