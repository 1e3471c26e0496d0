"""``skillsmith fix``: apply the safe fixes (and, when asked, the unsafe ones)."""

from __future__ import annotations

import argparse

from skillsmith.exitcodes import FINDINGS, ExitCode

HELP = "fix what can be fixed safely"
DESCRIPTION = """\
Fix the findings that have a fix (see `skillsmith rules`: fix safe/unsafe). Only files with
fixable findings are touched; each is parsed once, transformed, re-verified and written
atomically, keeping its encoding, newline style and mode. A file that cannot be fixed safely
is skipped and reported, byte for byte unchanged. Diffs and --json go to stdout; the summary
goes to stderr.
"""
EPILOG = """\
exit codes:
  0 no fixable finding remains, 2 usage, 3 path not found, 4 invalid config,
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
    p.add_argument("--select", metavar="IDS", help="only fixes for these rules: comma-separated IDs or prefixes")
    p.add_argument("--json", action="store_true", help="list the changed and skipped files as JSON on stdout")
    p.add_argument("--exit-non-zero-on-fix", action="store_true",
                   help="exit 10 when a file was written, even if nothing remains (so a pre-commit hook fails)")
    add_whole_skill(p, "fix")
    return p


def run(args: argparse.Namespace) -> int:
    from skillsmith import api
    from skillsmith.cli import output
    from skillsmith.cli.check import given_paths
    from skillsmith.rules.finding import display_path

    dry = args.diff or args.check
    paths = given_paths(args.paths, args.whole_skill)
    if not paths:
        output.note("skillsmith: no skill holds the given paths; nothing to fix")
        if args.json:
            output.emit_json([], SCHEMA)
        return ExitCode.SUCCESS
    result = api.fix(paths, select=args.select, unsafe=args.unsafe_fixes, write=not dry)
    for line in result.notes:
        output.note(f"skillsmith: {line}")

    changed, skipped = result.changed, result.skipped
    if args.diff:
        for f in changed:
            output.data(f.diff().rstrip("\n"))
    if args.json:
        items = []
        for f in result.files:
            if not (f.changed or f.skipped):
                continue
            status = "skipped" if f.skipped else ("fixed" if f.written else "would-fix")
            items.append({
                "path": display_path(f.file.path), "status": status, "rules": sorted(f.fixed_rules),
                "fixers": list(f.applied), "reason": f.skipped,
            })
        output.emit_json(items, SCHEMA)
    for f in skipped:
        output.note(f"skillsmith: skipped {display_path(f.file.path)}: {f.skipped}")

    verb = "would fix" if dry else "fixed"
    summary = f"{verb} {len(changed)} file{'s' if len(changed) != 1 else ''}"
    if skipped:
        summary += f", skipped {len(skipped)}"
    if dry:
        output.note(f"skillsmith: {summary}")
        if result.internal_errors:
            return ExitCode.ERROR
        return FINDINGS if changed else ExitCode.SUCCESS
    remaining = result.remaining
    fixable = sum(1 for f in remaining if f.fix == "safe" or (args.unsafe_fixes and f.fix == "unsafe"))
    summary += f"; {len(remaining)} finding{'s remain' if len(remaining) != 1 else ' remains'}"
    if fixable:
        summary += f" ({fixable} with a fix that could not be applied)"
    output.note(f"skillsmith: {summary}" + ("; run `skillsmith check` to see them" if remaining else ""))
    if result.internal_errors:
        return ExitCode.ERROR
    written = args.exit_non_zero_on_fix and any(f.written for f in changed)
    return FINDINGS if remaining or skipped or written else ExitCode.SUCCESS
