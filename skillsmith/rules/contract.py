"""The script contract for every file under scripts/ (Skill Resource Protocol §2-§5, §10)."""

from __future__ import annotations

import ast
import re
from pathlib import PurePosixPath
from typing import Iterator

from skillsmith import exitcodes
from skillsmith.lang.header import FULL_STOPS, HEAD_LINES, describing_comment
from skillsmith.lang.interpreter import (
    python_shebang,
    SHEBANGS,
    interpreter_language,
    is_other_language,
    shebang_interpreter,
)
from skillsmith.model.citations import calls_by_name
from skillsmith.rules.finding import DECLARED, Hit
from skillsmith.rules.registry import rule

_JSON_FLAG = re.compile(r"(?<![\w-])--json\b")


def shell_plan(script):
    """The header plan of a shell script (``skillsmith.lang.shell_plans``), or None for other scripts."""
    if script.language != "shell" or script.sh_evidence is None:
        return None
    from skillsmith.lang.shell_plans import header_plan_of

    return header_plan_of(script.sh_evidence, script.sourced_by)


def with_why(message: str, answer, lead: str = "") -> str:
    """*message*, and what a person must do when the fix cannot (or may not) do it all."""
    return f"{message}; {lead}{answer.why}" if answer is not None and answer.why else message


#: what a person writes in each header field the fix could not fill
FIELD_HINTS = {"Usage": "how to call it", "Input": "what it reads", "Output": "what it prints on stdout",
               "Stderr": "what goes to stderr", "Exit": "each exit code and what it means", "Examples": "a worked invocation"}


def python_fix(script, can: bool):
    """The fix a Python finding gets: its rule's declared one when the evidence lets the fix make it, else none."""
    return DECLARED if can else None


def header_usable(script) -> bool:
    """Whether a header can be judged: a Python file must parse to have a docstring."""
    return not (script.language == "python" and script.py[0] is None) and script.file.text is not None


@rule("CON001", "shebang-missing", summary="An entry script has no shebang line.", seed="000 §2.1", scope="script", fix="safe", severity="warning")
def shebang_missing(script):
    """
    ## What it does
    Flags entry scripts (not sourced libraries) whose first line is not a `#!` shebang.
    A module is no entry script when the skill's Markdown imports it and its `__main__` is
    marked as a demo (`from cv_matcher import load_user_cvs` in `references/analysis-workflow.md`,
    `# Example usage` above the guard), or when its `__main__` is a self-test that reads no
    arguments (`# Test validation`) and the skill never shows it run.

    ## Why is this bad?
    Without a shebang the script cannot be run as `./script`; the agent has to guess the
    interpreter, and hosts that pick the runtime from the first line refuse it.

    ## Example
    ```bash
    set -uo pipefail
    echo hi
    ```

    Use instead:
    ```bash
    #!/usr/bin/env bash
    set -uo pipefail
    echo hi
    ```

    ## Fix safety
    Safe: adds `#!/usr/bin/env bash` or `#!/usr/bin/env python3` as the first line
    (`#!/usr/bin/env -S uv run --script` for a PEP 723 script whose `# /// script` block
    declares dependencies).
    Not where it would not run: after a byte-order mark, or in a CRLF file, where the kernel
    would look for `bash\r`; not for a shell file other scripts source.

    ## Severity
    Warning: skills run their scripts as `python scripts/x.py` or `bash scripts/x.sh`, and hosts
    pick the runtime by the extension (StablEdge Desktop resources); only a direct `./scripts/x`
    call fails.
    """
    f = script.file
    if f.text is not None and f.shebang is None:
        wanted = python_shebang(f.lines, script.invocations) if script.language == "python" else SHEBANGS[script.language]
        message = f"no shebang; start the script with {wanted}"
        if script.language == "shell" and (f.newline == "\r\n" or script.sourced_by):
            from skillsmith.lang.shell_plans import CRLF, sourced

            why = CRLF if f.newline == "\r\n" else sourced(script.sourced_by) + ", which need no shebang"
            yield Hit(script.path, f"{message}; {why}", fix=None)
            return
        if f.bom or f.newline == "\r\n":
            yield Hit(script.path, f"{message}, after removing the byte-order mark and CRLF line ends "
                                   "(a shebang does not run after a BOM or with a CR)", fix=None)
            return
        yield Hit(script.path, message)


@rule("CON002", "shebang-mismatch", summary="The shebang names another language than the file extension.", seed="000 §2.2", scope="script")
def shebang_mismatch(script):
    """
    ## What it does
    Flags a `.py` file whose shebang runs a shell, or a `.sh`/`.bash` file whose shebang runs
    Python (or any interpreter of another language). A launcher counts as the interpreter it
    starts: `#!/usr/bin/env -S uv run --script` (a PEP 723 script) runs Python.

    ## Why is this bad?
    The agent reads the extension to know the runtime; hosts pick it by extension. A mismatch
    runs the file with the wrong interpreter.

    ## Example
    `scripts/fetch.sh` starting with `#!/usr/bin/env python3`.

    Use instead: rename the file to match its language, or fix the shebang.
    """
    interp = shebang_interpreter(script.file.shebang)
    if interp is None or script.file.suffix not in (".py", ".sh", ".bash"):
        return
    lang = interpreter_language(interp)
    if lang is None and not is_other_language(interp):
        return  # an interpreter or launcher we do not know: no claim either way
    if lang != script.language:
        yield Hit(script.path, f"shebang runs {interp!r} but {script.file.suffix} is a {script.language} file")


@rule("CON003", "not-executable", summary="An entry script lacks the executable bit.", seed="000 §2.2", scope="script", fix="safe", severity="warning")
def not_executable(script):
    """
    ## What it does
    Flags entry scripts with a shebang that are not executable (`chmod +x`) when the skill
    shows them run through their path (`scripts/x.sh args`, `./check.py`, or only the path
    cited), the one way the bit is used; not when every invocation names the interpreter
    (`python3 scripts/x.py`), nor when the skill only names the script by its file name, imports
    it, or never names it (a worker another script starts with its interpreter). A script with no shebang is CON001's finding (its
    fix sets the bit too). Where SKILL.md and its Markdown show no call, the skill's `.prompt`
    and `.txt` files count (`prompts/tasks/reflow.prompt` handing a subagent
    `python3 {skill_dir}/scripts/reflow_sentences.py <file>`). A bare path with no arguments
    beside worked calls that name the interpreter points to them ("Run `scripts/diagnose.py`
    first" above `python3 scripts/diagnose.py doc.md`, or above `uv run scripts/cache_check.py
    statute ...` in a protocol it links); a path stored in a variable that is run
    as `bash $MK al 2026-07`, and a path given to `python3 -m py_compile`, name the interpreter too.
    A path given as a place in the source ("`scripts/mops_client.py` L54 (comment)",
    `scripts/x.py:42`) runs nothing.

    ## Why is this bad?
    The agent runs `scripts/x.sh args` and gets "permission denied", then burns a turn
    working out how to run it.

    ## Example
    `-rw-r--r-- scripts/run.sh`

    Use instead: `chmod +x scripts/run.sh` (and commit the mode).

    ## Fix safety
    Safe: adds the executable bits where the file already has read bits, only when the file
    starts with a shebang the kernel can run (or the fix adds one): not after a byte-order mark,
    not with a CRLF line end (`env: 'python3\\r'`).

    ## Severity
    Warning: the bit matters only where the script is run as `./scripts/x`; cited as `python
    scripts/x.py` or `bash scripts/x.sh`, it runs without it.
    """
    if not script.file.executable:
        f = script.file
        if f.shebang is None or not run_by_path(script):
            return  # no shebang: CON001 (whose fix sets the bit too); run as `python3 scripts/x.py`: the bit is moot
        if not f.shebang_works:
            yield Hit(script.path, f"not executable, and its shebang would not run (a byte-order mark or CRLF line end "
                                   f"before it): fix the first line, then chmod +x {script.rel}", fix=None)
        else:
            yield Hit(script.path, f"not executable; run chmod +x {script.rel}")


#: an invocation that names its interpreter: ``python3 scripts/x.py``, ``bash scripts/x.sh``, ``uv run ...``
_INTERPRETED = re.compile(r"^(?:\S+=\S*\s+)*(?:bash|sh|zsh|dash|ksh|python[23]?(?:\.\d+)?|pypy3?|uv\s+run|uvx|"
                          r"pipx\s+run|poetry\s+run)\s")


#: "Run with `python scripts/<name>.py --help`": one call, with its interpreter, for every script of a kind
_EVERY_SCRIPT = re.compile(r"\b(?:bash|sh|python[23]?|uv\s+run)\s+(?:\S*/)?scripts/(?:<[^>\s]+>|\{[^}\s]+\}|\*|NAME|name)(\.\w+)")


#: the text right before a path its interpreter runs (``xargs -0 python3 "${CLAUDE_SKILL_DIR}/``), or that a
#: test only looks at (``[ -f "${CLAUDE_SKILL_DIR}/``)
_AFTER_INTERPRETER = re.compile(r"(?:(?<![\w-])(?:bash|sh|zsh|dash|python[23]?(?:\.\d+)?(?:\s+-m\s+[\w.]+)?|pypy3?|uv\s+run)"
                                r"|(?<![\w-])-[efrsx])\s+[\"']?(?:\$\{?[A-Za-z_]\w*\}?/)?$")

#: a place in the source right after a cited path: "`scripts/mops_client.py` L54 (comment)", ``scripts/x.py:42``
_SOURCE_LOCATION = re.compile(r"`?(?::\d+\b|#L\d+\b|,?\s+L\d+\b|,?\s+lines?\s+\d+\b)")

#: ``MK=/config/.claude/skills/NAME/scripts/mk.sh``: the path stored in a shell variable, right before the citation
_STORED_IN = re.compile(r"(?:^|[\s;(])(?:export\s+)?([A-Za-z_]\w{0,40})=[\"']?$")


def _stored_for_interpreter(f, c) -> bool:
    """Whether the citation *c* in file *f* only stores the path in a shell variable (``MK=.../scripts/mk.sh``)
    that every command of the file starting with it runs through an interpreter (``bash $MK al 2026-07``)."""
    m = _STORED_IN.search(c.text[:max(0, c.column - 1)])
    if m is None:
        return False
    use = re.compile(rf"[\"']?\$(?:\{{{m.group(1)}\}}|{m.group(1)}\b)")
    runs = []
    for text in f.lines:
        for u in use.finditer(text) if "$" in text else ():
            before = text[:u.start()]
            command = re.split(r"&&|\|\||;|\||`|\$\(", before)[-1].strip()
            if not re.sub(r"^\$\s*", "", command):
                runs.append(False)  # `$MK al`: run through its path
            elif _AFTER_INTERPRETER.search(before):
                runs.append(True)
    return bool(runs) and all(runs)


def _runs_every_script(script) -> bool:
    """Whether SKILL.md runs every script of this one's kind with its interpreter (``python scripts/<name>.py``)."""
    suffix = PurePosixPath(script.rel).suffix
    return any(m.group(1) == suffix for m in _EVERY_SCRIPT.finditer(script.skill.doc.file.text or ""))


def run_by_path(script) -> bool:
    """Whether some invocation the skill shows runs the script through its path with no interpreter
    (``scripts/x.sh args``, ``./check.py``), the one way the mode bit is used.

    Without a call through its path, the calls by its bare file name count (``python check.py in.tex``,
    written to be run from the scripts folder); ``./check.py`` among them uses the bit, a bare
    ``check.py --confirm`` in a table of options does not (it names the script, it runs nothing
    as written). A script cited by its path (`` `scripts/x.sh` ``), or outside a skill, is run as
    it is named; one the skill names only by its file name, imports, links to, or never names
    (a worker a sibling starts with ``sys.executable``) gives no evidence that the bit is used.
    """
    calls = list(script.invocations)
    if any(_INTERPRETED.match(c) and len(c.split()) > 2 for c in calls):
        # "Run `scripts/diagnose.py` first" beside `python3 scripts/diagnose.py doc.md`: a pointer to the worked call
        calls = [c for c in calls if c.strip() not in (script.rel, "./" + script.rel)]
    if not calls and script.skill is not None and script.skill.doc is not None:
        calls = calls_by_name(script.skill.doc.file.lines, PurePosixPath(script.rel).name) \
            or script.skill.calls_through(script.rel)  # a runner run by its interpreter runs it with its own
        if not calls and _runs_every_script(script):
            return False
        if not calls:  # a prompt the skill hands a subagent: ``python3 {skill_dir}/scripts/x.py <file>``
            calls = script.skill.prompt_invocations_of(script.rel)
    if not calls:  # cited by its path (`scripts/x.sh`), or outside a skill: run as it is named
        found = _citations_of(script)
        if found is None:
            return True
        found = [(f, c) for f, c in found if not _SOURCE_LOCATION.match(c.text, c.end)]
        worked = [(f, c) for f, c in found if _ARG.match(c.text, c.end)]
        if any(_AFTER_INTERPRETER.search(c.text[:max(0, c.column - 1)]) for f, c in worked):
            found = worked  # "runs `scripts/cache_check.py`" beside `uv run scripts/cache_check.py statute ...` in a linked protocol
        return any(c.kind != "link" and not _AFTER_INTERPRETER.search(c.text[:max(0, c.column - 1)])
                   and not _stored_for_interpreter(f, c) for f, c in found)
    return any(not _INTERPRETED.match(call) and "/" in call.split(maxsplit=1)[0]
               for call in (c.split("| ")[-1] for c in calls) if call.strip())


def shebang_can_go_in(script) -> bool:
    """Whether CON001's fix can give the file a first line that runs: no byte-order mark, no CRLF
    line ends, no coding cookie on line 2 that a new first line would push out, not a sourced file."""
    f = script.file
    if f.bom or f.newline == "\r\n" or script.sourced_by:
        return False
    lines = f.lines
    return not (script.language == "python" and len(lines) > 1 and lines[0].startswith("#")
                and re.search(r"coding[:=]", lines[1]))


@rule("CON004", "header-missing", summary="No header comment block (shell) or module docstring (Python).", seed="000 §3", scope="script", fix="safe", severity="warning")
def header_missing(script):
    """
    ## What it does
    Flags scripts without the first-comment-block contract: the comment block right after
    the shebang in shell, the module docstring in Python.

    ## Why is this bad?
    The agent reads `head -25` before running a script. Without the block it must read the
    whole source or guess usage, exit codes and output format.

    ## Example
    ```bash
    #!/usr/bin/env bash
    set -uo pipefail
    ```

    Use instead:
    ```bash
    #!/usr/bin/env bash
    # Summarise a log file.
    #
    # Usage:   summarise.sh [--json] FILE
    # Input:   FILE, a log file
    # Output:  one line per error kind; --json: the envelope
    # Stderr:  progress and errors
    # Exit:    0 ok, 2 usage, 3 not found
    #
    # Examples:
    #   summarise.sh app.log
    set -uo pipefail
    ```

    ## Fix safety
    Safe: only adds comments or a docstring. Every value comes from evidence: the script's own
    usage text and exit meanings, its options and argument reads, its `SKILL.md` invocations;
    a field without evidence is left out and named in the finding. A shell script needs a
    description to get a new block (from its usage text); a comment block that blank lines
    part from the shebang is moved up to it instead of getting a second header. A block that
    comes right after an opening `set -eu` is the script's first comment block, which `head -25`
    shows: it is not flagged.

    ## Severity
    Warning: the script runs, but an agent reading `head -25` learns nothing from it and re-
    derives the usage.
    """
    if header_usable(script) and script.header is None:
        if script.language == "python":
            from skillsmith.lang.header import shell_header

            comment = shell_header(script.file.lines)
            if comment is not None and comment.fields:
                yield Hit(script.path, "the header is a comment block; in Python it is the module docstring: "
                                       "turn the comment into one", comment.start_line, fix=None)
                return
            ev = script.py_evidence
            if ev is not None and not ev.can_create_docstring():
                said = describing_comment(script.file.lines)
                why = (f"the comment at line {said} says what the script does: make it the docstring" if said else
                       "nothing says what the script does: write its one-line description")
                yield Hit(script.path, f"no module docstring (description, Usage, Input, Output, Stderr, Exit, Examples); {why}",
                          fix=None)
                return
        what = "module docstring" if script.language == "python" else "header comment block after the shebang"
        message = f"no {what} (description, Usage, Input, Output, Stderr, Exit, Examples)"
        plan = shell_plan(script)
        if plan is None:
            yield Hit(script.path, message)
            return
        from skillsmith.lang.shell_plans import block_after_options, misplaced_block

        moved = misplaced_block(script.sh_layout)
        if moved is not None:
            message = (f"the comment block at line {moved[1]} is not right after the shebang (blank lines part them), "
                       "so it is not the script's header")
        if moved is None and block_after_options(script.sh_layout) is not None:
            return  # the first comment block, after `set -eu`: `head -25` shows it (a fix would add a second header)
        answer = plan.answers.get("CON004")
        yield Hit(script.path, with_why(message, answer), fix=answer.fix if answer else None)


@rule("CON005", "header-description", summary="The header does not open with a one-line description ending in a period.", seed="000 §3", scope="script", fix="safe", severity="info")
def header_description(script):
    """
    ## What it does
    Checks that the header block's first line is a one-line description that ends with a period.

    ## Why is this bad?
    Tools and agents show the first line as the script's summary; a missing or dangling one
    says nothing about what the script is for.

    ## Example
    ```python
    \"\"\"
    Usage: fetch.py URL
    \"\"\"
    ```

    Use instead:
    ```python
    \"\"\"Fetch a page and print its title.

    Usage: fetch.py URL
    \"\"\"
    ```

    ## Fix safety
    Safe: adds a description line (from argparse's description when there is one) or the period.

    ## Severity
    Info: the description's shape (one line, one sentence, a final period) is the protocol's
    style; the fields an agent calls the script by are CON006's.
    """
    h = script.header if header_usable(script) else None
    if h is None:
        return
    plan = shell_plan(script)
    answer = plan.answers.get("CON005") if plan is not None else None
    if plan is not None and (not h.description or not h.description.endswith(FULL_STOPS)):
        what = "has no one-line description before its fields" if not h.description else \
            "description should be one sentence ending in a period"
        line = h.start_line if not h.description else h.description_line
        yield Hit(script.path, with_why(f"the header {what}", answer), line, fix=answer.fix if answer else None)
        return
    ev = script.py_evidence
    if not h.description:
        can = ev is not None and ev.one_line_description() is not None
        why = "" if can else "; nothing says what the script does: write its one-line description"
        yield Hit(script.path, "the header has no one-line description before its fields" + why, h.start_line,
                  fix=python_fix(script, can))
    elif not h.description.endswith(FULL_STOPS):
        index = h.description_line - h.start_line
        after = h.lines[index + 1].strip() if index + 1 < len(h.lines) else ""
        wraps = after and not _UNDERLINE.fullmatch(after) and not h.fields.get(after.split(":", 1)[0].strip().capitalize())
        # (a title's underline, `=====`, ends the line: the description is a title, not a sentence)
        if wraps:
            yield Hit(script.path, "the header's description runs onto the next line; make the first line one sentence ending in a period",
                      h.description_line, fix=None)
        else:
            can = bool(re.search(r"[\w)\]`'\"]$", h.description.rstrip()))
            yield Hit(script.path, "the header's description should be one sentence ending in a period", h.description_line,
                      fix=python_fix(script, can))


#: a line that underlines the one above it as a title (setext Markdown, reStructuredText)
_UNDERLINE = re.compile(r"([=\-~^#*])\1{2,}")


@rule("CON006", "header-field-missing", summary="The header lacks Usage, Input, Output, Stderr, Exit or Examples.", seed="000 §3", scope="script", fix="safe", severity="warning")
def header_field_missing(script):
    """
    ## What it does
    Checks that the header block has each field of the contract: `Usage:`, `Input:`,
    `Output:`, `Stderr:`, `Exit:` and `Examples:`. Whole commands listed under `Usage:`
    (`python3 scripts/x.py in.csv`, no `[options]` or `<placeholders>`) are its examples.

    ## Why is this bad?
    Each field answers a question the agent would otherwise answer by trial: what to pass,
    what comes back on which stream, and which exit codes mean what.

    ## Example
    A header with `Usage:` and `Examples:` only.

    Use instead: add the missing fields, e.g. `# Exit:    0 ok, 2 usage, 3 not found`.

    ## Fix safety
    Safe: adds the missing fields the evidence supports (the script's usage text, options,
    argument and stdin reads, messages and exit meanings; its `SKILL.md` invocations for
    `Examples:`), at a section boundary of the author's block and within the first 25 lines.
    The finding names the fields a person must write.

    ## Severity
    Warning: a missing field leaves the agent guessing one part of the contract; the script
    still runs.
    """
    h = script.header if header_usable(script) else None
    if h is None:
        return
    missing = h.missing
    if missing:
        message = f"the header has no {', '.join(m + ':' for m in missing)} field{'s' if len(missing) > 1 else ''}"
        plan = shell_plan(script)
        if plan is None:
            ev = script.py_evidence
            written = ev.fields_written() if ev is not None else []
            left = [m for m in missing if m not in written]
            why = f"; by hand: {'; '.join(f'{m}: {FIELD_HINTS[m]}' for m in left)} (nothing in the script says)" if left else ""
            yield Hit(script.path, message + why, h.start_line, fix=python_fix(script, bool(written)))
            return
        answer = plan.answers.get("CON006")
        yield Hit(script.path, with_why(message, answer, "by hand: "), h.start_line, fix=answer.fix if answer else None)


@rule("CON007", "header-examples-empty", summary="The header's Examples section is empty.", seed="000 §3", scope="script", fix="safe", severity="warning")
def header_examples_empty(script):
    """
    ## What it does
    Flags an `Examples:` field with no example under it.

    ## Why is this bad?
    The Examples section is mandatory: it is what makes the tool discoverable when the agent
    runs `--help` or reads the header.

    ## Example
    ```bash
    # Examples:
    set -uo pipefail
    ```

    Use instead:
    ```bash
    # Examples:
    #   report.sh --json today | jq '.data[]'
    ```

    ## Fix safety
    Safe: adds the worked invocations `SKILL.md` shows for the script (or its usage text's
    examples) that run as written: none with `<placeholders>`, `$VARIABLES` or `FILE`-style
    words, and `--help` only for a script that has it.

    ## Severity
    Warning: the agent has no example to copy and composes the call itself; nothing breaks.
    """
    h = script.header if header_usable(script) else None
    if h is None or "Examples" not in h.fields:
        return
    if not h.examples:
        plan = shell_plan(script)
        answer = plan.answers.get("CON007") if plan is not None else None
        if plan is None:
            ev = script.py_evidence
            can = ev is not None and "Examples" in ev.fields_written()
            why = "" if can else "; by hand: a worked invocation (none in SKILL.md or the script that runs as written)"
            yield Hit(script.path, "the Examples: field has no example" + why, h.fields["Examples"].line,
                      fix=python_fix(script, can))
            return
        yield Hit(script.path, with_why("the Examples: field has no example", answer), h.fields["Examples"].line,
                  fix=answer.fix if answer else None)


@rule("CON008", "header-beyond-head", summary="Contract fields appear after the first 25 lines.", seed="000 §3", scope="script", severity="warning")
def header_beyond_head(script):
    """
    ## What it does
    Flags header fields that start after line 25 of the file.

    ## Why is this bad?
    Agents read the contract with `head -25`; anything later is not seen.

    ## Example
    A 30-line description before `Usage:`.

    Use instead: keep the description to one line and the fields right after it; move long
    prose into `references/`.

    ## Severity
    Warning: `head -25` misses the fields, so the agent reads further or guesses; the script
    still runs.
    """
    h = script.header if header_usable(script) else None
    if h is None:
        return
    late = [name for name, f in h.fields.items() if f.line > HEAD_LINES]
    if late:
        first = min(h.fields[n].line for n in late)
        yield Hit(script.path, f"{', '.join(n + ':' for n in late)} start after line {HEAD_LINES}; agents read the header with head -{HEAD_LINES}", first)


@rule("CON009", "help-missing", summary="The script has no -h/--help.", seed="000 §2.3", scope="script", fix="safe", severity="warning")
def help_missing(script):
    """
    ## What it does
    Flags entry scripts with no `-h`/`--help` path: no argparse parser (with its automatic
    help) and no explicit `-h|--help` branch.

    ## Why is this bad?
    `--help` is how the agent learns usage without reading the source. A script that treats
    `--help` as an input may even do work.

    ## Example
    ```bash
    input="$1"
    ```

    Use instead:
    ```bash
    case "${1:-}" in
      -h|--help) print_help; exit 0 ;;
    esac
    ```

    Not flagged: a worker the skill never names, which a script it names runs (`search.sh` runs
    `format.py`): the agent meets the script it is shown, never the worker.

    A Python wrapper that calls the `main()` of a module beside it (`from check_ac_format import
    main`), where that function (or one of the module's functions it calls) builds the
    ArgumentParser, answers `--help` through it; so does a parser of the script's own
    ArgumentParser subclass (`class ContractParser(argparse.ArgumentParser)`), or of a module
    beside it (`github_api_core.TerminalArgumentParser(...)`).

    ## Fix safety
    Safe: for shell, adds a branch that prints the header block and exits 0, before other
    argument handling. Only `--help` itself behaves differently. Unsafe where `--help` did
    something before: a script that passes all its arguments to another program (whose help
    the branch would hide) or that has its own usage text or `getopts` loop.

    ## Severity
    Warning: the agent cannot ask the script for its usage and relies on the header and
    SKILL.md; the script still runs.
    """
    if not named_by_skill(script) and run_by_cited_sibling(script):
        return  # a worker only a script the agent is shown starts (`search.sh` runs `format.py`): no one asks it for help
    if script.language == "python":
        facts = script.py_facts
        if facts is None:
            return
        if _parsers_with_help(facts) or "--help" in facts.strings or "-h" in facts.strings or _help_of_sibling_main(script) \
                or _subclassed_parser(script.py[0], facts) or _siblings_parser_class(script, facts):
            return
        ev = script.py_evidence
        if ev is not None and ev.other_parser and (ev.answers_help or "help" in facts.strings
                                                   or any("h" in s and s.replace(":", "").isalpha() for s in facts.strings
                                                          if len(s) < 20 and ":" in s)):
            return  # click, docopt, optparse ... answer --help themselves (getopt when it lists h or help)
        can = ev is not None and ev.help_fixable()
        why = ""
        if not can and ev is not None and ev.needs_help_branch:
            why = "; first give the script a docstring that says what it does (its -h/--help prints it)"
        yield Hit(script.path, "no --help: use argparse, or handle -h/--help explicitly" + why, fix=python_fix(script, can))
    else:
        tree = script.sh_tree
        if tree is None:
            return
        from skillsmith.lang import shell

        if not shell.has_help_branch(tree.root_node, script.file.data, script.sh_nodes):
            from skillsmith.lang.shell_plans import plan_help

            plan = shell_plan(script)
            answer = plan_help(script.sh_layout, script.header is not None or bool(plan and plan.creates), script.sh_nodes,
                               script.sourced_by)
            yield Hit(script.path, with_why("no -h/--help branch that prints usage and exits 0", answer), fix=answer.fix)


def _subclassed_parser(module, facts) -> bool:
    """Whether the script makes a parser of its own ArgumentParser subclass (``class ContractParser(
    argparse.ArgumentParser)``, then ``ContractParser(description=__doc__)``): argparse's -h/--help is
    inherited, unless the call says ``add_help=False``."""
    classes = _parser_classes(module, facts.aliases)
    return bool(classes) and any(
        name in classes and not any(k.arg == "add_help" and getattr(k.value, "value", True) is False for k in call.keywords)
        for name, call in facts.calls)


def _parser_classes(module, aliases) -> set[str]:
    """The names of the ArgumentParser subclasses *module* defines at top level."""
    from skillsmith.lang.python import qualified

    return {node.name for node in module.body if isinstance(node, ast.ClassDef)
            and any(qualified(base, aliases) == "argparse.ArgumentParser" for base in node.bases)}


def _siblings_parser_class(script, facts) -> bool:
    """Whether the script makes its parser of an ArgumentParser subclass a module beside it defines
    (``import github_api as core`` ... ``core.TerminalArgumentParser(...)``): it inherits -h/--help."""
    made = {name.rpartition(".")[::2] for name, call in facts.calls if "." in name
            and not any(k.arg == "add_help" and getattr(k.value, "value", True) is False for k in call.keywords)}
    for other in _python_siblings(script) if made else ():
        names = {cls for module, cls in made if module == PurePosixPath(other.rel).stem}
        if names and names & _parser_classes(other.py[0], other.py_facts.aliases):
            return True
    return False


def _python_siblings(script) -> list:
    """The other Python scripts of the script's unit in its folder (the modules it may import), each with its facts."""
    unit = script.unit or script.skill
    if unit is None:
        return []
    folder = PurePosixPath(script.rel).parent
    return [other for other in unit.scripts if other is not script and other.language == "python"
            and PurePosixPath(other.rel).parent == folder and other.py_facts is not None]


def _parsers_with_help(facts) -> list:
    """The ArgumentParser calls of a script that keep argparse's automatic -h/--help."""
    return [p for p in facts.parsers
            if not any(k.arg == "add_help" and getattr(k.value, "value", True) is False for k in p.keywords)]


#: calls that make another file the running program (a subprocess is a runner's child: its --help is not the runner's)
_RUNS_FILE = frozenset({"runpy.run_path", "runpy.run_module", "os.execv", "os.execvp", "os.execl", "os.execlp"})


def delegates(script) -> list[tuple[object, set[str] | None]]:
    """The Python scripts beside a Python wrapper that do its work with its arguments, each with
    the names of its functions the wrapper calls (``from check_ac_format import main`` ...
    ``main()``), or None when the wrapper runs the file whole with its own arguments
    (``runpy.run_path(... "check_raci.py")`` after ``sys.argv = [...] + sys.argv[1:]``)."""
    facts = script.py_facts
    if facts is None:
        return []
    called = {name.rpartition(".")[::2] for name, _ in facts.calls if "." in name}
    runs_file = facts.reads_argv and any(name in _RUNS_FILE for name, _ in facts.calls)
    found = []
    for other in _python_siblings(script):
        path = PurePosixPath(other.rel)
        if runs_file and any(PurePosixPath(s).name == path.name or s == path.stem for s in facts.strings if len(s) < 300):
            found.append((other, None))
        elif names := {fn for module, fn in called if module == path.stem}:
            found.append((other, names))
    return found


def _help_of_sibling_main(script) -> bool:
    """Whether a script beside the wrapper that does its work (:func:`delegates`) builds an
    ArgumentParser with help, in the functions the wrapper calls (``main`` -> ``parse_args``) or
    anywhere when it runs the file whole: the wrapper answers --help through it."""
    import ast

    from skillsmith.lang import python

    for other, names in delegates(script):
        facts = other.py_facts
        parsers = {id(p) for p in _parsers_with_help(facts)}
        if names is None:
            if parsers:
                return True
            continue
        functions = {fn.name: fn for fn in other.py[0].body if isinstance(fn, ast.FunctionDef)}
        seen: set[str] = set()
        while names:  # the called function, and the module's functions it calls
            fn = functions.get(names.pop())
            if fn is None or fn.name in seen:
                continue
            seen.add(fn.name)
            nodes = python.walk(fn)
            if any(id(n) in parsers for n in nodes):
                return True
            names |= {n.func.id for n in nodes if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)} - seen
    return False


@rule("CON010", "exit-code-undocumented", summary="An exit code the script uses is not on its Exit: line.", seed="000 §5", scope="script", fix="safe", severity="warning")
def exit_code_undocumented(script):
    """
    ## What it does
    Compares the exit codes the code uses (`exit N`, `sys.exit(N)`, `raise SystemExit(N)`,
    named constants, argparse's 2) with the codes the header's `Exit:` line documents. A
    header with one `Exit` line per command (`Exit codes (health): 0 = healthy, 1 = issues`,
    then `Exit codes (claude): ... 2 = missing prereqs`) documents the codes of them all.

    ## Why is this bad?
    Agents and CI branch on exit codes. An undocumented code is a signal nobody can act on,
    or one that gets misread as a failure.

    ## Example
    ```bash
    # Exit:    0 ok, 2 usage
    ...
    exit 10
    ```

    Use instead: `# Exit:    0 ok, 2 usage, 10 drift found`

    ## Fix safety
    Safe: appends the missing codes to the `Exit:` line in its own style, each with the
    meaning the evidence gives (the author's words, an `EXIT_*` name, an unknown-option
    branch for 2); a code whose meaning nothing shows is left to a person.

    ## Severity
    Warning: the agent cannot tell what the undocumented code means, though it still sees a
    failure.
    """
    h = script.header if header_usable(script) else None
    if h is None or h.exit_codes is None:
        return
    documented = h.exit_codes
    reported = set()
    plan = shell_plan(script)
    for code, line, col in script.exit_codes:
        if code not in documented and code not in reported:
            reported.add(code)
            message = f"exit code {code} is used but the Exit: line does not document it"
            if plan is None:
                ev = script.py_evidence
                can = ev is not None and ev.exit_meaning(code) is not None
                why = "" if can else f"; say what exit {code} means (nothing in the script does)"
                yield Hit(script.path, message + why, line, col, fix=python_fix(script, can))
                continue
            answer = plan.exit_answers.get(code)
            yield Hit(script.path, with_why(message, answer), line, col, fix=answer.fix if answer else None)


@rule("CON011", "json-flag-missing", summary="The header promises --json but the script does not accept it.", seed="000 §4", scope="script")
def json_flag_missing(script):
    """
    ## What it does
    Flags scripts whose header mentions `--json` while the code never handles a `--json` option.

    ## Why is this bad?
    The agent trusts the header, runs `--json`, and gets a usage error or plain text it then
    fails to parse.

    ## Example
    `# Usage: stats.sh [--json] FILE` with no `--json` case in the script.

    Use instead: implement `--json` with the envelope, or drop it from the header.

    A Python wrapper that hands its arguments to a script beside it (`runpy.run_path(...
    "check_raci.py")`, `from check_raci import main`) keeps the promise when that script
    handles `--json`.

    So does a shell script that hands all its arguments on (`exec python3 "$DIR/scan.py"
    "$@"`, `node "$DIR/src/cli.js" analyze "$@"`) when the file it runs names `--json`, or
    when it runs a program that is no file of the skill, which this check cannot read.

    Another program's flag is no promise of this script: in a code span that runs it
    (`` `gh pr list --json` ``), or named in prose as what the script reads ("Extract a compact
    summary from Jest --json output" in `parse-jest-results.sh INPUT`).
    """
    h = script.header if header_usable(script) else None
    if h is None or not any(_promises_json(line, script.rel) for line in h.lines):
        return
    if script.language == "python":
        if script.py_facts is not None and not _handles_json(script) and not any(
                _handles_json(other) for other, _ in delegates(script)):
            yield Hit(script.path, "the header promises --json but the script never handles a --json option", h.start_line)
    else:
        data = script.file.text or ""
        code = "\n".join(data.splitlines()[h.end_line:])
        if not _JSON_FLAG.search(code) and not _hands_json_on(script):
            yield Hit(script.path, "the header promises --json but the script never handles a --json option", h.start_line)


#: commands that print or adjust their arguments rather than take them as options
_NOT_HANDED_ON = frozenset({"echo", "printf", "set", "shift", "local", "export", "declare", "log", "die", "warn"})
#: ``"$DIR/src/cli.js"`` -> ``src/cli.js``: the path after the variable that locates it
_AFTER_VARIABLE = re.compile(r"^.*\$\{?\w+\}?/")


def _hands_json_on(script) -> bool:
    """Whether a shell script hands all its arguments to a program that may take ``--json``: a file
    of its skill that names it (``exec python3 "$DIR/scan.py" "$@"``, ``node "$DIR/src/cli.js"
    analyze "$@"``), or a program this check cannot read (no file of the skill is named)."""
    ev = script.sh_evidence
    unit = script.unit or script.skill
    if ev is None or unit is None:
        return False
    for cmd in ev.forwarded:
        if cmd.name in _NOT_HANDED_ON:
            continue
        tails = {_AFTER_VARIABLE.sub("", w).lstrip("./") for w in [cmd.name, *cmd.arg_texts(script.file.data)]}
        named = [f for rel, f in unit.files.items() if rel != script.rel
                 and any(t and "." in PurePosixPath(t).name and (rel == t or rel.endswith("/" + t)) for t in tails)]
        if not named or any(_JSON_FLAG.search(f.text or "") for f in named):
            return True
    return False


def _handles_json(script) -> bool:
    """Whether a Python script's code (not its docstring, which is the header) names ``--json``."""
    from skillsmith.lang import python

    doc = python.module_docstring(script.py[0])[0]
    return any(_JSON_FLAG.search(s) for s in script.py_facts.strings if s != doc)


#: prose naming another program's JSON output as what the script reads: "from Jest --json output",
#: "Parses eslint --json results" (the program's name, up to two more words, then the flag)
_OTHERS_JSON_BEFORE = re.compile(r"\b(?:from|of|in|parses?|parsing|reads?|reading|consumes?|takes?|summari[sz]es?|"
                                 r"converts?)\s+(?:the\s+|an?\s+)?([A-Za-z][\w.+-]*(?:\s+[a-z][\w.+-]*){0,2})\s+$",
                                 re.IGNORECASE)
_OTHERS_JSON_AFTER = re.compile(r"\s+(?:output|results?|reports?|data|files?)\b", re.IGNORECASE)
_NOT_A_PROGRAM = frozenset({"its", "this", "our", "my", "your", "their", "the", "a", "an", "with", "and", "or",
                            "from", "of", "in", "to", "for", "on", "as", "by", "via"})


def _others_json(line: str, m, name: str) -> bool:
    """Whether the ``--json`` at *m* is another program's flag, named as the output the script
    reads: "Extract a compact summary from Jest --json output" (parse-jest-results.sh)."""
    if not _OTHERS_JSON_AFTER.match(line, m.end()):
        return False
    found = _OTHERS_JSON_BEFORE.search(line[max(0, m.start() - 120):m.start()])
    if found is None:
        return False
    words = found.group(1).split()
    return not any(w.lower() in _NOT_A_PROGRAM for w in words) and name not in words and PurePosixPath(name).stem not in words


def _promises_json(line: str, rel: str) -> bool:
    """Whether a header line offers ``--json`` of this script: not inside a code span that runs
    another program (``idb ui describe-all --json``), nor another program's flag named in prose
    as what the script reads ("from Jest --json output")."""
    name = PurePosixPath(rel).name
    for m in _JSON_FLAG.finditer(line):
        before = line[:m.start()]
        if before.count("`") % 2 == 0:
            if _others_json(line, m, name):
                continue
            return True  # prose or a field: about this script
        span = before[before.rfind("`") + 1:]
        if name in span or PurePosixPath(name).stem in span.split():
            return True
    return False


def _citations_of(script):
    """(file, citation) pairs naming the script, from SKILL.md and the docs it links to."""
    skill = script.skill
    if skill is None or skill.doc is None:
        return None
    rel = script.rel
    return [(f, c) for f, c in skill.linked_citations if c.target == rel]


#: arguments right after a citation (matched where the citation ends in its line)
#: an argument after a cited path: a word, a quoted string, a dot path (``.artifacts/x``, ``./in``), or the
#: current folder ``.`` when another argument follows (``readme.py . --template x``; a full stop ends a sentence)
_ARG = re.compile(r"\s+(?:\\\s*)?([^\s`'\")\]|;,.][^\s`]*|\.[\w/][^\s`]*|\.(?=[ \t]+[-\w\"'<$])|[\"'][^\"']+[\"'])")


@rule("CON012", "script-not-cited", summary="SKILL.md never mentions the script.", seed="000 §2.8", scope="script", severity="warning")
def script_not_cited(script):
    """
    ## What it does
    Flags scripts under `scripts/` that neither `SKILL.md` nor a Markdown file it links to
    names (progressive disclosure: `SKILL.md` -> `forms.md` -> the script counts). A script
    run through a runner of the skill (`python3 scripts/run.py pagespeed_check <url>`) is named.

    ## Why is this bad?
    The agent only knows about a script if SKILL.md tells it; an uncited script is never run,
    and the agent re-derives its logic by hand.

    ## Example
    `scripts/validate.py` exists; SKILL.md does not mention it.

    Use instead: cite it with a complete worked invocation:
    ```markdown
    Validate the config: `python3 scripts/validate.py --json config.yaml`
    ```

    A helper that a script the skill names runs itself (`"$DIR/gh-readonly.sh"` in the cited
    `activate.sh`), or that a module of the skill runs by its file name (`run_client("boj_client.py")`
    in a module the cited `pack.py` imports), is reached through that script and needs no
    citation of its own; so is one that JavaScript or TypeScript of the skill starts, which SKILL.md
    or a script it names runs (`path.join(__dirname, 'delivery-safe-fs.py')` in the
    `delivery-transaction.js` that the cited `teaching-design-package.sh` runs with `node`), and one
    that a dispatcher the skill names runs as its command (`scripts/ios` runs `"${HERE}/${cmd}.sh"`,
    and SKILL.md lists `swipe X1 Y1 X2 Y2` for `swipe.sh`). Nor does a script SKILL.md's frontmatter `hooks` run (`command: "bash
    .claude/skills/NAME/scripts/stop-hook.sh"`): the host runs it, not the agent.

    ## Severity
    Warning: an uncited script is dead weight the agent never finds (Skill Resource Protocol
    §1); nothing breaks.
    """
    if not named_by_skill(script) and not run_by_cited_sibling(script):
        yield Hit(script.path, f"{script.rel} is not cited from SKILL.md; show a worked invocation")


def run_by_cited_sibling(script) -> bool:
    """Whether another script of the skill, one the skill names or a library module of it, names
    this one in its code (``"${DIR}/gh-readonly.sh"``, ``[sys.executable, ai_script]`` with
    ``ai_script = ... "generate_schematic_ai.py"``, ``run_client("finmind_client.py")`` in a module
    the cited ``pack.py`` imports): a helper the agent reaches through the script it is shown."""
    skill = script.skill
    if skill is None:
        return False
    name = PurePosixPath(script.rel).name
    word = re.compile(rf"(?<![\w.-]){re.escape(name)}(?![\w-])")
    shown = skill.doc.file.text or "" if skill.doc is not None else ""
    return any(other is not script and other.file.text is not None and word.search(other.file.text)
               and (PurePosixPath(other.rel).name in shown or named_by_skill(other) or other.role == "library")
               for other in skill.scripts) \
        or any(word.search(f.text) for f in _reached_code(skill, shown)) \
        or any(other is not script and _dispatches_to(other, script, shown) for other in skill.scripts)


#: a path made of a command's name and a suffix: ``exec "${HERE}/${cmd}.sh" "$@"``
_DISPATCH = re.compile(r"/\$\{?[A-Za-z_]\w{0,30}\}?(\.(?:sh|bash|py))\b")


def _dispatches_to(other, script, shown: str) -> bool:
    """Whether *other*, a dispatcher the skill names in its folder, runs *script* as one of its commands:
    it runs ``"$HERE/${cmd}.sh"``, and it or SKILL.md names the command (``swipe X1 Y1 X2 Y2`` for swipe.sh)."""
    path, here = PurePosixPath(script.rel), PurePosixPath(other.rel)
    text = other.file.text
    if text is None or path.parent != here.parent or "$" not in text \
            or not any(m.group(1) == path.suffix for m in _DISPATCH.finditer(text)):
        return False
    stem = re.compile(rf"(?<![\w.-]){re.escape(path.stem)}(?![\w.-])")
    return bool(stem.search(text) or stem.search(shown)) and (here.name in shown or named_by_skill(other))


#: code in other languages under scripts/ that may start the skill's scripts (``path.join(__dirname, 'x.py')``)
OTHER_CODE = (".js", ".mjs", ".cjs", ".ts", ".mts")


def _reached_code(skill, shown: str) -> list:
    """The skill's JavaScript and TypeScript files under scripts/ that SKILL.md names, or that a script
    the skill names names in its code (``node "${SCRIPT_DIR}/delivery-transaction.js" publish``)."""
    found = []
    for f in skill.files.values():
        if not f.rel.startswith("scripts/") or f.suffix not in OTHER_CODE or f.too_large or f.text is None:
            continue
        name = PurePosixPath(f.rel).name
        word = re.compile(rf"(?<![\w.-]){re.escape(name)}(?![\w-])")
        if name in shown or skill.cited(f.rel) or any(
                other.file.text is not None and word.search(other.file.text) and named_by_skill(other)
                for other in skill.scripts):
            found.append(f)
    return found


def named_by_skill(script) -> bool:
    """Whether the skill names the script anywhere (a citation, its folder, its file name, a call
    through the skill's runner); a script outside a skill (or one without SKILL.md) counts as named."""
    found = _citations_of(script)
    return found is None or bool(found) or _folder_cited(script) or _named_in_skill_md(script) \
        or bool(script.skill.calls_through(script.rel)) or _run_by_hook(script)


def _hook_commands(value) -> Iterator[str]:
    """Every ``command`` string in a frontmatter ``hooks`` value, however deep."""
    if isinstance(value, dict):
        for key, inner in value.items():
            if key == "command" and isinstance(inner, str):
                yield inner
            else:
                yield from _hook_commands(inner)
    elif isinstance(value, list):
        for inner in value:
            yield from _hook_commands(inner)


def _run_by_hook(script) -> bool:
    """Whether SKILL.md's frontmatter ``hooks`` run the script (``command: "bash
    .claude/skills/NAME/scripts/stop-hook.sh"``): the host runs it, not the agent."""
    doc = script.skill.doc if script.skill is not None else None
    data = doc.frontmatter.data if doc is not None else None
    if not isinstance(data, dict) or "hooks" not in data:
        return False
    at = re.compile(rf"(?:^|[\s/\"'=]){re.escape(script.rel)}(?:$|[\s\"';&|])")
    return any(at.search(command) for command in _hook_commands(data["hooks"]))


def _named_in_skill_md(script) -> bool:
    """Whether SKILL.md names the script by its file name alone (``snapshot-android.sh``), not as a
    path into another folder, or imports it as a module (``from scripts.schematic import Generator``):
    mentioned."""
    doc = script.skill.doc if script.skill is not None else None
    path = PurePosixPath(script.rel)
    text = (doc.file.text or "") if doc is not None else ""
    if path.suffix == ".py" and re.search(rf"\b(?:from|import)\s+{re.escape('.'.join(path.with_suffix('').parts))}\b", text):
        return True
    if doc is None or "." not in path.name or path.name not in text:  # an extensionless name is a word
        return False
    return re.search(rf"(?<![\w./-]){re.escape(path.name)}(?![\w/-])", text) is not None


def _folder_cited(script) -> bool:
    """A library cited through its folder (``scripts/lib/``) counts as cited."""
    parents = [str(p) for p in PurePosixPath(script.rel).parents if str(p) not in (".", "scripts")]
    return any(
        c.target.rstrip("/") in parents for c in script.skill.doc.citations
    ) if script.skill and script.skill.doc else False


@rule("CON013", "script-cited-bare", summary="SKILL.md cites the script without a worked invocation.", seed="000 §2.8", scope="script", severity="warning")
def script_cited_bare(script):
    """
    ## What it does
    Flags scripts that `SKILL.md` mentions only as a bare path, never followed by at least
    one argument, nor shown run by its file name (`python3 sketch_ops.py dups <file>` after
    "All via `scripts/sketch_ops.py`") or through a shell variable that holds its path
    (`SCRIPT="$SKILL_DIR/scripts/x.py"`, then `python3 "$SCRIPT" --all`). A path through a
    variable named after the skill (`python3 "$SKILL_EVALUATOR_DIR/scripts/compare_cycles.py"
    comparison-plan.json` in skill-evaluator) or through a placeholder for its folder (`python
    /abs/path/to/scripts/ppt_keycolor_changer.py discover --input x.pptx`) is a worked call; a bare
    call is whole when one of the header's Usage lines shows it so (`bash
    scripts/akeneo-magento2/fetch_docs.sh   # pin to $CONNECTOR_TAG`) or the script reads no
    arguments (a REPL run bare, `python3 scripts/interp.py`, reads only what is typed at its
    prompt; a tool with subcommands always needs one shown), and a call fed its input
    through a pipe is worked (`git diff --name-only HEAD | scripts/detect-tiers.sh`). A script
    the skill cites only to forbid running it ("Do not call `scripts/upstream_cli.py` directly") or as
    a document ("in the shape documented in `scripts/inspect_tools.py`"),
    or that SKILL.md or a document it links forbids running by name ("Do not execute `build_story.py`;
    its output is only a code example to read"), needs no invocation.

    ## Why is this bad?
    A bare path leaves the agent to work out the arguments, usually by running `--help` or
    reading the source, which costs a turn and tokens every time.

    ## Example
    ```markdown
    Use `scripts/convert.py`.
    ```

    Use instead:
    ```markdown
    Convert a file: `python3 scripts/convert.py --to markdown report.docx`
    ```

    ## Severity
    Warning: the agent finds the script but works out its arguments; a wrong guess meets a usage
    error.
    """
    found = _citations_of(script)
    if not found or all(_NOT_TO_RUN.search(_words_before(f, c)) for f, c in found) or _forbidden_to_run(script):
        return  # "Do not call `scripts/upstream_cli.py` directly", "the shape documented in `scripts/x.py`": not to run
    if any(_ARG.match(c.text, c.end) for _f, c in found) or any(
            _ARG.match(command.partition(script.rel)[2].lstrip("\"'")) or "| " in command.partition(script.rel)[0]
            for command in script.invocations):
        return  # an argument after the path, or on the next line of the command ("$HOME/.../x.sh" \ --slug t), or its input piped in
    if takes_nothing(script):
        return  # a script that reads no arguments is fully shown by its bare path
    if run_under_link_name(script):
        return  # linked onto PATH (`ln -s .../scripts/notify.sh ~/.local/bin/notify`) and shown run as `notify --title x`
    if run_by_file_name(script):
        return  # "All via `scripts/sketch_ops.py`", then `python3 sketch_ops.py dups <file>`
    if script.run_through_variable:
        return  # SCRIPT="$SKILL_DIR/scripts/x.py", then `python3 "$SCRIPT" --all`
    f, first = found[0]
    yield Hit(f.path, f"{script.rel} is cited without an invocation; show it with its arguments", first.line, first.column)


#: a prohibition to run something: "Do not call", "never run", "Do not execute"
_PROHIBITION = r"\b(?:do not|don't|never|must not)\s+(?:\w+\s+){0,2}?(?:call|run|invoke|execute|use)\b"
#: the words before a citation on its line that make it no call: a prohibition ("Do not call", "Never run ...
#: directly"), or the script as a document to read ("in the shape documented in `scripts/inspect_tools.py`")
_NOT_TO_RUN = re.compile(_PROHIBITION + r"[^.;:!?]*$|\b(?:documented|described|defined|specified)\s+(?:in|by)\s+`?$", re.IGNORECASE)


def _words_before(f, c) -> str:
    """The text before citation *c* on its line, after the line above when the citation opens its line
    (a sentence wrapped just before the path: "in the shape documented in" / "`scripts/x.py`, and pass")."""
    before = c.text[:c.end - len(c.raw)]
    if not before.strip(" \t`'\"") and c.line >= 2:
        before = f.lines[c.line - 2].rstrip() + " " + before.lstrip()
    return before


def _forbidden_to_run(script) -> bool:
    """Whether SKILL.md or a document it links forbids running the script by name ("Do **not** execute
    `build_story.py` to produce the deliverable; its templated output is only a code example to read")."""
    name = PurePosixPath(script.rel).name
    told = re.compile(_PROHIBITION + r"\s+[`'\"]?(?:[\w.$/{}-]*/)?" + re.escape(name) + r"(?![\w.-])", re.IGNORECASE)
    docs = (script.skill.doc.file, *script.skill.linked_docs) if script.skill is not None and script.skill.doc is not None else ()
    return any(f.text and name in f.text and told.search(f.text.replace("*", "")) for f in docs)


def run_by_file_name(script) -> bool:
    """Whether SKILL.md shows the script run by its file name with an argument, through an
    interpreter or ``./`` (``python3 sketch_ops.py dups <file>``, ``bash check.sh --all``)."""
    text = script.skill.doc.file.text if script.skill is not None and script.skill.doc is not None else None
    name = PurePosixPath(script.rel).name
    if not text or name not in text:
        return False
    return re.search(rf"(?:\b(?:python3?|uv run|bash|sh|zsh|node|bun|deno|ruby|perl)\s+|(?<![\w/])\./)"
                     rf"{re.escape(name)}[ \t]+[^\s|;&#`>]", text) is not None


def run_under_link_name(script) -> bool:
    """Whether SKILL.md links the script onto the PATH under a name (``ln -sf ".../scripts/notify.sh"
    ~/.local/bin/notify``) and shows that name run with arguments (``notify --title x``)."""
    text = script.skill.doc.file.text if script.skill is not None and script.skill.doc is not None else None
    if not text or "ln " not in text:
        return False
    link = re.compile(r"\bln\s+-\w*s\w*\s+[\"']?[^\s\"']*" + re.escape(script.rel) + r"[\"']?\s+[\"']?[^\s\"']*/([\w.-]{1,80})[\"']?")
    for m in link.finditer(text):
        if re.search(r"(?m)(?:^|[\s`$(])" + re.escape(m.group(1)) + r"\s+[^\s|&;`)]", text):
            return True
    return False


def takes_nothing(script) -> bool:
    """Whether the evidence says a call without arguments is a whole call: the script reads none (nor
    stdin, though a line typed at its prompt is no argument: a REPL run bare, ``input()``), or its
    parser needs none (argparse: every option optional, no required positional, no subcommands; shell:
    no required positional read, and no required word in the header's Usage)."""
    if script.language == "python":
        ev = script.py_evidence
        if ev is None or ev.reads_piped_stdin or ev.delegates:
            return False
        return not ev.reads_arguments or ev.parser is not None and not ev.parser.commands \
            and ev.parser.accepts(ev.prog, []) is True
    ev = script.sh_evidence if script.language == "shell" else None
    if ev is None or ev.unparsed or ev.needs_arguments:
        return False
    usage = script.header.fields.get("Usage") if script.header is not None else None
    name = PurePosixPath(script.rel).name
    calls = [ln for ln in (usage.value_line, *usage.items) if name in ln and "|" not in ln.partition(name)[0]] \
        if usage is not None else []  # not `git diff | detect-tiers.sh`: that call reads stdin
    if calls:  # `bash scripts/x/fetch_docs.sh   # pin to $CONNECTOR_TAG`: one usage line shows the bare call
        return any(not _REQUIRED_WORD.search(re.sub(r"\[[^\]]*\]", "", re.sub(r"\s#\s.*$", "", ln).partition(name)[2]))
                   for ln in calls)
    words = (usage.value if usage is not None else "").split(None, 1)
    shown = re.sub(r"\[[^\]]*\]", "", words[1] if len(words) > 1 else "")  # what is left outside [optional] parts
    return not _REQUIRED_WORD.search(shown)  # no required FILE or <file>


#: a required word in a usage line: ``FILE``, ``<file>``
_REQUIRED_WORD = re.compile(r"<[^>]+>|(?<![\w-])[A-Z][A-Z0-9_]{1,}(?![\w-])")


@rule("CON014", "exit-code-literal", summary="A literal non-zero exit code instead of a named constant.", seed="000 §5", scope="script", fix="safe", severity="info", opt_in=True)
def exit_code_literal(script):
    """
    ## What it does
    Flags `exit N`, `sys.exit(N)`, `exit(N)` and `raise SystemExit(N)` with a literal
    non-zero number instead of a named constant such as `EXIT_USAGE`.

    ## Why is this bad?
    Named constants keep the codes consistent with the header's `Exit:` line and make each
    exit's meaning readable where it happens.

    ## Example
    ```python
    sys.exit(2)
    ```

    Use instead:
    ```python
    EXIT_USAGE = 2
    ...
    sys.exit(EXIT_USAGE)
    ```

    ## Fix safety
    Safe: adds the constants (`EXIT_USAGE = 2`, `readonly EXIT_USAGE=2`) and replaces the literals.
    In shell, only where the evidence says what the code means and the name says the same
    (an author's `2 = not a git repo` is not `EXIT_USAGE`); unsafe in a script that sources
    files or runs `eval`, which may assign the same name (`readonly` would then fail).

    ## Severity
    Info, opt-in: the protocol asks for distinct, documented exit codes (§5, which CON010
    checks), not for names; `exit 3` on a documented Exit: line is as clear to an agent as `exit
    "$EXIT_NOT_FOUND"`. Select it (`--select CON014`) to name every code.
    """
    if script.language == "python":
        if script.py_facts is None:
            return
        from skillsmith.lang import python

        documented = script.header.exit_meanings if script.header is not None else {}
        for call, name in python.literal_exit_names(script.py[0], script.py_facts, documented, script.file.lines):
            code = call.args[0].value
            if name is not None:
                message = f"exit code {code} is a literal; name it ({name} = {code})"
            elif documented.get(code):
                message = (f"exit code {code} is a literal; the Exit: line says it means "
                           f"{documented[code]!r}, not the protocol's {exitcodes.meaning(code)!r}: name it yourself")
            else:
                message = (f"exit code {code} is a literal and nothing says what it means: "
                           f"document it on the Exit: line, then name it")
            yield Hit(script.path, message, call.lineno, call.col_offset + 1, fix=python_fix(script, name is not None))
    else:
        tree = script.sh_tree
        if tree is None:
            return
        from skillsmith.lang import shell

        from skillsmith.lang.shell_plans import plan_constants

        data = script.file.data
        plans = {x.node.start_byte: x for x in plan_constants(script.sh_layout, script.sh_evidence, script.sourced_by)}
        for cmd in shell.commands(tree.root_node, data, script.sh_nodes):
            if cmd.name == "exit" and cmd.args:
                raw = shell.unquote(shell.text(cmd.args[0], data))
                if raw.isdigit() and raw != "0":
                    row, col = cmd.node.start_point
                    x = plans.get(cmd.args[0].start_byte)
                    if x is not None and x.name.text:
                        message = f"exit code {raw} is a literal; name it (readonly {x.name.text}={raw})"
                    else:
                        message = f"exit code {raw} is a literal; name it with a readonly EXIT_* constant"
                    answer = x.answer if x is not None else None
                    yield Hit(script.path, with_why(message, answer), row + 1, col + 1,
                              fix=answer.fix if answer else None)


#: placeholder files that keep an empty folder in git; they are not tests
_PLACEHOLDERS = (".gitkeep", ".keep", ".gitignore")


def has_tests(skill) -> bool:
    """Whether the skill ships tests of its own: a file in a ``tests/`` or ``test/`` folder, or a
    test file (``test_*.py``, ``*_test.sh``, ``*.bats``) anywhere in it."""
    for rel in skill.files:
        parts = PurePosixPath(rel).parts
        if parts[-1] in _PLACEHOLDERS:
            continue
        if any(p in ("tests", "test", "__tests__") for p in parts[:-1]):
            return True
        name = parts[-1]
        if (name.startswith("test_") and name.endswith((".py", ".sh"))) or name.endswith(("_test.py", "_test.sh", ".bats")):
            return True
    return False


@rule("CON015", "test-suite-missing", summary="A skill with scripts ships no tests/ peer suite.", seed="000 §10", scope="skill", severity="info", opt_in=True)
def tests_missing(skill):
    """
    ## What it does
    Flags a skill that has entry scripts under `scripts/` but no tests of its own: no file in
    a `tests/` (or `test/`) folder and no `test_*.py`, `*_test.sh` or `*.bats` file anywhere.
    A recommendation (info): the protocol lists a peer suite among the marks of a
    world-class skill, not among the hard rules.

    ## Why is this bad?
    Scripts drift: an edit that breaks `--help`, the exit codes or the `--json` envelope goes
    unnoticed until an agent trips over it mid-task. A small offline suite
    (`tests/run.sh`: help, a usage error, a missing input, one good run) catches that, and
    `skillsmith new` writes one.

    ## Example
    ```
    my-skill/
    ├── SKILL.md
    └── scripts/count.py
    ```

    Use instead:
    ```
    my-skill/
    ├── SKILL.md
    ├── scripts/count.py
    └── tests/run.sh
    ```

    ## Severity
    Info, opt-in: the protocol lists a `tests/` suite as recommended, not required (§10), and
    most sound skills ship none. Select it (`--select CON015`) to ask for one.
    """
    entries = [s for s in skill.scripts if not s.is_library]
    if entries and not has_tests(skill):
        # at a script: a config that excludes the scripts (which keeps them only for the security rules) drops it too
        yield Hit(entries[0].path, f"the skill has {len(entries)} script(s) and no tests/ suite; add tests/run.sh "
                  "that runs them offline")
