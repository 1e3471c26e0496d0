"""File rules: files skillsmith (and so an agent) cannot read as a skill needs them.

Unreadable, oversized, undecodable and binary-where-text-belongs files become findings here;
every other rule sees such a file without text and stays quiet about it. So do the parts of a
unit the walk saw and nothing read (:class:`skillsmith.model.skill.Unread`): special files,
folders that cannot be listed, files past the limit, a broken configuration of its own.
"""

from __future__ import annotations

import re

from skillsmith.discovery.walk import MAX_FILES_PER_SKILL
from skillsmith.lang.interpreter import SCRIPT_SUFFIXES
from skillsmith.model.sourcefile import TEXT_SUFFIXES
from skillsmith.rules.finding import Hit
from skillsmith.rules.registry import rule
from skillsmith.rules.security import in_test_folder

SEED = "000 §1 (skills are read by agents)"


def read_by_agent(f) -> bool:
    """SKILL.md, scripts, references and text files: what an agent reads. Assets are left to RES rules,
    and so are binary files below ``scripts/`` and ``references/`` (``scripts/app/icon.icns``)."""
    top = f.rel.split("/", 1)[0]
    if top == "assets":
        return False
    return f.rel == "SKILL.md" or f.suffix in TEXT_SUFFIXES or top in ("scripts", "references") and (
        f.suffix.lower() not in BINARY_SUFFIXES)


#: suffixes of binary files (images, fonts, archives, media, office documents, compiled code, databases)
BINARY_SUFFIXES = frozenset(
    ".png .jpg .jpeg .gif .webp .ico .icns .bmp .tif .tiff .heic .psd .ttf .otf .woff .woff2 .zip .gz .tgz .tar "
    ".bz2 .xz .7z .rar .mp3 .mp4 .m4a .wav .mov .webm .ogg .flac .avi .pdf .docx .xlsx .pptx .doc .xls .ppt .so "
    ".dylib .dll .exe .bin .wasm .pyc .db .sqlite .sqlite3 .parquet .npy .pkl .onnx .pt".split()
)


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
    Binary assets are judged by the resource rules instead, wherever they are (a Mac app's
    `scripts/app/icon.icns`, a PDF or PNG under `references/`).

    ## Why is this bad?
    Agents read these files into their context window. A megabyte of text is hundreds of
    thousands of tokens: it crowds out the task, costs money and is usually generated data
    that belongs in `assets/` or outside the skill.

    ## Example
    A 40 MB `references/dump.json`.

    Use instead: keep references small and split them by topic; move data to `assets/` or load
    it from a script on demand.

    Not flagged: a file the skill runs rather than reads (SKILL.md or a launcher script shows
    `node scripts/agent-test.cjs --suite smoke`, a bundled program), the source map beside a
    program (`scripts/cli.mjs.map`, read by debuggers only) and data one of its programs loads
    (`open(HERE / "docs/schema_inventory.json")`), which is that remedy already.
    """
    unit, f = subject
    if f.too_large and read_by_agent(f) and not _run_or_loaded(unit, f.rel):
        yield Hit(f.path, f"{f.rel} is {f.size} bytes, over the limit of {f.max_bytes} bytes; not checked")


def _run_or_loaded(unit, rel: str) -> bool:
    """Whether the skill runs *rel* (SKILL.md shows it run: `node scripts/cs-agent-test.cjs --suite x`, a
    bundled program) or one of its programs loads it (`schema_registry.py` opens
    `docs/jobber_schema_inventory.json`): the agent does not read it into its context."""
    from skillsmith.model.skill import Skill
    from skillsmith.rules.resources import names_in_scripts

    if not isinstance(unit, Skill):
        return False
    if rel.endswith(".map") and rel[:-4] in unit.files:
        return True  # the source map of a bundled program (`dist/cli.mjs.map` beside `dist/cli.mjs`): read by debuggers only
    if unit.invocations_of(rel):
        return True
    name = re.escape(rel.rsplit("/", 1)[-1])
    runs = re.compile(rf"\b(?:node|bun|deno|python3?|bash|sh)\s+[\"']?[^\s\"'|;&]{{0,200}}?\b{name}(?![\w.-])")
    if any(s.rel != rel and s.file.text and runs.search(s.file.text) for s in unit.scripts):
        return True  # its launcher runs it: `exec node "$DIR/cs-agent-test.cjs" "$@"`
    parts = rel.split("/")
    loaded = names_in_scripts(unit)
    return any("/".join(parts[i:]) in loaded for i in range(len(parts)))


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

    Not flagged: test data that opens with a UTF-16 byte-order mark in a folder of tests
    (`tests/`, `fixtures/`): a converter's UTF-16 input is UTF-16 on purpose. Markdown and
    scripts there are still flagged.
    """
    unit, f = subject
    data = f.data
    if not should_be_text(f) or data is None or b"\0" not in data:
        return
    if data[:2] in (b"\xff\xfe", b"\xfe\xff") and in_test_folder(f.rel) and f.suffix not in (".md", *SCRIPT_SUFFIXES):
        return
    at = data.index(b"\0")
    line = data.count(b"\n", 0, at) + 1
    column = at - (data.rfind(b"\n", 0, at) + 1) + 1
    yield Hit(f.path, f"{f.rel} contains NUL bytes (binary data in a text file)", line, column)


@rule("FIL005", "config-invalid", summary="A configuration file inside the checked tree cannot be used.", seed=SEED, scope="unit")
def config_invalid(unit):
    """
    ## What it does
    Flags a `skillsmith.toml` or `[tool.skillsmith]` table that came with the checked tree (it
    lies below the folder you run skillsmith in, or elsewhere) and cannot be used: invalid TOML,
    nested too deeply, larger than 1 MiB, an unknown key, a value of the wrong type, or a rule
    ID that names no rule. The units it would configure are checked with the defaults, and the
    other skills of the run are checked as usual.

    Your own configuration (at or above the folder you run skillsmith in) is not a finding:
    when it is broken, the run stops with exit 4 and says where.

    ## Why is this bad?
    The skill's author meant to configure its checks and the configuration does nothing; a
    host or tool that reads the same file may stop on it.

    ## Example
    ```toml
    ignore = ["CON013"
    ```

    Use instead: close the list (`ignore = ["CON013"]`).
    """
    problem = unit.unread.config
    if problem is not None:
        yield Hit(problem.path, f"{problem.path.name} cannot be used (checked with the defaults): {problem.message}",
                  problem.line)


@rule("FIL006", "special-file", summary="A skill holds a FIFO, socket or device file.", seed=SEED, scope="unit")
def special_file(unit):
    """
    ## What it does
    Flags named pipes (FIFOs), sockets and device files inside a skill. skillsmith lists them
    and never opens them.

    ## Why is this bad?
    A skill is a folder of text and data an agent reads. Reading a FIFO blocks until something
    writes to it, a device file reads hardware (`/dev/zero` never ends), and a socket is a
    live connection: none of them is content, and an agent or tool that opens one hangs or
    reads what the skill's author did not ship.

    ## Example
    ```console
    $ ls -l references/
    prw-r--r-- 1 user user 0 notes.md
    ```

    Use instead: replace it with a regular file, or remove it.
    """
    for rel, kind in sorted(unit.unread.special.items()):
        yield Hit(unit.root / rel, f"{rel} is a {kind}, not a regular file; it was not read")


@rule("FIL007", "not-fully-read", summary="Part of a skill could not be read, so it was not fully checked.", seed=SEED, scope="unit")
def not_fully_read(unit):
    """
    ## What it does
    Flags a folder of the skill that cannot be listed (permissions, an I/O error), and a skill
    with more files than skillsmith reads (5,000): the files past the limit are named and not
    checked. `SKILL.md` and `scripts/` are read first, so the limit falls on the other files.
    Paths the skill cites inside such a folder are not reported as missing, since they may exist.

    `skillsmith audit` does not approve a review with this finding.

    ## Why is this bad?
    Nothing in the unread part was checked: a `curl | sh` in a script there is not reported,
    and padding a skill with thousands of empty files would otherwise hide it.

    ## Example
    ```console
    $ ls -ld references
    d--------- 2 user user 4096 references
    ```

    Use instead: make the folder readable (`chmod a+rx references`); keep generated data out
    of the skill.
    """
    unread = unit.unread
    for rel, why in sorted(unread.unlisted.items()):
        where = f"folder {rel}/" if rel else "the folder"
        yield Hit(unit.root / rel, f"{where} cannot be listed ({why}); nothing in it was checked")
    if unread.count:
        shown = ", ".join(unread.files[:5])
        more = f" and {unread.count - 5} more" if unread.count > 5 else ""
        yield Hit(unit.root / unread.files[0],
                  f"not fully checked: {unread.count} file(s) past the limit of {MAX_FILES_PER_SKILL} were not read "
                  f"({shown}{more})")
