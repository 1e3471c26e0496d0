"""Script kinds (seed 000 §8): scanner, preflight checker, verifier, calculator/triage.

Each kind is a part of the skill template (``_partials/<kind>.py.jinja`` and its cases in
``_partials/<kind>.cases.sh.jinja``). Every kind is rendered with real Copier, by ``new --kind``
and by ``add script --kind``, and must pass ``check`` and ``check --run`` with zero findings,
need no fix, and pass its own generated tests.
"""

from __future__ import annotations

import itertools
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import RUN_FLAGS, run_cli

from skillsmith import scaffold
from skillsmith.scaffold.answers import KINDS

KINDS_BUT_COUNTER = [k for k in KINDS if k != "counter"]
COMBOS = list(itertools.product(KINDS_BUT_COUNTER, ("agentskills", "stabledge"), (True, False)))


def combo_id(combo) -> str:
    kind, target, as_json = combo
    return f"{kind}-{target}-{'json' if as_json else 'nojson'}"


@pytest.fixture(scope="module")
def generated(tmp_path_factory) -> dict[str, Path]:
    os.environ.setdefault("SKILLSMITH_CACHE_DIR", str(tmp_path_factory.getbasetemp() / "cache"))
    parent = tmp_path_factory.mktemp("kinds")
    skills = {}
    for index, combo in enumerate(COMBOS):
        kind, target, as_json = combo
        created = scaffold.new(f"k{index}-{kind}", parent, target=target, kind=kind, json=as_json,
                               scripts=["main.py", "other.py"] if index % 3 == 0 else ["main.py"],
                               examples=index % 2 == 0)
        skills[combo_id(combo)] = created.root
    return skills


def suite(root: Path) -> subprocess.CompletedProcess:
    return subprocess.run(["bash", str(root / "tests" / "run.sh")], cwd=root.parent, capture_output=True, text=True,
                          timeout=120, stdin=subprocess.DEVNULL)


def test_every_kind_has_zero_findings_and_needs_no_fix(generated):
    path = os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")])
    r = run_cli("check", "--json", "--no-cache", *map(str, generated.values()), env={"PATH": path})
    assert (r.code, r.json()["data"]) == (0, []), json.dumps(r.json()["data"], indent=1)[:3000]
    fixed = run_cli("fix", "--check", "--unsafe-fixes", *map(str, generated.values()), env={"PATH": path})
    assert fixed.code == 0 and fixed.stdout == "", fixed.stdout[:3000] + fixed.stderr


def test_every_kind_passes_its_own_tests_and_check_run(generated):
    representatives = [generated[combo_id((kind, "agentskills", as_json))]
                       for kind in KINDS_BUT_COUNTER for as_json in (True, False)]
    for root in representatives:
        proc = suite(root)
        assert proc.returncode == 0, f"{root.name}: {proc.stdout}{proc.stderr}"
        passed, failed = proc.stdout.split()[0], proc.stdout.split()[2]
        assert failed == "0" and int(passed) >= 5, f"{root.name}: {proc.stdout}"
    ran = run_cli("check", "--run", *RUN_FLAGS, "--json", "--no-cache", *map(str, representatives), timeout=300)
    assert (ran.code, ran.json()["data"]) == (0, []), ran.stdout[:3000]


def run_script(root: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(root / "scripts" / "main.py"), *args], capture_output=True, text=True,
                          timeout=60, stdin=subprocess.DEVNULL, cwd=root)


def test_each_kind_has_the_logic_shape_its_kind_needs(generated, tmp_path):
    scanner = generated[combo_id(("scanner", "agentskills", True))]
    (tmp_path / "in.txt").write_text("fine\nbad \t\n")
    r = run_script(scanner, "--json", str(tmp_path / "in.txt"))
    assert r.returncode == 10  # ran fine, found something
    assert [(d["line"], d["check"]) for d in json.loads(r.stdout)["data"]] == [(2, "tab"), (2, "trailing-space")]
    (tmp_path / "clean.txt").write_text("fine\n")
    assert run_script(scanner, str(tmp_path / "clean.txt")).returncode == 0

    preflight = generated[combo_id(("preflight", "agentskills", True))]
    r = run_script(preflight, "--json", "--need", "skillsmith-no-such-tool")
    assert r.returncode == 5 and json.loads(r.stdout)["error"]["code"] == "PRECONDITION"
    assert "skillsmith-no-such-tool" in r.stderr

    verifier = generated[combo_id(("verifier", "agentskills", True))]
    assert run_script(verifier, "--offline").returncode == 0
    facts = tmp_path / "facts.json"
    facts.write_text(json.dumps({"facts": [{"name": "x", "url": "https://127.0.0.1:9/", "expect": "y"}]}))
    r = run_script(verifier, "--live", "--facts", str(facts))  # nothing listens on port 9: unreachable, not drift
    assert r.returncode == 7, r.stderr

    calculator = generated[combo_id(("calculator", "agentskills", True))]
    (tmp_path / "counts.csv").write_text("a,1\nb,3\na,1\n")
    r = run_script(calculator, "--json", "--limit", "1", str(tmp_path / "counts.csv"))
    assert r.returncode == 0 and json.loads(r.stdout)["data"] == [{"rank": 1, "name": "b", "count": 3, "share": 60.0}]


def test_add_script_of_every_kind_keeps_the_skill_clean_and_its_suite_green(tmp_path):
    r = run_cli("new", "mixed", "--defaults", "--no-examples", "--dest", str(tmp_path))
    assert r.code == 0, r.stderr
    skill = tmp_path / "mixed"
    for kind in KINDS:
        added = run_cli("add", "script", str(skill), f"{kind}_tool.py", "--kind", kind)
        assert added.code == 0, added.stderr
    assert (skill / "assets" / "facts.json").is_file()  # the verifier's facts came with it
    proc = suite(skill)
    assert proc.returncode == 0 and proc.stdout.split()[2] == "0", proc.stdout + proc.stderr
    checked = run_cli("check", "--run", *RUN_FLAGS, "--json", "--no-cache", str(skill), timeout=300)
    assert (checked.code, checked.json()["data"]) == (0, []), checked.stdout[:3000]


def test_a_kind_other_than_counter_needs_a_python_script(tmp_path):
    r = run_cli("new", "demo", "--defaults", "--kind", "scanner", "--script", "scan.sh", "--dest", str(tmp_path))
    assert r.code == 2 and "a scanner is written in Python" in r.stderr
    assert not (tmp_path / "demo").exists()
    r = run_cli("new", "demo", "--defaults", "--kind", "nonsense", "--dest", str(tmp_path))
    assert r.code == 2 and "invalid choice" in r.stderr
