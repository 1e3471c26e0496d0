"""The CLI contract: --help with EXAMPLES, --version, exit codes, stream separation."""

from __future__ import annotations

import pytest
from conftest import EXAMPLE, run_cli

from skillsmith.cli.main import COMMANDS


def test_top_level_help_lists_commands_with_examples():
    r = run_cli("--help")
    assert r.code == 0
    assert "examples:" in r.stdout.lower()
    for name in COMMANDS:
        assert name in r.stdout
    assert r.stderr == ""


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_help_has_examples(command):
    r = run_cli(command, "--help")
    assert r.code == 0
    assert "examples:" in r.stdout.lower()
    assert f"skillsmith {command}" in r.stdout


def test_version():
    r = run_cli("--version")
    assert r.code == 0
    assert r.stdout.startswith("skillsmith ")


def test_no_command_is_usage_error_on_stderr():
    r = run_cli()
    assert r.code == 2
    assert r.stdout == ""
    assert "usage" in r.stderr.lower()


def test_unknown_option_is_exit_2_and_json_error_envelope():
    r = run_cli("check", "--bogus", "--json")
    assert r.code == 2
    assert r.json()["error"]["code"] == "USAGE"
    assert "--bogus" in r.stderr


@pytest.mark.parametrize("spelling", [["--json"], ["--format", "json"], ["--format=json"]])
def test_every_spelling_of_json_gets_the_error_envelope(tmp_path, spelling):
    # `--format json` (two words) used to print no envelope: the CLI looked for the raw words
    r = run_cli("check", str(tmp_path / "nowhere"), *spelling)
    assert r.code == 3
    assert r.json()["error"]["code"] == "NOT_FOUND"
    assert "nowhere" in r.stderr


@pytest.mark.parametrize("args", [
    ["check", "--bogus", "--format", "json"],
    ["check", "--format", "json", "--bogus"],
    ["check", "--format", "json", "--timeout", "soon"],
    ["fix", "--json", "--frobnicate"],
    ["rules", "--json", "one", "two"],
    ["check", "--jso", "--bogus"],  # abbreviated as the full parse allows
])
def test_a_command_line_that_does_not_parse_still_gets_the_envelope_it_asks_for(args):
    r = run_cli(*args)
    assert r.code == 2
    assert r.json()["error"]["code"] == "USAGE"
    assert "usage:" in r.stderr


@pytest.mark.parametrize("args", [
    ["check", "--bogus"],
    ["check", "--format", "sarif", "--bogus"],
    ["check", "--format", "--json"],  # --format takes a value: this asks for no format at all
])
def test_no_envelope_unless_json_is_asked_for(args):
    r = run_cli(*args)
    assert r.code == 2
    assert r.stdout == ""


def test_a_path_named_like_the_option_is_a_path(tmp_path):
    r = run_cli("check", "--", "--json", cwd=tmp_path)
    assert r.code == 3
    assert r.stdout == ""
    assert "--json" in r.stderr


def test_missing_path_is_exit_3_with_json_error(tmp_path):
    r = run_cli("check", str(tmp_path / "nope"), "--json")
    assert r.code == 3
    doc = r.json()
    assert doc["error"]["code"] == "NOT_FOUND"
    assert "nope" in doc["error"]["message"]
    assert "nope" in r.stderr


def test_example_skill_is_clean():
    r = run_cli("check", str(EXAMPLE))
    assert r.code == 0, r.stdout + r.stderr
    assert r.stdout == ""
    assert "passed" in r.stderr.lower()


def test_findings_exit_10_and_exit_zero(tmp_path):
    skill = tmp_path / "bad"
    skill.mkdir()
    (skill / "SKILL.md").write_text("---\nname: Bad\ndescription: x\n---\n")
    r = run_cli("check", str(skill))
    assert r.code == 10
    assert "SPC007" in r.stdout
    assert "SPC007" not in r.stderr
    assert run_cli("check", str(skill), "--exit-zero").code == 0
