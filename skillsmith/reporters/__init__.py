"""Reporters: text, JSON, SARIF 2.1.0 and GitHub workflow commands. Data on stdout only.

Each format's module has ``report(result, view)``; the summary and notes on stderr are the
command's (:func:`summary`, :func:`statistics` for ``check --statistics``).
"""

from __future__ import annotations

import importlib
from collections import Counter
from dataclasses import dataclass

#: severities from the most to the least serious
SEVERITY_RANK = {"error": 3, "warning": 2, "info": 1}


@dataclass(frozen=True)
class View:
    """How the text format shows findings: ``full`` adds the source line and a caret; colour only on a terminal."""

    full: bool = False
    colour: bool = False


def report(fmt: str, result, view: View = View()) -> None:
    module = importlib.import_module(f"skillsmith.reporters.{fmt}")
    module.report(result, view)


def plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def checked(result) -> str:
    """What was checked, in the user's words: ``3 skills and 2 scripts``."""
    counts = result.counts or {"skills": result.units}
    parts = [plural(counts.get(key, 0), word) for key, word in
             (("skills", "skill"), ("scripts", "script"), ("projects", "project")) if counts.get(key)]
    if len(parts) > 1:
        return ", ".join(parts[:-1]) + " and " + parts[-1]
    return parts[0] if parts else plural(result.units, "skill")


def summary(result) -> str:
    n = len(result.findings)
    if result.units == 0:
        return "No skills or scripts found (a skill is a folder with a SKILL.md)."
    if not n:
        return f"All checks passed ({checked(result)} checked)."
    files = len({f.path for f in result.findings})
    by_sev = Counter(f.severity for f in result.findings)
    fixable = sum(1 for f in result.findings if f.fix == "safe")
    unsafe = sum(1 for f in result.findings if f.fix == "unsafe")
    parts = ", ".join(plural(c, s) for s, c in sorted(by_sev.items(), key=lambda kv: -SEVERITY_RANK[kv[0]]))
    line = f"Found {plural(n, 'finding')} ({parts}) in {plural(files, 'file')}; {checked(result)} checked."
    if fixable:
        line += f"\n{fixable} fixable with `skillsmith fix`."
    if unsafe:
        line += f"\n{unsafe} more fixable with `skillsmith fix --unsafe-fixes`."
    return line


def statistics(result) -> list[dict]:
    """``{"rule", "name", "count", "fix"}`` per rule (or external code) found, the most frequent first."""
    from skillsmith.rules.registry import code_shape, get_rule

    from skillsmith.rules.finding import FIX_LEVELS

    counts = Counter(f.rule for f in result.findings)
    fixes: dict[str, str | None] = {}
    for f in result.findings:  # the most a fix can do for some finding of the rule
        if FIX_LEVELS.index(f.fix) >= FIX_LEVELS.index(fixes.get(f.rule)):
            fixes[f.rule] = f.fix
    out = []
    for code, count in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])):
        r = get_rule(code) or code_shape(code)  # SC2086 is ShellCheck's, reported by SHL090 `shellcheck`
        out.append({"rule": code, "name": r.name if r is not None else "", "count": count, "fix": fixes[code]})
    return out
