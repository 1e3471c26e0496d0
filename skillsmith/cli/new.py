"""``skillsmith new``: create a skill from the templates, or ask for it with a wizard."""

from __future__ import annotations

import argparse
import sys

HELP = "create a skill from the templates"
DESCRIPTION = """\
Create the folder PARENT/NAME (PARENT defaults to the current folder) with a SKILL.md, scripts
that follow the script contract, an offline tests/run.sh and, optionally, example references/
and assets/ and a staleness verifier. The generated skill passes `skillsmith check`.

Without NAME on a terminal, a wizard asks the questions, checks each answer as you type it,
shows a summary and asks to confirm. Without NAME and without a terminal it is a usage error.
The created files go to stdout; notes go to stderr.
"""
EPILOG = """\
exit codes:
  0 created, 1 internal error, 2 usage (invalid name or answer, non-empty folder without --force,
  no NAME and no terminal), 4 the template could not be rendered, 5 git is missing

examples:
  skillsmith new pdf-tools --description "Extract text from PDFs. Use when the user shares a PDF."
  skillsmith new csv-report --script report.py --script fetch.sh --dest skills/
  skillsmith new demo --defaults --json | jq '.data[0].files'
  skillsmith new my-skill --target stabledge --verifier
  skillsmith new config-lint --kind scanner --script lint_config.py
  skillsmith new                           # the interactive wizard
"""


def add_parser(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:
    from skillsmith import targets
    from skillsmith.cli.main import formatter
    from skillsmith.scaffold.answers import DEFAULT_KIND, KINDS

    p = sub.add_parser("new", help=HELP, description=DESCRIPTION, epilog=EPILOG, formatter_class=formatter)
    p.add_argument("name", nargs="?", metavar="NAME", help="skill name: lowercase letters, digits and single hyphens (for kvist: its id, like log_digest)")
    p.add_argument("--dest", default=".", metavar="PARENT", help="folder to create the skill in (default: .)")
    p.add_argument("--target", choices=targets.new_targets(), default=targets.DEFAULT,
                   help="host the skill is written for (default: agentskills)")
    p.add_argument("--description", metavar="TEXT", help="what the skill does and when to use it")
    p.add_argument("--script", action="append", metavar="FILE", dest="scripts",
                   help="a script to create under scripts/ (.py or .sh); repeat for more (default: main.py)")
    p.add_argument("--license", default="", metavar="ID", help="license field of SKILL.md (default: none)")
    p.add_argument("--author", default="", metavar="NAME", help="metadata.author of SKILL.md (default: none)")
    p.add_argument("--no-examples", action="store_true", help="leave out the example references/ and assets/")
    p.add_argument("--no-script-json", action="store_true", help="scripts without a --json flag")
    p.add_argument("--verifier", action="store_true", help="add scripts/verify_facts.py (--offline/--live staleness check)")
    p.add_argument("--kind", choices=KINDS, default=DEFAULT_KIND,
                   help="what the scripts do: " + "; ".join(f"{k}: {v}" for k, v in KINDS.items()))
    p.add_argument("--defaults", action="store_true", help="ask nothing; use the defaults for what is not given")
    p.add_argument("--force", action="store_true", help="render into a folder that is not empty")
    p.add_argument("--json", action="store_true", help="print what was created as the JSON envelope")
    return p


def run(args: argparse.Namespace) -> int:
    from skillsmith.exitcodes import ExitCode
    from skillsmith.cli import output
    from skillsmith.errors import UsageError

    options = {
        "dest": args.dest, "target": args.target, "description": args.description, "scripts": args.scripts,
        "license": args.license, "author": args.author, "examples": not args.no_examples,
        "json": not args.no_script_json, "verifier": args.verifier, "kind": args.kind, "force": args.force,
    }
    if args.name is None:
        if args.defaults or not (sys.stdin.isatty() and sys.stderr.isatty()):
            command = output.program()
            raise UsageError(
                "NAME is required without a terminal (or with --defaults); "
                f"try '{command} new my-skill --defaults', or run '{command} new' in a terminal for the wizard"
            )
        from skillsmith.scaffold.wizard import ask

        options = ask(options)
        if options is None:
            output.note("skillsmith: nothing created")
            return ExitCode.SUCCESS
    else:
        options["name"] = args.name
    from skillsmith.scaffold.render import new

    created = new(**options)
    if args.json:
        output.emit_json([created.to_json()], "skillsmith.new/v1")
    else:
        for rel in created.files:
            output.data(str(created.root / rel))
    version = f" (template {created.version})" if created.version else ""
    output.note(f"skillsmith: created {created.root}{version}; try: {try_command(created)}")
    return ExitCode.SUCCESS


def try_command(created) -> str:
    """What to run next: the new skill's own tests when it has them, then ``check`` on it."""
    import shlex

    from skillsmith.cli.output import program

    root = shlex.quote(str(created.root))
    suite = f"bash {shlex.quote(str(created.root / 'tests' / 'run.sh'))} && " if "tests/run.sh" in created.files else ""
    return f"{suite}{program()} check {root}"
