"""Patterns seen on real public skills: what a careful reviewer calls a problem, and only that.

Each case under ``tests/fixtures/precision/<case>/`` holds one or more skills and an
``expected.txt``: the findings ``check`` must give, one ``RULE path:line`` per line (path
relative to the fixtures folder), and nothing else. An empty ``expected.txt`` is a pattern
that used to be reported wrongly and must give no finding.
"""

from __future__ import annotations

import pytest
from conftest import FIXTURES, run_cli

CASES = FIXTURES / "precision"


def case_names():
    return sorted(p.name for p in CASES.iterdir() if (p / "expected.txt").is_file())


def findings(r) -> list[str]:
    return sorted(f"{f['rule']} {f['path']}:{f['line']}" for f in r.json()["data"])


@pytest.mark.parametrize("case", case_names())
def test_case_gives_exactly_the_expected_findings(case):
    r = run_cli("check", case, "--json", "--no-cache", cwd=CASES)
    expected = sorted(line for line in (CASES / case / "expected.txt").read_text().splitlines() if line.strip())
    assert r.code == (10 if expected else 0), r.stdout + r.stderr
    assert findings(r) == expected
