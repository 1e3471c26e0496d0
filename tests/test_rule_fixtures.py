"""Every rule has a fixture that triggers exactly that rule; compliant fixtures trigger none.

Layout: ``tests/fixtures/rules/<ID>/`` holds one or more skills (or scripts) that, checked
together, produce findings of rule <ID> and of no other rule. ``tests/fixtures/compliant/``
holds skills with zero findings. A fixture folder may carry a ``skillsmith.toml`` (for
example ``target = "stabledge"``).
"""

from __future__ import annotations

import pytest
from conftest import FIXTURES, run_cli

from skillsmith.rules.registry import all_rules

RULE_FIXTURES = FIXTURES / "rules"
#: rules whose fixture cannot live in git (permissions, sizes) or that need --run;
#: each is covered by its own test, named here
DYNAMIC = {
    "FIL001": "tests/test_bad_input.py (unreadable file)",
    "FIL002": "tests/test_bad_input.py (oversized file)",
    "FIL006": "tests/test_bad_input.py::test_fifo_socket_and_device_are_reported_and_never_opened",
    "FIL007": "tests/test_bad_input.py (padding past the file limit, an unreadable folder)",
    "RUN001": "tests/test_check_run.py",
    "RUN002": "tests/test_check_run.py",
    "RUN003": "tests/test_check_run.py::test_bare_json_of_a_worked_invocation_is_run003",
    "RUN004": "tests/test_check_run.py::test_a_json_error_without_the_envelope_is_run004",
    "STE013": "tests/test_stabledge.py (sparse 21 MB file)",
    "STE019": "tests/test_stabledge.py (opt-in: checked with --select STE019)",
    "SHL090": "tests/test_shellcheck.py (needs shellcheck on PATH)",
    # audit rules need a git history and permissions: tests/test_audit.py
    "SUC010": "tests/test_audit.py::test_file_unreadable_to_others_is_flagged",
    "SUC011": "tests/test_audit.py::test_links_out_of_the_folder_and_ignored_files_are_flagged",
    "SUC012": "tests/test_audit.py::test_links_out_of_the_folder_and_ignored_files_are_flagged",
    "SUC013": "tests/test_audit.py::test_a_filter_driver_in_the_repositorys_config_neither_runs_nor_hides_a_change",
    "SUC020": "tests/test_audit.py::test_scope_creep_tools_network_and_process",
    "SUC021": "tests/test_audit.py::test_scope_creep_tools_network_and_process",
    "SUC022": "tests/test_audit.py::test_scope_creep_tools_network_and_process",
    "SUC030": "tests/test_audit_reviewer.py (a real reviewer process: approve, flag, garbage, timeout, non-zero exit)",
}


def fixture_ids():
    return sorted(p.name for p in RULE_FIXTURES.iterdir() if p.is_dir()) if RULE_FIXTURES.is_dir() else []


@pytest.mark.parametrize("rule_id", fixture_ids())
def test_fixture_triggers_exactly_its_rule(rule_id):
    # an opt-in security rule (SEC052) runs only when the user selects it, never by a skill's own config
    chosen = ["--select", f"ALL,{rule_id}"] if rule_id in {r.id for r in all_rules() if r.opt_in and r.id.startswith("SEC")} else []
    r = run_cli("check", str(RULE_FIXTURES / rule_id), "--json", "--no-cache", *chosen)
    assert r.code == 10, r.stdout + r.stderr
    # ShellCheck's own codes (SC####, when it is installed) are tested in tests/test_shellcheck.py
    found = {f["rule"] for f in r.json()["data"] if not f["rule"].startswith("SC")}
    assert found == {rule_id}, r.stdout


def test_every_rule_has_a_fixture():
    have = set(fixture_ids())
    missing = [r.id for r in all_rules() if r.id not in have and r.id not in DYNAMIC]
    assert missing == [], f"rules without a fixture under tests/fixtures/rules/: {missing}"


@pytest.mark.parametrize(
    "skill", sorted(p.name for p in (FIXTURES / "compliant").iterdir()) if (FIXTURES / "compliant").is_dir() else []
)
def test_compliant_fixture_is_clean(skill):
    r = run_cli("check", str(FIXTURES / "compliant" / skill), "--json", "--no-cache")
    assert r.code == 0, r.stdout + r.stderr
    assert r.json()["data"] == []
