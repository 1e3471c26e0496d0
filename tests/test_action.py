"""The GitHub Action: ``action.yml`` and the script it runs, with the variables GitHub sets.

The script (``.github/action/run.sh``) runs here as the composite step runs it on a runner:
``GITHUB_ACTION_PATH`` is the action's checkout, ``GITHUB_WORKSPACE`` the checked-out
repository, ``GITHUB_OUTPUT`` and ``GITHUB_STEP_SUMMARY`` files, and each input an
``INPUT_*`` variable (action.yml passes them through ``env``).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import jsonschema
import yaml
from conftest import ROOT, offline_install_env

SCRIPT = ".github/action/run.sh"
SARIF_SCHEMA = Path(__file__).parent / "schemas" / "sarif-schema-2.1.0.json"
BROKEN = "---\nname: Broken_Name\ndescription: x\n---\n\n# broken\n"
GOOD = ROOT / "tests" / "fixtures" / "compliant" / "python-counter"


def workspace(tmp_path: Path, broken: bool = True) -> Path:
    import shutil

    ws = tmp_path / "workspace"
    shutil.copytree(GOOD, ws / "skills" / "python-counter")
    if broken:
        (ws / "skills" / "broken").mkdir(parents=True)
        (ws / "skills" / "broken" / "SKILL.md").write_text(BROKEN)
    return ws


def run_action(tmp_path: Path, ws: Path, action_path: Path = ROOT, env: dict | None = None, **inputs: str):
    """Run the action's script; (exit code, stdout, stderr, outputs, summary)."""
    out, summary, runner_temp = tmp_path / "github_output", tmp_path / "step_summary", tmp_path / "runner_temp"
    runner_temp.mkdir(exist_ok=True)
    full = dict(env if env is not None else os.environ)
    full["PATH"] = os.path.dirname(sys.executable) + os.pathsep + full.get("PATH", "")
    full.update({
        "GITHUB_ACTIONS": "true", "GITHUB_ACTION_PATH": str(action_path), "GITHUB_WORKSPACE": str(ws),
        "GITHUB_OUTPUT": str(out), "GITHUB_STEP_SUMMARY": str(summary), "RUNNER_TEMP": str(runner_temp),
        "INPUT_INSTALL": "false",
    })
    full.update({f"INPUT_{k.upper()}": v for k, v in inputs.items()})
    proc = subprocess.run(["bash", str(action_path / SCRIPT)], capture_output=True, text=True, env=full,
                          cwd=tmp_path, stdin=subprocess.DEVNULL, timeout=600)
    outputs = dict(line.split("=", 1) for line in out.read_text().splitlines()) if out.exists() else {}
    return proc.returncode, proc.stdout, proc.stderr, outputs, summary.read_text() if summary.exists() else ""


def test_action_yml_passes_every_input_and_reads_every_output_of_the_script():
    action = yaml.safe_load((ROOT / "action.yml").read_text())
    assert action["runs"]["using"] == "composite"
    [step] = action["runs"]["steps"]
    assert SCRIPT in step["run"] and step["shell"] == "bash"
    assert set(step["env"]) == {"INPUT_" + name.upper().replace("-", "_") for name in action["inputs"]}
    for name, value in step["env"].items():
        assert re.fullmatch(r"\$\{\{ inputs\.[a-z-]+ \}\}", value)
        assert "${{" not in step["run"]  # inputs never become shell text
    written = set(re.findall(r'echo "([a-z-]+)=', (ROOT / SCRIPT).read_text()))
    assert {o["value"] for o in action["outputs"].values()} == {f"${{{{ steps.check.outputs.{n} }}}}" for n in written}
    assert os.access(ROOT / SCRIPT, os.X_OK)


def test_findings_become_annotations_outputs_and_sarif(tmp_path):
    ws = workspace(tmp_path)
    code, stdout, stderr, outputs, summary = run_action(tmp_path, ws, paths="skills", args="--no-cache",
                                                        **{"sarif_file": "reports/skillsmith.sarif"})
    assert code == 10, stderr
    annotations = [line for line in stdout.splitlines() if line.startswith("::")]
    assert annotations and all(re.match(r"::(error|warning|notice) file=skills/broken/SKILL\.md,line=\d+", a)
                               for a in annotations)
    assert outputs["exit-code"] == "10"
    assert int(outputs["findings"]) == len(annotations)
    assert int(outputs["errors"]) == sum(a.startswith("::error ") for a in annotations) > 0
    assert outputs["sarif-file"] == "reports/skillsmith.sarif"
    doc = json.loads((ws / "reports" / "skillsmith.sarif").read_text())
    schema = json.loads(SARIF_SCHEMA.read_text())
    validator = jsonschema.validators.validator_for(schema)
    assert list(validator(schema, format_checker=validator.FORMAT_CHECKER).iter_errors(doc)) == []
    results = doc["runs"][0]["results"]
    assert len(results) == len(annotations)
    assert {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in results} == \
        {"skills/broken/SKILL.md"}
    assert "| findings |" in summary and outputs["findings"] in summary


def test_a_clean_workspace_passes(tmp_path):
    ws = workspace(tmp_path, broken=False)
    code, stdout, stderr, outputs, summary = run_action(tmp_path, ws)  # paths default to .
    assert code == 0, stdout + stderr
    assert not [line for line in stdout.splitlines() if line.startswith("::")]
    assert (outputs["findings"], outputs["exit-code"], outputs["sarif-file"]) == ("0", "0", "")
    assert "No findings" in summary


def test_exit_zero_in_args_keeps_the_step_green(tmp_path):
    ws = workspace(tmp_path)
    code, stdout, _, outputs, _ = run_action(tmp_path, ws, paths="skills/broken\nskills/python-counter",
                                             args="--exit-zero --select SPC")
    assert code == 0 and outputs["exit-code"] == "0"
    assert int(outputs["findings"]) > 0 and all("SPC" in a for a in stdout.splitlines() if a.startswith("::"))


def test_a_missing_path_is_exit_3(tmp_path):
    ws = workspace(tmp_path)
    code, _, stderr, outputs, _ = run_action(tmp_path, ws, paths="nowhere")
    assert code == 3 and outputs["exit-code"] == "3", stderr


def test_install_builds_skillsmith_from_the_action_checkout(tmp_path, source_repo):
    """install: true, as on a runner: a virtualenv under RUNNER_TEMP, skillsmith pip-installed from the action path."""
    repo, _ = source_repo
    ws = workspace(tmp_path)
    code, stdout, stderr, outputs, _ = run_action(tmp_path, ws, action_path=repo, env=offline_install_env(tmp_path),
                                                  paths="skills", install="true")
    assert code == 10, stderr
    venv = tmp_path / "runner_temp" / "skillsmith-action-venv"
    assert list(venv.glob("lib/python*/site-packages/skillsmith/cli/check.py"))
    assert "::error file=skills/broken/SKILL.md" in stdout and int(outputs["findings"]) > 0
