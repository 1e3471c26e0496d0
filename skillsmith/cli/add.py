"""``skillsmith add script``: add one compliant script to an existing skill."""

from __future__ import annotations

import argparse

HELP = "add a script to a skill"
DESCRIPTION = """\
Add parts to an existing skill. `add script SKILL_DIR FILE` writes scripts/FILE (Python for .py,
bash for .sh) with the whole script contract, inserts its cases into tests/run.sh above the
line '# skillsmith add script: new cases go above this line', and appends a worked invocation
to the "Scripts" section of SKILL.md (the section is added at the end when there is none).
Nothing the author wrote is rewritten. The files written go to stdout.
"""
EPILOG = """\
exit codes:
  0 added, 2 usage (bad file name, the script exists), 3 SKILL_DIR or its SKILL.md not found,
  4 tests/run.sh has no marker line or a file is not UTF-8

examples:
  skillsmith add script my-skill fetch.sh
  skillsmith add script my-skill report.py --description "Render the weekly report as Markdown."
  skillsmith add script . lint.py --json | jq '.data[0].files'
  skillsmith add script my-skill preflight.py --kind preflight
"""


def add_parser(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:
    from skillsmith.cli.main import Parser, formatter
    from skillsmith.scaffold.answers import DEFAULT_KIND, KINDS

    p = sub.add_parser("add", help=HELP, description=DESCRIPTION, epilog=EPILOG, formatter_class=formatter)
    parts = p.add_subparsers(dest="part", metavar="PART", parser_class=Parser, required=True)
    s = parts.add_parser("script", help="add a script", description=DESCRIPTION, epilog=EPILOG, formatter_class=formatter)
    s.add_argument("skill_dir", metavar="SKILL_DIR", help="the skill folder")
    s.add_argument("file", metavar="FILE", help="script file name ending in .py or .sh")
    s.add_argument("--description", metavar="TEXT", help="the script's one-line description")
    s.add_argument("--kind", choices=KINDS, default=DEFAULT_KIND,
                   help="what the script does: " + "; ".join(f"{k}: {v}" for k, v in KINDS.items()))
    s.add_argument("--json", action="store_true", help="print what was written as the JSON envelope")
    return p


def run(args: argparse.Namespace) -> int:
    from skillsmith.exitcodes import ExitCode
    from skillsmith.cli import output
    from skillsmith.cli.new import try_command
    from skillsmith.scaffold.add import add_script

    created = add_script(args.skill_dir, args.file, description=args.description, kind=args.kind)
    if args.json:
        output.emit_json([created.to_json()], "skillsmith.add/v1")
    else:
        for rel in created.files:
            output.data(str(created.root / rel))
    output.note(f"skillsmith: added scripts/{args.file}; try: {try_command(created)}")
    return ExitCode.SUCCESS
