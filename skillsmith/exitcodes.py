"""The Skill Resource Protocol's exit codes (seed 000 §5): the one table of code, name and meaning.

Everything that names an exit code reads it from here: ``skillsmith`` itself (its commands
return these codes, :mod:`skillsmith.errors` carries them), the codemods that name a script's
literal codes (``EXIT_NOT_FOUND = 3``) and write its ``Exit:`` line (``3 not found``), the rules
that ask for those names, and the Copier templates (through
:class:`skillsmith.scaffold.template_globals.ProtocolGlobals`), so a generated script and a
fixed one use the same name for each code.

Codes 0 to 7 have one name each. Codes from 10 are domain signals ("ran fine, found
something"); each script names its own in its ``Exit:`` line (``10 drift`` is ``EXIT_DRIFT``),
and ``EXIT_DOMAIN_SIGNAL`` names one it does not. 128 + N is the shell's "killed by signal N"
(130: Ctrl-C), never a domain signal.

A name is a claim about what the code means, so a script's own words come first: a code whose
``Exit:`` line (or the message printed before the exit) means something else than the
protocol's entry keeps no protocol name (:func:`agrees`, :func:`documented_name`).
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


#: 128 + N: killed by signal N; (name, meaning) of the ones scripts exit with themselves
SIGNALS = {
    129: ("HANGUP", "hangup"),
    130: ("INTERRUPTED", "interrupted"),
    141: ("BROKEN_PIPE", "broken pipe"),
    143: ("TERMINATED", "terminated"),
}

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
    if code in SIGNALS:
        return PREFIX + SIGNALS[code][0]
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
    if code in SIGNALS:
        return SIGNALS[code][1]
    stand_in = constant_name(code)
    named = sorted(n for n, v in (constants or {}).items() if v == code and is_constant(n) and n != stand_in)
    if named:
        return named[0][len(PREFIX):].lower().replace("_", " ")
    return ExitCode.DOMAIN_SIGNAL.meaning if code >= ExitCode.DOMAIN_SIGNAL else ExitCode.ERROR.meaning


def constant_words(name: str) -> str | None:
    """What an exit-code constant's name says: ``not found`` for ``EXIT_NOT_FOUND`` or ``ERR_NOT_FOUND``.

    None for a name that is not an upper-case constant or says nothing (``EXIT_CODE_8``, ``RC``).
    """
    import re

    name = name.rsplit(".", 1)[-1]
    if not re.fullmatch(r"[A-Z][A-Z0-9_]*", name):
        return None
    core = re.sub(r"^(EXIT|ERR|ERROR|RC|RET|CODE|E)_", "", name)
    core = re.sub(r"_(EXIT|CODE|RC|STATUS)$", "", core)
    if core == name and not re.search(r"EXIT|ERR|CODE", name):
        return None  # a constant that is not about exits
    if re.fullmatch(r"(CODE_)?\d+|EXIT|CODE|STATUS", core):
        return None
    return core.lower().replace("_", " ")


def is_constant(name: str) -> bool:
    """Whether *name* is an exit-code constant of the script itself (``EXIT_USAGE``, not ``os.EX_OK``)."""
    return name.startswith(PREFIX) and "." not in name



#: words that say a code means what the protocol's entry means (for codes 0 to 7 and the signals)
_AGREES = {
    0: r"ok|okay|succe|pass|clean|fine|done|complet|valid|nothing|no (issues?|problems?|errors?|changes?)",
    1: r"error|fail|fatal|problem|exception|unexpected|crash|abort|internal|general|other",
    2: r"usage|argument|\bargs?\b|option|flag|parameter|invocation|command.line|\bcli\b|syntax|(?<![\w-])--?[a-z]",
    3: r"not found|missing|no such|does ?n.?t exist|not exist|cannot find|can.t find|could not find|unknown (file|path)",
    4: r"invalid|validat|malformed|bad (input|data|format|value)|pars|corrupt|schema",
    5: r"dependenc|not installed|precondition|prerequisite|requirement|\brequired? (tool|program|command)",
    6: r"time.?out|timed out",
    7: r"unavailable|network|service|connect|offline|unreachable|rate.?limit",
    129: r"hang.?up|sighup",
    130: r"interrupt|sigint|ctrl.?c|cancel|keyboard",
    141: r"pipe|sigpipe",
    143: r"terminat|sigterm|kill",
}
#: words that say a code 1 is a finding, not an error (``1 issues found``)
_FINDING = r"found|detected|drift|differ|changes? (needed|required)|warnings?|findings?|violations?"


def agrees(code: int, text: str) -> bool:
    """Whether *text* (an author's meaning for *code*) says what the protocol's entry for it says.

    Codes the protocol leaves open (8, 9, 10 and up, other than the signals) agree with any text:
    the script names them.
    """
    import re

    pattern = _AGREES.get(code)
    if pattern is None:
        return True
    text = text.lower()
    if code == 1 and re.search(_FINDING, text):
        return False
    return bool(re.search(pattern, text))


_STOP = {"a", "an", "the", "of", "in", "is", "are", "was", "to", "for", "on", "or", "and", "e", "g", "eg", "when", "if"}


def documented_name(code: int, text: str) -> str | None:
    """The constant for *code* that the author's *text* for it supports, or None.

    ``(3, "file not found")`` is ``EXIT_NOT_FOUND``; ``(2, "Not a git repo")`` is None (the
    protocol's 2 is usage, and the author means something else); ``(10, "drift found")`` is
    ``EXIT_DRIFT_FOUND``.
    """
    import re

    if fixed(code) is not None or code in SIGNALS:
        return constant_name(code) if agrees(code, text) else None
    words = [w for w in re.findall(r"[A-Za-z]+", text) if w.lower() not in _STOP][:3]
    if not words:
        return None
    return PREFIX + "_".join(w.upper() for w in words)


def name_for(code: int, documented: str | None = None, hint: str = "") -> str | None:
    """The constant a literal exit *code* may be given, or None when nothing says what it means.

    *documented* is the author's meaning for it (the ``Exit:`` line); *hint* what the code
    around the exit says (the message printed before it, the exception caught). 1 is an error
    and 130 an interrupt by convention; 2 to 7 take the protocol's name only when the script's
    own words agree, and codes the protocol leaves open only from the author's words.
    """
    if documented:
        return documented_name(code, documented)
    if code == ExitCode.ERROR or code in SIGNALS:
        return constant_name(code)
    if fixed(code) is not None and code != ExitCode.SUCCESS and hint and agrees(code, hint):
        return constant_name(code)
    return None


def meaning_for(code: int, documented: str | None = None, hint: str = "", constant: str | None = None) -> str | None:
    """What an ``Exit:`` line may say for *code*, or None when nothing says what it means.

    The author's words come first, then the script's own constant (``EXIT_NO_DATA`` reads
    ``no data``; a protocol name reads as the protocol's meaning), then the conventions
    (0 ok, 1 error, 130 interrupted) and a *hint* that agrees with the protocol's entry.
    """
    if documented:
        return documented
    words = constant_words(constant) if constant else None
    if words:
        return meaning(code) if (fixed(code) is not None or code in SIGNALS) and agrees(code, words) else words
    if code in (ExitCode.SUCCESS, ExitCode.ERROR) or code in SIGNALS:
        return meaning(code)
    if fixed(code) is not None and hint and agrees(code, hint):
        return meaning(code)
    return None
