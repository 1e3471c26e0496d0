"""``skillsmith update``: bring a generated skill up to the current templates."""

from __future__ import annotations

import argparse

HELP = "update a generated skill to the current templates"
DESCRIPTION = """\
Re-render the template a skill was made from (recorded in its .skillsmith-answers.yml) at the
current version and merge the change into the skill with Copier's 3-way merge: your edits stay,
template changes arrive, and where both touched the same lines the file gets inline conflict
markers (<<<<<<< before updating ... >>>>>>> after updating).
Nothing is committed: review with `git diff`, resolve markers, `git add` the files, then commit;
or undo the whole update with `git checkout HEAD -- SKILL_DIR` (the message names the exact
commands).

--data KEY=VALUE answers a question of the template anew (like Copier's -d), for example
--data verifier=true or --data scripts=main.py,fetch.sh; it is validated as `new` validates,
and the update runs even when the template version is current.

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
  skillsmith update my-skill --data verifier=true --data license=MIT
  skillsmith update my-skill --json | jq '.data[] | select(.status == "conflict") | .path'
"""


def add_parser(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:
    from skillsmith.cli.main import formatter

    p = sub.add_parser("update", help=HELP, description=DESCRIPTION, epilog=EPILOG, formatter_class=formatter)
    p.add_argument("skill_dir", nargs="?", default=".", metavar="SKILL_DIR", help="the skill folder (default: .)")
    p.add_argument("--pretend", action="store_true", help="change nothing; print the diff the update would make")
    p.add_argument("--data", action="append", default=[], metavar="KEY=VALUE",
                   help="answer a template question anew (repeatable), e.g. verifier=true")
    p.add_argument("--json", action="store_true", help="print the changed files as the JSON envelope")
    return p


def run(args: argparse.Namespace) -> int:
    from skillsmith.exitcodes import FINDINGS, ExitCode
    from skillsmith.cli import output
    from skillsmith.scaffold.update import update

    result = update(args.skill_dir, pretend=args.pretend, data=data_answers(args.data))
    meta = {"from": result.old_version, "to": result.new_version, "pretend": args.pretend, "answers": result.answers}
    if args.json:
        output.emit_json(result.to_json(), "skillsmith.update/v1", **meta)
    elif args.pretend:
        if result.diff:
            output.data(result.diff)
    else:
        for item in result.to_json():
            output.data(f"{item['status']}\t{item['path']}")
    if result.old_version == result.new_version and not result.answers:
        output.note(f"skillsmith: {args.skill_dir} is up to date (template {result.new_version})")
        return ExitCode.SUCCESS
    verb = "would update" if args.pretend else "updated"
    versions = (f"from template {result.old_version} to {result.new_version}" if result.old_version != result.new_version
                else f"at template {result.new_version} with new answers")
    output.note(f"skillsmith: {verb} {args.skill_dir} {versions}: "
                f"{len(result.changed)} file(s) changed, {len(result.conflicts)} conflict(s)")
    if args.pretend:
        return FINDINGS if result.changed else ExitCode.SUCCESS
    for line in conflict_help(args.skill_dir, result) if result.conflicts else ():
        output.note(f"skillsmith: {line}")
    if result.conflicts:
        return FINDINGS
    if result.changed:
        output.note(f"skillsmith: review with 'git diff', then commit; undo with: {undo_command(args.skill_dir, result)}")
    return ExitCode.SUCCESS


def data_answers(items: list[str]) -> dict[str, str]:
    """``--data KEY=VALUE`` options as key -> value text (a later KEY wins)."""
    from skillsmith.errors import UsageError

    answers = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise UsageError(f"--data {item!r}: write KEY=VALUE, e.g. --data verifier=true")
        answers[key.strip()] = value
    return answers


def undo_command(skill_dir: str, result) -> str:
    """The git commands that put the skill back as it was before the update (it was committed)."""
    import shlex

    git = f"git -C {shlex.quote(skill_dir)}"
    undo = f"{git} checkout HEAD -- ."
    if result.added:
        undo += f" && {git} clean -f -- " + " ".join(shlex.quote(rel) for rel in result.added)
    return undo


def conflict_help(skill_dir: str, result) -> list[str]:
    """How to finish an update that left conflicts, or undo it: the exact commands.

    The update leaves each conflicted file with inline markers in the work tree; git's index
    and HEAD are as they were and no merge is in progress (``git merge --abort`` does not apply):
    the skill's files are restored from HEAD, and the files the update added are removed.
    """
    import os
    import shlex

    git = f"git -C {shlex.quote(skill_dir)}"
    message = f"Update {os.path.basename(os.path.abspath(skill_dir))} to template {result.new_version}"
    return [
        f"conflicts in: {', '.join(result.conflicts)}",
        "to finish: edit each block from '<<<<<<< before updating' to '>>>>>>> after updating' into the text you "
        f"want, then run: {git} add -A -- . && {git} commit -m {shlex.quote(message)}",
        f"to undo the whole update instead: {undo_command(skill_dir, result)}",
    ]
