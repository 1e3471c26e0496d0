"""Reporters: text, JSON, SARIF 2.1.0 and GitHub workflow commands. Data on stdout only."""

from __future__ import annotations

import importlib


def report(fmt: str, result) -> None:
    module = importlib.import_module(f"skillsmith.reporters.{fmt}")
    module.report(result)


def summary(result) -> str:
    from collections import Counter

    n = len(result.findings)
    if result.units == 0:
        return "No skills or scripts found (a skill is a folder with a SKILL.md)."
    units = f"{result.units} unit{'s' if result.units != 1 else ''} (skills or script sets)"
    if not n:
        return f"All checks passed ({units} checked)."
    files = len({f.path for f in result.findings})
    by_sev = Counter(f.severity for f in result.findings)
    fixable = sum(1 for f in result.findings if f.fix == "safe")
    parts = ", ".join(f"{c} {s}{'s' if c != 1 else ''}" for s, c in sorted(by_sev.items()))
    line = f"Found {n} finding{'s' if n != 1 else ''} ({parts}) in {files} file{'s' if files != 1 else ''}; {units} checked."
    if fixable:
        line += f"\n{fixable} fixable with `skillsmith fix`."
    return line
