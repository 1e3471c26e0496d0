"""``skillsmith rules``: list the rules, or explain one."""

from __future__ import annotations

import argparse

from skillsmith.exitcodes import ExitCode

HELP = "list the rules, or explain one"
DESCRIPTION = """\
Without an ID, list every rule: ID, name, severity, whether `skillsmith fix` can fix it,
and a one-line summary. With an ID (or a rule name), print that rule's documentation.
"""
EPILOG = """\
examples:
  skillsmith rules                 # every rule, one per line
  skillsmith rules CON004          # what CON004 checks, why, and how to fix it
  skillsmith rules name-invalid    # rules can be named too
  skillsmith rules --json | jq '.data[] | select(.fix == "safe") | .id'
"""

SCHEMA = "skillsmith.rules/v1"


def add_parser(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:
    from skillsmith.cli.main import formatter

    p = sub.add_parser("rules", help=HELP, description=DESCRIPTION, epilog=EPILOG, formatter_class=formatter)
    p.add_argument("rule", nargs="?", metavar="ID", help="a rule ID (SPC007) or name (name-invalid)")
    p.add_argument("--json", action="store_true", help="print JSON (the skillsmith.rules/v1 envelope)")
    return p


def run(args: argparse.Namespace) -> int:
    from skillsmith.cli import output
    from skillsmith.errors import NotFoundError
    from skillsmith.rules.docs import rule_markdown
    from skillsmith.rules.registry import all_rules, get_rule

    if args.rule:
        found = get_rule(args.rule)
        if found is None:
            raise NotFoundError(f"no rule {args.rule!r}; see 'skillsmith rules'", {"rule": args.rule})
        if args.json:
            output.emit_json([found.to_json()], SCHEMA)
        else:
            output.data(rule_markdown(found))
        return ExitCode.SUCCESS
    rules = all_rules()
    if args.json:
        output.emit_json([r.to_json() for r in rules], SCHEMA)
        return ExitCode.SUCCESS
    width = max(len(r.name) for r in rules)
    for r in rules:
        fix = {"safe": "fix", "unsafe": "fix*", None: "-"}[r.fix]
        output.data(f"{r.id}  {r.name:<{width}}  {r.severity:<7}  {fix:<4}  {r.summary}")
    output.note(f"{len(rules)} rules. 'skillsmith rules ID' explains one; fix* needs --unsafe-fixes.")
    return ExitCode.SUCCESS
