"""``skillsmith check``: lint skills and their scripts."""

from __future__ import annotations

import argparse

from skillsmith.exitcodes import FINDINGS, ExitCode

HELP = "lint skills and their scripts"
DESCRIPTION = """\
Check skills (folders with a SKILL.md, found recursively), a scripts/ folder, or single
scripts against the rules (see `skillsmith rules`). Nothing is executed unless you pass
--run, which runs each entry script in a bubblewrap sandbox (no network, the skill read-only,
a temporary HOME). Findings go to stdout; the summary goes to stderr.
"""
EPILOG = """\
exit codes:
  0 no findings, 2 usage, 3 path not found, 4 invalid config, 5 --run without a sandbox
  (install bubblewrap, or pass --unsandboxed), 10 findings

examples:
  skillsmith check                         # the current folder
  skillsmith check skills/ --select SPC,CON --ignore CON013
  skillsmith check my-skill/scripts/fetch.py
  skillsmith check skills/ --json | jq '.data[] | .rule'
  skillsmith check skills/ --format sarif > results.sarif
  skillsmith check my-skill --run          # also run each script's --help (in a bwrap sandbox)
"""

FORMATS = ("text", "json", "sarif", "github")


def add_parser(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:
    from skillsmith.cli.main import formatter
    from skillsmith.rules.registry import TARGETS

    p = sub.add_parser("check", help=HELP, description=DESCRIPTION, epilog=EPILOG, formatter_class=formatter)
    p.add_argument("paths", nargs="*", metavar="PATH", help="skills, folders or scripts (default: .)")
    p.add_argument("--format", choices=FORMATS, default=None, help="output format (default: text)")
    p.add_argument("--json", action="store_true", help="same as --format json")
    p.add_argument("--select", metavar="IDS", help="only these rules: comma-separated IDs or prefixes (SPC,CON001)")
    p.add_argument("--ignore", metavar="IDS", help="skip these rules: comma-separated IDs or prefixes")
    p.add_argument("--target", choices=TARGETS, help="check for this host instead of detecting it")
    p.add_argument("--run", action="store_true", dest="run_scripts", help="also run each entry script's --help and an unknown flag")
    p.add_argument("--timeout", type=float, default=10.0, metavar="SECONDS", help="per-run timeout with --run (default: 10)")
    p.add_argument("--unsandboxed", action="store_true",
                   help="with --run: run the scripts without the bubblewrap sandbox (they can reach your files and the network)")
    p.add_argument("--exit-zero", action="store_true", help="exit 0 even when findings remain")
    p.add_argument("--no-cache", action="store_true", help="do not read or write the results cache")
    p.add_argument("--jobs", type=int, metavar="N", help="worker processes (default: number of CPUs)")
    return p


def run(args: argparse.Namespace) -> int:
    from skillsmith.api import Options, check_result
    from skillsmith.cli import output
    from skillsmith.reporters import report
    from skillsmith.rules.registry import selectors

    fmt = "json" if args.json else (args.format or "text")
    options = Options(
        select=selectors(args.select), ignore=selectors(args.ignore) or [], target=args.target,
        run=args.run_scripts, run_timeout=args.timeout, unsandboxed=args.unsandboxed, jobs=args.jobs,
        use_cache=not args.no_cache,
    )
    result = check_result(args.paths or ["."], options)
    if args.run_scripts and args.unsandboxed:
        output.note("skillsmith: --unsandboxed: the scripts ran as you, with your files and network")
    for line in result.notes:
        output.note(f"skillsmith: {line}")
    report(fmt, result)
    if result.internal_errors:
        return ExitCode.ERROR
    if result.findings and not args.exit_zero:
        return FINDINGS
    return ExitCode.SUCCESS
