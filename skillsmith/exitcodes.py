"""The Skill Resource Protocol's exit codes (seed 000 §5): the one table of code, name and meaning.

Everything that names an exit code reads it from here: ``skillsmith`` itself (its commands
return these codes, :mod:`skillsmith.errors` carries them), the codemods that name a script's
literal codes (``EXIT_NOT_FOUND = 3``) and write its ``Exit:`` line (``3 not found``), the rules
that ask for those names, and the Copier templates (through
:class:`skillsmith.scaffold.template_globals.ProtocolGlobals`), so a generated script and a
fixed one use the same name for each code.

Codes 0 to 7 have one name each, whatever a script's header calls them. Codes from 10 are
domain signals ("ran fine, found something"); each script names its own in its ``Exit:``
line (``10 drift`` is ``EXIT_DRIFT``), and ``EXIT_DOMAIN_SIGNAL`` names one it does not.
"""

from __future__ import annotations

from enum import IntEnum

#: what a script's constant for an exit code starts with: ``EXIT_USAGE``
PREFIX = "EXIT_"


class ExitCode(IntEnum):
    """An exit code of the protocol: ``ExitCode.NOT_FOUND == 3``, ``.meaning == "not found"``."""

    meaning: str

    def __new__(cls, code: int, meaning: str) -> ExitCode:
        member = int.__new__(cls, code)
        member._value_ = code
        member.meaning = meaning
        return member

    SUCCESS = 0, "ok"
    ERROR = 1, "error"
    USAGE = 2, "usage"
    NOT_FOUND = 3, "not found"
    VALIDATION = 4, "invalid input"
    PRECONDITION = 5, "missing dependency"
    TIMEOUT = 6, "timeout"
    UNAVAILABLE = 7, "unavailable"
    DOMAIN_SIGNAL = 10, "domain signal"

    @property
    def constant(self) -> str:
        """The name a script gives this code: ``EXIT_NOT_FOUND``."""
        return PREFIX + self.name


#: skillsmith's own domain signal: findings remain (``check``), changes needed (``fix --check``),
#: outdated (``update``)
FINDINGS = ExitCode.DOMAIN_SIGNAL


def fixed(code: int) -> ExitCode | None:
    """The protocol's entry for *code* when the protocol fixes its name (0 to 7), else None."""
    try:
        known = ExitCode(code)
    except ValueError:
        return None
    return known if known < ExitCode.DOMAIN_SIGNAL else None


def constant_name(code: int, word: str | None = None) -> str:
    """The constant a script gives exit *code*: ``EXIT_USAGE`` for 2.

    *word* is what the script's ``Exit:`` line calls the code when it uses one word
    (:attr:`skillsmith.lang.header.Header.exit_words`); it names a code the protocol leaves
    open (``10`` with ``drift`` is ``EXIT_DRIFT``). Without one: ``EXIT_DOMAIN_SIGNAL`` for 10,
    ``EXIT_DOMAIN_SIGNAL_11`` above it, ``EXIT_CODE_8`` for the unassigned 8 and 9.
    """
    known = fixed(code)
    if known is not None:
        return known.constant
    if word:
        return PREFIX + word.upper().replace("-", "_")
    if code == ExitCode.DOMAIN_SIGNAL:
        return ExitCode.DOMAIN_SIGNAL.constant
    if code > ExitCode.DOMAIN_SIGNAL:
        return f"{ExitCode.DOMAIN_SIGNAL.constant}_{code}"
    return f"{PREFIX}CODE_{code}"


def meaning(code: int, constants: dict[str, int] | None = None) -> str:
    """What an ``Exit:`` line says for *code*: ``not found`` for 3.

    A code the protocol leaves open reads as the script's own constant for it
    (``EXIT_NO_DATA = 9`` reads ``no data``), else ``domain signal`` from 10 and ``error`` below
    (also when the constant is only the stand-in name :func:`constant_name` gives, ``EXIT_CODE_8``).
    """
    known = fixed(code)
    if known is not None:
        return known.meaning
    stand_in = constant_name(code)
    named = sorted(n for n, v in (constants or {}).items() if v == code and is_constant(n) and n != stand_in)
    if named:
        return named[0][len(PREFIX):].lower().replace("_", " ")
    return ExitCode.DOMAIN_SIGNAL.meaning if code >= ExitCode.DOMAIN_SIGNAL else ExitCode.ERROR.meaning


def is_constant(name: str) -> bool:
    """Whether *name* is an exit-code constant of the script itself (``EXIT_USAGE``, not ``os.EX_OK``)."""
    return name.startswith(PREFIX) and "." not in name

