"""The rule reference, generated from the registry (``docs/rules.md``, ``skillsmith rules ID``)."""

from __future__ import annotations

from skillsmith.rules.registry import FAMILIES, SOURCES, Rule, all_rules
from skillsmith.targets import TARGETS, names as target_names

FIX_TEXT = {
    "safe": "`skillsmith fix` fixes this (safe fix).",
    "unsafe": "`skillsmith fix --unsafe-fixes` fixes this (unsafe: it changes behaviour).",
    None: "No automatic fix.",
}


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
        "",
    ]
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
        "| ID | name | severity | fix | summary |",
        "|---|---|---|---|---|",
    ]
    for r in rules:
        out.append(f"| [{r.id}](#{r.id.lower()}-{r.name}) | `{r.name}` | {r.severity} | {r.fix or '-'} | {r.summary} |")
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
