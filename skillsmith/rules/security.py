"""Security rules: hidden Unicode, download piped into a shell, eval of arguments (seed 000 §6)."""

from __future__ import annotations

import re
import unicodedata

from skillsmith.finding import Hit
from skillsmith.registry import rule

#: zero-width characters, bidirectional controls, tag characters and other invisibles
HIDDEN = {
    **{cp: "zero-width" for cp in (0x200B, 0x200C, 0x200D, 0x2060, 0x180E, 0xFEFF)},
    **{cp: "bidi control" for cp in (0x200E, 0x200F, 0x061C, *range(0x202A, 0x202F), *range(0x2066, 0x206A))},
    **{cp: "invisible operator" for cp in range(0x2061, 0x2065)},
}
_HIDDEN_RE = re.compile("[" + "".join(re.escape(chr(cp)) for cp in HIDDEN) + "\U000E0000-\U000E007F]")

_PIPE_TO_SHELL = re.compile(
    r"\b(?:curl|wget|iwr|Invoke-WebRequest)\s+[^\n|;&]*[^\s|;&][^\n|;&]*\|\s*(?:sudo\s+(?:-\S+\s+)*)?(?:ba|z|da|k)?sh\b"
    r"|\b(?:ba|z)?sh\s+(?:-c\s+)?[\"']?\$\(\s*(?:curl|wget)\b"
    r"|\b(?:ba|z)?sh\s+<\(\s*(?:curl|wget)\b"
    r"|\b(?:curl|wget)\s+[^\n|;&]*[^\s|;&][^\n|;&]*\|\s*(?:sudo\s+)?python3?\b(?!\s+-m\s+json)"
)
_EVAL_ARGS = re.compile(r"\beval\b[^\n;|&]*\$(?:\{?[@*]|\{?[1-9])")


def _name(cp: int) -> str:
    if 0xE0000 <= cp <= 0xE007F:
        return "tag character"
    return HIDDEN.get(cp, "invisible")


@rule("SEC001", "hidden-unicode", summary="Invisible Unicode (zero-width, bidi controls, tag characters) in a text file.", seed="000 §5 (hidden-unicode scan)", scope="file")
def hidden_unicode(subject):
    """
    ## What it does
    Reports zero-width characters, bidirectional controls and Unicode tag characters in any
    text file of a skill, with the code point and position. A byte-order mark at the very
    start of a file is not reported.

    ## Why is this bad?
    Agents read these characters; people reviewing the skill do not see them. They are how
    instructions get hidden in an innocent-looking skill ("Trojan Source", ASCII smuggling
    with tag characters).

    ## Example
    `Summarise the file.\\u200b\\U000e0049\\U000e0067...` (invisible text after the period).

    Use instead: delete them; if a character is truly needed, write it as an escape in code.
    """
    _unit, f = subject
    text = f.text
    if not text or text.isascii():
        return
    for m in _HIDDEN_RE.finditer(text):
        line, col = f.line_col(m.start())
        cp = ord(m.group())
        name = unicodedata.name(m.group(), _name(cp))
        yield Hit(f.path, f"hidden Unicode U+{cp:04X} ({_name(cp)}: {name})", line, col)


@rule("SEC002", "download-piped-to-shell", summary="A download is piped straight into a shell or interpreter.", seed="000 §6", scope="file")
def download_piped_to_shell(subject):
    """
    ## What it does
    Flags `curl ... | sh`, `wget -O- ... | bash`, `bash <(curl ...)`, `sh -c "$(curl ...)"`
    and `curl ... | python` in scripts and in SKILL.md and references (where an agent would
    copy it from).

    ## Why is this bad?
    Whatever the server returns runs with the agent's rights, unreviewed, and differently on
    every run. The skill cannot be audited.

    ## Example
    ```bash
    curl -fsSL https://example.com/install.sh | bash
    ```

    Use instead: download to a file, verify a checksum or signature, then run it; or check
    for the tool with `command -v` and exit 5 with an install hint.
    """
    _unit, f = subject
    text = f.text
    if not text or f.suffix not in (".sh", ".bash", ".md", ".py", "", ".txt", ".zsh"):
        return
    if "curl" not in text and "wget" not in text and "Invoke-WebRequest" not in text and "iwr" not in text:
        return
    for m in _PIPE_TO_SHELL.finditer(text):
        line, col = f.line_col(m.start())
        yield Hit(f.path, "a download is piped into a shell or interpreter; download, verify, then run", line, col)


@rule("SEC003", "eval-of-arguments", summary="eval of positional parameters ($1, $@, $*).", seed="000 §6", scope="file")
def eval_of_arguments(subject):
    """
    ## What it does
    Flags `eval` applied to positional parameters (`eval "$@"`, `eval $1`, `eval "cmd $*"`)
    in shell scripts.

    ## Why is this bad?
    The agent supplies those arguments; `eval` turns any of them into code. It is shell
    injection by design.

    ## Example
    ```bash
    eval "$@"
    ```

    Use instead: run the command as an array without eval: `"$@"`, or dispatch on known
    sub-commands with `case`.
    """
    _unit, f = subject
    text = f.text
    if not text or "eval" not in text:
        return
    from skillsmith.model import script_language

    if script_language(f) != "shell":
        return
    for number, line in enumerate(f.lines, 1):
        stripped = line.lstrip()
        if stripped.startswith("#"):
            continue
        m = _EVAL_ARGS.search(line)
        if m:
            yield Hit(f.path, "eval of positional parameters runs whatever the caller passes as code", number, m.start() + 1)
