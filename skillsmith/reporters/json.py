"""The ``--json`` envelope: ``{"data": [finding...], "meta": {"count": N, "schema": ...}}``."""

from __future__ import annotations

from skillsmith.cli import output

SCHEMA = "skillsmith.check/v1"


def report(result, view=None) -> None:
    output.emit_json([f.to_json() for f in result.findings], SCHEMA, units=result.units)
