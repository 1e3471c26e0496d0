"""`skillsmith new`: every generated skill is clean under `check` and its own tests pass.

The templates are the reference implementation of the rules, so this renders every target x
script language x option combination with real Copier, checks them all with the real CLI,
runs each skill's tests/run.sh and runs every generated script.
"""

from __future__ import annotations

import itertools
import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
import yaml
from conftest import run_cli

from skillsmith import scaffold
from skillsmith.targets.agentskills import name_problem
from skillsmith.scaffold.render import template_available

LANGUAGES = {"py": ["main.py"], "sh": ["tool.sh"], "both": ["main.py", "tool.sh"]}
COMBOS = list(itertools.product(("agentskills", "stabledge"), LANGUAGES, (True, False), (True, False), (True, False)))
TRICKY = "Counts lines & words: \"quoted\", it's UTF-8 (Zoë). Use when asked how long a file is."


def combo_id(combo) -> str:
    target, lang, examples, as_json, verifier = combo
    return f"{target}-{lang}-{'ex' if examples else 'noex'}-{'json' if as_json else 'nojson'}-{'ver' if verifier else 'nover'}"


@pytest.fixture(scope="module")
def generated(tmp_path_factory) -> dict[str, Path]:
    """Every combination, rendered once for the module."""
    os.environ.setdefault("SKILLSMITH_CACHE_DIR", str(tmp_path_factory.getbasetemp() / "cache"))
    parent = tmp_path_factory.mktemp("combos")
    skills = {}
    for index, combo in enumerate(COMBOS):
        target, lang, examples, as_json, verifier = combo
        name = f"s{index}-{target}"
        created = scaffold.new(
            name, parent, target=target, scripts=LANGUAGES[lang], examples=examples, json=as_json,
            verifier=verifier, description=TRICKY if index % 2 else None,
            license="MIT" if index % 2 else "", author="Zoë O'Brien: \"x\"" if index % 2 else "",
        )
        skills[combo_id(combo)] = created.root
    return skills


def entry_scripts(root: Path) -> list[Path]:
    return sorted((root / "scripts").iterdir())


def run(cmd: list[str], cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)


def interpreter(script: Path) -> str:
    return sys.executable if script.suffix == ".py" else "bash"


def test_every_combination_has_zero_findings(generated):
    # ShellCheck joins in when the optional extra is installed next to this Python
    path = os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")])
    r = run_cli("check", "--json", "--no-cache", *map(str, generated.values()), env={"PATH": path})
    findings = r.json()["data"]
    assert findings == [], json.dumps(findings, indent=1)[:3000]
    assert r.code == 0
    # and no fix, not even an unsafe one, would change a generated file
    fixed = run_cli("fix", "--check", "--unsafe-fixes", *map(str, generated.values()), env={"PATH": path})
    assert fixed.code == 0 and fixed.stdout == "", fixed.stdout[:3000] + fixed.stderr


def behaviour(root: Path) -> dict[str, str]:
    """tests/run.sh and the scripts of a skill, with its name taken out."""
    files = [root / "tests" / "run.sh", *entry_scripts(root)]
    return {p.relative_to(root).as_posix(): p.read_text().replace(root.name, "NAME") for p in files}


def test_every_combination_passes_its_own_tests(generated):
    """Runs tests/run.sh once per distinct (language, --json, verifier).

    Target and examples change only SKILL.md and the resources, never the scripts or the
    suite: the test proves that by comparing them, so the suites it does not run are the
    same text as one it ran.
    """
    representatives: dict[tuple, Path] = {}
    for combo in COMBOS:
        root = generated[combo_id(combo)]
        key = (combo[1], combo[3], combo[4])
        if key in representatives:
            assert behaviour(root) == behaviour(representatives[key]), combo_id(combo)
        else:
            representatives[key] = root

    def run_suite(root: Path):
        return root, run(["bash", str(root / "tests" / "run.sh")], cwd=root.parent)

    with ThreadPoolExecutor(max_workers=3) as pool:
        results = list(pool.map(run_suite, representatives.values()))
    assert len(results) == 12
    ran = run_cli("check", "--run", "--json", "--no-cache", *map(str, representatives.values()))
    assert ran.json()["data"] == [] and ran.code == 0, ran.stdout[:3000]
    for root, proc in results:
        assert proc.returncode == 0, f"{root.name}: {proc.stdout}{proc.stderr}"
        passed, failed = proc.stdout.split()[0], proc.stdout.split()[2]
        assert failed == "0" and int(passed) >= 6, f"{root.name}: {proc.stdout}"


@pytest.mark.parametrize("combo", [c for c in COMBOS if c[0] == "agentskills" and c[1] == "both" and c[2] and c[4]], ids=combo_id)
def test_generated_scripts_keep_the_contract(generated, combo, tmp_path):
    root = generated[combo_id(combo)]
    as_json = combo[3]
    sample = tmp_path / "in.txt"
    sample.write_text("one two\nthree\n")
    for script in entry_scripts(root):
        assert os.access(script, os.X_OK), script
        cmd = [interpreter(script), str(script)]
        help_ = run(cmd + ["--help"])
        assert help_.returncode == 0 and "examples" in help_.stdout.lower() and help_.stderr == ""
        bad = run(cmd + ["--bogus-flag", str(sample)])
        assert bad.returncode == 2 and bad.stdout == "" and "bogus" in bad.stderr
        if script.name == "verify_facts.py":
            offline = run(cmd + ["--offline"])
            assert offline.returncode == 0 and offline.stdout == ""
            facts = tmp_path / "facts.json"
            facts.write_text(json.dumps({"facts": [{"name": "n", "url": "https://127.0.0.1:9/", "expect": "x"}]}))
            down = run(cmd + ["--live", "--facts", str(facts)])  # nothing listens on port 9
            assert down.returncode == 7 and down.stdout == "" and "unreachable" in down.stderr
            continue
        ok = run(cmd + [str(sample)])
        assert ok.returncode == 0 and ok.stdout == f"{sample}\t2\t3\n" and ok.stderr == ""
        missing = run(cmd + [str(tmp_path / "nope.txt")])
        assert missing.returncode == 3 and "nope.txt" in missing.stderr
        if as_json:
            doc = json.loads(run(cmd + ["--json", str(sample)]).stdout)
            assert doc == {"data": [{"file": str(sample), "lines": 2, "words": 3}],
                           "meta": {"count": 1, "schema": f"{root.name}.{script.stem}/v1"}}
            err = run(cmd + ["--json", str(tmp_path / "nope.txt")])
            assert err.returncode == 3 and json.loads(err.stdout)["error"]["code"] == "NOT_FOUND"
        else:
            assert run(cmd + ["--json", str(sample)]).returncode == 2


def test_shell_help_is_exactly_the_header_block(generated):
    root = generated[combo_id(("agentskills", "sh", True, True, False))]
    script = root / "scripts" / "tool.sh"
    lines = script.read_text().splitlines()
    end = next(i for i, line in enumerate(lines[1:], 1) if not line.startswith("#"))
    expected = [line[2:] if line.startswith("# ") else line[1:] for line in lines[1:end]]
    assert run(["bash", str(script), "-h"]).stdout.splitlines() == expected


def test_stabledge_declares_every_bundled_file_with_its_role(generated):
    root = generated[combo_id(("stabledge", "both", True, True, True))]
    text = (root / "SKILL.md").read_text()
    fm = yaml.safe_load(text.split("---\n")[1])
    assert fm["progressive"] is True
    roles = {item["path"]: item["role"] for item in fm["resources"]}
    assert roles == {
        "assets/facts.json": "asset", "assets/sample-input.txt": "asset",
        "assets/templates/report.md": "template", "references/guide.md": "reference",
        "scripts/main.py": "executable", "scripts/tool.sh": "executable", "scripts/verify_facts.py": "executable",
        "tests/run.sh": "asset",
    }


def test_answers_survive_yaml_quoting(generated):
    root = generated[combo_id(COMBOS[1])]
    fm = yaml.safe_load((root / "SKILL.md").read_text().split("---\n")[1])
    assert fm["description"] == TRICKY
    assert fm["metadata"] == {"author": "Zoë O'Brien: \"x\""} and fm["license"] == "MIT"
    answers = yaml.safe_load((root / ".skillsmith-answers.yml").read_text())
    assert answers["_src_path"] == "skillsmith-template-skill" and answers["_commit"]
    assert answers["description"] == TRICKY


# -- the command ---------------------------------------------------------------------------


def test_new_prints_what_it_created(tmp_path):
    r = run_cli("new", "demo", "--defaults", cwd=tmp_path)
    assert r.code == 0, r.stderr
    assert r.stdout.splitlines() == [
        "demo/.skillsmith-answers.yml", "demo/SKILL.md", "demo/assets/sample-input.txt",
        "demo/assets/templates/report.md", "demo/references/guide.md", "demo/scripts/main.py", "demo/tests/run.sh",
    ]
    assert "created demo" in r.stderr
    again = run_cli("new", "demo", "--defaults", cwd=tmp_path)
    assert again.code == 2 and "not empty" in again.stderr and again.stdout == ""
    forced = run_cli("new", "demo", "--defaults", "--force", "--script", "x.sh", cwd=tmp_path)
    assert forced.code == 0 and (tmp_path / "demo" / "scripts" / "x.sh").is_file()


def test_new_json_envelope(tmp_path):
    r = run_cli("new", "pdf-tools", "--dest", str(tmp_path / "skills"), "--script", "a.py", "--script", "b.sh",
                "--no-examples", "--description", "Extract text. Use when a PDF is shared.", "--json")
    assert r.code == 0, r.stderr
    doc = r.json()
    assert doc["meta"] == {"count": 1, "schema": "skillsmith.new/v1"}
    item = doc["data"][0]
    assert item["path"] == str(tmp_path / "skills" / "pdf-tools")
    assert item["files"] == [".skillsmith-answers.yml", "SKILL.md", "scripts/a.py", "scripts/b.sh", "tests/run.sh"]


def test_invalid_name_gives_checks_message(tmp_path):
    bad = "My_Skill"
    r = run_cli("new", bad, cwd=tmp_path)
    assert r.code == 2 and r.stdout == ""
    assert name_problem(bad) in r.stderr
    skill = tmp_path / bad
    assert not skill.exists()
    skill.mkdir()
    (skill / "SKILL.md").write_text(f"---\nname: {bad}\ndescription: x\n---\n# x\n")
    findings = run_cli("check", "--json", "--select", "SPC007", str(skill)).json()["data"]
    assert [f["message"] for f in findings] == [name_problem(bad)]


@pytest.mark.parametrize("args, needle", [
    (["--script", "a.rb"], "must end in .py or .sh"),
    (["--script", "../a.py"], "file name, not a path"),
    (["--script", "a.py", "--script", "a.sh"], "unique"),
    (["--description", " "], "'description' is empty"),
])
def test_invalid_answers_are_usage_errors(tmp_path, args, needle):
    r = run_cli("new", "demo", *args, "--json", cwd=tmp_path)
    assert r.code == 2 and needle in r.stderr
    assert r.json()["error"]["code"] == "USAGE"
    assert not (tmp_path / "demo").exists()


def test_no_name_without_terminal_is_usage_error(tmp_path):
    r = run_cli("new", cwd=tmp_path, timeout=30)
    assert r.code == 2 and r.stdout == ""
    assert "NAME is required" in r.stderr and "--defaults" in r.stderr
    assert list(tmp_path.iterdir()) == []


def test_kvist_target_routes_to_its_template_or_is_unavailable(tmp_path):
    r = run_cli("new", "kv_demo", "--target", "kvist", "--description", "Demo tool. Use for tests.", cwd=tmp_path)
    if template_available("kvist"):
        assert r.code == 0, r.stderr
        assert (tmp_path / "kv_demo").is_dir() and r.stdout.startswith("kv_demo/")
        bad = run_cli("new", "Kv-Demo", "--target", "kvist", cwd=tmp_path)
        assert bad.code == 2 and "lowercase" in bad.stderr and not (tmp_path / "Kv-Demo").exists()
    else:
        assert r.code == 2 and "kvist target is not available" in r.stderr


def test_help_commands_do_not_import_heavy_modules():
    code = (
        "import sys; from skillsmith.cli.main import build_parser; build_parser();"
        "heavy = {'copier', 'questionary', 'prompt_toolkit', 'yaml'} & set(sys.modules);"
        "print(sorted(m for m in heavy if m != 'yaml'))"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert proc.stdout.strip() == "[]", proc.stdout + proc.stderr
