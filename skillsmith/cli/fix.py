"""``skillsmith fix``: apply the safe fixes (and, when asked, the unsafe ones)."""

from __future__ import annotations

import argparse

from skillsmith.exitcodes import FINDINGS, ExitCode

HELP = "fix what can be fixed safely"
DESCRIPTION = """\
Fix the findings that have a fix (see `skillsmith rules`: fix safe/unsafe). Only files with
fixable findings are touched; each is parsed once, transformed, re-verified and written
atomically, keeping its encoding, newline style and mode. A file that cannot be fixed safely
is skipped and reported, byte for byte unchanged. Diffs and --json go to stdout. On stderr:
each file with the rules fixed in it, each fixable finding that was not fixed and why, and
how many more fixes --unsafe-fixes would apply; on a terminal, progress.
"""
EPILOG = """\
exit codes:
  0 no fixable finding remains, 2 usage, 3 path not found, 4 invalid config or input
  (a file that is neither a skill nor a script),
  5 a fixed file could not be written (a read-only folder, a full disk),
  10 findings remain that need a person (with --check/--diff: something would change;
     with --exit-non-zero-on-fix: also when a file was written)

examples:
  skillsmith fix my-skill/                     # apply the safe fixes
  skillsmith fix my-skill/scripts/ --diff      # show what would change, write nothing
  skillsmith fix skills/ --check               # exit 10 when something would change
  skillsmith fix my-skill --select CON014,PYS002
  skillsmith fix my-skill --unsafe-fixes       # also move status prints to stderr, ...
  skillsmith fix my-skill --json | jq '.data[].path'
  skillsmith fix --whole-skill --exit-non-zero-on-fix skills/fmt/SKILL.md   # as the pre-commit hook does
"""

SCHEMA = "skillsmith.fix/v1"


def add_parser(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:
    from skillsmith.cli.check import add_whole_skill
    from skillsmith.cli.main import formatter

    p = sub.add_parser("fix", help=HELP, description=DESCRIPTION, epilog=EPILOG, formatter_class=formatter)
    p.add_argument("paths", nargs="*", metavar="PATH", help="skills, folders or scripts (default: .)")
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("--diff", action="store_true", help="print unified diffs on stdout; write nothing")
    mode.add_argument("--check", action="store_true", help="write nothing; exit 10 when something would change")
    p.add_argument("--unsafe-fixes", action="store_true", help="also apply fixes that change behaviour")
    p.add_argument("--select", metavar="IDS", help="only fixes for these rules: comma-separated IDs, prefixes or names")
    p.add_argument("--json", action="store_true", help="list the changed, skipped and unfixed files as JSON on stdout")
    p.add_argument("--exit-non-zero-on-fix", action="store_true",
                   help="exit 10 when a file was written, even if nothing remains (so a pre-commit hook fails)")
    add_whole_skill(p, "fix")
    p.add_argument("-q", "--quiet", action="store_true", help="no report, notes or progress on stderr")
    return p


def run(args: argparse.Namespace) -> int:
    from skillsmith import api
    from skillsmith.cli import output
    from skillsmith.cli.check import given_paths, output_notes
    from skillsmith.cli.progress import Progress, wanted

    dry = args.diff or args.check
    paths = given_paths(args.paths, args.whole_skill)
    if not paths:
        if not args.quiet:
            output.note("skillsmith: no skill holds the given paths; nothing to fix")
        if args.json:
            output.emit_json([], SCHEMA)
        return ExitCode.SUCCESS
    with Progress(wanted(args.quiet, "json" if args.json else "text"), "Fixing") as progress:
        result = api.fix(paths, select=args.select, unsafe=args.unsafe_fixes, write=not dry, done=progress.callback)
    output_notes(result, args.quiet)
    not_applied = result.not_applied
    if args.diff:
        for f in result.changed:
            output.data(f.diff().rstrip("\n"))
    if args.json:
        output.emit_json(json_items(result, not_applied), SCHEMA)
    if not args.quiet:
        for line in report_lines(result, not_applied, dry):
            output.note(line)
    if result.internal_errors:
        return ExitCode.ERROR
    if any(f.write_failed for f in result.files):
        return ExitCode.PRECONDITION
    if dry:
        return FINDINGS if result.changed else ExitCode.SUCCESS
    written = args.exit_non_zero_on_fix and any(f.written for f in result.changed)
    return FINDINGS if result.remaining or result.skipped or written else ExitCode.SUCCESS


def json_items(result, not_applied: list[tuple]) -> list[dict]:
    """One item per file fixed, skipped, or holding a fixable finding that was not fixed (with the reason)."""
    from skillsmith.rules.finding import display_path

    unfixed: dict[str, list[dict]] = {}
    for finding, why in not_applied:
        unfixed.setdefault(finding.path, []).append({
            "rule": finding.rule, "line": finding.line, "column": finding.column, "message": finding.message,
            "reason": why,
        })
    by_path = {f.file.path.as_posix(): f for f in result.files}
    items = []
    for path in sorted(set(unfixed) | {p for p, f in by_path.items() if f.changed or f.skipped}):
        f = by_path.get(path)
        if f is None:
            status, rules, fixers, reason = "unchanged", [], [], None
        else:
            status = "skipped" if f.skipped else ("fixed" if f.written else "would-fix" if f.changed else "unchanged")
            rules, fixers, reason = sorted(f.fixed_rules) if f.changed else [], list(f.applied), f.skipped
        items.append({"path": display_path(path), "status": status, "rules": rules, "fixers": fixers,
                      "reason": reason, "not_fixed": unfixed.get(path, [])})
    return items


def report_lines(result, not_applied: list[tuple], dry: bool) -> list[str]:
    """What ``fix`` tells a person on stderr, like ``ruff --fix --show-fixes``."""
    from skillsmith.reporters import plural
    from skillsmith.rules.finding import display_path
    from skillsmith.rules.registry import get_rule

    def named(rule_id: str) -> str:
        r = get_rule(rule_id)
        return f"{rule_id} ({r.name})" if r is not None else rule_id

    verb = "would fix" if dry else "fixed"
    lines = []
    for f in result.changed:
        rules = ", ".join(named(r) for r in sorted(f.fixed_rules)) or "the executable bit"
        lines.append(f"{verb.capitalize()} {display_path(f.file.path)}: {rules}")
    listed = {finding.path for finding, _ in not_applied}
    for f in result.skipped:
        if f.write_failed:
            lines.append(f"Not written {display_path(f.file.path)}: {f.skipped.removeprefix('not written: ')}")
        elif f.file.path.as_posix() not in listed:
            lines.append(f"Skipped {display_path(f.file.path)}: {f.skipped}")
    for finding, why in not_applied:
        lines.append(f"Not fixed {finding.display_path()}:{finding.line}:{finding.column}: {named(finding.rule)}: {why}")

    changed, skipped = result.changed, result.skipped
    summary = f"{verb} {plural(len(changed), 'file')}"
    if skipped:
        summary += f", skipped {len(skipped)}"
    if not dry:
        remaining = result.remaining
        summary += f"; {len(remaining)} finding{'s remain' if len(remaining) != 1 else ' remains'}"
        if not_applied:
            summary += f" ({len(not_applied)} with a fix that was not applied, listed above)"
    unsafe = result.unsafe_available
    if unsafe:
        summary += f"; {unsafe} more fix{'es' if unsafe != 1 else ''} available with `--unsafe-fixes`"
    if not dry and result.remaining:
        summary += "; run `skillsmith check` to see the findings"
    lines.append(f"skillsmith: {summary}")
    unwritten = [f for f in result.files if f.write_failed]
    if unwritten:
        lines.append(f"skillsmith: error: {plural(len(unwritten), 'fixed file')} could not be written; "
                     "they are unchanged (is the folder writable?)")
    return lines
