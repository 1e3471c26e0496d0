"""Errors that end a command with a semantic exit code and a JSON error code.

The exit code comes from the protocol's table (:mod:`skillsmith.exitcodes`); the JSON error
code (``error.code`` in the envelope) names the error in skillsmith's own output contract.
"""

from __future__ import annotations

from skillsmith.exitcodes import FINDINGS, ExitCode


class SkillsmithError(Exception):
    """An error a user can act on. Carries the exit code and the JSON error code."""

    exit_code = ExitCode.ERROR
    code = "ERROR"

    def __init__(self, message: str, details: dict | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.details = details or {}


class UsageError(SkillsmithError):
    exit_code = ExitCode.USAGE
    code = "USAGE"


class NotFoundError(SkillsmithError):
    exit_code = ExitCode.NOT_FOUND
    code = "NOT_FOUND"


class InvalidInputError(SkillsmithError):
    exit_code = ExitCode.VALIDATION
    code = "INVALID_INPUT"


class MissingDependencyError(SkillsmithError):
    exit_code = ExitCode.PRECONDITION
    code = "MISSING_DEPENDENCY"


class FindingsError(SkillsmithError):
    """Findings stop the command (``pack`` refuses a skill with errors); ``details["findings"]`` lists them."""

    exit_code = FINDINGS
    code = "FINDINGS"
