"""File rules: files skillsmith (and so an agent) cannot read as a skill needs them.

Unreadable, oversized, undecodable and binary-where-text-belongs files become findings here;
every other rule sees such a file without text and stays quiet about it.
"""

from __future__ import annotations

from skillsmith.lang.interpreter import SCRIPT_SUFFIXES
from skillsmith.model.sourcefile import TEXT_SUFFIXES
from skillsmith.rules.finding import Hit
from skillsmith.rules.registry import rule

SEED = "000 §1 (skills are read by agents)"


def read_by_agent(f) -> bool:
    """SKILL.md, scripts, references and text files: what an agent reads. Assets are left to RES rules."""
    top = f.rel.split("/", 1)[0]
    if top == "assets":
        return False
    return f.rel == "SKILL.md" or f.suffix in TEXT_SUFFIXES or top in ("scripts", "references")


def should_be_text(f) -> bool:
    """Files whose content must be text: SKILL.md, scripts, Markdown and other text suffixes."""
    return f.rel == "SKILL.md" or f.suffix in TEXT_SUFFIXES or f.suffix in SCRIPT_SUFFIXES


@rule("FIL001", "unreadable", summary="A file of the skill cannot be read.", seed=SEED, scope="file")
def unreadable(subject):
    """
    ## What it does
    Flags a file that exists but cannot be opened or read (permissions, a file that vanished
    while being checked, an I/O error). The message carries the operating system's reason.

    ## Why is this bad?
    An agent that loads the skill cannot read the file either, and skillsmith cannot check it:
    every other rule skips a file it cannot read, so problems inside it stay hidden.

    ## Example
    ```console
    $ ls -l scripts/fetch.py
    ---------- 1 user user 812 fetch.py
    ```

    Use instead: make the file readable (`chmod a+r scripts/fetch.py`).
    """
    unit, f = subject
    if f.too_large:
        return
    error = f.read_error
    if error is not None:
        yield Hit(f.path, f"cannot read {f.rel}: {error}")


@rule("FIL002", "too-large", summary="A file an agent reads is larger than the size limit (1 MiB).", seed=SEED, scope="file")
def too_large(subject):
    """
    ## What it does
    Flags `SKILL.md`, a script, a reference or another text file larger than the limit
    (1 MiB by default). skillsmith does not read such a file, so no other rule checks it.
    Binary assets are judged by the resource rules instead.

    ## Why is this bad?
    Agents read these files into their context window. A megabyte of text is hundreds of
    thousands of tokens: it crowds out the task, costs money and is usually generated data
    that belongs in `assets/` or outside the skill.

    ## Example
    A 40 MB `references/dump.json`.

    Use instead: keep references small and split them by topic; move data to `assets/` or load
    it from a script on demand.
    """
    unit, f = subject
    if f.too_large and read_by_agent(f):
        yield Hit(f.path, f"{f.rel} is {f.size} bytes, over the limit of {f.max_bytes} bytes; not checked")


@rule("FIL003", "not-utf8", summary="A text file does not decode as UTF-8 (or its declared encoding).", seed=SEED, scope="file")
def not_utf8(subject):
    """
    ## What it does
    Flags a text file (`SKILL.md`, a script, Markdown and other text suffixes) with bytes that
    are not valid UTF-8, or not valid in the encoding a Python coding cookie declares. The
    finding points at the first bad byte.

    ## Why is this bad?
    Hosts and agents read skills as UTF-8. Invalid bytes become replacement characters or make
    the host refuse the file; a `SKILL.md` in Latin-1 can lose its frontmatter entirely.

    ## Example
    A `SKILL.md` saved as Windows-1252 with `café` in its description.

    Use instead: re-encode the file as UTF-8 (`iconv -f cp1252 -t utf-8`).
    """
    unit, f = subject
    if not should_be_text(f):
        return
    problem = f.decode_error
    if problem is not None:
        line, column, reason = problem
        yield Hit(f.path, f"{f.rel} is not valid text: {reason}", line, column)


@rule("FIL004", "binary-text", summary="A file that must be text contains NUL bytes.", seed=SEED, scope="file")
def binary_text(subject):
    """
    ## What it does
    Flags NUL bytes in a file that must be text: `SKILL.md`, a script, a Markdown reference or
    another text suffix. The finding points at the first NUL byte.

    ## Why is this bad?
    Hosts treat a file with NUL bytes as binary and refuse to show it to the agent; shells and
    Python refuse to run it. It is usually a file saved as UTF-16 or binary data with a text
    name.

    ## Example
    `references/guide.md` saved as UTF-16 (every other byte is NUL).

    Use instead: save the file as UTF-8, or move binary data to `assets/` with a fitting suffix.
    """
    unit, f = subject
    data = f.data
    if not should_be_text(f) or data is None or b"\0" not in data:
        return
    at = data.index(b"\0")
    line = data.count(b"\n", 0, at) + 1
    column = at - (data.rfind(b"\n", 0, at) + 1) + 1
    yield Hit(f.path, f"{f.rel} contains NUL bytes (binary data in a text file)", line, column)
