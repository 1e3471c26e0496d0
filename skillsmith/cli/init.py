"""``skillsmith init``: adopt skillsmith in an existing collection (config, and a baseline of today's findings)."""

from __future__ import annotations

import argparse

HELP = "adopt skillsmith in an existing collection: config, and a baseline of today's findings"
DESCRIPTION = """\
Write skillsmith's configuration for the collection at ROOT: a [tool.skillsmith] table in its
pyproject.toml, or a skillsmith.toml when there is none (a config that already applies to ROOT
from a folder above is the one written). It names the target the skills are written for when
every skill is detected as the same one. The file is edited with tomlkit: every comment, blank
line and value already in it stays byte for byte; init only adds, and a second run adds nothing.

--baseline also records every finding `check` reports today, so `check` passes in CI at once
and the list can be burnt down:

- an inline ignore with its reason where a comment provably changes nothing, on the finding's
  line or the line above: `# skillsmith: ignore[CON014] baseline: exit-code-literal` in
  scripts, `<!-- skillsmith: ignore[RES002] baseline: ... -->` in Markdown (a Python file keeps
  its ast, a shell script its syntax tree and `bash -n` verdict, a SKILL.md its frontmatter and
  citations; shebang lines, header comments, code blocks, JSON files and the like get none);
- every other finding as a `per-file-ignores` entry in the config, with the rules' names in a
  comment (--no-inline: all of them, and no other file is touched).

Security findings (SEC) are never baselined silently: they are left out and listed, and
`check` keeps reporting them, until you review them and pass --baseline-security; then they go
to the config only. Like every security ignore they count only in your own config: one at or
above the folder you run skillsmith in (check the collection from its own folder, as CI does).
The files written go to stdout; the summary to stderr.
"""
EPILOG = """\
exit codes:
  0 written (with --baseline: check now finds nothing), 2 usage, 3 ROOT not found,
  4 the existing config is invalid or a file cannot be written,
  10 findings remain after the baseline (security findings left out, or none an ignore can name)

examples:
  skillsmith init                              # [tool.skillsmith] with the detected target
  skillsmith init skills/ --baseline           # and record today's findings; check exits 0
  skillsmith init --baseline --no-inline       # only the config file changes
  skillsmith init --baseline --baseline-security   # after reviewing the SEC findings
  git diff                                     # review: only added comments and config entries
"""


def add_parser(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:
    from skillsmith import targets
    from skillsmith.cli.main import formatter

    p = sub.add_parser("init", help=HELP, description=DESCRIPTION, epilog=EPILOG, formatter_class=formatter)
    p.add_argument("root", nargs="?", default=".", metavar="ROOT", help="the collection's folder (default: .)")
    p.add_argument("--target", choices=targets.names(), help="write this target instead of the detected one")
    p.add_argument("--baseline", action="store_true", help="record every current finding, so check passes")
    p.add_argument("--no-inline", action="store_true", help="with --baseline: record everything in per-file-ignores")
    p.add_argument("--baseline-security", action="store_true",
                   help="with --baseline: record security (SEC) findings too, after you reviewed them")
    p.add_argument("--json", action="store_true", help="print what was done as the JSON envelope")
    return p


def run(args: argparse.Namespace) -> int:
    import os

    from skillsmith.cli import output
    from skillsmith.errors import UsageError
    from skillsmith.exitcodes import FINDINGS, ExitCode
    from skillsmith.scaffold.adopt import adopt

    if (args.no_inline or args.baseline_security) and not args.baseline:
        raise UsageError("--no-inline and --baseline-security go with --baseline")
    done = adopt(args.root, target=args.target, baseline=args.baseline, inline=not args.no_inline,
                 security=args.baseline_security)
    if args.json:
        output.emit_json([done.to_json()], "skillsmith.init/v1")
    else:
        for path in done.written:
            output.data(os.path.relpath(path) if not os.path.relpath(path).startswith("..") else str(path))
    for line in summary(done, args):
        output.note(f"skillsmith: {line}")
    if args.baseline and done.remaining:
        return FINDINGS
    return ExitCode.SUCCESS


def summary(done, args) -> list[str]:
    """What init did, in a few lines for stderr."""
    import os
    from collections import Counter

    from skillsmith.cli.output import program

    config = os.path.relpath(done.config)
    target = f"target = {done.target!r}" if done.target else "no target (detected per skill)"
    wrote = "wrote" if done.config in done.written else "kept"
    lines = [f"{wrote} {config} ({target})", *done.notes]
    if args.baseline:
        files = len([p for p in done.written if p != done.config])
        lines.append(f"baseline of {done.findings} finding(s): {done.inline} inline ignore(s) in {files} file(s), "
                      f"{done.configured} in per-file-ignores")
        if done.left_out:
            rules = Counter(f.rule for f in done.left_out)
            named = ", ".join(f"{rule} x{n}" for rule, n in sorted(rules.items()))
            lines.append(f"left out {len(done.left_out)} security finding(s) ({named}): review them with "
                         f"'{program()} check {args.root} --select SEC'; once reviewed, rerun with --baseline-security")
        if done.remaining:
            lines.append(f"check still reports {len(done.remaining)} finding(s) (exit 10)")
        else:
            lines.append("check now finds nothing (exit 0)")
    elif done.findings:
        lines.append(f"check reports {done.findings} finding(s); '{program()} init {args.root} --baseline' records "
                     "them so check passes while you fix them")
    return lines
