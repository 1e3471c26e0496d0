"""The rule reference, generated from the registry (``docs/rules.md``, ``skillsmith rules ID``)."""

from __future__ import annotations

from skillsmith.rules.registry import FAMILIES, SOURCES, Rule, all_rules, yields_of
from skillsmith.targets import TARGETS, names as target_names

FIX_TEXT = {
    "safe": "`skillsmith fix` fixes this (safe fix).",
    "unsafe": "`skillsmith fix --unsafe-fixes` fixes this (unsafe: it changes behaviour).",
    None: "No automatic fix.",
}


#: what a severity means, and what counts for the exit code (``check --fail-on``)
SEVERITY_TEXT = (
    "A rule's severity is the harm of what it finds: **error**, the skill or a script breaks or misleads",
    "an agent (it does not load, its name is wrong, a script cannot run or exits 0 on failure, a path it",
    "cites is missing, a secret or an injection); **warning**, a real weakness of the skill or its scripts;",
    "**info**, a recommendation or a matter of taste. Every finding makes `check` exit 10 unless",
    "`--fail-on warning` or `--fail-on error` names a higher bar. An opt-in rule (taste that is true of",
    "many sound skills, or a judgement the files rarely settle) runs only when `--select` or the config's",
    "`select` names it by ID or name. Two",
    "rules never report one problem twice: where a finding yields to a more specific one at the same place,",
    "its rule says so.",
)


def rule_markdown(r: Rule, level: int = 1) -> str:
    h = "#" * level
    targets = "all targets" if set(r.targets) == set(target_names()) else ", ".join(sorted(r.targets))
    lines = [
        f"{h} {r.id} `{r.name}`",
        "",
        r.summary,
        "",
        f"- Family: {r.family}; severity: {r.severity}; applies to: {targets}"
        + ("; opt-in (runs only when selected by its ID or name)" if r.opt_in else ""),
        f"- Source: {r.source}",
        f"- Fix: {FIX_TEXT[r.fix]}",
    ]
    for code, winners in yields_of(r).items():
        whose = "" if code == r.id else f"{code} "
        lines.append(f"- One finding per problem: {whose}yields to {' or '.join(winners)} at the same place "
                     "(the same line, and overlapping columns where both findings end on it)")
    lines.append("")
    doc = r.doc
    if level > 1 and doc:
        doc = "\n".join(("#" * (level - 1) + ln) if ln.startswith("## ") else ln for ln in doc.splitlines())
    if doc:
        lines += [doc, ""]
    return "\n".join(lines).rstrip() + "\n"


def rules_document() -> str:
    """The whole of ``docs/rules.md``."""
    rules = all_rules()
    out = [
        "# Rules",
        "",
        "Generated from the rule registry by `python -m skillsmith.rules.docs > docs/rules.md`; do not edit by hand.",
        "",
        "Each rule names its source: the Agent Skills specification, or a section of one of the",
        f"documents skillsmith implements ({', '.join(SOURCES.values())}).",
        "",
        *SEVERITY_TEXT,
        "",
        "| ID | name | severity | fix | summary |",
        "|---|---|---|---|---|",
    ]
    for r in rules:
        out.append(f"| [{r.id}](#{r.id.lower()}-{r.name}) | `{r.name}` | {r.severity}{' (opt-in)' if r.opt_in else ''} | {r.fix or '-'} | {r.summary} |")
    out += [
        "",
        "A rule applies to all targets or to the ones it names. `check` detects the target of each skill,",
        "unless `--target` or the config's `target` names one:",
        "",
        "| target | host |",
        "|---|---|",
    ]
    out += [f"| `{t.name}` | {t.summary} |" for t in TARGETS]
    out.append("")
    for prefix, (family, what) in FAMILIES.items():
        members = [r for r in rules if r.id.startswith(prefix)]
        if not members:
            continue
        out += [f"## {family} ({prefix})", "", what[0].upper() + what[1:] + ".", ""]
        for r in members:
            out.append(rule_markdown(r, level=3))
    return "\n".join(out).rstrip() + "\n"


if __name__ == "__main__":  # pragma: no cover
    import sys

    sys.stdout.write(rules_document())
