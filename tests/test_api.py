"""The public Python API agrees with the CLI."""

from __future__ import annotations

import pytest
from conftest import EXAMPLE, FIXTURES, run_cli

from skillsmith.api import check
from skillsmith.errors import NotFoundError, UsageError
from skillsmith.rules.finding import Finding


def test_api_matches_cli(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    paths = [str(FIXTURES / "rules" / "FIL003"), str(FIXTURES / "rules" / "SPC011")]
    found = check(paths)
    assert all(isinstance(f, Finding) for f in found)
    assert [f.to_json() for f in found] == run_cli("check", *paths, "--json", "--no-cache", cwd=tmp_path).json()["data"]
    assert [f.rule for f in found] == ["FIL003", "SPC011"]


def test_api_select_ignore_target():
    fixture = FIXTURES / "rules" / "SPC011"
    assert check([fixture], select=["FIL"]) == []
    assert check([fixture], ignore=["spc011"]) == []
    assert [f.rule for f in check([fixture], target="stabledge")] == ["SPC011"]
    assert check([EXAMPLE]) == []


def test_api_errors(tmp_path):
    with pytest.raises(NotFoundError):
        check([tmp_path / "missing"])
    with pytest.raises(UsageError):
        check([EXAMPLE], select=["XYZ"])
    with pytest.raises(UsageError):
        check([EXAMPLE], target="nowhere")
