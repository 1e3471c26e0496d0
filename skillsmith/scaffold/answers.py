"""What the templates ask, validated with the validators ``check`` uses before Copier sees it."""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field
from pathlib import Path

from skillsmith import targets
from skillsmith.errors import (
    UsageError,
)

ANSWERS_FILE = ".skillsmith-answers.yml"
#: the template that asks everything :class:`Answers` holds (another target's template asks
#: only for name and description), and that ``add script`` renders one script from
SKILL_TEMPLATE = "skill"
DEFAULT_SCRIPTS = ("main.py",)
VERIFIER = "verify_facts.py"
#: the line in tests/run.sh above which ``add script`` inserts its cases
CASES_MARKER = "# skillsmith add script: new cases go above this line"
#: what a generated script does (seed 000 §8); the templates' ``_partials/<kind>.py.jinja``
#: holds each one's logic and ``_partials/<kind>.cases.sh.jinja`` its test cases
KINDS = {
    "counter": "counts the lines and words of a text file (Python or shell; the default)",
    "scanner": "checks an input file before the work starts and reports each finding (exit 10 on findings)",
    "preflight": "checks that the tools a long step needs are installed (exit 5 with an install hint)",
    "verifier": "checks assets/facts.json offline (--offline) and against its sources (--live; 7 unreachable, 10 drift)",
    "calculator": "computes a ranking the agent should not redo by hand (counts, largest first, with shares)",
}
DEFAULT_KIND = "counter"

_SCRIPT = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]*\.(py|sh)$")


@dataclass
class Answers:
    """Everything the skill template asks.

    A *description* of None leaves the template's own default, which says what the rendered
    example does (``description:`` in its ``copier.yml``).
    """

    name: str
    description: str | None
    target: str = targets.DEFAULT
    license: str = ""
    author: str = ""
    scripts: list[str] = field(default_factory=lambda: list(DEFAULT_SCRIPTS))
    examples: bool = True
    json: bool = True
    verifier: bool = False
    kind: str = DEFAULT_KIND

    def data(self) -> dict:
        """The answers Copier gets: every one that is given."""
        return {key: value for key, value in asdict(self).items() if value is not None}


@dataclass
class Created:
    """What a command wrote: the skill folder and its files, relative to it."""

    root: Path
    files: list[str]
    version: str | None = None

    def to_json(self) -> dict:
        return {"path": str(self.root), "files": self.files, "template_version": self.version}


def script_problem(file_name: str) -> str | None:
    """Why *file_name* cannot be a script name, or None."""
    if "/" in file_name or "\\" in file_name:
        return f"script {file_name!r} must be a file name, not a path (it goes in scripts/)"
    if not file_name.endswith((".py", ".sh")):
        return f"script {file_name!r} must end in .py or .sh"
    if not _SCRIPT.match(file_name):
        return f"script {file_name!r} may use only letters, digits, '_' and '-' before its extension"
    return None


def kind_problem(kind: str, scripts: list[str]) -> str | None:
    """Why scripts named *scripts* cannot be of *kind*, or None."""
    if kind not in KINDS:
        return f"unknown script kind {kind!r}; choose one of {', '.join(KINDS)}"
    shell = [s for s in scripts if not s.endswith(".py")]
    if kind != DEFAULT_KIND and shell:
        return f"a {kind} is written in Python; name {shell[0]!r} with .py (only a counter can be a shell script)"
    return None


def summary_problem(text: str) -> str | None:
    """Why *text* cannot be a script's one-line description, or None."""
    if not text.strip():
        return "the script description is empty"
    if len(text) > 200:
        return "the script description is longer than 200 characters"
    if any(ch in text for ch in '"\\`$') or any(ord(ch) < 32 for ch in text):
        return "the script description must be one line without quotes, backslashes, backticks or '$'"
    return None


def license_problem(text: str) -> str | None:
    """Why *text* is not an SPDX license expression (``MIT``, ``Apache-2.0 OR MIT``), or None; empty is none."""
    if not text:
        return None
    from packaging.licenses import InvalidLicenseExpression, canonicalize_license_expression

    try:
        canonicalize_license_expression(text)
    except InvalidLicenseExpression as exc:
        return (f"license {text!r} is not an SPDX license expression ({exc}); use an identifier from "
                "https://spdx.org/licenses/ such as MIT or Apache-2.0, LicenseRef-NAME for your own terms, "
                "or nothing")
    return None


def spdx_license(text: str) -> str:
    """*text* in the SPDX list's own spelling (``mit`` -> ``MIT``); *text* must pass :func:`license_problem`."""
    if not text:
        return text
    from packaging.licenses import canonicalize_license_expression

    return str(canonicalize_license_expression(text))


def validate(answers: Answers) -> None:
    """Raise :class:`UsageError` with ``check``'s own message when an answer is invalid.

    The license is written in the SPDX list's spelling once it is valid.
    """
    if answers.target not in targets.new_targets():
        raise UsageError(f"unknown target {answers.target!r}; choose one of {', '.join(targets.new_targets())}")
    scaffold = targets.get(answers.target).new
    problems = [scaffold.name_problem(answers.name)]
    if answers.description is not None:
        problems.append(scaffold.description_problem(answers.description))
    for problem in problems:
        if problem:
            raise UsageError(problem)
    if not answers.scripts:
        raise UsageError("a skill needs at least one script")
    for script in answers.scripts:
        problem = script_problem(script)
        if problem:
            raise UsageError(problem)
    problem = kind_problem(answers.kind, answers.scripts)
    if problem:
        raise UsageError(problem)
    stems = [s[:-3] for s in answers.scripts]
    if len(set(stems)) != len(stems) or (answers.verifier and VERIFIER in answers.scripts):
        raise UsageError("script names must be unique (by name without extension, and not verify_facts.py with --verifier)")
    for label, value in (("license", answers.license), ("author", answers.author)):
        if "\n" in value or len(value) > 200:
            raise UsageError(f"{label} must be one line of at most 200 characters")
    problem = license_problem(answers.license)
    if problem:
        raise UsageError(problem)
    answers.license = spdx_license(answers.license)
