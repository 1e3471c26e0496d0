"""What a Python script and its skill say about it: the evidence for each header field.

Facts come from one ``ast`` parse (:mod:`skillsmith.lang.python`), which is far cheaper than
libcst's metadata providers, plus the worked invocations of the script in ``SKILL.md``. The
codemods write the texts built here (Usage line, Examples, ``Exit:`` line), so the docstring
and the ``--help`` epilog agree; the rules ask the same questions to say whether a finding's
fix can really be made (``check`` marks ``[*]`` only then), so the two never disagree.

Every text is derived from what the script or its skill says; where nothing says it, the value
is None and the codemod writes nothing (the finding stays for a person):

* Usage: the argparse parser when every argument it gets is known (prog, positionals, options;
  ``%(prog)s`` resolved), else the script's own ``Usage:`` text, else the bare name of a script
  that reads no arguments at all.
* Input: command-line arguments when argparse or ``sys.argv`` is read, stdin, environment variables.
* Output and Stderr: what the code prints, and where; the ``--json`` envelope only when printed.
* Exit: each code's meaning from the author's words, the script's constants, the conventions
  (0 ok, 1 error, 130 interrupted) or the code around the exit (:func:`skillsmith.exitcodes.meaning_for`).
* Examples: the docstring's, the epilog's, ``SKILL.md``'s worked invocations, concrete lines of
  the author's usage text; each must be accepted by the parser (no exit 2) and hold no
  placeholder; ``NAME --help`` only for a script that answers ``--help``.
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import io
import os
import re
import shlex
import textwrap
from dataclasses import dataclass, field
from functools import lru_cache

from skillsmith.lang import header as contract
from skillsmith.lang import python

#: formatters that print an epilog as written
RAW_FORMATTERS = ("RawDescriptionHelpFormatter", "RawTextHelpFormatter")
#: actions that take no value on the command line
FLAG_ACTIONS = {"store_true", "store_false", "store_const", "count", "help", "version", "append_const",
                "BooleanOptionalAction"}
#: argparse actions the parser model can rebuild
KNOWN_ACTIONS = FLAG_ACTIONS | {"store", "append", "extend"}
#: at most this many options are spelled out on the Usage line, and only while it stays this
#: short; beyond, the optional ones become [OPTIONS]
MAX_USAGE_OPTIONS = 5
MAX_USAGE_WIDTH = 72
#: at most this many examples are written
MAX_EXAMPLES = 3
#: what a module's entry point is called: a shim that calls another module's runs that module
ENTRY_FUNCTIONS = {"main", "run", "cli", "app", "entry", "entry_point", "entrypoint"}



#: the -h/--help branch :mod:`py_help` gives a script without a parser (``{sys}``: its name for sys)
HELP_BRANCH = '''\
if len({sys}.argv) > 1 and {sys}.argv[1] in ("-h", "--help"):
    print(__doc__)
    {sys}.exit(0)
'''

#: modules that parse the command line themselves (and answer --help)
OTHER_PARSERS = {"click", "typer", "fire", "docopt", "optparse", "absl", "plac", "cyclopts", "jsonargparse"}
#: an argument that is a placeholder, not a value: ``<file>``, ``[--json]``, ``...``, ``$VAR``, ``path/to/x``, ``FILE``
_PLACEHOLDER = re.compile(r"<[A-Za-z_][^<>]*>|^\[.*\]$|\.\.\.|…|\$\{?[A-Za-z_]|path/to/|\b[Yy]our[_-]|YOUR_|^[A-Z][A-Z0-9_]+$|"
                          r"xxx|XXX|\bexample\.(com|org)\b|\bfoo\b|\bbar\b|^[Yy]our\b.*\bhere$")
_UPPER = re.compile(r"^[A-Z][A-Z0-9_]+$")
#: environment variables of the system, not inputs a caller gives the script
_SYSTEM_ENV = re.compile(r"^(PATH|HOME|USER(NAME|PROFILE)?|SHELL|TERM|TMPDIR|TEMP|TMP|PWD|LANG|LC_\w+|DYLD_\w+|LD_\w+|"
                         r"PYTHON\w*|XDG_\w+|CI|NO_COLOR|FORCE_COLOR|DISPLAY|EDITOR|VISUAL|APPDATA|LOCALAPPDATA|"
                         r"SYSTEMROOT|COMSPEC|OS|HOSTNAME|LOGNAME|VIRTUAL_ENV|CONDA_\w+)$")
#: reads of files and the network: a script that makes one has inputs besides its arguments
_READS = re.compile(r"(^|\.)(open|read_text|read_bytes|load|safe_load|urlopen|get|post|request|connect|glob|iterdir|"
                    r"listdir|walk|scandir|run|call|check_output|check_call|Popen|system|popen)$")


def writes_a_file(name: str, call: ast.Call) -> bool:
    """Whether the call *name*(...) writes a file: ``p.write_text``, ``shutil.copy``, ``open(p, "w")``."""
    if name.endswith(("write_text", "write_bytes")) or name.split(".")[-1] in ("copy", "copyfile", "copy2",
                                                                                "copytree", "move"):
        return True
    if name in ("open", "io.open", "codecs.open") or name.endswith(".open"):
        mode = call.args[1] if len(call.args) > 1 else (python.keyword(call, "mode").value
                                                        if python.keyword(call, "mode") else None)
        return isinstance(_literal(mode), str) and bool(set(_literal(mode)) & set("wax+"))
    return False


# -- the argparse parser, rebuilt from the code --------------------------------------------------


@dataclass
class Argument:
    flags: list[str]  # option strings, or [] for a positional
    name: str  # metavar shown in usage
    takes_value: bool
    required: bool
    nargs: str | int | None
    dest: str = ""
    action: str | None = None
    choices: list | None = None
    type: type | None = None
    hidden: bool = False  # help=argparse.SUPPRESS


@dataclass
class Parser:
    """An argparse parser as the code builds it; *complete* when every call it gets is understood."""

    arguments: list[Argument] = field(default_factory=list)
    exclusive: list[tuple[bool, list[int]]] = field(default_factory=list)  # (required, argument indexes)
    commands: dict[str, "Parser"] = field(default_factory=dict)
    commands_required: bool = False
    add_help: bool = True
    complete: bool = True
    known_args: bool = False  # parse_known_args: unknown arguments are fine

    def build(self, prog: str, into: argparse.ArgumentParser | None = None) -> argparse.ArgumentParser:
        parser = into or argparse.ArgumentParser(prog=prog, add_help=self.add_help, exit_on_error=False)
        groups = {}
        for required, indexes in self.exclusive:
            group = parser.add_mutually_exclusive_group(required=required)
            groups.update({i: group for i in indexes})
        for i, arg in enumerate(self.arguments):
            target = groups.get(i, parser)
            kw: dict = {}
            if arg.action:
                kw["action"] = argparse.BooleanOptionalAction if arg.action == "BooleanOptionalAction" else arg.action
                if arg.action == "version":
                    kw["version"] = "version"
                if arg.action in ("store_const", "append_const"):
                    kw["const"] = None
            if arg.nargs is not None:
                kw["nargs"] = arg.nargs
            if arg.choices is not None:
                kw["choices"] = arg.choices
            if arg.type is not None:
                kw["type"] = arg.type
            if arg.flags:
                kw["required"] = arg.required
                if arg.dest:
                    kw["dest"] = arg.dest
                target.add_argument(*arg.flags, **kw)
            else:
                target.add_argument(arg.dest or f"arg{i}", **kw)
        if self.commands:
            sub = parser.add_subparsers(dest="_command", required=self.commands_required)
            for name, command in self.commands.items():
                command.build(f"{prog} {name}", sub.add_parser(name, add_help=command.add_help))
        return parser

    def accepts(self, prog: str, argv: list[str]) -> bool | None:
        """Whether argparse accepts *argv* (exit 0 for ``--help`` counts); None when the model is incomplete."""
        if not self.complete or any(not c.complete for c in self.commands.values()):
            return None
        out = io.StringIO()
        try:
            parser = self.build(prog)
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
                if self.known_args:
                    parser.parse_known_args(argv)
                else:
                    parser.parse_args(argv)
        except SystemExit as done:
            return done.code in (0, None)
        except (argparse.ArgumentError, TypeError, ValueError):
            return False
        return True

    def usage(self, prog: str, collapse: bool = False) -> str:
        """``prog [--json] FILE``: options (the optional ones as ``[OPTIONS]`` beyond a few, or when
        the line grows long), exclusive groups as ``(--a | --b)`` when one is required, else
        ``[--a | --b]``, subcommands, positionals."""
        parts = [prog]
        options = [i for i, a in enumerate(self.arguments)
                   if a.flags and a.flags[0] not in ("-h", "--help") and not a.hidden]
        if collapse or len(options) > MAX_USAGE_OPTIONS:
            required = [i for i in options if self.arguments[i].required]
            parts += [self._option(i) for i in required] + (["[OPTIONS]"] if len(required) < len(options) else [])
        else:
            grouped = {i: (required, members) for required, members in self.exclusive for i in members}
            done: set[int] = set()
            for i in options:
                if i in done:
                    continue
                if i in grouped:
                    required, members = grouped[i]
                    shown = " | ".join(self._option(j) for j in members if j in options)
                    done.update(members)
                    parts.append(f"({shown})" if required else f"[{shown}]")
                    continue
                a = self.arguments[i]
                parts.append(self._option(i) if a.required else f"[{self._option(i)}]")
        if self.commands:
            parts.append("{" + ",".join(self.commands) + "} ...")
        for a in self.arguments:
            if a.flags or a.hidden:
                continue
            if a.nargs == "?":
                parts.append(f"[{a.name}]")
            elif a.nargs == "*":
                parts.append(f"[{a.name} ...]")
            elif a.nargs == "+":
                parts.append(f"{a.name} [{a.name} ...]")
            elif a.nargs == "...":
                parts.append("...")
            elif isinstance(a.nargs, int):
                parts.extend([a.name] * a.nargs)
            else:
                parts.append(a.name)
        line = " ".join(parts)
        if len(line) > MAX_USAGE_WIDTH and not collapse:
            return self.usage(prog, collapse=True)
        return line

    def _option(self, i: int) -> str:
        a = self.arguments[i]
        flag = max(a.flags, key=len)
        return f"{flag} {a.name}" if a.takes_value else flag


# -- the facts -----------------------------------------------------------------------------------


@dataclass
class ScriptFacts:
    module: ast.Module
    facts: python.PythonFacts
    filename: str
    code: str = ""
    prog: str = ""
    parser: Parser | None = None  # the first ArgumentParser, when there is one
    usage_kw: str | None = None  # ArgumentParser(usage=...) as written, %(prog)s resolved
    description: str | None = None  # parser description, when a literal
    epilog_examples: list[str] = field(default_factory=list)  # lines under "examples:" in a literal epilog
    walked: list[tuple[ast.AST, str | None]] = field(default_factory=list)  # every node, with its top-level def
    invocations: list[str] = field(default_factory=list)  # SKILL.md's command lines that run the script

    @property
    def arguments(self) -> list[Argument]:
        return self.parser.arguments if self.parser else []

    @property
    def commands(self) -> list[str]:
        return list(self.parser.commands) if self.parser else []

    @property
    def docstring(self) -> tuple[str | None, int]:
        return python.module_docstring(self.module)

    @property
    def header(self) -> contract.Header | None:
        doc, line = self.docstring
        return contract.python_header(doc, line)

    # -- exits ---------------------------------------------------------------------------------

    @property
    def exit_codes(self) -> list[int]:
        return sorted({0} | {code for code, _, _ in self.facts.exit_codes})

    def exit_meaning(self, code: int) -> str | None:
        """What the code means (:func:`skillsmith.lang.python.exit_meanings`), or None when nothing says."""
        if not hasattr(self, "_exit_meanings"):
            h = self.header
            self._exit_meanings = python.exit_meanings(self.module, self.facts, h.exit_meanings if h else {},
                                                      self.code.splitlines())
        return self._exit_meanings.get(code)

    def exit_line(self, codes: list[int] | None = None) -> str | None:
        """``0 ok, 2 usage`` for *codes* (default: every code the script uses), or None when one has no known meaning."""
        codes = self.exit_codes if codes is None else codes
        parts = []
        for c in codes:
            text = self.exit_meaning(c)
            if text is None:
                return None
            parts.append(f"{c} {text}")
        return ", ".join(parts)

    # -- usage, input, output -----------------------------------------------------------------

    @property
    def other_parser(self) -> bool:
        """The script parses its command line with another library (click, docopt, optparse, getopt...)."""
        modules = {v.split(".")[0] for v in self.facts.aliases.values()}
        return bool(modules & (OTHER_PARSERS | {"getopt"}))

    @property
    def delegates(self) -> bool:
        """The script hands its run to code of another module (``from pkg.cli import main`` then
        ``main()``, ``runpy.run_module``): what it takes, prints and exits with is that code's."""
        if not hasattr(self, "_delegates"):
            import sys

            top = list(self.module.body)
            for stmt in self.module.body:
                if isinstance(stmt, ast.If) and "__name__" in ast.unparse(stmt.test):
                    top += stmt.body
            found = False
            for stmt in top:
                for node in python.walk(stmt) if not isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef,
                                                                      ast.ClassDef)) else ():
                    if isinstance(node, ast.Call):
                        name = python.qualified(node.func, self.facts.aliases) or ""
                        root = name.split(".")[0]
                        if name.startswith("runpy.") or "." in name and root not in sys.stdlib_module_names \
                                and (python.dotted(node.func) or "").split(".")[0] in self.facts.aliases \
                                and name.rsplit(".", 1)[-1] in ENTRY_FUNCTIONS:
                            found = True
            self._delegates = found
        return self._delegates

    @property
    def reads_arguments(self) -> bool:
        """The script takes arguments: a parser with some, ``sys.argv``, another parsing library.

        The -h/--help branch (:data:`HELP_BRANCH`) reads ``sys.argv`` only to answer ``--help``.
        """
        parser = self.parser
        takes = parser is not None and (not parser.complete or bool(parser.commands) or any(
            a.flags[:1] not in (["-h"], ["--help"]) for a in parser.arguments))
        return takes or self.other_parser or self.facts.reads_argv and self._reads_argv_beyond_help

    @property
    def _reads_argv_beyond_help(self) -> bool:
        branches = [n for n, _ in self.walked if isinstance(n, ast.If) and is_help_branch(n)]
        inside = {id(n) for b in branches for n in python.walk(b)}
        return any(id(n) not in inside and isinstance(n, (ast.Attribute, ast.Name)) and (
            python.dotted(n) == "sys.argv" or isinstance(n, ast.Name) and self.facts.aliases.get(n.id) == "sys.argv")
            for n, _ in self.walked)

    def usage(self) -> str | None:
        """The Usage line the evidence supports, or None."""
        if self.usage_kw:
            return self.usage_kw
        if self.parser is not None:
            if self.parser.complete and all(c.complete for c in self.parser.commands.values()):
                return self.parser.usage(self.prog)
            return None
        text = self.usage_text()
        if text:
            return text
        if not self.reads_arguments:
            return self.prog
        return None

    def usage_text(self) -> str | None:
        """The first form of the script's own ``Usage:`` text (printed or in a constant), its name resolved."""
        for node, _ in self.walked:
            text = _rendered(node, self.prog)
            if text is None:
                continue
            m = re.match(r"^\s*usage:[ \t]*(.*)", text, re.IGNORECASE)
            if not m:
                continue
            first = m.group(1).strip()
            if not first:
                rest = [ln.strip() for ln in text[m.end():].splitlines() if ln.strip()]
                first = rest[0] if rest else ""
            if first and self.prog.rsplit(".", 1)[0] in first:
                return " ".join(first.split())
        return None

    @property
    def reads_stdin(self) -> bool:
        return self.reads_piped_stdin or any(name == "input" for name, _ in self.facts.calls)

    @property
    def reads_piped_stdin(self) -> bool:
        """Whether it reads stdin as a stream (``sys.stdin``, ``fileinput``), not only a line typed at a prompt (``input()``)."""
        return any(python.dotted(n) in ("sys.stdin", "sys.stdin.buffer") for n in self.facts.by_type.get(ast.Attribute, ())) \
            or any(name == "fileinput.input" for name, _ in self.facts.calls)

    @property
    def env_vars(self) -> list[str]:
        """Environment variables read by name (``os.environ["X"]``, ``os.getenv("X")``), in order."""
        found: list[str] = []
        facts = self.facts
        reads = {id(call) for name, call in facts.calls
                 if name in ("os.getenv", "os.environ.get", "os.environ.setdefault") and call.args}
        reads |= {id(node) for node in facts.by_type.get(ast.Subscript, ())
                  if python.qualified(node.value, facts.aliases) == "os.environ"}
        if not reads:
            return found
        for node, _ in self.walked:  # in source order
            if id(node) not in reads:
                continue
            name = _literal(node.slice) if isinstance(node, ast.Subscript) else _literal(node.args[0])
            if isinstance(name, str) and name not in found and not _SYSTEM_ENV.match(name):
                found.append(name)
        return found

    def input_value(self, with_usage: bool) -> str | None:
        parts = []
        if self.reads_arguments:
            parts.append("command-line arguments" + (" (see Usage)" if with_usage else ""))
        if self.reads_stdin:
            parts.append("stdin")
        env = self.env_vars
        if env:
            shown = ", ".join(env[:3]) + (", ..." if len(env) > 3 else "")
            parts.append(f"environment variable{'s' if len(env) > 1 else ''} {shown}")
        if parts:
            return "; ".join(parts)
        if any(_READS.search(name) for name, _ in self.facts.calls):
            return None  # it reads files or the network: what it needs is not known
        return "none"

    @property
    def _prints(self) -> list[tuple[str, ast.Call]]:
        """(stream, call) for each print/write: stream is "stdout", "stderr" or "" (a file)."""
        out = []
        for name, call in self.facts.calls:
            if name == "print":
                target = python.keyword(call, "file")
                stream = "stdout" if target is None else _stream(target.value, self.facts.aliases)
            elif name in ("sys.stdout.write", "sys.stdout.buffer.write"):
                stream = "stdout"
            elif name in ("sys.stderr.write", "sys.stderr.buffer.write", "warnings.warn", "traceback.print_exc"):
                stream = "stderr"
            elif name.startswith("logging.") or name.endswith((".warning", ".error", ".info", ".exception",
                                                                ".critical", ".debug")) and "log" in name.lower():
                stream = "stderr"
            elif name == "json.dump" and len(call.args) >= 2:
                stream = _stream(call.args[1], self.facts.aliases)
            elif name in ("pprint.pprint", "pprint"):
                stream = "stdout"
            else:
                continue
            out.append((stream, call))
        return out

    @property
    def several_parsers(self) -> bool:
        """The script builds more than one ArgumentParser (one per command, each fed ``sys.argv[2:]``):
        none of them is its whole command line, and its calls are no one parser's."""
        return len(self.facts.parsers) > 1

    @property
    def stdout_calls(self) -> list[ast.Call]:
        """The calls that write to stdout: ``print(...)``, ``sys.stdout.write``, ``json.dump(x, sys.stdout)``."""
        return [c for stream, c in self._prints if stream == "stdout"]

    @property
    def json_flag(self) -> bool:
        """``--json`` is a switch of this script (an option that takes a value is input, not a format)."""
        declared = [a for a in self.arguments if "--json" in a.flags]
        if declared:
            return any(not a.takes_value for a in declared)
        if self.parser is not None and self.parser.complete and not self.parser.commands:
            return False  # every option is known: a "--json" string is another program's (["sf", ..., "--json"])
        return "--json" in self.facts.strings

    def output_value(self) -> str | None:
        """What stdout carries: JSON (the envelope only when it is printed), under --json or always."""
        prints = self.stdout_calls
        if not prints:
            return None
        files = "; writes files" if self.writes_files else ""
        json_prints = [c for c in prints if self._is_json_print(c)]
        envelope = any(name == "emit_json" for name, _ in self.facts.calls) or any(
            _is_success_envelope(_printed(c, self.facts.aliases)) for c in prints)
        guarded = bool(json_prints) and self.json_flag and all(self._under_json_flag(c) for c in json_prints)
        if envelope and self.json_flag:
            return "results on stdout; with --json the JSON envelope {data, meta}" + files
        if guarded:
            return "results on stdout; JSON with --json" + files
        if json_prints and len(json_prints) == len(prints):
            return "JSON on stdout" + files
        return "results on stdout" + files

    @property
    def writes_files(self) -> bool:
        """Whether the script writes files: ``open(p, "w")``, ``write_text``, a print or dump into a file."""
        return bool(self.file_writes())

    def file_writes(self) -> set[int]:
        """The calls (by id) that write files: ``write_text``, ``open(p, "w")``, a print or dump into a file."""
        return {id(call) for name, call in self.facts.calls if writes_a_file(name, call)} | \
            {id(call) for stream, call in self._prints if stream == ""}

    @property
    def json_on_stdout(self) -> list[ast.Call]:
        """The calls that write JSON to stdout: ``print(json.dumps(x))``, ``json.dump(x, sys.stdout)``
        (JSON written into a file is data kept, not output)."""
        return [c for stream, c in self._prints if stream == "stdout"
                and (self._is_json_print(c) or python.dotted(c.func) == "json.dump")]

    def _is_json_print(self, call: ast.Call) -> bool:
        return _printed(call, self.facts.aliases) is not None

    def _under_json_flag(self, call: ast.Call) -> bool:
        """Whether *call* runs under an ``if`` that tests a json flag (``if args.json:``)."""
        parents = self._parents
        node = call
        while id(node) in parents:
            child, node = node, parents[id(node)]
            if isinstance(node, (ast.If, ast.IfExp)) and child is not node.test and any(
                    (isinstance(n, ast.Attribute) and "json" in n.attr.lower()) or
                    (isinstance(n, ast.Name) and "json" in n.id.lower()) for n in python.walk(node.test)):
                return True
        return False

    @property
    def _parents(self) -> dict[int, ast.AST]:
        return python.parent_map(self.facts)

    def stderr_value(self) -> str | None:
        if "stderr" in {s for s, _ in self._prints}:
            return "errors and diagnostics"
        if self.facts.parsers:
            return "usage errors"
        return None

    def contract_fields(self) -> dict[str, str]:
        """The header fields the evidence supports (name -> value); a field nothing supports is absent.

        Worked out once per facts (the check's rules and the docstring fix ask of the same ones).
        """
        if not hasattr(self, "_contract_fields"):
            self._contract_fields = self._supported_fields()
        return dict(self._contract_fields)

    def _supported_fields(self) -> dict[str, str]:
        if self.delegates:
            return {}  # the code it runs is elsewhere: nothing here says what it takes or gives
        h = self.header
        usage = self.usage()
        has_usage = usage is not None or h is not None and "Usage" in h.fields
        values = {
            "Usage": usage,
            "Input": self.input_value(has_usage),
            "Output": self.output_value(),
            "Stderr": self.stderr_value(),
            "Exit": self.exit_line(),
        }
        return {k: v for k, v in values.items() if v is not None}

    # -- description and examples --------------------------------------------------------------

    def one_line_description(self) -> str | None:
        """The parser's description (its first sentence), or None."""
        if self.description:
            first = re.split(r"(?<=\.)\s", " ".join(self.description.split()), maxsplit=1)[0]
            first = first[0].upper() + first[1:] if first else first
            return first if first.endswith(contract.FULL_STOPS) else first + "."
        return None

    @property
    def answers_help(self) -> bool:
        """``--help`` prints help and exits 0: argparse with its help, explicit handling, or another parser."""
        if self.parser is not None and self.parser.add_help:
            return True
        return "--help" in self.facts.strings or bool(
            {v.split(".")[0] for v in self.facts.aliases.values()} & OTHER_PARSERS)

    def accepted(self, example: str, help_added: bool = False) -> bool:
        """Whether *example* runs this script with arguments it accepts and holds no placeholder.

        *help_added*: the fix gives the script its -h/--help branch in this run.
        """
        args = _script_arguments(example, os.path.basename(self.filename), self.prog)
        if args is None:
            return False
        if any(_PLACEHOLDER.search(a) and not (_UPPER.match(a) and self._choice(a)) for a in args):
            return False
        if any(a.startswith("[") for a in args):
            return False  # synopsis notation: ``x.py index [--max-age-days 90]``
        if not args:  # a bare path: an example only of a script known to need nothing (stdin included)
            if self.reads_stdin:
                return False
            return self.parser.accepts(self.prog, []) is True if self.parser is not None else not self.reads_arguments
        if "--help" in args or "-h" in args:
            return self.answers_help or help_added
        if "--json" in args and "--json" not in self.facts.strings:
            return False  # an option of another program (a wrapped script's): not this script's promise
        if self.parser is not None:
            verdict = self.parser.accepts(self.prog, args)
            return verdict is not False
        return True

    def _choice(self, value: str) -> bool:
        """An upper-case word the parser lists as a choice (``--level INFO``) is a value, not a placeholder."""
        return any(a.choices and value in a.choices for a in self.arguments)

    def examples(self, for_epilog: bool = False, help_added: bool = False) -> list[str]:
        """Examples from the evidence: the docstring's own, else the epilog's, SKILL.md's worked
        invocations and the concrete lines of the author's usage text (each one accepted), else
        ``NAME --help`` for a script that answers it (not in the epilog: it is the help).

        *help_added*: the fix gives the script its -h/--help branch in this run. Worked out once
        per facts and arguments.
        """
        known = self.__dict__.setdefault("_examples", {})
        if (for_epilog, help_added) not in known:
            known[for_epilog, help_added] = self._examples_of(for_epilog, help_added)
        return list(known[for_epilog, help_added])

    def _examples_of(self, for_epilog: bool, help_added: bool) -> list[str]:
        h = self.header
        own = (h.examples or h.usage_examples) if h is not None else []
        if for_epilog:
            # copied into --help: calls that work, not the author's comments, not how to get the help itself
            own = [e for e in own if not e.startswith("#") and not _asks_help(e) and self.accepted(e)]
        if own:
            return own
        if self.epilog_examples and not for_epilog:
            return list(self.epilog_examples)  # the author's own, as --help shows them
        found: list[str] = []
        candidates = list(self.invocations) + self._usage_examples()
        seen: set[tuple[str, ...]] = set()
        for example in candidates:
            args = tuple(_script_arguments(example, os.path.basename(self.filename), self.prog) or ())
            if example not in found and args not in seen and self.accepted(example, help_added):
                found.append(example)
                seen.add(args)
            if len(found) == MAX_EXAMPLES:
                break
        if found:
            return found
        if not self.reads_arguments and not self.reads_stdin and not self.delegates:
            return [self.prog]  # it takes nothing: running it is the example
        return []  # ``x.py --help`` only says how to get the help: not an example of use

    @property
    def needs_help_branch(self) -> bool:
        """Whether the script parses its arguments by hand and does not answer -h/--help (:mod:`py_help`)."""
        return (self.parser is None and not self.other_parser and not self.answers_help
                and "-h" not in self.facts.strings and not self.delegates)  # a shim's delegate has its own

    # -- what the fix can do: the rules mark a finding fixable only then ------------------------

    @property
    def lines_before_code(self) -> list[str]:
        """The file's lines before its first statement (a decorator counts as the statement)."""
        body = self.module.body
        if not body:
            return self.code.splitlines()
        first = min([body[0].lineno] + [d.lineno for d in getattr(body[0], "decorator_list", [])])
        return self.code.splitlines()[:first - 1]

    def new_docstring_description(self) -> str | None:
        """The description a new docstring gets: argparse's, or the prose comment at the top (moved in)."""
        description = self.one_line_description()
        comment = top_comment(self.lines_before_code)
        if comment == "header":
            return None  # the comment block is the header: no second one
        if comment is not None:
            first = comment[2][0].strip()
            if description is None or first.rstrip(".") == description.rstrip("."):
                return first if first.endswith(contract.FULL_STOPS) else first + "."
        return description

    def can_create_docstring(self) -> bool:
        """Whether the docstring fix writes a docstring for a script that has none."""
        if self.docstring[0] is not None:
            return False
        body = self.module.body
        if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, (ast.Constant, ast.JoinedStr)):
            return False  # a bytes or f-string first statement
        return self.new_docstring_description() is not None

    def help_fixable(self) -> bool:
        """Whether the -h/--help branch goes in (:mod:`py_help`): by hand argument parsing, a docstring that says something."""
        if not self.needs_help_branch:
            return False
        h = self.header
        return h is not None and bool(h.description or h.fields) or self.can_create_docstring()

    def fields_written(self) -> list[str]:
        """The missing header fields of an existing docstring that the evidence fills (Examples included)."""
        h = self.header
        if h is None:
            return []
        values = self.contract_fields()
        names = [n for n in h.missing if n != "Examples" and n in values]
        wanted = "Examples" in h.missing or "Examples" in h.fields and not h.examples
        if wanted and self.examples(help_added=self.help_fixable()):
            names.append("Examples")
        return names

    def exit_codes_written(self) -> list[int]:
        """Codes the Exit: line lacks and whose meaning the evidence gives."""
        h = self.header
        if h is None or h.exit_codes is None:
            return []
        return [c for c in self.exit_codes if c not in h.exit_codes and self.exit_meaning(c) is not None]

    def epilog_fixable(self, call: ast.Call) -> bool:
        """Whether the epilog fix gives the ArgumentParser *call* an examples epilog."""
        if any(k.arg is None for k in call.keywords):
            return False
        formatter = python.keyword(call, "formatter_class")
        if formatter is not None and (python.dotted(formatter.value) or "").rsplit(".", 1)[-1] not in RAW_FORMATTERS:
            return False
        if self.docstring_is_help(call):
            return False  # the docstring is the help: its Examples are the help's (CON006 adds them)
        if not self.examples(for_epilog=True) or self.several_parsers:
            return False
        epilog = python.keyword(call, "epilog")
        if epilog is None:
            return True
        if not isinstance(_literal(epilog.value), str) or "example" in epilog.value.value.lower():
            return False
        return _one_literal(ast.get_source_segment(self.code, epilog.value) or "")

    def formatter_fixable(self, call: ast.Call) -> bool:
        """Whether the epilog fix adds ``formatter_class`` to *call*: none given, no ``**kwargs``, and
        an epilog going in or help text laid out in lines that the default formatter would reflow."""
        if python.keyword(call, "formatter_class") is not None or any(k.arg is None for k in call.keywords):
            return False
        return self.reflows(call) or self.epilog_fixable(call)

    def reflows(self, call: ast.Call) -> bool:
        """Whether *call*'s help text (an epilog, a description, or ``description=__doc__``) is laid
        out in lines that argparse's default formatter joins into one paragraph: see ``laid_out``."""
        epilog = python.keyword(call, "epilog")
        if epilog is not None:
            text = _literal(epilog.value)
            if not isinstance(text, str) and python.dotted(epilog.value):
                text = _module_string(self.module, python.dotted(epilog.value))
            if isinstance(text, str) and laid_out(text):
                return True
        if self.docstring_is_help(call):
            doc = self.docstring[0]
            return doc is None or laid_out(doc)  # a docstring of prose only loses nothing when rewrapped
        return isinstance(self._description_text(call), str) and laid_out(self._description_text(call))

    def docstring_is_help(self, call: ast.Call) -> bool:
        """``ArgumentParser(description=__doc__)``: --help shows the module docstring."""
        desc = python.keyword(call, "description")
        return desc is not None and isinstance(desc.value, ast.Name) and desc.value.id == "__doc__"

    def help_has_examples(self, call: ast.Call) -> bool:
        """Whether --help already shows examples: the docstring's, when it is the description."""
        h = self.header
        if not self.docstring_is_help(call):
            return False
        if h is not None and (h.examples or h.usage_examples):
            return True
        # worked calls in the docstring without a heading: "    python3 scripts/find.py "query" --domain x"
        # (not a synopsis with placeholders: "python x.py <dir> [--max <n>]")
        doc = self.docstring[0] or ""
        name = re.escape(os.path.basename(self.filename)) if self.filename else None
        return name is not None and re.search(
            rf"(?m)^[ \t]+(?:\$[ \t]+)?(?:(?:python3?|uv[ \t]+run)[ \t]+)?[\w./${{}}-]*{name}[ \t]+[^\s<\[][^<\[\n]*$",
            doc) is not None

    def _description_text(self, call: ast.Call) -> str | None:
        desc = python.keyword(call, "description")
        return _literal(desc.value) if desc is not None else None

    def _usage_examples(self) -> list[str]:
        """Concrete command lines of the docstring's Usage field (``python x.py --in a.csv``)."""
        h = self.header
        usage = h.fields.get("Usage") if h is not None else None
        if usage is None:
            return []
        lines = ([usage.value_line] if usage.value_line else []) + [i.strip() for i in usage.items]
        name = os.path.basename(self.filename)
        return [ln for ln in lines if ln and (name in ln or self.prog in ln)]


@lru_cache(maxsize=16)
def script_facts(code: str, filename: str | None, module: ast.Module | None = None,
                 invocations: tuple[str, ...] = ()) -> ScriptFacts | None:
    """Facts for *code* (whose ``ast`` parse is *module*, when known), or None when it does not parse.

    Cached: codemods in a row share them.
    """
    if module is None:
        module = python.parse(code)[0]
        if module is None:
            return None
    facts = python.facts(module)
    name = os.path.basename(filename) if filename else "script.py"
    sf = ScriptFacts(module, facts, filename or name, code=code, prog=name, walked=_walk(module, facts),
                     invocations=list(invocations))
    if facts.parsers:
        call = facts.parsers[0]
        prog = python.keyword(call, "prog")
        if prog is not None and isinstance(prog.value, ast.Constant) and isinstance(prog.value.value, str):
            sf.prog = prog.value.value
        desc = python.keyword(call, "description")
        if desc is not None and isinstance(desc.value, ast.Constant) and isinstance(desc.value.value, str):
            sf.description = desc.value.value.strip() or None
        usage = python.keyword(call, "usage")
        if usage is not None and isinstance(_literal(usage.value), str):
            text = _literal(usage.value).replace("%(prog)s", sf.prog).strip()
            sf.usage_kw = " ".join(text.splitlines()[0].split()) if text else None
        epilog = python.keyword(call, "epilog")
        if epilog is not None:
            text = _literal(epilog.value)
            if isinstance(epilog.value, ast.JoinedStr):
                text = _constant_text(epilog.value)
            elif not isinstance(text, str):
                ref = python.dotted(epilog.value)
                text = _module_string(module, ref) if ref else None
            if isinstance(text, str):
                # the lines that run the script (an explanation under an example is not one)
                sf.epilog_examples = [e.replace("%(prog)s", sf.prog) for e in examples_in(text)
                                      if ("%(prog)s" in e or sf.prog in e or name in e) and _INTERPOLATED not in e]
        sf.parser = _read_parser(sf, call)
        if sf.several_parsers:
            sf.parser.complete = False  # the first of them is not the script's command line
    return sf


def examples_in(text: str) -> list[str]:
    """The indented lines under an ``examples:`` line of an epilog (comment lines left out)."""
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if re.fullmatch(r"(usage )?examples?( of use)?:?", line.strip().lower()):
            items = []
            blank = False
            for item in lines[i + 1:]:
                if not item.strip():
                    blank = True
                    continue
                if blank and items and not item[:1].isspace() or not item[:1].isspace() and item.strip().endswith(":"):
                    break  # the section ends at a blank line before unindented text, or at the next heading
                blank = False
                if not item.strip().startswith("#"):
                    items.append(re.sub(r"^[$>]\s+", "", item.strip()))
            return items
    return []


#: what stands in an f-string's text for each value it interpolates (no example line keeps one)
_INTERPOLATED = "\x00"


def _constant_text(node: ast.JoinedStr) -> str:
    """The text of an f-string with each interpolated value as ``_INTERPOLATED``."""
    return "".join(v.value if isinstance(v, ast.Constant) and isinstance(v.value, str) else _INTERPOLATED
                   for v in node.values)


def _module_string(module: ast.Module, name: str) -> str | None:
    for node in module.body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name for t in node.targets):
            value = _literal(node.value)
            return value if isinstance(value, str) else None
    return None


def _walk(module: ast.Module, facts: python.PythonFacts) -> list[tuple[ast.AST, str | None]]:
    """Every node once, with the name of the top-level function or class holding it (or None)."""
    out = []
    for stmt, nodes in python.top_level_walks(module, facts):
        owner = stmt.name if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) else None
        out.extend((node, owner) for node in nodes)
    return out


def _printed(call: ast.Call, aliases: dict[str, str]) -> ast.expr | None:
    """*x* of ``print(json.dumps(x))`` or ``json.dump(x, stream)``: the JSON a print writes, else None."""
    if python.qualified(call.func, aliases) == "json.dump":
        return call.args[0] if call.args else None
    if call.args and isinstance(call.args[0], ast.Call) and python.qualified(call.args[0].func, aliases) == "json.dumps":
        inner = call.args[0]
        return inner.args[0] if inner.args else None
    return None


def _is_success_envelope(node) -> bool:
    """A dict literal with "data" and "meta" keys: the ``--json`` success envelope itself."""
    return isinstance(node, ast.Dict) and {"data", "meta"} <= {_literal(k) for k in node.keys}


def _one_literal(source: str) -> bool:
    """Whether *source* is one plain string literal (not ``"a" "b"``, not bytes, not an f-string)."""
    import tokenize

    try:
        tokens = [t for t in tokenize.generate_tokens(io.StringIO(source).readline)
                  if t.type not in (tokenize.NEWLINE, tokenize.NL, tokenize.ENDMARKER)]
    except (tokenize.TokenError, SyntaxError):
        return False
    return len(tokens) == 1 and tokens[0].type == tokenize.STRING and not re.match(r"(?i)[rub]*[bf]", tokens[0].string)



#: a line whose place matters: indented (a command, a table's row), a list item, or a prompt's ``$ ``
_LAID_OUT_LINE = re.compile(r"^(?:[ \t]+\S|\s*(?:[-*\u2022+]|\d+[.)])\s|\s*\$\s)")


def laid_out(text: str) -> bool:
    """Whether help *text* has lines argparse's rewrapping would spoil: an indented line, a list
    item or a shell prompt after the first line; paragraphs of prose read the same rewrapped."""
    lines = textwrap.dedent(text.strip("\n")).splitlines()
    return any(_LAID_OUT_LINE.match(line) for line in lines[1:])


def _literal(node: ast.expr | None):
    return node.value if isinstance(node, ast.Constant) else None


def _stream(node: ast.expr, aliases: dict[str, str]) -> str:
    name = python.qualified(node, aliases)
    return {"sys.stdout": "stdout", "sys.stderr": "stderr", "sys.__stderr__": "stderr"}.get(name or "", "")


_SELF_NAME = re.compile(r"^(sys\.argv\[0\]|__file__|os\.path\.basename\((sys\.argv\[0\]|__file__)\)|"
                        r"Path\((sys\.argv\[0\]|__file__)\)\.name|prog|PROG|script_name|SCRIPT_NAME)$")


def _rendered(node: ast.AST, prog: str) -> str | None:
    """The text of a string literal, an f-string or ``"..." % sys.argv[0]`` naming the script, else None."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        out = []
        for part in node.values:
            if isinstance(part, ast.Constant):
                out.append(str(part.value))
            elif isinstance(part, ast.FormattedValue) and _SELF_NAME.match(ast.unparse(part.value)):
                out.append(prog)
            else:
                return None
        return "".join(out)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod) and isinstance(node.left, ast.Constant) \
            and isinstance(node.left.value, str) and _SELF_NAME.match(ast.unparse(node.right)):
        return node.left.value.replace("%s", prog, 1)
    return None


def _asks_help(example: str) -> bool:
    """``x.py --help``: an example that only asks for the help."""
    words = example.split()
    return bool(words) and words[-1] in ("-h", "--help") and len([w for w in words if not w.startswith("-")]) <= 2


def _script_arguments(example: str, filename: str, prog: str) -> list[str] | None:
    """The arguments *example* passes to the script (named by its file name or prog), up to a pipe."""
    try:
        words = shlex.split(example, comments=True)
    except ValueError:
        return None
    for i, word in enumerate(words):
        base = word.rsplit("/", 1)[-1]
        if base in (filename, prog):
            out = []
            for arg in words[i + 1:]:
                if arg in ("|", "||", "&&", ";", "&", ">", ">>", "<", "2>", "2>&1") or arg.startswith(("|", ">")):
                    break
                out.append(arg)
            return out
    return None


# -- reading the parser ----------------------------------------------------------------------------

#: parser methods that do not change which arguments it accepts
_PARSER_READS = {"parse_args", "parse_known_args", "print_help", "print_usage", "format_help", "format_usage",
                 "error", "exit", "set_defaults", "get_default", "parse_intermixed_args"}


def _assigned_name(sf: ScriptFacts, call: ast.Call) -> str | None:
    """The name *call*'s value is assigned to (``parser = argparse.ArgumentParser()``), else None."""
    if not hasattr(sf, "_assigned"):
        by_type = sf.facts.by_type
        sf._assigned = {id(node.value): node for node in (*by_type.get(ast.Assign, ()), *by_type.get(ast.AnnAssign, ()))
                        if node.value is not None}
    node = sf._assigned.get(id(call))
    if node is not None:
        target = node.targets[0] if isinstance(node, ast.Assign) else node.target
        if isinstance(target, ast.Name):
            return target.id
    return None


def _loads(sf: ScriptFacts, name: str, near: ast.AST) -> list[ast.Name]:
    """The nodes that read the variable *name* as *near* assigned it, in the order of ``sf.walked``:
    in the top-level function that holds *near*, up to the next assignment there (``s =
    sub.add_parser("init")``, then ``s = sub.add_parser("observe")``), or for a module-level name,
    also in the functions that assign none of their own (``p = skill_dir / rel`` elsewhere is another ``p``)."""
    if not hasattr(sf, "_loaded"):
        sf._loaded, sf._stored, sf._owner = {}, {}, {}
        for node, owner in sf.walked:
            sf._owner[id(node)] = owner
            if isinstance(node, ast.Name):
                if isinstance(node.ctx, ast.Load):
                    sf._loaded.setdefault(node.id, []).append((node, owner))
                else:
                    sf._stored.setdefault(node.id, []).append((node, owner))
    owner = sf._owner.get(id(near))
    assignment = sf._assigned.get(id(near))
    target = assignment.targets[0] if isinstance(assignment, ast.Assign) else getattr(assignment, "target", None)
    begin = _at(target) if target is not None else (0, 0)
    end = min((_at(n) for n, where in sf._stored.get(name, []) if where == owner and _at(n) > begin), default=None)
    elsewhere = {where for _n, where in sf._stored.get(name, []) if where is not None}
    return [node for node, where in sf._loaded.get(name, [])
            if where == owner and begin < _at(node) and (end is None or _at(node) < end)
            or owner is None and where is not None and where not in elsewhere]


def _at(node: ast.AST) -> tuple[int, int]:
    return node.lineno, node.col_offset


def _read_parser(sf: ScriptFacts, call: ast.Call) -> Parser:
    """The parser *call* creates, with what the code adds to it."""
    return _parser_from(sf, call, sf._parents)


def _parser_from(sf: ScriptFacts, call: ast.Call, parents: dict[int, ast.AST], depth: int = 0) -> Parser:
    parser = Parser()
    for kw in call.keywords:
        if kw.arg is None or kw.arg == "parents":
            parser.complete = False  # **options, or arguments inherited from other parsers
        elif kw.arg == "add_help":
            value = _literal(kw.value)
            parser.add_help = value is not False
            if not isinstance(value, bool):
                parser.complete = False
        elif kw.arg in ("prefix_chars", "fromfile_prefix_chars", "argument_default", "allow_abbrev"):
            parser.complete = False
    name = _assigned_name(sf, call)
    parent = parents.get(id(call))
    if name is None:
        # ArgumentParser(...).parse_args(), or a subcommand without arguments: nothing else is added
        if not (isinstance(parent, ast.Attribute) and parent.attr in _PARSER_READS or isinstance(parent, ast.Expr)):
            parser.complete = False
        return parser
    _read_uses(sf, name, call, parser, parents, None, depth)
    return parser


def _read_uses(sf: ScriptFacts, name: str, near: ast.AST, parser: Parser, parents: dict[int, ast.AST],
               exclusive: list[int] | None, depth: int) -> None:
    """Read every use of the variable *name* (a parser or one of its groups, assigned by *near*) into *parser*."""
    for node in _loads(sf, name, near):
        attr = parents.get(id(node))
        if isinstance(attr, ast.Return):
            continue  # build_parser() returns it to be parsed
        if not isinstance(attr, ast.Attribute) or attr.value is not node:
            parser.complete = False  # passed somewhere else, which may add arguments
            continue
        method = attr.attr
        use = parents.get(id(attr))
        if not isinstance(use, ast.Call) or use.func is not attr:
            if method not in ("prog", "description", "epilog"):
                parser.complete = False
            continue
        if method == "parse_known_args":
            parser.known_args = True
        if method in _PARSER_READS:
            continue
        if method == "add_argument":
            if _in_loop(use, parents):
                parser.complete = False
            arg = _argument(use)
            if arg is None:
                parser.complete = False
                continue
            if arg is not None:
                if exclusive is not None:
                    exclusive.append(len(parser.arguments))
                parser.arguments.append(arg)
        elif method in ("add_argument_group", "add_mutually_exclusive_group"):
            group = _assigned_name(sf, use)
            if group is None:
                parser.complete = False
                continue
            if method == "add_mutually_exclusive_group":
                indexes: list[int] = []
                required = python.keyword(use, "required")
                parser.exclusive.append((required is not None and _literal(required.value) is True, indexes))
                _read_uses(sf, group, use, parser, parents, indexes, depth)
            else:
                _read_uses(sf, group, use, parser, parents, exclusive, depth)
        elif method == "add_subparsers":
            sub = _assigned_name(sf, use)
            required = python.keyword(use, "required")
            parser.commands_required = required is not None and _literal(required.value) is True
            if sub is None or depth > 3:
                parser.complete = False
                continue
            _read_commands(sf, sub, use, parser, parents, depth)
        else:
            parser.complete = False


def _read_commands(sf: ScriptFacts, sub: str, near: ast.AST, parser: Parser, parents: dict[int, ast.AST],
                   depth: int) -> None:
    for node in _loads(sf, sub, near):
        attr = parents.get(id(node))
        use = parents.get(id(attr)) if isinstance(attr, ast.Attribute) else None
        if not (isinstance(attr, ast.Attribute) and attr.attr == "add_parser" and isinstance(use, ast.Call)):
            parser.complete = False
            continue
        names = [a.value for a in use.args[:1] if isinstance(a, ast.Constant) and isinstance(a.value, str)]
        if not names or _in_loop(use, parents):
            parser.complete = False
            continue
        command = _parser_from(sf, use, parents, depth + 1)
        parser.commands[names[0]] = command
        aliases = python.keyword(use, "aliases")
        if aliases is not None:
            if isinstance(aliases.value, (ast.List, ast.Tuple)):
                for alias in aliases.value.elts:
                    if isinstance(_literal(alias), str):
                        parser.commands.setdefault(_literal(alias), command)
            else:
                parser.complete = False


def _in_loop(node: ast.AST, parents: dict[int, ast.AST]) -> bool:
    while id(node) in parents:
        node = parents[id(node)]
        if isinstance(node, (ast.For, ast.AsyncFor, ast.While, ast.comprehension)):
            return True
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            return False
    return False


def _argument(call: ast.Call) -> Argument | None:
    """The argument an ``add_argument(...)`` call adds, or None when its names or kind are not literal."""
    if any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords):
        return None
    names = [a.value for a in call.args if isinstance(a, ast.Constant) and isinstance(a.value, str)]
    if not names or len(names) != len(call.args):
        return None
    kw = {k.arg: k.value for k in call.keywords if k.arg}
    action = None
    if "action" in kw:
        action = _literal(kw["action"])
        if action is None and python.dotted(kw["action"]) in ("argparse.BooleanOptionalAction", "BooleanOptionalAction"):
            action = "BooleanOptionalAction"
        if action not in KNOWN_ACTIONS:
            return None
    nargs = None
    if "nargs" in kw:
        nargs = _literal(kw["nargs"])
        if python.dotted(kw["nargs"]) in ("argparse.REMAINDER", "REMAINDER"):
            nargs = "..."
        elif python.dotted(kw["nargs"]) in ("argparse.ONE_OR_MORE",):
            nargs = "+"
        elif python.dotted(kw["nargs"]) in ("argparse.ZERO_OR_MORE",):
            nargs = "*"
        elif python.dotted(kw["nargs"]) in ("argparse.OPTIONAL",):
            nargs = "?"
        if not isinstance(nargs, (str, int)) or isinstance(nargs, bool):
            return None
    required = False
    if "required" in kw:
        required = _literal(kw["required"])
        if not isinstance(required, bool):
            return None
    choices = None
    if "choices" in kw and isinstance(kw["choices"], (ast.List, ast.Tuple, ast.Set)):
        values = [_literal(e) for e in kw["choices"].elts]
        if all(v is not None for v in values):
            choices = values
    type_ = {"int": int, "float": float}.get(python.dotted(kw["type"]) or "") if "type" in kw else None
    metavar = _literal(kw.get("metavar"))
    hidden = python.dotted(kw["help"]) in ("argparse.SUPPRESS", "SUPPRESS") if "help" in kw else False
    dest = _literal(kw.get("dest"))
    if names[0].startswith("-"):
        long = max(names, key=len).lstrip("-")
        dest = dest if isinstance(dest, str) else long.replace("-", "_")
        shown = metavar if isinstance(metavar, str) else dest.upper()
        takes = action not in FLAG_ACTIONS and nargs != 0
        return Argument(names, shown, takes, required, nargs, dest, action, choices, type_, hidden)
    shown = metavar if isinstance(metavar, str) else names[0].upper()
    optional = nargs in ("?", "*")
    return Argument([], shown, True, not optional, nargs, names[0], action, choices, type_, hidden)


def is_help_branch(stmt: ast.If) -> bool:
    """Whether *stmt* is the -h/--help branch of :data:`HELP_BRANCH` (for any name of sys)."""
    test = stmt.test
    if not (isinstance(test, ast.BoolOp) and len(test.values) == 2):
        return False
    names = {python.dotted(n) for n in python.walk(test) if isinstance(n, ast.Attribute)}
    strings = {n.value for n in python.walk(test) if isinstance(n, ast.Constant)}
    return any(name and name.endswith(".argv") for name in names) and {"-h", "--help"} <= strings \
        and any(isinstance(n, ast.Name) and n.id == "__doc__" for n in python.walk(stmt))


def defs_containing(sf: ScriptFacts, wanted) -> set[str]:
    """Names of the top-level functions and classes holding a node for which *wanted* is true."""
    return {owner for node, owner in sf.walked if owner is not None and wanted(node)}


def top_level_alias(module_node: ast.Module, module: str) -> str | None:
    """The name a module-level ``import module`` binds (imports inside functions do not count at top level)."""
    for stmt in module_node.body:
        for node in [stmt] + (list(python.walk(stmt)) if isinstance(stmt, (ast.If, ast.Try)) else []):
            if isinstance(node, ast.Import):
                for a in node.names:
                    if a.name == module:
                        return a.asname or a.name
    return None


#: comment lines that are not prose about the script: licences, tool directives, PEP 723 metadata
_NOT_PROSE = re.compile(r"copyright|licen[cs]e|spdx|author|-\*-|vim?:|noqa|type:|pylint|fmt:|mypy|ruff|///|^\s*$|"
                        r"coding[:=]|^[-=#*~_ ]+$", re.IGNORECASE)


def top_comment(lines: list[str]) -> tuple[int, int, list[str]] | str | None:
    """The prose comment block at the top of a module: *lines* are those before its first statement.

    Returns (first, end) indexes in *lines* (after the shebang and coding cookie) and the
    block's text without ``#``; ``"header"`` when the block holds contract fields (it is the
    script's header); None when there is none, when it is not prose (a licence, PEP 723
    metadata), when more comments follow it, or when its first line is not one sentence.
    """
    i = 0
    while i < len(lines) and lines[i].startswith("#") and (lines[i].startswith("#!") or re.search(r"coding[:=]", lines[i])):
        i += 1
    while i < len(lines) and not lines[i].lstrip().startswith("#"):
        i += 1
    start = i
    block = []
    while i < len(lines) and lines[i].lstrip().startswith("#"):
        text = lines[i].lstrip()[1:]
        block.append(text[1:] if text.startswith(" ") else text)
        i += 1
    if not block:
        return None
    if contract.parse_block(block, 1, "comment").fields:
        return "header"
    if any(lines[j].lstrip().startswith("#") for j in range(i, len(lines))):
        return None
    if any(_NOT_PROSE.search(line) for line in block if line.strip()) or not block[0].strip():
        return None
    if len(block) > 1 and not block[0].rstrip().endswith(contract.FULL_STOPS):
        return None  # a sentence wrapped over lines: not one line of description
    if len(block) > 8:
        return None
    return start, i, block
