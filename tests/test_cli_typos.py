"""Typos get help; rules are named by ID, prefix, name or ShellCheck code wherever rules are named.

ShellCheck's findings come from a stand-in `shellcheck` on PATH that prints its JSON (json1)
for two codes, so the tests do not depend on ShellCheck being installed.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from conftest import FIXTURES, run_cli
from test_shellcheck import SCRIPT  # a clean shell script; line 18 is `cd "$1"`, line 19 `ls`

TOP_USAGE = "usage: skillsmith [-h] [--version] COMMAND ..."


# -- commands and subcommand usage -------------------------------------------------------------


def test_a_mistyped_command_gets_a_suggestion():
    r = run_cli("chek", ".")
    assert r.code == 2 and r.stdout == ""
    assert r.stderr.startswith("skillsmith: error: unknown command 'chek'; did you mean check?")
    assert TOP_USAGE in r.stderr


def test_a_mistyped_command_with_json_gets_the_envelope():
    r = run_cli("chek", "--json")
    assert r.code == 2
    assert "did you mean check?" in r.json()["error"]["message"]


def test_an_unknown_option_of_a_subcommand_shows_that_subcommand_usage():
    r = run_cli("check", "x", "--frobnicate")
    assert r.code == 2 and r.stdout == ""
    assert "unrecognized arguments: --frobnicate" in r.stderr
    assert "usage: skillsmith check [-h]" in r.stderr
    assert TOP_USAGE not in r.stderr
    assert r.stderr.rstrip().endswith("Try 'skillsmith check --help'.")


@pytest.mark.parametrize("args, usage", [
    (("fix", "--frobnicate"), "usage: skillsmith fix [-h]"),
    (("rules", "a", "b"), "usage: skillsmith rules [-h]"),
    (("add", "script", "only-one"), "usage: skillsmith add script [-h]"),
    (("add", "scrpt"), "unknown part 'scrpt'; did you mean script?"),
])
def test_other_subcommands_show_their_own_usage(args, usage):
    r = run_cli(*args)
    assert r.code == 2
    assert usage in r.stderr and TOP_USAGE not in r.stderr


# -- rule IDs and names ----------------------------------------------------------------------------


def test_a_rule_name_selects_like_its_id():
    skill = str(FIXTURES / "output" / "report-tool")
    by_name = run_cli("check", skill, "--select", "header-missing", "--json")
    by_id = run_cli("check", skill, "--select", "CON004", "--json")
    assert by_name.code == by_id.code == 10
    assert by_name.json() == by_id.json()
    assert {f["rule"] for f in by_name.json()["data"]} == {"CON004"}
    ignored = run_cli("check", skill, "--ignore", "header-missing,SHL090", "--json")
    assert "CON004" not in {f["rule"] for f in ignored.json()["data"]}


def test_a_mistyped_rule_id_gets_a_suggestion():
    r = run_cli("check", ".", "--select", "CON04")
    assert r.code == 2 and r.stdout == ""
    assert "no rule matches 'CON04'; did you mean" in r.stderr and "CON004" in r.stderr


def test_a_mistyped_rule_name_is_quoted_as_typed():
    r = run_cli("check", ".", "--ignore", "header-missin")
    assert r.code == 2
    assert "no rule matches 'header-missin'; did you mean header-missing" in r.stderr
    assert "HEADER" not in r.stderr


def test_fix_takes_rule_names_too(tmp_path):
    skill = tmp_path / "report-tool"
    shutil.copytree(FIXTURES / "output" / "report-tool", skill)
    r = run_cli("fix", str(skill), "--select", "header-missing", "--diff")
    assert r.code == 10
    assert '+"""Print a report of the arguments given.' in r.stdout or "+# " in r.stdout
    assert "Would fix" in r.stderr and "CON004 (header-missing)" in r.stderr


def test_rules_suggests_for_a_mistyped_id():
    r = run_cli("rules", "SPC0077")
    assert r.code == 3 and r.stdout == ""
    assert "no rule 'SPC0077'; did you mean SPC007" in r.stderr


def test_rules_lists_a_family_by_its_prefix():
    r = run_cli("rules", "CON")
    assert r.code == 0
    lines = r.stdout.splitlines()
    assert lines and all(line.startswith("CON") for line in lines)
    assert any(line.startswith("CON004  header-missing") for line in lines)
    assert r.stderr.startswith(f"{len(lines)} rules.")


def test_rules_explains_a_shellcheck_code():
    r = run_cli("rules", "SC2086")
    assert r.code == 0
    assert r.stdout.startswith("# SC2086 (ShellCheck)")
    assert "reported by SHL090 `shellcheck`" in r.stdout and "https://www.shellcheck.net/wiki/SC2086" in r.stdout
    j = run_cli("rules", "sc2086", "--json").json()
    assert j["data"] == [{"id": "SC2086", "reported_by": "SHL090", "name": "shellcheck",
                          "url": "https://www.shellcheck.net/wiki/SC2086"}]


def test_rule_docs_name_their_source_document():
    r = run_cli("rules", "CON004")
    assert "- Source: Skill Resource Protocol §3" in r.stdout
    assert "000 §3" not in r.stdout
    assert run_cli("rules", "CON004", "--json").json()["data"][0]["source"] == "Skill Resource Protocol §3"


# -- ShellCheck codes ------------------------------------------------------------------------------



@pytest.fixture
def shellchecked(tmp_path) -> tuple[Path, dict]:
    """A clean shell skill, and a PATH whose `shellcheck` reports SC2164 on line 18 and SC2012 on line 19."""
    skill = tmp_path / "ls-skill"
    (skill / "scripts").mkdir(parents=True)
    (skill / "SKILL.md").write_text(
        "---\nname: ls-skill\ndescription: Lists a folder. Use to see files.\n---\n\nRun `scripts/ls.sh /tmp`.\n")
    script = skill / "scripts" / "ls.sh"
    script.write_text(SCRIPT)
    script.chmod(0o755)
    (skill / "tests").mkdir()
    (skill / "tests" / "run.sh").write_text("#!/usr/bin/env bash\nbash -n ../scripts/ls.sh\n")
    comments = [
        {"line": 18, "endLine": 18, "column": 1, "endColumn": 8, "level": "warning", "code": 2164,
         "message": "Use 'cd ... || exit' in case cd fails."},
        {"line": 19, "endLine": 19, "column": 1, "endColumn": 3, "level": "info", "code": 2012,
         "message": "Use find instead of ls."},
    ]
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "bash").symlink_to(shutil.which("bash"))
    stand_in = bin_dir / "shellcheck"
    stand_in.write_text(f"#!/bin/sh\ncat <<'EOF'\n{json.dumps({'comments': comments})}\nEOF\n")
    stand_in.chmod(0o755)
    return skill, {"PATH": f"{bin_dir}:/usr/bin:/bin"}


def rules_found(r) -> list[str]:
    return [f["rule"] for f in r.json()["data"]]


def test_shellcheck_codes_are_reported_under_their_own_code(shellchecked):
    skill, env = shellchecked
    r = run_cli("check", str(skill), "--json", "--no-cache", env=env)
    assert r.code == 10, r.stderr
    assert rules_found(r) == ["SC2164", "SC2012"]


def test_a_shellcheck_code_can_be_ignored(shellchecked):
    skill, env = shellchecked
    r = run_cli("check", str(skill), "--json", "--no-cache", "--ignore", "SC2164", env=env)
    assert r.code == 10, r.stderr
    assert rules_found(r) == ["SC2012"]
    assert run_cli("check", str(skill), "--ignore", "sc2", "--no-cache", env=env).code == 0


def test_a_shellcheck_code_can_be_selected(shellchecked):
    skill, env = shellchecked
    r = run_cli("check", str(skill), "--json", "--no-cache", "--select", "SC2012", env=env)
    assert r.code == 10, r.stderr
    assert rules_found(r) == ["SC2012"]
    assert rules_found(run_cli("check", str(skill), "--json", "--select", "SHL090", env=env)) == ["SC2164", "SC2012"]


def test_statistics_name_shellcheck_codes(shellchecked):
    skill, env = shellchecked
    r = run_cli("check", str(skill), "--statistics", env=env)
    assert r.stdout.splitlines() == ["1  SC2012      shellcheck", "1  SC2164      shellcheck"]


def test_inline_and_config_ignores_take_shellcheck_codes(shellchecked):
    skill, env = shellchecked
    script = skill / "scripts" / "ls.sh"
    script.write_text(SCRIPT.replace('cd "$1"\n', 'cd "$1"  # skillsmith: ignore[SC2164]\n'))
    assert rules_found(run_cli("check", str(skill), "--json", env=env)) == ["SC2012"]
    (skill / "skillsmith.toml").write_text('[per-file-ignores]\n"scripts/*.sh" = ["SC2012"]\n')
    r = run_cli("check", str(skill), env=env)
    assert r.code == 0 and r.stdout == "", r.stderr


def test_an_inline_ignore_of_an_unknown_rule_is_a_warning(shellchecked):
    skill, env = shellchecked
    script = skill / "scripts" / "ls.sh"
    script.write_text(SCRIPT.replace("ls\n", "ls  # skillsmith: ignore[XYZ999, SC2012]\n"))
    r = run_cli("check", str(skill), "--json", env=env)
    assert r.code == 10
    assert rules_found(r) == ["SC2164"]  # SC2012 is silenced, XYZ999 silences nothing
    assert (f"skillsmith: warning: {skill.as_posix()}/scripts/ls.sh:19: unknown rule 'XYZ999' in "
            "`skillsmith: ignore[...]`; it silences nothing") in r.stderr
    # the cached run says it again
    again = run_cli("check", str(skill), env=env)
    assert again.stderr.count("unknown rule 'XYZ999'") == 1
    # and a typo of a name gets a suggestion
    script.write_text(SCRIPT.replace("ls\n", "ls  # skillsmith: ignore[header-mising]\n"))
    r = run_cli("check", str(skill), env=env, cwd=skill)
    assert ("skillsmith: warning: scripts/ls.sh:19: unknown rule 'header-mising' in `skillsmith: ignore[...]`; "
            "did you mean header-missing") in r.stderr


def test_a_config_selects_shellcheck_codes_and_names(shellchecked):
    skill, env = shellchecked
    (skill / "skillsmith.toml").write_text('select = ["SC2164", "header-missing"]\n')
    r = run_cli("check", str(skill), "--json", env=env)
    assert r.code == 10, r.stderr
    assert rules_found(r) == ["SC2164"]
