"""``skillsmith test``: each skill's own suites run for real, sandboxed as ``check --run`` runs scripts."""

from __future__ import annotations

import os
import time
import uuid

import pytest
from conftest import needs_sandbox, run_cli, survivors, write_tree

#: both ways suites run: in the sandbox (where there is one) and --unsandboxed
MODES = [pytest.param([], id="sandbox", marks=needs_sandbox), pytest.param(["--unsandboxed"], id="unsandboxed")]

SKILL_MD = """---
name: {name}
description: A skill whose own tests are run by the tests. Use when testing skillsmith test.
---

# {name}

Nothing to run.
"""


def skill(parent, name: str, files: dict[str, str]):
    return write_tree(parent / name, {"SKILL.md": SKILL_MD.format(name=name), **files})


@pytest.fixture(scope="module")
def generated(tmp_path_factory):
    """One skill of every kind `new` makes, side by side in one folder."""
    parent = tmp_path_factory.mktemp("generated")
    kinds = [
        ["plain"],
        ["shell", "--script", "fetch.sh", "--script", "report.py"],
        ["bare", "--no-examples", "--no-script-json"],
        ["verified", "--verifier"],
        ["edge", "--target", "stabledge", "--verifier", "--script", "run.sh"],
        ["kv_tool", "--target", "kvist"],
        *([f"kind-{kind}", "--kind", kind] for kind in ("scanner", "preflight", "verifier", "calculator")),
    ]
    for argv in kinds:
        r = run_cli("new", *argv, "--defaults", "--dest", str(parent))
        assert r.code == 0, r.stderr
    return parent


@pytest.mark.parametrize("mode", MODES)
def test_every_generated_kind_passes_its_own_suites(generated, mode):
    r = run_cli("test", str(generated), *mode, "--json")
    assert r.code == 0, r.stdout
    rows = r.json()["data"]
    suites = sorted((os.path.basename(row["skill"]), row["suite"]) for row in rows)
    assert suites == [("bare", "run.sh"), ("edge", "run.sh"), ("kind-calculator", "run.sh"),
                      ("kind-preflight", "run.sh"), ("kind-scanner", "run.sh"), ("kind-verifier", "run.sh"),
                      ("kv_tool", "contract"), ("kv_tool", "unittest"),
                      ("plain", "run.sh"), ("shell", "run.sh"), ("verified", "run.sh")]
    assert {row["status"] for row in rows} == {"passed"}, rows
    meta = r.json()["meta"]
    assert (meta["passed"], meta["failed"], meta["timed_out"], meta["without_suite"]) == (11, 0, 0, 0)
    assert "11 passed, 0 failed" in r.stderr


def test_text_report_lists_each_suite_on_stdout_and_the_summary_on_stderr(generated):
    r = run_cli("test", str(generated / "plain"), str(generated / "kv_tool"), "--unsandboxed")
    assert r.code == 0, r.stdout + r.stderr
    lines = r.stdout.splitlines()
    assert [line.split(" ", 1)[0] for line in lines] == ["PASS", "PASS", "PASS"]
    assert lines[0].endswith("plain: tests/run.sh")
    assert lines[1].endswith("kv_tool: tests/") and lines[2].endswith("kv_tool: tests/contract.json")
    assert r.stderr.splitlines()[-1] == "3 passed, 0 failed"


FAILING_RUN_SH = """#!/usr/bin/env bash
echo "case one ok"
echo "FAIL: case two: exit 3, expected 0" >&2
echo "1 passed, 1 failed"
exit 1
"""


@pytest.mark.parametrize("mode", MODES)
def test_a_failing_suite_exits_10_with_its_output(tmp_path, mode):
    skill(tmp_path, "good", {"tests/run.sh": "#!/usr/bin/env bash\necho '1 passed, 0 failed'\n"})
    skill(tmp_path, "broken", {"tests/run.sh": FAILING_RUN_SH})
    r = run_cli("test", str(tmp_path), *mode)
    assert r.code == 10, r.stdout + r.stderr
    assert "PASS" in r.stdout and "good: tests/run.sh" in r.stdout
    fail = r.stdout.index("FAIL ")
    assert r.stdout[fail:].startswith("FAIL ") and "broken: tests/run.sh (exit 1)" in r.stdout
    tail = r.stdout[fail:].splitlines()[1:4]  # the skills run in name order: broken, then good
    assert tail == ["    case one ok", "    1 passed, 1 failed", "    FAIL: case two: exit 3, expected 0"]
    assert r.stderr.splitlines()[-1] == "1 passed, 1 failed"


@pytest.fixture
def marker():
    name = f"skillsmith-suite-{uuid.uuid4().hex[:12]}"
    yield name
    for pid in survivors(name):
        os.kill(pid, 9)


@pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="needs /proc to look for processes")
@pytest.mark.parametrize("mode", MODES)
def test_a_hanging_suite_times_out_and_leaves_nothing_running(tmp_path, marker, mode):
    hang = f"""#!/usr/bin/env bash
( setsid bash -c 'exec -a {marker}-bg sleep 300' < /dev/null > /dev/null 2>&1 & )
echo "started the slow case"
exec -a {marker}-fg sleep 300
"""
    skill(tmp_path, "slow", {"tests/run.sh": hang})
    started = time.monotonic()
    r = run_cli("test", str(tmp_path), "--timeout", "2", *mode, "--json")
    assert time.monotonic() - started < 60  # cut short (a guard, not a timing goal)
    assert r.code == 10, r.stdout + r.stderr
    [row] = r.json()["data"]
    assert row["status"] == "timeout" and row["exit_code"] is None
    assert row["stdout"] == "started the slow case\n"
    assert "0 passed, 1 failed (1 timed out)" in r.stderr
    assert survivors(marker) == []


def test_timeout_in_the_text_report(tmp_path):
    skill(tmp_path, "slow", {"tests/run.sh": "#!/usr/bin/env bash\nsleep 30\n"})
    r = run_cli("test", str(tmp_path), "--timeout", "1", "--unsandboxed")
    assert r.code == 10
    assert r.stdout.splitlines()[0].startswith("TIMEOUT ") and r.stdout.splitlines()[0].endswith("after 1 s")


def test_a_skill_without_tests_is_listed_not_failed(tmp_path):
    skill(tmp_path, "lonely", {"scripts/tool.sh": "#!/usr/bin/env bash\necho hi\n"})
    r = run_cli("test", str(tmp_path / "lonely"), "--json")
    assert r.code == 0, r.stderr
    assert [(os.path.basename(x["skill"]), x["status"]) for x in r.json()["data"]] == [("lonely", "no suite")]
    assert r.json()["meta"]["without_suite"] == 1
    text = run_cli("test", str(tmp_path / "lonely"))
    assert text.code == 0 and text.stdout.rstrip().endswith("lonely: no suite")
    assert text.stderr.splitlines()[-1] == "0 passed, 0 failed; 1 skill without a suite"


def test_a_missing_path_is_exit_3(tmp_path):
    r = run_cli("test", str(tmp_path / "nowhere"), "--json")
    assert r.code == 3
    assert r.json()["error"]["code"] == "NOT_FOUND"


#: what a suite sees: stdin at EOF at once, a HOME and working folder of its own, no secret from the caller
ISOLATION_RUN_SH = """#!/usr/bin/env bash
if read -r line; then echo "stdin gave: $line"; exit 1; fi
[[ -z "${SKILLSMITH_TEST_SECRET:-}" ]] || { echo "saw the secret"; exit 1; }
[[ "$HOME" != "$1" && "$HOME" != "{home}" ]] || { echo "HOME is the user's: $HOME"; exit 1; }
[[ "$PWD" != "{cwd}" ]] || { echo "ran in the caller's folder"; exit 1; }
touch "$HOME/scratch" && touch ./scratch || { echo "no writable HOME or working folder"; exit 1; }
echo "isolated"
"""


@pytest.mark.parametrize("mode", MODES)
def test_a_suite_runs_isolated(tmp_path, mode):
    cwd = tmp_path / "caller"
    cwd.mkdir()
    home = os.path.expanduser("~")
    skill(tmp_path, "iso", {"tests/run.sh": ISOLATION_RUN_SH.replace("{home}", home).replace("{cwd}", str(cwd))})
    r = run_cli("test", str(tmp_path / "iso"), *mode, "--json", cwd=cwd, env={"SKILLSMITH_TEST_SECRET": "x"},
                input="a line on stdin\n")
    [row] = r.json()["data"]
    assert (r.code, row["status"], row["stdout"]) == (0, "passed", "isolated\n"), row
    assert not (cwd / "scratch").exists() and not (tmp_path / "iso" / "scratch").exists()


COMPILING_RUN_SH = """#!/usr/bin/env bash
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
python3 -m py_compile "$here/scripts/tool.py" && echo "compiled"
"""


@pytest.mark.parametrize("mode", MODES)
def test_a_suite_may_compile_the_skills_python_which_stays_as_it_was(tmp_path, mode):
    root = skill(tmp_path, "compiles", {"scripts/tool.py": "print('hi')\n", "tests/run.sh": COMPILING_RUN_SH})
    r = run_cli("test", str(root), *mode, "--json")
    [row] = r.json()["data"]
    assert (r.code, row["status"], row["stdout"]) == (0, "passed", "compiled\n"), row
    assert not (root / "scripts" / "__pycache__").exists()


PLUGIN = '''
def describe():
    return {"tools": ["echo", "crash", "read"]}


def execute(tool, arguments, context):
    if tool == "echo":
        return {"text": arguments["text"]}
    if tool == "crash":
        raise KeyError(arguments["missing"])
    if tool == "read":
        return {"data": context.files.read(arguments["path"])}
    raise ValueError(tool)
'''

MANIFEST = '{"manifest_version": 1, "id": "kv", "plugin_api": 1, "entrypoint": "plugin.py", "tools": []}\n'


def test_contract_calls_run_offline_a_crash_fails_a_capability_is_skipped(tmp_path):
    root = write_tree(tmp_path / "kv", {
        "SKILL.md": "# kv\n", "manifest.json": MANIFEST, "plugin.py": PLUGIN,
        "tests/contract.json": '{"echo": {"text": "hi"}, "crash": {"x": 1}, "read": {"path": "a.txt"}}\n',
    })
    r = run_cli("test", str(root), "--unsandboxed", "--json")
    assert r.code == 10, r.stderr
    [row] = r.json()["data"]
    assert (row["suite"], row["status"], row["exit_code"]) == ("contract", "failed", 1)
    assert row["stdout"].splitlines() == [
        "pass echo",
        "FAIL crash: KeyError: 'missing'",
        "skip read: needs the context's files (only kvist gives it)",
        "1 passed, 1 failed, 1 skipped",
    ]


def test_contract_of_skipped_and_passing_calls_passes(tmp_path):
    root = write_tree(tmp_path / "kv", {
        "SKILL.md": "# kv\n", "manifest.json": MANIFEST, "plugin.py": PLUGIN,
        "tests/contract.json": '{"echo": {"text": "hi"}, "read": {"path": "a.txt"}}\n',
    })
    r = run_cli("test", str(root), "--unsandboxed")
    assert r.code == 0, r.stdout
    assert r.stdout.splitlines() == [f"PASS {root}: tests/contract.json"]


def test_test_files_of_a_skill_that_is_not_kvist_are_not_a_unittest_suite(tmp_path):
    skill(tmp_path, "plain", {"tests/test_x.py": "raise SystemExit(1)\n"})
    r = run_cli("test", str(tmp_path / "plain"), "--unsandboxed")
    assert r.code == 0 and r.stdout.rstrip().endswith("plain: no suite")


def test_help_lists_examples():
    r = run_cli("test", "--help")
    assert r.code == 0 and "examples:" in r.stdout and "skillsmith test skills/" in r.stdout
    assert "test" in run_cli("--help").stderr + run_cli("--help").stdout
