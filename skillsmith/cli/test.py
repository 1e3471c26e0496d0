"""``skillsmith test``: run each skill's own test suites, sandboxed as ``check --run`` runs scripts."""

from __future__ import annotations

import argparse

from skillsmith.exitcodes import FINDINGS, ExitCode

HELP = "run each skill's own test suites (tests/run.sh, kvist tests and contract)"
DESCRIPTION = """\
Find every skill below the PATHs (default: .) and run its own test suites:

  tests/run.sh          the skill's offline self-test, run with bash (every skill)
  tests/test_*.py       python -m unittest discover -s tests (kvist skills)
  tests/contract.json   each tool called with its sample arguments, offline (kvist skills);
                        a call that needs a kvist capability is skipped, not failed

Each suite runs in the sandbox `check --run` uses (bubblewrap: no network, the skill
read-only, a temporary HOME and working folder, stdin closed, a trimmed environment), with a
timeout; nothing it started is left running. Suites run in parallel (--jobs).

One line per suite goes to stdout (PASS, FAIL, TIMEOUT or ERROR, then the skill and the
suite), followed by the last lines of each failing suite's output; a skill without a suite
is listed as "no suite" and does not fail. The summary, "N passed, M failed", goes to stderr.
"""
EPILOG = """\
exit codes:
  0 every suite passed (or there were none), 2 usage, 3 PATH not found,
  5 no sandbox can be made (install bubblewrap, or pass --unsandboxed), 10 a suite failed or timed out

examples:
  skillsmith test                          # the skills below the current folder
  skillsmith test skills/ --timeout 120 --jobs 2
  skillsmith test my-skill --json | jq '.data[] | select(.status != "passed")'
  skillsmith test skills/ --unsandboxed    # no bubblewrap here: run the suites as you
"""

SCHEMA = "skillsmith.test/v1"
MARKS = {"passed": ("PASS", "green"), "failed": ("FAIL", "red"), "timeout": ("TIMEOUT", "red"),
         "error": ("ERROR", "red")}


def add_parser(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:
    from skillsmith.cli.main import formatter

    p = sub.add_parser("test", help=HELP, description=DESCRIPTION, epilog=EPILOG, formatter_class=formatter)
    p.add_argument("paths", nargs="*", metavar="PATH", help="skills or folders of skills (default: .)")
    p.add_argument("--timeout", type=float, default=60.0, metavar="SECONDS",
                   help="per-suite timeout (default: 60)")
    p.add_argument("--jobs", type=int, metavar="N", help="suites run at once (default: 4)")
    p.add_argument("--unsandboxed", action="store_true",
                   help="run the suites without the bubblewrap sandbox (they can reach your files and the network)")
    p.add_argument("--json", action="store_true", help="print the results as JSON (the skillsmith.test/v1 envelope)")
    p.add_argument("-q", "--quiet", action="store_true", help="results only: no summary or notes on stderr")
    return p


def run(args: argparse.Namespace) -> int:
    import math

    from skillsmith import sandbox, suites
    from skillsmith.cli import output
    from skillsmith.errors import UsageError
    from skillsmith.rules.finding import display_path

    if not math.isfinite(args.timeout) or args.timeout <= 0:
        raise UsageError("--timeout must be more than 0 seconds")
    if args.jobs is not None and args.jobs < 1:
        raise UsageError("--jobs must be at least 1")
    found, without = suites.find(args.paths or ["."])
    if found and not args.unsandboxed:
        sandbox.require("test runs the suites")
    results = suites.run_suites(found, timeout=args.timeout, sandboxed=not args.unsandboxed,
                                jobs=args.jobs or suites.DEFAULT_JOBS)
    outcome = suites.TestRun(results, without)
    if args.json:
        rows = [{**r.to_json(), "skill": display_path(r.skill)} for r in results]
        rows += [{"skill": display_path(s), "suite": None, "path": None, "status": "no suite", "exit_code": None,
                  "seconds": 0, "stdout": "", "stderr": "", "error": None} for s in without]
        output.emit_json(rows, SCHEMA, passed=len(results) - len(outcome.failed), failed=len(outcome.failed),
                         timed_out=sum(r.status == "timeout" for r in results), without_suite=len(without))
    else:
        colour = output.stdout_colour()
        for r in results:
            mark, hue = MARKS[r.status]
            extra = f" after {args.timeout:g} s" if r.status == "timeout" else (
                f" (exit {r.code})" if r.status == "failed" else "")
            output.data(f"{output.paint(mark, hue, colour)} {display_path(r.skill)}: {r.path}{extra}")
            if not r.ok:
                for line in r.tail():
                    output.data(f"    {line}")
        for skill in without:
            output.data(f"{output.paint('-', 'dim', colour)} {display_path(skill)}: no suite")
    if args.unsandboxed and found and not args.quiet:
        output.note("skillsmith: --unsandboxed: the suites ran as you, with your files and network")
    if not args.quiet:
        output.note(output.paint(outcome.summary(), "red" if outcome.failed else "green"))
    return FINDINGS if outcome.failed else ExitCode.SUCCESS
