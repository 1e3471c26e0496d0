"""The audit's reviewer (seed 002: a separate, focused compliance agent that approves or flags).

``skillsmith audit --reviewer CMD`` hands each review to an external command, for example an
agent CLI in print mode (``claude -p``). The command is split like a shell would split it
(:func:`shlex.split`, no shell runs) and started from the user's side, not in a sandbox: it
gets the user's environment, a fresh temporary working folder (never the audited tree), the
review on stdin and nothing else, and at most :attr:`Reviewer.timeout` seconds.

What it reads on stdin (:func:`review_text`):

1. the prompt, from a file the user owns (:func:`prompt_path`: ``--reviewer-prompt FILE``,
   else ``$XDG_CONFIG_HOME/skillsmith/auditor_prompt.md``, by default
   ``~/.config/skillsmith/auditor_prompt.md``, written with skillsmith's default prompt on
   first use). A prompt file inside the audited folder is refused: whoever writes the skills
   must not write their reviewer's instructions;
2. the review: full or diff, each change as a unified diff (a full review: each file);
3. the current skills, for context (each skill's ``SKILL.md`` and text files);
4. the answer format below.

The answer (stdout), :func:`parse_answer`:

- text: the first non-empty line is ``APPROVE`` or ``FLAG`` (any case, optionally followed by
  ``:`` and a remark); after ``FLAG`` each non-empty line is one concern, ``PATH:LINE: text``
  or ``PATH: text`` (PATH relative to the audited folder) or just the text (``- `` bullets
  are fine);
- or one JSON object: ``{"verdict": "approve" | "flag", "concerns": [...]}``, each concern a
  string or ``{"path": ..., "line": ..., "message": ...}``.

Anything else (no verdict, a non-zero exit, no answer in time, a command that cannot start)
is not an approval: it is a concern that says why, so the baseline stays.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import signal
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

#: the prompt's file name in the user's skillsmith config folder
PROMPT_NAME = "auditor_prompt.md"
#: the most of the answer that is read
ANSWER_LIMIT = 1024 * 1024
#: the most of the current skills that goes into a review as context
CONTEXT_LIMIT = 512 * 1024
#: the default time a reviewer has to answer
DEFAULT_TIMEOUT = 300.0
#: how long a killed reviewer may take to let go of its output pipes
DRAIN_SECONDS = 2.0

ANSWER_FORMAT = """\
# How to answer

Answer on stdout. The first line is APPROVE when the changes are routine, or FLAG when
anything needs a person. After FLAG, one concern per line, as `PATH:LINE: what and why`
(PATH relative to the skills folder; `PATH: ...` or the text alone when no line fits).
Instead of text you may answer with one JSON object:
{"verdict": "approve" or "flag", "concerns": [{"path": "...", "line": 1, "message": "..."}]}
"""


@dataclass(frozen=True)
class Reviewer:
    """The external reviewer: its command line, its time limit and the prompt file it is given."""

    command: str
    timeout: float = DEFAULT_TIMEOUT
    prompt: Path | None = None  # None: prompt_path()'s default


@dataclass
class Verdict:
    """What the reviewer said: ``approve``, ``flag`` or ``none`` (no usable answer, *problem* says why)."""

    verdict: str
    concerns: list[tuple[str | None, int | None, str]] = field(default_factory=list)  # (path, line, text)
    problem: str | None = None


def default_prompt() -> str:
    return (Path(__file__).resolve().parent.parent / "data" / PROMPT_NAME).read_text(encoding="utf-8")


def prompt_path(given: Path | None) -> Path:
    """The prompt file: *given*, else ``$XDG_CONFIG_HOME/skillsmith/auditor_prompt.md`` (``~/.config`` by default)."""
    if given is not None:
        return given
    base = os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
    return Path(base) / "skillsmith" / PROMPT_NAME


def read_prompt(reviewer: Reviewer, root: Path, notes: list[str]) -> str:
    """The prompt text, from the user's file (written with the default on first use, with a note).

    Raises :class:`~skillsmith.errors.UsageError` when the file lies inside the audited *root*
    or cannot be read.
    """
    from skillsmith.errors import UsageError

    path = prompt_path(reviewer.prompt).absolute()
    real, top = os.path.realpath(path), os.path.realpath(root)
    if real == top or real.startswith(top.rstrip(os.sep) + os.sep):
        raise UsageError(f"the reviewer's prompt {path} is inside the audited folder; keep it where only you write "
                         "(the default is ~/.config/skillsmith/auditor_prompt.md)")
    if reviewer.prompt is None and not os.path.lexists(path):
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(path, "x", encoding="utf-8") as fh:
            fh.write(default_prompt())
        notes.append(f"wrote the reviewer's default prompt to {path}; edit it to focus the review")
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"cannot read the reviewer's prompt {path}: {getattr(exc, 'strerror', None) or exc}") from None


def _text(data: bytes | None) -> str | None:
    if data is None or b"\0" in data[:8192]:
        return None
    return data.decode("utf-8", "replace")


def change_text(change) -> str:
    """One change as the reviewer sees it: a unified diff (new files and deletions in full)."""
    import difflib

    old, new = _text(change.old), _text(change.new)
    if change.status == "added" and change.new is None:  # a full review reads the file here
        try:
            new = _text(change.path.read_bytes()[:CONTEXT_LIMIT])
        except OSError as exc:
            return f"## {change.status}: {change.rel}\n(cannot be read: {exc.strerror})\n"
    if (change.old is not None and old is None) or (new is None and change.status != "deleted"):
        return f"## {change.status}: {change.rel}\n(binary)\n"
    diff = difflib.unified_diff((old or "").splitlines(keepends=True), (new or "").splitlines(keepends=True),
                                f"a/{change.rel}", f"b/{change.rel}")
    body = "".join(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n" for line in diff)
    return f"## {change.status}: {change.rel}\n```diff\n{body}```\n"


def context_text(review) -> str:
    """The current skills: each text file of the folder, up to :data:`CONTEXT_LIMIT` bytes in all."""
    parts, used = [], 0
    for e in review.entries:
        if e.kind != "file":
            continue
        try:
            data = e.path.read_bytes() if e.path.stat().st_size <= CONTEXT_LIMIT else None
        except OSError:
            data = None
        text = _text(data)
        if text is None:
            continue
        if used + len(text) > CONTEXT_LIMIT:
            parts.append(f"(the rest of the skills are left out: over {CONTEXT_LIMIT // 1024} KiB of context)\n")
            break
        used += len(text)
        parts.append(f"## {e.rel}\n````\n{text}{'' if text.endswith(chr(10)) else chr(10)}````\n")
    return "".join(parts)


def review_text(prompt: str, review) -> str:
    """Everything the reviewer reads on stdin: prompt, review, current skills, answer format."""
    if review.mode == "full":
        scope = f"Full review: every file of the skills folder ({len(review.changes)} files)."
    else:
        scope = f"Diff review: the changes since the audited baseline {review.base_name} ({review.base[:12]})."
    changes = "".join(change_text(c) for c in review.changes)
    return (f"{prompt.rstrip()}\n\n# The review\n\n{scope}\n\n{changes}\n"
            f"# The current skills (context)\n\n{context_text(review)}\n{ANSWER_FORMAT}")


_VERDICT = re.compile(r"\s*\**\s*(APPROVE|APPROVED|FLAG|FLAGGED)\b\**\s*[:.\-]?\s*(.*)", re.IGNORECASE)
_WHERE = re.compile(r"(?P<path>[^\s:][^:\n]*?):(?:(?P<line>\d+):)?\s+(?P<text>\S.*)")


def concern_of(line: str) -> tuple[str | None, int | None, str]:
    """A concern line: ``PATH:LINE: text``, ``PATH: text`` (PATH without spaces) or the text alone."""
    line = re.sub(r"^\s*(?:[-*]|\d+[.)])\s+", "", line).strip()
    m = _WHERE.fullmatch(line)
    if m and " " not in m.group("path"):
        return m.group("path"), int(m.group("line")) if m.group("line") else None, m.group("text")
    return None, None, line


def parse_answer(answer: str) -> Verdict:
    """The reviewer's verdict from its stdout (see the module text); ``none`` with a reason when there is none."""
    stripped = answer.strip()
    if stripped.startswith("{"):
        try:
            doc = json.loads(stripped)
        except ValueError as exc:
            return Verdict("none", problem=f"the answer looks like JSON but is not valid JSON ({exc})")
        verdict = str(doc.get("verdict", "")).lower() if isinstance(doc, dict) else ""
        if verdict not in ("approve", "flag"):
            return Verdict("none", problem='the JSON answer has no "verdict" of "approve" or "flag"')
        concerns = []
        for item in doc.get("concerns") or []:
            if isinstance(item, dict):
                line = item.get("line")
                concerns.append((str(item["path"]) if item.get("path") else None,
                                 line if isinstance(line, int) and not isinstance(line, bool) and line > 0 else None,
                                 str(item.get("message") or item.get("text") or "(no text)")))
            else:
                concerns.append((None, None, str(item)))
        return Verdict(verdict, concerns)
    lines = [line for line in stripped.splitlines() if line.strip()]
    m = _VERDICT.fullmatch(lines[0]) if lines else None
    if m is None:
        first = lines[0].strip()[:80] if lines else ""
        return Verdict("none", problem=(f"the answer does not start with APPROVE or FLAG (first line: {first!r})"
                                        if lines else "the answer is empty"))
    verdict = "approve" if m.group(1).upper().startswith("APPROVE") else "flag"
    concerns = [concern_of(line) for line in lines[1:]] if verdict == "flag" else []
    if verdict == "flag" and m.group(2).strip():
        concerns.insert(0, concern_of(m.group(2)))
    return Verdict(verdict, concerns)


def run_reviewer(reviewer: Reviewer, text: str) -> Verdict:
    """Run the reviewer with *text* on stdin, in a temporary working folder, for at most its timeout."""
    try:
        argv = shlex.split(reviewer.command)
    except ValueError as exc:
        return Verdict("none", problem=f"the reviewer command cannot be split into words: {exc}")
    if not argv:
        return Verdict("none", problem="the reviewer command is empty")
    with tempfile.TemporaryDirectory(prefix="skillsmith-reviewer-") as cwd:
        try:
            proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                    cwd=cwd, start_new_session=True)
        except OSError as exc:
            return Verdict("none", problem=f"the reviewer {argv[0]!r} could not start: {exc.strerror or exc}")
        try:
            out, err = proc.communicate(text.encode("utf-8"), timeout=reviewer.timeout)
        except subprocess.TimeoutExpired:
            _kill(proc)
            try:
                proc.communicate(timeout=DRAIN_SECONDS)
            except subprocess.TimeoutExpired:  # something outside its session holds the pipes open
                for pipe in (proc.stdout, proc.stderr):
                    pipe.close()
                proc.wait()
            return Verdict("none", problem=f"the reviewer gave no answer within {reviewer.timeout:g} s")
        finally:
            _kill(proc)  # whatever it left running in its session
    if proc.returncode != 0:
        why = err.decode("utf-8", "replace").strip().splitlines()
        return Verdict("none", problem=f"the reviewer exited {proc.returncode}" + (f": {why[-1][:200]}" if why else ""))
    return parse_answer(out[:ANSWER_LIMIT].decode("utf-8", "replace"))


def _kill(proc) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
