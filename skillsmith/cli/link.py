"""``skillsmith link``: create the agent-agnostic discovery links of a project."""

from __future__ import annotations

import argparse

from skillsmith.exitcodes import FINDINGS, ExitCode

HELP = "link each host's discovery names (CLAUDE.md, .claude/skills, ...) to one canonical copy"
DESCRIPTION = """\
In a project root, keep one source of truth under agent-agnostic names and link the names
each host discovers natively to it. The canonical names are sucoder's, then the cross-client
ones: instructions in AGENT.md (or AGENT.org, or AGENTS.md), skills in .skills/ (or
.agents/skills/). By default the links are Claude Code's:

  CLAUDE.md       -> AGENT.md                       when CLAUDE.md does not exist
  .claude/skills  -> ../.skills                     when .claude/skills does not exist

--host chooses the hosts instead (repeat it), each with the names its documentation gives:

{hosts}
Links are relative; a host's folder (.claude/, .cursor/, ...) is created when needed. A
link is made only where nothing exists: when both names exist independently, or a link
points at nothing, it is reported as a warning and left alone (seed 002). Running it again
changes nothing. One line per link goes to stdout: 'created', 'would-create' (with
--dry-run), 'linked' (already), 'conflict' or 'broken'.
"""
EPILOG = """\
exit codes:
  0 links in place (or created, or would be created), 2 usage, 3 ROOT not found,
  4 ROOT is not a folder, 10 a conflict or a broken link needs a human

examples:
  skillsmith link                      # the current folder, for Claude Code
  skillsmith link ~/src/project --dry-run
  skillsmith link --host claude --host codex --host cursor
  skillsmith link --host all           # every host listed above
  skillsmith link --json | jq '.data[] | select(.status == "conflict")'
"""

SCHEMA = "skillsmith.link/v1"
#: link state -> status shown, for a real run and a dry run
STATUS = {"missing": ("created", "would-create"), "linked": ("linked", "linked"),
          "diverged": ("conflict", "conflict"), "blocked": ("conflict", "conflict"), "broken": ("broken", "broken")}
PROBLEMS = ("conflict", "broken")


def add_parser(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:
    from skillsmith.cli.main import formatter

    from skillsmith.targets.sucoder import HOST_NAMES

    p = sub.add_parser("link", help=HELP, description=DESCRIPTION.format(hosts=host_table()), epilog=EPILOG,
                       formatter_class=formatter)
    p.add_argument("root", nargs="?", default=".", metavar="ROOT", help="the project root (default: .)")
    p.add_argument("--host", action="append", choices=HOST_NAMES + ("all",), metavar="HOST",
                   help=f"link this host's names (repeatable; {', '.join(HOST_NAMES)} or all; default: claude)")
    p.add_argument("--dry-run", action="store_true", help="report what would be created; change nothing")
    p.add_argument("--json", action="store_true", help="print JSON (the skillsmith.link/v1 envelope)")
    return p


def host_table() -> str:
    """One block per host: its names and the documentation that gives them."""
    from skillsmith.targets.sucoder import HOSTS

    lines = []
    for h in HOSTS:
        names = ", ".join(n for n in (h.instructions, h.skills) if n)
        lines.append(f"  {h.name:<9} {h.title}: {names}")
        lines.extend(f"            {url}" for url in h.docs)
    return "\n".join(lines) + "\n"


def run(args: argparse.Namespace) -> int:
    import os
    from pathlib import Path

    from skillsmith.cli import output
    from skillsmith.errors import InvalidInputError, NotFoundError
    from skillsmith.rules.finding import display_path
    from skillsmith.targets import sucoder as links

    root = Path(args.root)
    if not os.path.lexists(root):
        raise NotFoundError(f"{args.root}: no such folder", {"path": args.root})
    if not root.is_dir():
        raise InvalidInputError(f"{args.root}: not a folder", {"path": args.root})
    hosts = links.HOST_NAMES if "all" in (args.host or ()) else tuple(args.host or links.DEFAULT_HOSTS)
    items = []
    for state in links.inspect(root, hosts):
        if state.state == links.ABSENT:
            continue
        if state.state == links.MISSING and not args.dry_run:
            state = links.create(root, state)
            status = "created" if state.state == links.LINKED else STATUS[state.state][0]
        else:
            status = STATUS[state.state][1 if args.dry_run else 0]
        rel = state.broken or state.pair.link
        items.append({"status": status, "path": display_path(root / rel), "target": state.pair.target,
                      "host": state.pair.host, "message": state.detail})
    problems = [i for i in items if i["status"] in PROBLEMS]
    if args.json:
        output.emit_json(items, SCHEMA, root=display_path(root.absolute()), dry_run=args.dry_run)
    else:
        for i in items:
            if i["status"] in PROBLEMS:
                output.data(f"{i['status']:<12}  {i['path']}: {i['message']}")
            else:
                output.data(f"{i['status']:<12}  {i['path']} -> {i['target']}")
    for i in problems:
        output.note(output.paint(f"skillsmith: warning: {i['message']}; left alone", "yellow"))
    if not items:
        output.note(f"skillsmith: nothing to link in {display_path(root)} for {', '.join(hosts)} "
                    "(no AGENT.md, AGENT.org, AGENTS.md, .skills/ or .agents/skills/ to link to)")
    return FINDINGS if problems else ExitCode.SUCCESS
