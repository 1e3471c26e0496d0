"""``skillsmith check``: lint skills and their scripts."""

from __future__ import annotations

import argparse

from skillsmith.exitcodes import FINDINGS, ExitCode

HELP = "lint skills and their scripts"
DESCRIPTION = """\
Check skills (folders with a SKILL.md, found recursively), a scripts/ folder, or single
scripts against the rules (see `skillsmith rules`). Nothing is executed unless you pass
--run. Findings go to stdout; the summary goes to stderr.
"""
EPILOG = """\
exit codes:
  0 no findings, 2 usage, 3 path not found, 4 invalid config, 10 findings

examples:
  skillsmith check                         # the current folder
  skillsmith check skills/ --select SPC,CON --ignore CON013
  skillsmith check my-skill/scripts/fetch.py
  skillsmith check skills/ --json | jq '.data[] | .rule'
  skillsmith check skills/ --format sarif > results.sarif
  skillsmith check my-skill --run          # also run each script's --help
  skillsmith check --whole-skill skills/fmt/scripts/x.py   # the skill that holds x.py
"""

FORMATS = ("text", "json", "sarif", "github")


def add_parser(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:
    from skillsmith.cli.main import formatter
    from skillsmith import targets

    p = sub.add_parser("check", help=HELP, description=DESCRIPTION, epilog=EPILOG, formatter_class=formatter)
    p.add_argument("paths", nargs="*", metavar="PATH", help="skills, folders or scripts (default: .)")
    p.add_argument("--format", choices=FORMATS, default=None, help="output format (default: text)")
    p.add_argument("--json", action="store_true", help="same as --format json")
    p.add_argument("--select", metavar="IDS", help="only these rules: comma-separated IDs or prefixes (SPC,CON001)")
    p.add_argument("--ignore", metavar="IDS", help="skip these rules: comma-separated IDs or prefixes")
    p.add_argument("--target", choices=targets.names(), help="check for this host instead of detecting it")
    p.add_argument("--run", action="store_true", dest="run_scripts", help="also run each entry script's --help and an unknown flag")
    p.add_argument("--timeout", type=float, default=10.0, metavar="SECONDS", help="per-run timeout with --run (default: 10)")
    p.add_argument("--exit-zero", action="store_true", help="exit 0 even when findings remain")
    add_whole_skill(p, "check")
    p.add_argument("--no-cache", action="store_true", help="do not read or write the results cache")
    p.add_argument("--jobs", type=int, metavar="N", help="worker processes (default: number of CPUs)")
    return p


def add_whole_skill(p: argparse.ArgumentParser, verb: str) -> None:
    p.add_argument("--whole-skill", action="store_true",
                   help=f"{verb} the whole skill each PATH belongs to (the outermost folder above it with a "
                        "SKILL.md); PATHs in no skill are left out. For pre-commit, which passes changed files")


def given_paths(paths: list[str], whole_skill: bool) -> list[str]:
    """What a check or fix runs on: the PATHs (default ``.``), or with --whole-skill the skills holding them.

    A missing PATH is kept, so discovery reports it (exit 3); with --whole-skill the list is
    empty when no PATH lies in a skill, and the caller then checks nothing.
    """
    if not whole_skill:
        return paths or ["."]
    import os

    from skillsmith.discovery.discover import skill_root_of

    roots: list[str] = []
    for given in paths or ["."]:
        root = skill_root_of(given) if os.path.lexists(given) else given
        if root is not None and str(root) not in roots:
            roots.append(str(root))
    return roots


def run(args: argparse.Namespace) -> int:
    from skillsmith.api import Options, Result, check_result
    from skillsmith.cli import output
    from skillsmith.reporters import report
    from skillsmith.rules.registry import selectors

    fmt = "json" if args.json else (args.format or "text")
    options = Options(
        select=selectors(args.select), ignore=selectors(args.ignore) or [], target=args.target,
        run=args.run_scripts, run_timeout=args.timeout, jobs=args.jobs, use_cache=not args.no_cache,
    )
    paths = given_paths(args.paths, args.whole_skill)
    if not paths:
        output.note("skillsmith: no skill holds the given paths; nothing to check")
        report(fmt, Result([], 0))
        return ExitCode.SUCCESS
    result = check_result(paths, options)
    for line in result.notes:
        output.note(f"skillsmith: {line}")
    report(fmt, result)
    if result.internal_errors:
        return ExitCode.ERROR
    if result.findings and not args.exit_zero:
        return FINDINGS
    return ExitCode.SUCCESS
