"""``skillsmith audit``: review a git-tracked skills folder against its audited baseline."""

from __future__ import annotations

import argparse

from skillsmith.exitcodes import FINDINGS, ExitCode

HELP = "audit a git-tracked skills folder: permissions, then a full or diff review"
DESCRIPTION = """\
Audit a skills folder that is its own git repository (for example an agent's own skills):

1. permissions first: every file must be readable by others (o+r) and every folder o+rx;
   anything else is flagged at once, since it cannot be inspected;
2. the review: without the baseline ref refs/audited, or with --full, every file; otherwise
   only what changed since it (added, modified, deleted; committed or not). --since REF
   reviews the changes since REF instead;
3. the reviewed files go through the security (SEC) and file (FIL) rules of `check` (inline
   ignore comments and the folder's own config are not honoured), plus the audit rules:
   SUC010-SUC012 (permissions, links, ignored files) and SUC020-SUC022 (scope creep: new
   allowed-tools, network or process use compared with the baseline version of the skill).

No concerns: one summary line on stderr, exit 0; with --approve refs/audited then moves to
HEAD. Concerns: one line each on stdout (file, line, rule, detail and the diff hunk), exit 10,
and refs/audited stays. The audit never modifies the skills.

A person who has reviewed the flagged concerns can accept them for an approval: each by name
with --accept RULE:PATH or RULE:PATH:LINE (as the report prints them; repeatable), or all of
them with --accept-all. Accepted concerns are still printed (marked [accepted]); when none is
left open, refs/audited moves to HEAD and the audit trail records who accepted which concerns
and when, as a git note on HEAD in refs/notes/audited (`git notes --ref=audited show HEAD`).
The reviewer is --reviewer, else git's user.name and user.email; nobody known is a usage error.
"""
EPILOG = """\
exit codes:
  0 no concerns (or every one accepted), 1 a rule failed (the review is incomplete), 2 usage, 3 ROOT or REF not found, 4 ROOT is not a git repository (or
  --approve with uncommitted changes), 5 git missing, 10 concerns flagged

examples:
  skillsmith audit ~/.claude/skills --init          # start tracking; first run is a full review
  skillsmith audit ~/.claude/skills --commit        # commit the session's changes, review the diff
  skillsmith audit ~/.claude/skills --approve       # no concerns: move refs/audited to HEAD
  skillsmith audit skills/ --full --json | jq '.data[] | .rule'
  skillsmith audit skills/ --since HEAD~3
  skillsmith audit skills/ --approve --accept SEC050:fmt/SKILL.md:10   # a reviewed concern, by name
  skillsmith audit skills/ --approve --accept-all --reviewer 'Ada <ada@example.com>'
"""

SCHEMA = "skillsmith.audit/v1"


def add_parser(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:
    from skillsmith.cli.main import formatter

    p = sub.add_parser("audit", help=HELP, description=DESCRIPTION, epilog=EPILOG, formatter_class=formatter)
    p.add_argument("root", nargs="?", default=".", metavar="ROOT", help="the skills folder, a git repository (default: .)")
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("--full", action="store_true", help="review every file, whatever the baseline")
    mode.add_argument("--since", metavar="REF", help="review only the changes since REF instead of refs/audited")
    p.add_argument("--approve", action="store_true", help="when nothing is flagged, move refs/audited to HEAD")
    p.add_argument("--accept", action="append", default=[], metavar="RULE:PATH[:LINE]",
                   help="with --approve: accept this reviewed concern (repeatable); recorded in refs/notes/audited")
    p.add_argument("--accept-all", action="store_true",
                   help="with --approve: accept every flagged concern; recorded in refs/notes/audited")
    p.add_argument("--reviewer", metavar="'NAME <EMAIL>'", help="who accepts (default: git user.name and user.email)")
    p.add_argument("--init", action="store_true", help="make ROOT a git repository with a first commit if it is not one")
    p.add_argument("--commit", action="store_true", help="commit pending changes first (the message names the time)")
    p.add_argument("--json", action="store_true", help="print JSON (the skillsmith.audit/v1 envelope)")
    return p


def run(args: argparse.Namespace) -> int:
    from pathlib import Path

    from skillsmith.cli import output
    from skillsmith.targets.sucoder_audit import run_audit

    outcome = run_audit(Path(args.root).absolute(), full=args.full, since=args.since, approve=args.approve,
                        init=args.init, commit=args.commit, accept=args.accept, accept_all=args.accept_all,
                        reviewer=args.reviewer)
    for line in outcome.notes + outcome.errors:
        output.note(f"skillsmith: {line}")
    if args.json:
        output.emit_json([c.to_json() for c in outcome.concerns], SCHEMA, **outcome.to_json())
    else:
        for c in outcome.concerns:
            output.data(c.to_text())
    colour = "red" if outcome.open_concerns or outcome.errors else "green"
    output.note(output.paint(outcome.summary(), colour))
    if outcome.errors:
        return ExitCode.ERROR
    return FINDINGS if outcome.open_concerns else ExitCode.SUCCESS
