"""The paths and links a SKILL.md body cites, with their positions.

Two kinds are collected: Markdown links and images (``[text](target)``, ``[ref]: target``)
and bare path-like tokens that name a skill folder (``scripts/x.py``, ``references/y.md``,
``assets/z``) anywhere in the body, prose or code. URLs and in-page anchors are not paths.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

RESOURCE_DIRS = ("scripts", "references", "assets")

_LINK = re.compile(r"!?\[(?:[^\]\\]|\\.)*\]\(\s*<?([^)\s>]+)>?(?:\s+[\"'(][^)]*)?\)")
_REF_DEF = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+.*)?$")
_PATH = re.compile(
    r"(?<![\w.@/$-])((?:\{baseDir\}/|\$\{?CLAUDE_SKILL_DIR\}?/|\./)?(?:scripts|references|assets)/[\w.@+%/-]*[\w@+%/-])"
)
_MENTION = re.compile(r"(?<![\w./$@-])((?:\./)?[\w-][\w./-]*\.md)\b(?![\w/(-])")
_SCHEME = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")
_PREFIXES = re.compile(r"^(?:\{baseDir\}/|\$\{?CLAUDE_SKILL_DIR\}?/|\./)")


@dataclass(frozen=True)
class Citation:
    target: str  # as written, minus a leading ./ or {baseDir}/ and any #anchor or ?query
    raw: str  # as written
    line: int  # 1-based line in SKILL.md
    column: int  # 1-based
    kind: str  # "link" | "path" | "mention" (a bare file name such as FORMS.md in prose)
    after: str  # the rest of the line after the citation (to judge a worked invocation)


def is_external(target: str) -> bool:
    return bool(_SCHEME.match(target)) and not re.match(r"^[A-Za-z]:[\\/]", target) or target.startswith("#")


def normalise(target: str) -> str:
    target = target.split("#", 1)[0].split("?", 1)[0]
    return _PREFIXES.sub("", target)


def extract(lines: list[str], first_line: int) -> list[Citation]:
    """Citations in *lines*, which start at line *first_line* of the file."""
    found: list[Citation] = []
    for index, text in enumerate(lines):
        lineno = first_line + index
        spans = []
        has_link = "](" in text
        for m in _LINK.finditer(text) if has_link else ():
            spans.append(m.span())
            raw = m.group(1)
            if is_external(raw):
                continue
            found.append(Citation(normalise(raw), raw, lineno, m.start(1) + 1, "link", text[m.end():]))
        m = _REF_DEF.match(text) if "]:" in text else None
        if m and not is_external(m.group(1)):
            spans.append(m.span())
            found.append(Citation(normalise(m.group(1)), m.group(1), lineno, m.start(1) + 1, "link", ""))
        has_path = "scripts/" in text or "references/" in text or "assets/" in text
        for m in _PATH.finditer(text) if has_path else ():
            if any(start <= m.start() < end for start, end in spans):
                continue
            spans.append(m.span())
            raw = m.group(1)
            found.append(Citation(normalise(raw), raw, lineno, m.start(1) + 1, "path", text[m.end():]))
        if ".md" in text:
            for m in _MENTION.finditer(text):
                if any(start <= m.start() < end for start, end in spans) or "://" in text[max(0, m.start() - 12):m.start()]:
                    continue
                raw = m.group(1)
                found.append(Citation(normalise(raw), raw, lineno, m.start(1) + 1, "mention", text[m.end():]))
    return found


_FENCE = re.compile(r"^\s{0,3}(```|~~~)")
_LAUNCHER = re.compile(r"^(?:\$\s+)?((?:[A-Za-z_][A-Za-z0-9_]*=\S*\s+)*(?:(?:bash|sh|zsh|dash|ksh)\s+)?)$")


def fenced_lines(lines: list[str]) -> set[int]:
    """1-based numbers of the lines inside fenced code blocks (the fences excluded)."""
    inside, found = False, set()
    for number, text in enumerate(lines, 1):
        if _FENCE.match(text):
            inside = not inside
            continue
        if inside:
            found.add(number)
    return found


def invocation(lines: list[str], citation: Citation, fenced: bool) -> str | None:
    """The command line a citation starts in code, as written (``bash scripts/x.sh --json a.log``), or None.

    Only code counts: an inline code span, or a line of a fenced block (a trailing ``\\``
    joins the next lines, a trailing ``# comment`` is dropped). What another command does
    with the path (``chmod +x scripts/x.sh``) is not an invocation of it; a command after
    ``&&`` or ``;`` is; ``| jq`` after it stays part of the example.
    """
    text = lines[citation.line - 1]
    before = text[:citation.column - 1]
    after = citation.after
    if fenced:
        number = citation.line
        while after.rstrip().endswith("\\") and number < len(lines):
            after = after.rstrip()[:-1] + " " + lines[number].strip()
            number += 1
        after = re.sub(r"\s+#\s.*$", "", after)
    else:
        if before.count("`") % 2 == 0:
            return None  # prose, not code
        before = before[before.rfind("`") + 1:]
        after = after.split("`", 1)[0]
    before = re.split(r"&&|\|\||;", before)[-1].lstrip()
    producer, _, command = before.rpartition("|")  # `printf 'a\n' | bash scripts/x.sh` keeps its input
    m = _LAUNCHER.match(command.lstrip())
    if m is None:
        return None
    after = re.split(r"&&|\|\||;", after)[0]
    lead = f"{producer.strip()} | " if producer.strip() else ""
    return " ".join(f"{lead}{m.group(1)}{citation.target}{after}".split())
