"""Command-line entry point: argument parsing and dispatch only.

Each command lives in ``skillsmith/cli/<name>.py`` with ``add_parser(subparsers)`` and
``run(args) -> int``. Command modules import their heavy dependencies inside ``run`` so that
``skillsmith --help`` starts fast.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys

from skillsmith import __version__
from skillsmith.errors import NotFoundError, SkillsmithError, UsageError
from skillsmith.exitcodes import ExitCode

#: commands in the order ``--help`` lists them
COMMANDS = ("new", "add", "update", "init", "check", "fix", "test", "pack", "rules", "link", "audit", "lsp")

DESCRIPTION = """\
skillsmith: scaffold, check and fix agent skills.

A skill is a folder with a SKILL.md and optional scripts/, references/ and assets/.
skillsmith checks them against the Agent Skills specification and the Skill Resource
Protocol (script contract: header block, --help with EXAMPLES, stream separation,
semantic exit codes, --json envelopes).
"""

EPILOG = """\
exit codes:
  0 ok, 1 internal error, 2 usage, 3 path not found, 4 invalid input,
  5 missing dependency, 10 findings remain

examples:
  skillsmith new my-skill --script fetch.py --description "Fetches pages. Use when ..."
  skillsmith new                              # the interactive wizard (on a terminal)
  skillsmith check my-skill/
  skillsmith check skills/ --format sarif > skillsmith.sarif
  skillsmith fix my-skill/scripts/ --diff     # show what fix would change
  skillsmith rules SPC007
"""


class Parser(argparse.ArgumentParser):
    """An ArgumentParser whose usage errors become :class:`UsageError` (exit 2, JSON if asked).

    Its subcommands are parsed by :class:`Commands`, so an error in a subcommand's arguments
    shows that subcommand's usage, and a mistyped command name gets a suggestion.
    """

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.register("action", "parsers", Commands)

    def error(self, message: str):  # type: ignore[override]
        raise UsageError(f"{message}\n{self.format_usage().rstrip()}\nTry '{self.prog} --help'.")


class Commands(argparse._SubParsersAction):
    """Subcommands, each parsed by its own :class:`Parser` in full.

    argparse hands the arguments a subcommand does not know back to the top-level parser,
    whose error would show the top-level usage; here the subcommand's parser reports them.
    """

    def __init__(self, *args, **kwargs) -> None:
        kwargs.setdefault("parser_class", Parser)
        super().__init__(*args, **kwargs)
        self.choices = None  # names are checked in __call__, which can suggest one
        self.names: list[str] = []  # every command, built or only listed

    def add_parser(self, name, **kwargs):
        self.names.append(name)
        return super().add_parser(name, **kwargs)

    def listed(self, name: str, help: str) -> None:
        """List command *name* in ``--help`` without building its parser (argv names another)."""
        self.names.append(name)
        self._choices_actions.append(self._ChoicesPseudoAction(name, (), help))

    def __call__(self, parser, namespace, values, option_string=None) -> None:
        from skillsmith.rules.registry import did_you_mean

        name, rest = values[0], values[1:]
        if name not in self._name_parser_map:
            known = list(self.names)
            what = (self.metavar or "command").lower()
            raise argparse.ArgumentError(
                None, f"unknown {what} {name!r}{did_you_mean(name, known)} (choose from {', '.join(known)})")
        if self.dest is not argparse.SUPPRESS:
            setattr(namespace, self.dest, name)
        parsed = self._name_parser_map[name].parse_args(rest)
        for key, value in vars(parsed).items():
            setattr(namespace, key, value)


def formatter(prog: str) -> argparse.HelpFormatter:
    return argparse.RawDescriptionHelpFormatter(prog, max_help_position=30)


def build_parser(argv: list[str] | None = None) -> Parser:
    """The command-line parser; given *argv*, only the parser of the command it names is built.

    ``--help`` lists every command (its module's ``HELP``), but building a command's parser
    (its arguments, and what their choices import) is left to the command that runs, so
    ``skillsmith --help`` and each command start without the others' cost.
    """
    parser = Parser(prog="skillsmith", description=DESCRIPTION, epilog=EPILOG, formatter_class=formatter)
    parser.add_argument("--version", action="version", version=f"skillsmith {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    wanted = COMMANDS if argv is None else command_named(argv)
    for name in COMMANDS:
        module = importlib.import_module(f"skillsmith.cli.{name}")
        if name in wanted:
            command = module.add_parser(sub)
            command.set_defaults(run=module.run)
        else:
            sub.listed(name, module.HELP)
    return parser


def command_named(argv: list[str]) -> tuple[str, ...]:
    """The command *argv* runs: its first argument that is not an option (the top level's take no value)."""
    for i, arg in enumerate(argv):
        if arg == "--":
            return tuple(argv[i + 1:i + 2])
        if not arg.startswith("-") or arg == "-":
            return (arg,)
    return ()


def output_options(argv: list[str]) -> argparse.Namespace:
    """Only ``--json`` and ``--format`` of *argv*, for a command line that did not parse.

    Everything else is left unparsed, so ``check --bogus --format json`` still says the JSON
    error envelope was asked for. As in the full parse, ``--js`` abbreviates ``--json`` and
    nothing after ``--`` is an option; a command line that is wrong even here asks for no JSON.
    """
    sniff = Parser(add_help=False)
    sniff.add_argument("--json", action="store_true")
    sniff.add_argument("--format")
    try:
        return sniff.parse_known_args(argv)[0]
    except UsageError:
        return argparse.Namespace()


def json_requested(args: argparse.Namespace) -> bool:
    """Whether parsed *args* ask for JSON: ``--json``, ``--format json`` or ``--format=json``."""
    return bool(getattr(args, "json", False)) or getattr(args, "format", None) == "json"


def main(argv: list[str] | None = None) -> int:
    """Parse *argv*, run the command, and turn errors into exit codes.

    An error is reported as the JSON error envelope when the parsed arguments ask for JSON
    (:func:`json_requested`); when parsing itself failed, :func:`output_options` decides.
    """
    from skillsmith.cli.output import emit_error, note

    argv = list(sys.argv[1:] if argv is None else argv)
    args: argparse.Namespace | None = None

    def as_json() -> bool:
        return json_requested(args if args is not None else output_options(argv))

    if sys.stdout is None:  # started with stdout closed: the data has no reader, as after a broken pipe
        sys.stdout = open(os.devnull, "w")
    try:
        try:
            os.getcwd()
        except FileNotFoundError:
            raise NotFoundError("the current folder no longer exists; cd to one that does") from None
        parser = build_parser(argv)
        args = parser.parse_args(argv)
        if getattr(args, "run", None) is None:
            parser.print_help(sys.stderr)
            return ExitCode.USAGE
        return args.run(args)
    except SkillsmithError as error:
        return emit_error(error, as_json())
    except KeyboardInterrupt:
        note("skillsmith: interrupted")
        return 130
    except BrokenPipeError:
        # the reader went away (e.g. `| head`); stop quietly
        try:
            sys.stdout = open(os.devnull, "w")
        except OSError:
            pass
        return ExitCode.SUCCESS
    except Exception as exc:  # a bug: one clear line, the traceback only when asked for
        if os.environ.get("SKILLSMITH_DEBUG"):
            raise
        error = SkillsmithError(
            f"internal error: {type(exc).__name__}: {exc} (rerun with SKILLSMITH_DEBUG=1 for a traceback)"
        )
        return emit_error(error, as_json())


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
