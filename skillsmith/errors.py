"""Errors that end a command with a semantic exit code and a JSON error code."""

from __future__ import annotations

from skillsmith import exitcodes


class SkillsmithError(Exception):
    """An error a user can act on. Carries the exit code and the JSON error code."""

    exit_code = exitcodes.ERROR
    code = "ERROR"

    def __init__(self, message: str, details: dict | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.details = details or {}


class UsageError(SkillsmithError):
    exit_code = exitcodes.USAGE
    code = "USAGE"


class NotFoundError(SkillsmithError):
    exit_code = exitcodes.NOT_FOUND
    code = "NOT_FOUND"


class InvalidInputError(SkillsmithError):
    exit_code = exitcodes.INVALID_INPUT
    code = "INVALID_INPUT"


class MissingDependencyError(SkillsmithError):
    exit_code = exitcodes.MISSING_DEPENDENCY
    code = "MISSING_DEPENDENCY"


class FindingsError(SkillsmithError):
    """Findings stop the command (``pack`` refuses a skill with errors); ``details["findings"]`` lists them."""

    exit_code = exitcodes.FINDINGS
    code = "FINDINGS"
