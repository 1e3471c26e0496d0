"""``skillsmith check``: lint skills and their scripts."""

from __future__ import annotations

import argparse

from skillsmith.exitcodes import FINDINGS, ExitCode

HELP = "lint skills and their scripts"
DESCRIPTION = """\
Check skills (folders with a SKILL.md, found recursively), a scripts/ folder, or single
scripts against the rules (see `skillsmith rules`). Nothing is executed unless you pass
--run, which runs each entry script in a bubblewrap sandbox (no network, the skill read-only,
a temporary HOME). Findings go to stdout; the summary and, on a terminal, progress go to
stderr. Rules are named by ID, prefix or name (CON004, CON, header-missing); ShellCheck's
codes (SC2086) select and ignore like rules.
"""
EPILOG = """\
exit codes:
  0 no findings (at or above --fail-on), 2 usage, 3 path not found, 4 invalid config
  or input (a file that is neither a skill nor a script), 5 --run without a sandbox
  (install bubblewrap, or pass --unsandboxed), 10 findings

examples:
  skillsmith check                         # the current folder
  skillsmith check skills/ --select SPC,CON --ignore CON013,SC2086
  skillsmith check my-skill/scripts/fetch.py --output-format full
  skillsmith check skills/ --statistics    # how often each rule is broken
  skillsmith check skills/ --fail-on error # warnings are shown but do not fail
  skillsmith check skills/ --json | jq '.data[] | .rule'
  skillsmith check skills/ --format sarif > results.sarif
  skillsmith check my-skill --run          # also run each script's --help (in a bwrap sandbox)
  skillsmith check --whole-skill skills/fmt/scripts/x.py   # the skill that holds x.py
"""

FORMATS = ("text", "json", "sarif", "github")
STYLES = ("concise", "full")
STATISTICS_SCHEMA = "skillsmith.statistics/v1"


def add_parser(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:
    from skillsmith.cli.main import formatter
    from skillsmith import targets
    from skillsmith.rules.finding import SEVERITIES

    p = sub.add_parser("check", help=HELP, description=DESCRIPTION, epilog=EPILOG, formatter_class=formatter)
    p.add_argument("paths", nargs="*", metavar="PATH", help="skills, folders or scripts (default: .)")
    p.add_argument("--format", choices=FORMATS, default=None, help="output format (default: text)")
    p.add_argument("--json", action="store_true", help="same as --format json")
    p.add_argument("--output-format", choices=STYLES, default=None,
                   help="text format: one line per finding (concise, the default) or with the source line and a caret (full)")
    p.add_argument("--statistics", action="store_true", help="count the findings per rule instead of listing them")
    p.add_argument("--select", metavar="IDS", help="only these rules: comma-separated IDs, prefixes or names (SPC,CON001)")
    p.add_argument("--ignore", metavar="IDS", help="skip these rules: comma-separated IDs, prefixes or names")
    p.add_argument("--target", choices=targets.names(), help="check for this host instead of detecting it")
    p.add_argument("--run", action="store_true", dest="run_scripts", help="also run each entry script's --help and an unknown flag")
    p.add_argument("--timeout", type=float, default=10.0, metavar="SECONDS", help="per-run timeout with --run (default: 10)")
    p.add_argument("--unsandboxed", action="store_true",
                   help="with --run: run the scripts without the bubblewrap sandbox (they can reach your files and the network)")
    p.add_argument("--fail-on", choices=SEVERITIES, default="info", metavar="SEVERITY",
                   help="exit 10 only for findings of this severity or worse: error, warning or info (default: info, any)")
    p.add_argument("--exit-zero", action="store_true", help="exit 0 even when findings remain")
    p.add_argument("-q", "--quiet", action="store_true", help="findings only: no summary, notes or progress on stderr")
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
    from skillsmith.cli.progress import Progress, wanted
    from skillsmith.errors import UsageError
    from skillsmith.reporters import SEVERITY_RANK, View, report, statistics, summary
    from skillsmith.rules.engine import collection_tuned
    from skillsmith.rules.registry import selectors

    fmt = "json" if args.json else (args.format or "text")
    if args.output_format is not None and fmt != "text":
        raise UsageError(f"--output-format shapes the text format; it does not apply to --format {fmt}")
    if args.statistics and fmt not in ("text", "json"):
        raise UsageError(f"--statistics prints text or JSON; it does not apply to --format {fmt}")
    options = Options(
        select=selectors(args.select), ignore=selectors(args.ignore) or [], target=args.target,
        run=args.run_scripts, run_timeout=args.timeout, unsandboxed=args.unsandboxed, jobs=args.jobs,
        use_cache=not args.no_cache,
    )
    paths = given_paths(args.paths, args.whole_skill)
    if not paths:
        if not args.quiet:
            output.note("skillsmith: no skill holds the given paths; nothing to check")
        report(fmt, Result([], 0))
        return ExitCode.SUCCESS
    with collection_tuned():  # the run and its report make many objects that live to the end
        with Progress(wanted(args.quiet, fmt), "Checking") as progress:
            result = check_result(paths, options, progress.callback)
        if args.run_scripts and args.unsandboxed and not args.quiet:
            output.note("skillsmith: --unsandboxed: the scripts ran as you, with your files and network")
        output_notes(result, args.quiet)
        if args.statistics:
            report_statistics(statistics(result), fmt == "json", output.stdout_colour())
        else:
            report(fmt, result, View(full=args.output_format == "full", colour=fmt == "text" and output.stdout_colour()))
    if not args.quiet:
        output.note(output.paint(summary(result), "red" if result.findings else "green"))
    if result.internal_errors:
        return ExitCode.ERROR
    threshold = SEVERITY_RANK[args.fail_on]
    failing = any(SEVERITY_RANK[f.severity] >= threshold for f in result.findings)
    if failing and not args.exit_zero:
        return FINDINGS
    return ExitCode.SUCCESS


def output_notes(result, quiet: bool) -> None:
    """The run's notes and warnings on stderr; with *quiet* only internal errors."""
    from skillsmith.cli import output
    from skillsmith.rules.finding import display_path

    for line in result.notes:
        if not quiet or line.startswith("internal error"):
            output.note(f"skillsmith: {line}")
    if quiet:
        return
    for w in result.warnings:
        output.note(f"skillsmith: warning: {display_path(w['path'])}:{w['line']}: {w['message']}")


def report_statistics(rows: list[dict], as_json: bool, colour: bool) -> None:
    """Counts per rule on stdout, like ``ruff --statistics``: count, rule, ``[*]`` when fixable, name."""
    from skillsmith.cli import output

    if as_json:
        output.emit_json(rows, STATISTICS_SCHEMA)
        return
    width = max((len(str(r["count"])) for r in rows), default=1)
    rule_width = max((len(r["rule"]) for r in rows), default=6)
    for r in rows:
        fix = output.paint("[*]", "cyan", colour) if r["fix"] == "safe" else "   "
        output.data(f"{r['count']:>{width}}  {output.paint(r['rule'].ljust(rule_width), 'red', colour)}  {fix} {r['name']}".rstrip())
