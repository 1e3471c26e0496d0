"""What the templates ask, validated with the validators ``check`` uses before Copier sees it."""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field
from pathlib import Path

from skillsmith import targets
from skillsmith.errors import (
    UsageError,
)
from skillsmith.rules.spec import description_problem

ANSWERS_FILE = ".skillsmith-answers.yml"
#: the template that asks everything :class:`Answers` holds (another target's template asks
#: only for name and description), and that ``add script`` renders one script from
SKILL_TEMPLATE = "skill"
DEFAULT_SCRIPTS = ("main.py",)
VERIFIER = "verify_facts.py"
#: the line in tests/run.sh above which ``add script`` inserts its cases
CASES_MARKER = "# skillsmith add script: new cases go above this line"
DEFAULT_SUMMARY = "Count the lines and words of a text file."

_SCRIPT = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]*\.(py|sh)$")


@dataclass
class Answers:
    """Everything the skill template asks."""

    name: str
    description: str
    target: str = targets.DEFAULT
    license: str = ""
    author: str = ""
    scripts: list[str] = field(default_factory=lambda: list(DEFAULT_SCRIPTS))
    examples: bool = True
    json: bool = True
    verifier: bool = False

    def data(self) -> dict:
        return asdict(self)


@dataclass
class Created:
    """What a command wrote: the skill folder and its files, relative to it."""

    root: Path
    files: list[str]
    version: str | None = None

    def to_json(self) -> dict:
        return {"path": str(self.root), "files": self.files, "template_version": self.version}


def default_description(name: str) -> str:
    return f"Describe what {name} does and when an agent should use it."


def script_problem(file_name: str) -> str | None:
    """Why *file_name* cannot be a script name, or None."""
    if "/" in file_name or "\\" in file_name:
        return f"script {file_name!r} must be a file name, not a path (it goes in scripts/)"
    if not file_name.endswith((".py", ".sh")):
        return f"script {file_name!r} must end in .py or .sh"
    if not _SCRIPT.match(file_name):
        return f"script {file_name!r} may use only letters, digits, '_' and '-' before its extension"
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


def validate(answers: Answers) -> None:
    """Raise :class:`UsageError` with ``check``'s own message when an answer is invalid."""
    if answers.target not in targets.new_targets():
        raise UsageError(f"unknown target {answers.target!r}; choose one of {', '.join(targets.new_targets())}")
    scaffold = targets.get(answers.target).new
    for problem in (scaffold.name_problem(answers.name), description_problem(answers.description)):
        if problem:
            raise UsageError(problem)
    if not answers.scripts:
        raise UsageError("a skill needs at least one script")
    for script in answers.scripts:
        problem = script_problem(script)
        if problem:
            raise UsageError(problem)
    stems = [s[:-3] for s in answers.scripts]
    if len(set(stems)) != len(stems) or (answers.verifier and VERIFIER in answers.scripts):
        raise UsageError("script names must be unique (by name without extension, and not verify_facts.py with --verifier)")
    for label, value in (("license", answers.license), ("author", answers.author)):
        if "\n" in value or len(value) > 200:
            raise UsageError(f"{label} must be one line of at most 200 characters")
