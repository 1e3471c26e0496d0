"""``skillsmith rules``: list the rules, or explain one."""

from __future__ import annotations

import argparse

from skillsmith.exitcodes import ExitCode

HELP = "list the rules, or explain one"
DESCRIPTION = """\
Without an ID, list every rule: ID, name, severity, whether `skillsmith fix` can fix it,
and a one-line summary (an opt-in rule, which runs only when --select names it, says so).
With an ID (or a rule name), print that rule's documentation; with a prefix (CON, SHL0),
list the rules it selects. ShellCheck's codes (SC2086) are explained as the SHL090
findings they are.
"""
EPILOG = """\
examples:
  skillsmith rules                 # every rule, one per line
  skillsmith rules CON004          # what CON004 checks, why, and how to fix it
  skillsmith rules name-invalid    # rules can be named too
  skillsmith rules CON             # the script-contract family
  skillsmith rules SC2086          # a ShellCheck code
  skillsmith rules --json | jq '.data[] | select(.fix == "safe") | .id'
"""

SCHEMA = "skillsmith.rules/v1"
SHELLCHECK_WIKI = "https://www.shellcheck.net/wiki/"


def add_parser(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:
    from skillsmith.cli.main import formatter

    p = sub.add_parser("rules", help=HELP, description=DESCRIPTION, epilog=EPILOG, formatter_class=formatter)
    p.add_argument("rule", nargs="?", metavar="ID", help="a rule ID (SPC007), name (name-invalid) or prefix (CON)")
    p.add_argument("--json", action="store_true", help="print JSON (the skillsmith.rules/v1 envelope)")
    return p


def run(args: argparse.Namespace) -> int:
    from skillsmith.cli import output
    from skillsmith.errors import NotFoundError
    from skillsmith.rules.docs import rule_markdown
    from skillsmith.rules.registry import all_rules, code_shape, did_you_mean, get_rule, rules_named_by

    if not args.rule:
        return list_rules(all_rules(), args.json)
    found = get_rule(args.rule)
    if found is not None:
        if args.json:
            output.emit_json([found.to_json()], SCHEMA)
        else:
            output.data(rule_markdown(found))
        return ExitCode.SUCCESS
    reporter = code_shape(args.rule)
    if reporter is not None:
        code = args.rule.strip().upper()
        if code == reporter.codes:  # the prefix alone (SC): the rule that reports those codes
            return list_rules([reporter], args.json)
        return explain_code(code, reporter, args.json)
    family = rules_named_by(args.rule)
    if family:
        return list_rules(family, args.json)
    raise NotFoundError(f"no rule {args.rule!r}{did_you_mean(args.rule)} (see 'skillsmith rules')", {"rule": args.rule})


def list_rules(rules: list, as_json: bool) -> int:
    """One line per rule: ID, name, severity, fix, summary (and whether it is opt-in)."""
    from skillsmith.cli import output

    if as_json:
        output.emit_json([r.to_json() for r in rules], SCHEMA)
        return ExitCode.SUCCESS
    width = max(len(r.name) for r in rules)
    for r in rules:
        fix = {"safe": "fix", "unsafe": "fix*", None: "-"}[r.fix]
        off = " (opt-in)" if r.opt_in else ""
        output.data(f"{r.id}  {r.name:<{width}}  {r.severity:<7}  {fix:<4}  {r.summary}{off}")
    output.note(f"{len(rules)} rule{'s' if len(rules) != 1 else ''}. 'skillsmith rules ID' explains one; "
                "fix* needs --unsafe-fixes; an opt-in rule runs only when --select names it.")
    return ExitCode.SUCCESS


def explain_code(code: str, reporter, as_json: bool) -> int:
    """An external tool's code (ShellCheck's SC2086): what reports it and where its documentation is."""
    from skillsmith.cli import output

    url = SHELLCHECK_WIKI + code
    if as_json:
        output.emit_json([{"id": code, "reported_by": reporter.id, "name": reporter.name, "url": url}], SCHEMA)
        return ExitCode.SUCCESS
    output.data(
        f"# {code} (ShellCheck)\n\n"
        f"ShellCheck's own check {code}, reported by {reporter.id} `{reporter.name}` when ShellCheck is installed.\n"
        f"ShellCheck documents it at {url}\n\n"
        f"Select or ignore it like a rule: `--select {code}`, `--ignore {code}`, `# skillsmith: ignore[{code}]`.\n"
        f"See `skillsmith rules {reporter.id}`."
    )
    return ExitCode.SUCCESS
