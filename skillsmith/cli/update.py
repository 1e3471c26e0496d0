"""``skillsmith update``: bring a generated skill up to the current templates."""

from __future__ import annotations

import argparse

HELP = "update a generated skill to the current templates"
DESCRIPTION = """\
Re-render the template a skill was made from (recorded in its .skillsmith-answers.yml) at the
current version and merge the change into the skill with Copier's 3-way merge: your edits stay,
template changes arrive, and where both touched the same lines the file gets inline conflict
markers (<<<<<<< before updating ... >>>>>>> after updating). Nothing is committed: review with
`git diff`, resolve markers, then commit.

The skill must be in a git repository with no uncommitted changes, so the update can be
reviewed and undone. Changed files go to stdout as 'updated PATH' or 'conflict PATH'; with
--pretend the update runs in a temporary clone and its diff goes to stdout.
"""
EPILOG = """\
exit codes:
  0 updated or already current, 2 usage, 3 SKILL_DIR not found,
  4 no usable .skillsmith-answers.yml (not made by 'skillsmith new'),
  5 not in a git repository, uncommitted changes, or git missing,
  10 conflicts to resolve (with --pretend: an update is available)

examples:
  skillsmith update my-skill
  skillsmith update --pretend my-skill | less
  skillsmith update my-skill --json | jq '.data[] | select(.status == "conflict") | .path'
"""


def add_parser(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:
    from skillsmith.cli.main import formatter

    p = sub.add_parser("update", help=HELP, description=DESCRIPTION, epilog=EPILOG, formatter_class=formatter)
    p.add_argument("skill_dir", nargs="?", default=".", metavar="SKILL_DIR", help="the skill folder (default: .)")
    p.add_argument("--pretend", action="store_true", help="change nothing; print the diff the update would make")
    p.add_argument("--json", action="store_true", help="print the changed files as the JSON envelope")
    return p


def run(args: argparse.Namespace) -> int:
    from skillsmith.exitcodes import FINDINGS, ExitCode
    from skillsmith.cli import output
    from skillsmith.scaffold.update import update

    result = update(args.skill_dir, pretend=args.pretend)
    meta = {"from": result.old_version, "to": result.new_version, "pretend": args.pretend}
    if args.json:
        output.emit_json(result.to_json(), "skillsmith.update/v1", **meta)
    elif args.pretend:
        if result.diff:
            output.data(result.diff)
    else:
        for item in result.to_json():
            output.data(f"{item['status']}\t{item['path']}")
    if result.old_version == result.new_version:
        output.note(f"skillsmith: {args.skill_dir} is up to date (template {result.new_version})")
        return ExitCode.SUCCESS
    verb = "would update" if args.pretend else "updated"
    output.note(f"skillsmith: {verb} {args.skill_dir} from template {result.old_version} to {result.new_version}: "
                f"{len(result.changed)} file(s) changed, {len(result.conflicts)} conflict(s)")
    if result.conflicts:
        output.note("skillsmith: resolve the <<<<<<< ... >>>>>>> markers in: " + ", ".join(result.conflicts))
        return FINDINGS
    if args.pretend and result.changed:
        return FINDINGS
    if not args.pretend:
        output.note("skillsmith: review with 'git diff', then commit")
    return ExitCode.SUCCESS
