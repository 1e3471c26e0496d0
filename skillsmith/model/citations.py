"""The paths and links a SKILL.md body cites, with their positions.

Two kinds are collected: Markdown links and images (``[text](target)``, ``[ref]: target``)
and bare path-like tokens that name a skill folder (``scripts/x.py``, ``references/y.md``,
``assets/z``) anywhere in the body, prose or code. URLs and in-page anchors are not paths.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field
from typing import Iterator

RESOURCE_DIRS = ("scripts", "references", "assets")

_BRACKET_END = re.compile(r"[\]\\]")  # what ends a run of link text: "]" or an escape
_SPACES = re.compile(r"\s*")
_TARGET_END = re.compile(r"[)\s>]")
_REF_DEF = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+.*)?$")
#: a variable that holds this skill's folder, before a path in it: ``{baseDir}/``, ``$CLAUDE_SKILL_DIR/``,
#: ``$SKILL_DIR/``, ``${SKILL_PATH}/``, a placeholder ``<this skill's folder>/``, ``[skill目录]/`` or ``{skill_dir}/`` (``{skill_path}``
#: is not: alirezarezvani's sub-skills run ``{skill_path}/scripts/x.py`` of a sibling skill; ``$SKILLS_DIR`` is a
#: folder of skills, ``$PLUGIN_ROOT`` another folder)
_SKILL_VAR = (r"(?:\$?\{baseDir\}|\$\{?(?:[A-Z]+_)?SKILL_?(?:DIR|PATH|ROOT|HOME)\}?|<[^<>\n]{0,40}(?i:skill)(?!s)[^<>\n]{0,40}>|\[[^\[\]\n]{0,40}(?i:skill)(?!s)[^\[\]\n]{0,40}\]"
              r"|\{(?:[A-Za-z]+_)?(?i:skill_?dir)\})/")
_PATH = re.compile(rf"(?<![\w.@/$-])((?:{_SKILL_VAR}|\./)?(?:scripts|references|assets)/[\w.@+%/-]*[\w@+%/-])")
#: this skill's files named through the folder that holds it: ``~/.claude/skills/NAME/scripts/x.py``,
#: ``$SKILL_DIR/../NAME/scripts/x.sh``, ``skills/group/NAME/scripts/x.py``, from the folder above the skill
#: ``NAME/scripts/x`` (NAME is checked by the caller)
_OWNED_PATH = re.compile(r"(?:/|(?<![\w.@/$-]))([\w.-]+)/((?:scripts|references|assets)/[\w.@+%/-]*[\w@+%/-])")
#: a path through a variable named after the skill: ``$SKILL_EVALUATOR_DIR/scripts/x.py`` in skill-evaluator
_NAMED_VAR_PATH = re.compile(r"\$\{?([A-Z][A-Z0-9_]{0,60})\}?/((?:scripts|references|assets)/[\w.@+%/-]*[\w@+%/-])")
#: a path through a placeholder for the skill's folder: ``/abs/path/to/scripts/x.py``, ``/path/to/skill/scripts/x.py``
_PLACEHOLDER_PATH = re.compile(r"(?<![\w.@/$-])(?:/abs(?:olute)?)?/path/to/(?:([\w<>{}.-]{1,80})/)?"
                               r"((?:scripts|references|assets)/[\w.@+%/-]*[\w@+%/-])")
_TOKEN_START = re.compile(r"[\s`'\"(\[<=]")
#: a Markdown file named in prose, or handed over as Claude Code's ``@prompts/orchestrator.md`` (not ``me@x.md``)
_MENTION = re.compile(r"(?<![\w./$@-])@?((?:\./)?[\w-][\w./-]*\.md)\b(?![\w/(-])")
_SCHEME = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")
_PREFIXES = re.compile(rf"^(?:{_SKILL_VAR}|\./)")


@dataclass(frozen=True)
class Citation:
    target: str  # as written, minus a leading ./ or {baseDir}/ ($SKILL_DIR/) and any #anchor or ?query
    raw: str  # as written
    line: int  # 1-based line in SKILL.md
    column: int  # 1-based
    kind: str  # "link" | "path" | "mention" (a bare file name such as FORMS.md in prose) | "installed" (a path
    #            through the skill's installed folder, ~/.claude/skills/NAME/scripts/x.py: may name a file the user makes)
    text: str = field(default="", repr=False)  # the whole line (shared by its citations, not copied)
    end: int = 0  # offset in *text* just after the citation

    @property
    def after(self) -> str:
        """The rest of the line after the citation (to judge a worked invocation)."""
        return self.text[self.end:]


def is_external(target: str) -> bool:
    return bool(_SCHEME.match(target)) and not re.match(r"^[A-Za-z]:[\\/]", target) or target.startswith("#")


def normalise(target: str) -> str:
    target = target.split("#", 1)[0].split("?", 1)[0]
    return _PREFIXES.sub("", target)


def links(text: str) -> Iterator[tuple[int, int, int, int]]:
    """Markdown links and images in one line, left to right: (start, end, target start, target end).

    ``[text](target)``, ``![alt](<target> "title")``; the text may hold ``\\]`` and ``[``, the
    target one level of parentheses (``因子(专业版).md``).
    Linear in the line: the text of every ``[`` inside one bracket ends at the same ``]``,
    so a failed link skips them all (a regular expression saying the same backtracks
    quadratically on ``[[[[...](``), and the ends of targets and titles are looked up once.
    """
    n = len(text)
    pos = 0  # where the previous link ended
    target_at = target_end = -1  # the end of the target run holding offsets target_at..target_end
    close_at = close = -2  # the first ")" at or after close_at (n: none)
    i = text.find("[", pos)
    while i != -1:
        # the link text: up to the first "]" that is not escaped
        j = i + 1
        while True:
            m = _BRACKET_END.search(text, j)
            if m is None or m.group() == "\\" and m.end() >= n:
                return  # no closing "]": no later "[" has one either
            if m.group() == "]":
                break
            j = m.end() + 1
        bracket = m.start()
        found = None
        if bracket + 1 < n and text[bracket + 1] == "(":
            t0 = _SPACES.match(text, bracket + 2).end()
            if t0 < n and text[t0] == "<" and t0 + 1 < n and not _TARGET_END.match(text, t0 + 1):
                t0 += 1
            if not target_at <= t0 <= target_end:
                stop = _TARGET_END.search(text, t0)
                target_at, target_end = t0, stop.start() if stop else n
            t1 = target_end
            if t1 < n and text[t1] == ")" and t1 - t0 <= 500 and text.count("(", t0, t1) > text.count(")", t0, t1):
                after = _TARGET_END.search(text, t1 + 1)  # `因子(专业版).md)`: parentheses in the file name
                if after is not None and text[after.start()] == ")":
                    t1 = after.start()
            k = t1 + 1 if t1 < n and text[t1] == ">" else t1
            if t1 > t0 and k < n:
                if text[k] == ")":
                    found = k + 1
                else:
                    q = _SPACES.match(text, k).end()
                    if q > k and q < n and text[q] in "\"'(":
                        if not close_at <= q + 1 <= close:
                            close_at, close = q + 1, text.find(")", q + 1) % (n + 1)  # none: n
                        if close < n:
                            found = close + 1
        if found is not None:
            start = i - 1 if i - 1 >= pos and text[i - 1] == "!" else i
            yield start, found, t0, t1
            pos = found
            i = text.find("[", pos)
        else:  # every "[" up to the "]" ends at the same "]" and fails the same way
            i = text.find("[", bracket + 1)


def _within(starts: list[int], ends: list[int], offset: int) -> bool:
    """Whether *offset* falls in one of the spans (sorted, not overlapping) ``starts[i]..ends[i]``."""
    k = bisect.bisect_right(starts, offset) - 1
    return k >= 0 and offset < ends[k]


def extract(lines: list[str], first_line: int, owner: str | None = None) -> list[Citation]:
    """Citations in *lines*, which start at line *first_line* of the file.

    *owner*: the name of the skill's folder; a path through it (``~/.claude/skills/OWNER/scripts/x.py``)
    cites ``scripts/x.py``, its column at the start of the whole path, so a worked invocation reads
    as one (``python3 scripts/x.py ...``). A path through another folder is another skill's.
    """
    found: list[Citation] = []
    fences = fence_info(lines)
    folder_variables = _folder_variables(lines, owner) if owner else frozenset()
    for index, text in enumerate(lines):
        info = fences.get(index)
        if info in ("markdown", "md"):
            continue  # a document shown as an example: its links and paths are the example's
        # in a code block ``[text](target)`` is not a link: a call (``f["a"](b)``), a sample of output
        has_link = "](" in text and info is None
        has_path = "scripts/" in text or "references/" in text or "assets/" in text
        if not (has_link or has_path or "]:" in text or ".md" in text):
            continue
        lineno = first_line + index
        # what is cited already: links and a reference definition, then bare paths (each left to right)
        link_starts: list[int] = []
        link_ends: list[int] = []
        path_starts: list[int] = []
        path_ends: list[int] = []
        ref_def = (0, 0)
        for start, end, t0, t1 in links(text) if has_link else ():
            link_starts.append(start)
            link_ends.append(end)
            raw = text[t0:t1]
            if is_external(raw):
                continue
            found.append(Citation(normalise(raw), raw, lineno, t0 + 1, "link", text, end))
        m = _REF_DEF.match(text) if "]:" in text else None
        if m and not is_external(m.group(1)):
            ref_def = m.span()
            found.append(Citation(normalise(m.group(1)), m.group(1), lineno, m.start(1) + 1, "link", text, len(text)))
        for m in _PATH.finditer(text) if has_path else ():
            at = m.start()
            if ref_def[0] <= at < ref_def[1] or _within(link_starts, link_ends, at) \
                    or _within(path_starts, path_ends, at):
                continue
            path_starts.append(at)
            path_ends.append(m.end())
            raw = m.group(1)
            start, end = m.start(1), m.end()
            if start and text[start - 1] in "\"'" and text[end:end + 1] == text[start - 1]:
                start, end = start - 1, end + 1  # "$SKILL_DIR/scripts/x.sh" arg: the quotes belong to the path
            found.append(Citation(normalise(raw), raw, lineno, start + 1, "path", text, end))
        for m in _OWNED_PATH.finditer(text) if has_path and owner else ():
            if m.group(1) != owner or _within(link_starts, link_ends, m.start()) \
                    or _within(path_starts, path_ends, m.start(2)):
                continue
            start = max((t.end() for t in _TOKEN_START.finditer(text, max(0, m.start() - 300), m.start())), default=0)
            if "://" in text[start:m.start()]:
                continue  # a URL's path
            path_starts.append(start)
            path_ends.append(m.end())
            raw, end = text[start:m.end()], m.end()
            if start and text[start - 1] in "\"'" and text[end:end + 1] == text[start - 1] \
                    and _names_launcher(text[:start - 1]):
                start, end = start - 1, end + 1  # bash "${CLAUDE_PLUGIN_ROOT}/skills/NAME/scripts/x.sh" arg
            found.append(Citation(m.group(2), raw, lineno, start + 1, "installed", text, end))
        for m in _placeholder_paths(text, owner, folder_variables) if has_path and owner else ():
            if not (_within(path_starts, path_ends, m.start()) or _within(link_starts, link_ends, m.start())):
                start, end = m.start(), m.end()
                at = bisect.bisect_right(path_starts, start)  # kept in order for _within
                path_starts.insert(at, start)
                path_ends.insert(at, end)
                if start and text[start - 1] in "\"'" and text[end:end + 1] == text[start - 1]:
                    start, end = start - 1, end + 1  # python3 "$SKILL_EVALUATOR_DIR/scripts/x.py" plan.json
                found.append(Citation(m.group(2), m.group(), lineno, start + 1, "path", text, end))
        if ".md" in text:
            for m in _MENTION.finditer(text):
                at = m.start()
                if ref_def[0] <= at < ref_def[1] or _within(link_starts, link_ends, at) \
                        or _within(path_starts, path_ends, at) or "://" in text[max(0, at - 12):at]:
                    continue
                raw = m.group(1)
                found.append(Citation(normalise(raw), raw, lineno, m.start(1) + 1, "mention", text, m.end()))
    return found


#: a fence line; indented as deep as the list item it belongs to (a fence under ``   - step:`` is
#: still a fence, though CommonMark's 0-3 spaces hold only outside lists)
_FENCE_RUN = re.compile(r"^\s*(`{3,}|~{3,})\s*([^\s`]*)")


def _folder_variables(lines: list[str], owner: str) -> frozenset[str]:
    """The shell variables *lines* set to a path of the skill *owner*'s folder
    (``SIGNALBOARD_SKILL="/resolved/absolute/path/to/work-iq-signalboard"``)."""
    assign = re.compile(rf"(?<![\w$])([A-Z][A-Z0-9_]{{0,60}})=[\"']?[^\s\"'=]{{0,200}}/{re.escape(owner)}[\"']?(?![\w/.-])")
    return frozenset(m.group(1) for text in lines if owner in text and "=" in text for m in assign.finditer(text))


def _placeholder_paths(text: str, owner: str, folder_variables: frozenset[str] = frozenset()) -> list[re.Match]:
    """The paths in *text* that name a file of the skill *owner* through a stand-in for its folder: a
    variable named after it (``$SKILL_EVALUATOR_DIR/scripts/x.py`` in skill-evaluator) or set to a path of
    its folder in the same file (*folder_variables*: ``SIGNALBOARD_SKILL="/resolved/path/to/work-iq-signalboard"``), or a placeholder
    (``/abs/path/to/scripts/x.py``, ``/path/to/skill/scripts/x.py``; not ``/path/to/project/scripts/x.sh``,
    nor ``/path/to/claude-skills/scripts/x.py``, a folder of skills).
    Group 2 of each match is the path inside the skill."""
    found = []
    if "$" in text:
        own = re.sub(r"\W", "_", owner).upper()
        names = {f"{own}_{end}" for end in ("DIR", "ROOT", "PATH", "HOME")} | folder_variables
        found += [m for m in _NAMED_VAR_PATH.finditer(text) if m.group(1) in names]
    if "/path/to/" in text:
        found += [m for m in _PLACEHOLDER_PATH.finditer(text)
                  if m.group(1) is None or m.group(1) == owner or re.search(r"skill(?!s)", m.group(1), re.I)]
    return sorted(found, key=lambda m: m.start())


def fence_info(lines: list[str]) -> dict[int, str]:
    """The 0-based index of each line inside a fenced block, and the block's info string in lower
    case (``python``; ``""`` for a bare fence).

    A fence closes at a line of the same character at least as long (so a ```` ````markdown ````
    block may hold ```` ``` ```` blocks of its own).
    """
    found: dict[int, str] = {}
    fence = info = ""
    for index, text in enumerate(lines):
        if "```" not in text and "~~~" not in text:
            if fence:
                found[index] = info
            continue
        m = _FENCE_RUN.match(text)
        if not fence:
            if m:
                fence, info = m.group(1), m.group(2).lower()
            continue
        if m and m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence) and not m.group(2):
            fence = ""
        else:
            found[index] = info
    return found


#: the languages of code blocks that show a project's configuration (a CI workflow, a manifest)
CONFIG_LANGUAGES = frozenset({"yaml", "yml", "json", "jsonc", "json5", "toml", "ini", "cfg", "conf", "properties",
                              "dockerfile", "docker", "hcl", "terraform", "tf", "xml", "env", "dotenv"})


def config_lines(lines: list[str]) -> set[int]:
    """The 1-based numbers of the lines inside code blocks of a configuration language: what they
    show is a project's file (a CI workflow's ``run: ./scripts/deploy.sh``), not a step to take."""
    return {i + 1 for i, info in fence_info(lines).items() if info in CONFIG_LANGUAGES}


#: prose that asks for the span after it to be run: "Run `scripts/x.sh`"
_RUN_VERB = re.compile(r"\b(run|execute|invoke|call|launch)(\s+(it|this|the\s+\w+))?\s*:?\s*$", re.IGNORECASE)
_LAUNCHER = re.compile(
    r"^(?:\$\s+)?((?:[A-Za-z_][A-Za-z0-9_]*=(?:\"[^\"\s]*\"|'[^'\s]*'|[^\s\"']*)\s+)*"  # VAR=value (closed quotes)
    r"(?:(?:bash|sh|zsh|dash|ksh)\s+"  # a shell
    r"|(?:python[23]?(?:\.\d+)?|pypy3?|py)(?:\s+-[A-Za-z]\w*)*\s+"  # Python (python3 -u)
    r"|uv\s+run(?:\s+--?[\w-]+(?:[= ][^\s=-]\S*)?)*\s+(?:python[23]?(?:\.\d+)?\s+)?"  # uv run [--with pkg] [python]
    r"|uvx\s+|pipx\s+run\s+|poetry\s+run\s+python3?\s+)?)$"  # a Python launcher
)


#: a Markdown list item: ``- x``, ``* x``, ``1. x``
LIST_ITEM = re.compile(r"^\s*(?:[-*+]|\d{1,3}[.)])\s")


def list_lead(lines: list[str], number: int, reach: int = 12) -> str | None:
    """The line that introduces the list holding line *number* (1-based): the nearest line above
    it, within *reach* lines, that is neither blank nor a list item ("**Detected patterns:**",
    "Example: when building ..."), or None."""
    for before in range(number - 1, max(0, number - reach), -1):
        text = lines[before - 1]
        if text.strip() and not LIST_ITEM.match(text):
            return text
    return None


def _names_launcher(before: str) -> bool:
    """Whether the code *before* a quoted path ends in an interpreter that runs it (``bash ``,
    ``python3 -u ``), not in a list of paths (``for f in "a/x.sh" "b/x.sh"``)."""
    command = re.split(r"&&|\|\||;|`|\|", before)[-1].lstrip()
    m = _LAUNCHER.match(re.sub(r"^\$\s+", "", command))
    return m is not None and bool(m.group(1).strip())


#: a Markdown heading: ``## Installation / Setup``
_HEADING = re.compile(r"^ {0,3}#{1,6}\s+(.*?)\s*#*\s*$")


def section_heading(lines: list[str], number: int) -> str | None:
    """The text of the nearest Markdown heading above line *number* (1-based), outside code blocks, or None."""
    fenced = None
    for before in range(number - 1, 0, -1):
        text = lines[before - 1]
        if text.lstrip().startswith("#") and (m := _HEADING.match(text)):
            if fenced is None:
                fenced = fence_info(lines[:number])
            if before - 1 not in fenced:
                return m.group(1)
    return None


def fenced_lines(lines: list[str]) -> set[int]:
    """1-based numbers of the lines inside fenced code blocks (the fences excluded), as
    :func:`fence_info` finds them."""
    return {index + 1 for index in fence_info(lines)}


def code_after(lines: list[str], citation: Citation, fenced: bool) -> str | None:
    """The code after *citation* on its line, or None when the citation is prose.

    In an inline code span: up to its closing backtick. On a line of a fenced block: to the end
    of the line, joined with the lines a trailing ``\\`` continues, without a trailing ``# comment``.
    """
    after = citation.after
    if fenced:
        number = citation.line
        while after.rstrip().endswith("\\") and number < len(lines):
            after = after.rstrip()[:-1] + " " + lines[number].strip()
            number += 1
        return re.sub(r"\s+#\s.*$", "", after)
    if lines[citation.line - 1][:citation.column - 1].count("`") % 2 == 0:
        return None
    return after.split("`", 1)[0]


def invocation(lines: list[str], citation: Citation, fenced: bool) -> str | None:
    """The command line a citation starts in code, as written (``bash scripts/x.sh --json a.log``), or None.

    Only code counts: an inline code span, or a line of a fenced block (a trailing ``\\``
    joins the next lines, a trailing ``# comment`` is dropped). What another command does
    with the path (``chmod +x scripts/x.sh``) is not an invocation of it, nor is a bare path in a
    list or a table (unless the prose asks to run it: "Run `scripts/x.sh`"); a command after
    ``&&`` or ``;`` is; ``| jq`` after it stays part of the example.
    """
    after = code_after(lines, citation, fenced)
    if after is None:
        return None  # prose, not code
    before = lines[citation.line - 1][:citation.column - 1]
    if not fenced:
        prose = before[:before.rfind("`")]
        before = before[before.rfind("`") + 1:]
        if not before.strip() and not after.strip() and not _RUN_VERB.search(prose[-40:]):
            return None  # a path named in a list or a table (`scripts/x.py` — what it does), not a call
        if re.match(r":\d+(?::\d+)?$", after.strip()):
            return None  # a place in the source (`scripts/x.py:143`), not a call
    before = re.split(r"&&|\|\||;", before)[-1].lstrip()
    if before[-1:] in ("\"", "'") and after[:1] == before[-1]:
        before, after = before[:-1], after[1:]  # "$HOME/.claude/skills/NAME/scripts/x.sh" --slug t: the quotes are the path's
    producer, _, command = before.rpartition("|")  # `printf 'a\n' | bash scripts/x.sh` keeps its input
    m = _LAUNCHER.match(command.lstrip())
    if m is None:
        return None
    after = re.split(r"&&|\|\||;", after)[0]
    lead = f"{producer.strip()} | " if producer.strip() else ""
    return " ".join(f"{lead}{m.group(1)}{citation.target}{after}".split())


def calls_by_name(lines: list[str], name: str) -> list[str]:
    """The commands in code that run a script by its bare file name (``python3 check.py in.tex``,
    ``./check.py``), as written from the launcher on, in order.

    Prose does not count, nor a name alone in an inline code span (a list of files), nor a name
    inside a path (``tools/check.py``: another file, or a citation :func:`extract` reads).
    """
    if "." not in name:
        return []  # an extensionless name is a word
    found: list[str] = []
    pattern = re.compile(rf"(?<![\w/.-])(\./)?{re.escape(name)}(?![\w/-])")
    fenced = None
    for number, text in enumerate(lines, 1):
        if name not in text:
            continue
        if fenced is None:
            fenced = fenced_lines(lines)
        for m in pattern.finditer(text):
            before, after = text[:m.start()], text[m.end():]
            if number not in fenced:
                if before.count("`") % 2 == 0:
                    continue  # prose
                before, after = before[before.rfind("`") + 1:], after.split("`", 1)[0]
                if not before.strip() and not after.strip():
                    continue  # a file named in a list or a table
            before = re.split(r"&&|\|\||;|\|", before)[-1].strip()
            before = re.sub(r"^\$\s+", "", before)
            found.append(" ".join(f"{before} {m.group()}{after}".split()))
    return found
