"""``skillsmith pack``: a skill as the ``.skill`` upload archive (a zip with the skill folder at its root)."""

from __future__ import annotations

import argparse

from skillsmith.exitcodes import ExitCode

HELP = "build the .skill archive of a skill (a zip hosts accept for upload)"
DESCRIPTION = """\
Check a skill, then write SKILL_DIR as a .skill archive: a zip file whose root holds the skill
folder (my-skill/SKILL.md, my-skill/scripts/...), the layout of Anthropic's skill-creator
(skills/skill-creator/scripts/package_skill.py in github.com/anthropics/skills).

A skill with errors is refused (exit 10, its errors on stdout) unless --force; warnings are
counted on stderr. Host limits are the target's rules: for StablEdge (seed 001, "How the
Agent accesses bundled files") a file over 20 MB is an error (STE013) and more than 20
bundled files a warning (STE014).

Left out: what check never reads (.git, node_modules, __pycache__, virtualenvs, caches,
gitignored paths), dotfiles and dot-folders (hosts skip them) unless SKILL.md cites them,
.skillsmith-answers.yml, *.pyc and a top-level evals/ folder (as skill-creator does), and
links that leave the skill, dangle or name a folder; a link to a file inside the skill goes
in as a regular file. Execute bits are kept (modes 0755 or 0644).

The archive is reproducible: sorted entries, fixed timestamps (1980-01-01), fixed modes and
compression, so the same tree gives the same bytes. It is written atomically. stdout lists
what went in (mode, size, path); the summary goes to stderr.
"""
EPILOG = """\
exit codes:
  0 packed, 2 usage, 3 SKILL_DIR not found, 4 not a skill or the archive cannot be written,
  10 the skill has errors (not packed; --force packs it anyway)

examples:
  skillsmith pack my-skill                     # ./my-skill.skill
  skillsmith pack my-skill -o dist/            # dist/my-skill.skill
  skillsmith pack my-skill -o upload.zip --target stabledge
  skillsmith pack my-skill --json | jq -r '.data[].path'
  skillsmith pack my-skill --force             # pack it despite errors
"""

SCHEMA = "skillsmith.pack/v1"


def add_parser(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:
    from skillsmith import targets
    from skillsmith.cli.main import formatter

    p = sub.add_parser("pack", help=HELP, description=DESCRIPTION, epilog=EPILOG, formatter_class=formatter)
    p.add_argument("skill_dir", metavar="SKILL_DIR", help="the skill folder (the one holding SKILL.md)")
    p.add_argument("-o", "--output", metavar="FILE", help="the archive, or a folder for it (default: ./NAME.skill)")
    p.add_argument("--force", action="store_true", help="pack a skill that has errors")
    p.add_argument("--target", choices=targets.names(), help="check for this host instead of detecting it")
    p.add_argument("--json", action="store_true", help="list what went in as the skillsmith.pack/v1 envelope")
    return p


def run(args: argparse.Namespace) -> int:
    from skillsmith import api
    from skillsmith.cli import output
    from skillsmith.errors import FindingsError
    from skillsmith.reporters.text import one_line
    from skillsmith.rules.finding import display_path

    try:
        packed = api.pack(args.skill_dir, args.output, force=args.force, target=args.target)
    except FindingsError as refused:
        if not args.json:
            for f in refused.details["findings"]:
                output.data(one_line(f"{f['path']}:{f['line']}:{f['column']}: {f['rule']} {f['message']}"))
        raise
    archive = display_path(packed.archive)
    if args.json:
        items = [{"path": r["name"], "size": r["size"], "mode": f"{r['mode']:04o}", "sha256": r["sha256"],
                  "link": r["link"]} for r in packed.entries]
        left = [{"path": x.rel, "reason": x.reason} for x in packed.left_out]
        output.emit_json(items, SCHEMA, archive=archive, bytes=packed.size, sha256=packed.sha256,
                         skill=packed.skill, left_out=left, forced=bool(args.force and packed.errors),
                         errors=len(packed.errors), warnings=len(packed.findings) - len(packed.errors))
    else:
        for r in packed.entries:
            output.data(one_line(f"{r['mode']:04o}  {r['size']:>9}  {r['name']}"))
    for x in packed.left_out:
        output.note(f"skillsmith: left out {x.rel}: {x.reason}")
    if packed.errors:
        output.note(output.paint(f"skillsmith: packed despite {len(packed.errors)} errors (--force)", "yellow"))
    warnings = len(packed.findings) - len(packed.errors)
    if warnings:
        output.note(f"skillsmith: {warnings} warning{'s' if warnings != 1 else ''}; see `skillsmith check {display_path(args.skill_dir)}`")
    n = len(packed.entries)
    output.note(output.paint(f"skillsmith: packed {n} file{'s' if n != 1 else ''} into {archive} ({packed.size} bytes)", "green"))
    return ExitCode.SUCCESS
