"""kvist tools skills: the Copier template, the manifest schema, and plugin.py read but never run."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT, run_cli, write_tree

from skillsmith.targets import kvist

TEMPLATE = ROOT / "templates" / "kvist"
LAYOUT = {"manifest.json", "SKILL.md", "plugin.py", "tests/test_plugin.py", "tests/contract.json",
          ".skillsmith-answers.yml"}


def render(dest: Path, name: str, description: str = "Groups repeated errors in a log file and counts them."):
    from copier import run_copy

    run_copy(str(TEMPLATE.resolve()), str(dest), data={"name": name, "description": description},
             defaults=True, unsafe=False, answers_file=".skillsmith-answers.yml", quiet=True)
    return dest


@pytest.fixture(scope="module")
def generated(tmp_path_factory):
    return render(tmp_path_factory.mktemp("kvist") / "log_digest", "log_digest")


def test_template_writes_the_seed_layout(generated):
    files = {p.relative_to(generated).as_posix() for p in generated.rglob("*") if p.is_file()}
    assert files == LAYOUT
    manifest = json.loads((generated / "manifest.json").read_text())
    assert manifest["id"] == "log_digest"
    assert manifest["summary"] == {"en": "Groups repeated errors in a log file and counts them."}
    assert manifest["name"] == {"en": "Log digest"}
    assert [t["name"] for t in manifest["tools"]] == ["run"] and manifest["tools"][0]["readonly"] is True
    assert json.loads((generated / "tests/contract.json").read_text()) == {"run": {"text": "hello from log_digest"}}
    answers = (generated / ".skillsmith-answers.yml").read_text()
    assert "name: log_digest" in answers and "_src_path:" in answers


def test_generated_tests_pass(generated):
    proc = subprocess.run([sys.executable, "-m", "unittest", "discover", "-s", "tests"], cwd=generated,
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert "Ran 7 tests" in proc.stderr


def test_generated_skill_has_no_findings(generated):
    r = run_cli("check", str(generated), "--json", "--no-cache")
    assert r.code == 0, r.stdout + r.stderr
    assert r.json()["data"] == []


def test_description_with_quotes_stays_valid_json(tmp_path):
    skill = render(tmp_path / "quote_me", "quote_me", 'Says "hi" <b> & \\ back.')
    manifest = json.loads((skill / "manifest.json").read_text())
    assert manifest["summary"]["en"] == 'Says "hi" <b> & \\ back.'
    assert run_cli("check", str(skill), "--no-cache").code == 0


@pytest.mark.parametrize("name", ["Log_Digest", "log__digest", "log-digest", "_log", "memory", "kvist"])
def test_template_refuses_bad_ids(tmp_path, name):
    from copier.errors import CopierError

    with pytest.raises((CopierError, ValueError)):
        render(tmp_path / "x", name)
    assert kvist.ident_problem(name) is not None


def test_shipped_schema_is_a_valid_schema_and_accepts_the_seed_manifest():
    import jsonschema

    schema = kvist.schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    seed = {
        "manifest_version": 1, "id": "log_digest", "version": "0.1.0", "plugin_api": 1, "kind": "tools",
        "name": {"en": "Log digest"}, "summary": {"en": "Groups repeated errors in a log file and counts them."},
        "instructions": "SKILL.md", "entrypoint": "plugin.py", "platforms": ["linux"], "source": {"origin": "builder"},
        "capabilities": {
            "required": [{"name": "files.read", "reason": "to read the log file you name", "scope": {"paths": ["logs/**"]}}],
            "optional": [{"name": "artifacts", "reason": "to save the full table as a file"}]},
        "limits": {"call_timeout_seconds": 30, "max_result_bytes": 65536},
        "tools": [{"name": "digest", "summary": "Group repeated error lines and count them.", "readonly": True,
                   "parameters": {"type": "object", "additionalProperties": False,
                                  "properties": {"path": {"type": "string", "maxLength": 500}}, "required": ["path"]},
                   "result": {"type": "object", "properties": {"groups": {"type": "array"}}}}],
    }
    assert kvist.schema_errors(seed) == []
    assert set(schema["$defs"]["capability"]["properties"]["name"]["enum"]) == set(kvist.CATALOGUE)


def test_json_positions_point_at_keys():
    doc = kvist.parse_json('{\n  "a": 1,\n  "tools": [\n    {"name": "x"},\n    {"name": "y"}\n  ]\n}\n')
    assert doc.where(("tools", 1, "name")) == (5, 6)
    assert doc.where(("tools", 0, "missing")) == (4, 5)
    assert doc.where(()) == (1, 1)


def test_plugin_is_never_imported_or_run(tmp_path, generated):
    skill = tmp_path / "log_digest"
    write_tree(skill, {rel: (generated / rel).read_text() for rel in LAYOUT - {".skillsmith-answers.yml"}})
    marker = tmp_path / "ran"
    plugin = (skill / "plugin.py").read_text()
    (skill / "plugin.py").write_text(f"open({str(marker)!r}, 'w').close()\n" + plugin)
    (skill / "tests" / "test_plugin.py").write_text(
        f"open({str(marker)!r}, 'w').close()\n" + (skill / "tests" / "test_plugin.py").read_text())
    r = run_cli("check", str(skill), "--json", "--no-cache")
    assert r.code == 0, r.stdout
    assert not marker.exists()


def test_context_uses_map_to_capabilities():
    import ast

    module = ast.parse(
        "def execute(tool_name, arguments, ctx):\n"
        "    ctx.files.read('a')\n    ctx.files.write('b', 'x')\n    ctx.runtime.check()\n"
        "    ctx.processes.run(['ls'])\n    ctx.artifacts.save('t', 'x')\n    ctx.web.search('q')\n"
        "    raise ValueError(tool_name)\n"
        "def helper(context):\n    context.http.request('GET', 'https://x')\n"
    )
    assert [u[0] for u in kvist.context_uses(module)] == [
        "files.read", "files.write", "processes.run", "artifacts", "web.search", "http.request"]


def test_kvist_detected_without_frontmatter_and_spec_name_rules_skipped(generated):
    r = run_cli("check", str(generated), "--json", "--no-cache", "--target", "agentskills")
    assert "SPC002" in {f["rule"] for f in r.json()["data"]}
    assert run_cli("check", str(generated), "--no-cache").code == 0


def test_dangerous_calls_follow_aliases():
    import ast

    module = ast.parse(
        "import os as o\nfrom os import system as s\nimport subprocess.run\n"
        "o.system('x')\ns('y')\n__import__('subprocess')\neval('1')\nexec('2')\nos.popen('z')\n"
    )
    assert [what for what, _, _ in kvist.dangerous_calls(module)] == [
        "import of subprocess", "os.system()", "os.system()", "__import__('subprocess')", "eval()", "exec()",
        "os.popen()"]


def test_entrypoint_outside_the_skill_is_not_read(tmp_path, generated):
    skill = tmp_path / "log_digest"
    write_tree(skill, {rel: (generated / rel).read_text() for rel in LAYOUT - {".skillsmith-answers.yml"}})
    manifest = json.loads((skill / "manifest.json").read_text())
    manifest["entrypoint"] = "../plugin.py"
    (skill / "manifest.json").write_text(json.dumps(manifest))
    (tmp_path / "plugin.py").write_text("import subprocess\n")
    r = run_cli("check", str(skill), "--json", "--no-cache")
    assert [f["rule"] for f in r.json()["data"]] == ["KVS009"]
