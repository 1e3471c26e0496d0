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
The person is --accepted-by, else git's user.name and user.email; nobody known is a usage error.

--reviewer CMD also hands each review (when something changed) to an external reviewer, such
as an agent CLI in print mode: CMD is split into words (no shell) and runs as you, in an empty
temporary folder, with the review on stdin (the prompt from a file you own, the changes as
diffs, the current skills, the answer format) and --reviewer-timeout seconds to answer on
stdout: a first line APPROVE, or FLAG then one concern a line (PATH:LINE: text), or a JSON
object {"verdict": "approve"|"flag", "concerns": [...]}. Its concerns join the rules' as
SUC030; any other answer, a non-zero exit or a timeout is one SUC030 concern saying why, so
refs/audited moves only when the rules and the reviewer both approve. The prompt is
--reviewer-prompt FILE, else $XDG_CONFIG_HOME/skillsmith/auditor_prompt.md (by default
~/.config/skillsmith/auditor_prompt.md, written with skillsmith's default prompt on first
use); it is never read from the audited folder. Default: no reviewer.
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
  skillsmith audit skills/ --approve --accept-all --accepted-by 'Ada <ada@example.com>'
  skillsmith audit ~/.claude/skills --commit --approve --reviewer 'claude -p'   # an agent reviews too
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
    p.add_argument("--accepted-by", metavar="'NAME <EMAIL>'",
                   help="who accepts concerns (default: git user.name and user.email)")
    p.add_argument("--reviewer", metavar="CMD",
                   help="hand each review to this command (stdin: the review; stdout: APPROVE or FLAG and concerns)")
    p.add_argument("--reviewer-timeout", type=float, default=None, metavar="SECONDS",
                   help="how long the reviewer may take (default: 300)")
    p.add_argument("--reviewer-prompt", metavar="FILE",
                   help="the reviewer's prompt (default: ~/.config/skillsmith/auditor_prompt.md, written on first use)")
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
                        accepted_by=args.accepted_by, reviewer=reviewer_of(args))
    said = outcome.review_note()
    for line in outcome.notes + ([said] if said else []) + outcome.errors:
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


def reviewer_of(args: argparse.Namespace):
    """The external reviewer the options ask for, or None; UsageError for options that do not fit."""
    import math
    import re
    from pathlib import Path

    from skillsmith.errors import UsageError
    from skillsmith.targets.sucoder_reviewer import DEFAULT_TIMEOUT, Reviewer

    if args.reviewer is None:
        if args.reviewer_timeout is not None or args.reviewer_prompt is not None:
            raise UsageError("--reviewer-timeout and --reviewer-prompt go with --reviewer CMD")
        return None
    if re.fullmatch(r"[^<>]*<[^<>\s]+@[^<>\s]+>\s*", args.reviewer):
        raise UsageError(f"--reviewer takes the reviewer's command; {args.reviewer!r} names a person: "
                         "pass it as --accepted-by")
    timeout = DEFAULT_TIMEOUT if args.reviewer_timeout is None else args.reviewer_timeout
    if not math.isfinite(timeout) or timeout <= 0:
        raise UsageError("--reviewer-timeout must be more than 0 seconds")
    prompt = Path(args.reviewer_prompt).absolute() if args.reviewer_prompt is not None else None
    return Reviewer(args.reviewer, timeout, prompt)
