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
from conftest import RUN_FLAGS, run_cli

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
    ran = run_cli("check", "--run", *RUN_FLAGS, "--json", "--no-cache", *map(str, representatives.values()))
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


# -- what a user can get wrong: a clear message and the protocol's exit code ---------------


def test_dest_below_a_file_is_a_usage_error_naming_the_file(tmp_path):
    (tmp_path / "notes").write_text("not a folder\n")
    r = run_cli("new", "demo", "--defaults", "--dest", str(tmp_path / "notes" / "skills"), "--json")
    assert r.code == 2, r.stderr
    assert r.json()["error"]["code"] == "USAGE"
    assert r.stderr == f"skillsmith: error: --dest {tmp_path}/notes/skills: {tmp_path}/notes is a file, not a folder\n"
    assert "internal error" not in r.stderr


def read_only_mount_available() -> bool:
    import shutil

    if shutil.which("unshare") is None or shutil.which("mount") is None:
        return False
    probe = subprocess.run(["unshare", "--mount", "--map-root-user", "true"], capture_output=True, timeout=30)
    return probe.returncode == 0


def run_in_private_mount(tmp_path: Path, mount: str, folder: Path, *args: str) -> subprocess.CompletedProcess:
    """``skillsmith ARGS`` in a private mount namespace where *folder* is a tmpfs mounted with *mount* options."""
    script = f"mount -t tmpfs -o {mount} none {folder} && {sys.executable} -m skillsmith \"$@\"; code=$?; ls -A {folder} >&2; exit $code"
    env = {**os.environ, "SKILLSMITH_CACHE_DIR": str(tmp_path / "cache")}
    return subprocess.run(["unshare", "--mount", "--map-root-user", "sh", "-c", script, "sh", *args],
                          capture_output=True, text=True, timeout=120, env=env, stdin=subprocess.DEVNULL)


@pytest.mark.skipif(not read_only_mount_available(), reason="needs unshare and mount (a private tmpfs)")
def test_new_on_a_read_only_file_system_is_exit_4_with_the_path(tmp_path):
    ro = tmp_path / "ro"
    ro.mkdir()
    proc = run_in_private_mount(tmp_path, "ro", ro, "new", "demo", "--defaults", "--dest", f"{ro}/skills")
    assert proc.returncode == 4, proc.stderr
    assert proc.stdout == ""
    assert proc.stderr == f"skillsmith: error: cannot write {ro}/skills: Read-only file system\n"


@pytest.mark.skipif(not read_only_mount_available(), reason="needs unshare and mount (a private tmpfs)")
def test_a_render_that_runs_out_of_space_is_exit_4_and_leaves_nothing(tmp_path):
    """The folders are made, then a file cannot be written (a full disk): exit 4 with its path, and the
    folders `new` made are removed again, so a second try is not refused as "not empty"."""
    full = tmp_path / "full"
    full.mkdir()
    proc = run_in_private_mount(tmp_path, "size=4k", full, "new", "demo", "--defaults", "--dest", f"{full}/skills")
    assert proc.returncode == 4, proc.stderr
    assert proc.stdout == ""
    error, listing = proc.stderr.split("\n", 1)
    assert error == f"skillsmith: error: cannot write {full}/skills/demo: No space left on device", error
    assert listing == ""  # `ls -A` of the mount: nothing left


def test_a_file_in_the_way_mid_render_is_exit_4_with_its_path(tmp_path):
    parent = tmp_path / "skills"
    # a file where the template puts a folder: Copier cannot create references/ in it
    blocker = parent / "demo" / "references"
    blocker.parent.mkdir(parents=True)
    blocker.write_text("in the way\n")
    r = run_cli("new", "demo", "--defaults", "--dest", str(parent), "--force", "--json")
    assert r.code == 4, r.stderr
    assert r.json()["error"]["code"] == "INVALID_INPUT"
    assert r.stderr.startswith(f"skillsmith: error: cannot write {parent}/demo/references")
    assert "internal error" not in r.stderr
    assert blocker.read_text() == "in the way\n"


def venv_bin() -> Path:
    return Path(sys.executable).parent


@pytest.mark.parametrize("how", ["module, python on PATH", "module, python not on PATH", "script on PATH", "script not on PATH"])
def test_the_hint_after_new_names_the_program_that_ran(tmp_path, how):
    """The "try:" hint is a command the user can paste: the program as it was run, not an assumed `skillsmith`."""
    path_with = os.pathsep.join([str(venv_bin()), "/usr/bin", "/bin"])
    path_without = os.pathsep.join(["/usr/bin", "/bin"])
    env = {**os.environ, "SKILLSMITH_CACHE_DIR": str(tmp_path / "cache"),
           "PATH": path_without if how.endswith("not on PATH") else path_with}
    python = Path(sys.executable)
    script = venv_bin() / "skillsmith"
    if how.startswith("script") and not script.exists():
        pytest.skip("the skillsmith script is not installed next to this Python")
    command = [str(script)] if how.startswith("script") else [str(python), "-m", "skillsmith"]
    proc = subprocess.run([*command, "new", "demo", "--defaults"], cwd=tmp_path, env=env, capture_output=True,
                          text=True, timeout=120, stdin=subprocess.DEVNULL)
    assert proc.returncode == 0, proc.stderr
    program = {
        "module, python on PATH": f"{python.name} -m skillsmith",
        "module, python not on PATH": f"{python} -m skillsmith",
        "script on PATH": "skillsmith",
        "script not on PATH": str(script),
    }[how]
    assert proc.stderr.endswith(f"; try: bash demo/tests/run.sh && {program} check demo\n"), proc.stderr
    hint = proc.stderr.rsplit("try: ", 1)[1]
    ran = subprocess.run(["bash", "-c", hint], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    assert ran.returncode == 0, ran.stdout + ran.stderr
    assert "All checks passed" in ran.stderr


@pytest.mark.parametrize("target", ["agentskills", "stabledge"])
def test_a_description_check_would_warn_about_is_refused(tmp_path, target):
    r = run_cli("new", "demo", "--target", target, "--description", "Use for <x>.", "--json", cwd=tmp_path)
    assert r.code == 2, r.stderr
    assert r.json()["error"] == {
        "code": "USAGE", "message": "'description' contains '<' or '>', which Claude's uploader rejects", "details": {},
    }
    assert r.stderr == "skillsmith: error: 'description' contains '<' or '>', which Claude's uploader rejects\n"
    assert not (tmp_path / "demo").exists()
    # the very message check gives the same description (SPC011)
    skill = tmp_path / "demo"
    skill.mkdir()
    (skill / "SKILL.md").write_text("---\nname: demo\ndescription: Use for <x>.\n---\n# Demo\n")
    found = run_cli("check", "--json", "--select", "SPC011", str(skill)).json()["data"]
    assert [f["message"] for f in found] == [r.json()["error"]["message"]]


@pytest.mark.parametrize("target, name", [("agentskills", "demo"), ("stabledge", "demo"), ("kvist", "demo_tool")])
def test_defaults_write_a_description_of_what_the_skill_does_and_pass_check(tmp_path, target, name):
    """--defaults leaves no placeholder: the description says what the generated example does, and check is clean."""
    r = run_cli("new", name, "--defaults", "--target", target, "--json", cwd=tmp_path)
    assert r.code == 0, r.stderr
    root = tmp_path / name
    answers = yaml.safe_load((root / ".skillsmith-answers.yml").read_text())
    expected = {
        "kvist": "Echoes its text argument back unchanged. Use it to check that the skill is installed and can be called.",
    }.get(target, "Counts the lines and words of a text file. Use when the user asks how long a file is.")
    assert answers["description"] == expected
    assert "Describe what" not in "".join(p.read_text() for p in root.rglob("*") if p.is_file())
    check = run_cli("check", "--json", "--no-cache", str(root))
    assert (check.code, check.json()["data"]) == (0, [])


@pytest.mark.parametrize("given, written", [("MIT", "MIT"), ("mit", "MIT"), ("Apache-2.0 OR MIT", "Apache-2.0 OR MIT"),
                                            ("LicenseRef-Internal", "LicenseRef-Internal")])
def test_license_is_an_spdx_expression_written_in_its_spelling(tmp_path, given, written):
    r = run_cli("new", "demo", "--defaults", "--license", given, cwd=tmp_path)
    assert r.code == 0, r.stderr
    assert f"license: {json.dumps(written)}\n" in (tmp_path / "demo" / "SKILL.md").read_text()


@pytest.mark.parametrize("given", ["Apache 2.0", "Proprietary", "BSD"])
def test_a_license_that_is_not_spdx_is_a_usage_error(tmp_path, given):
    r = run_cli("new", "demo", "--defaults", "--license", given, "--json", cwd=tmp_path)
    assert r.code == 2, r.stderr
    assert r.json()["error"]["code"] == "USAGE"
    assert r.stderr.startswith(f"skillsmith: error: license {given!r} is not an SPDX license expression (")
    assert "https://spdx.org/licenses/" in r.stderr and r.stdout.count("\n") > 1
    assert not (tmp_path / "demo").exists()
