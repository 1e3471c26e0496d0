"""Worked invocations of a script in a skill's Markdown: the command lines that run it.

A ``SKILL.md`` must show each script with a complete call (``python3 scripts/x.py --json
data.csv``). The calls are taken from code only, where a command's start and end are
unambiguous: a line of a fenced block (``$`` prompts, ``#`` comments and ``\\`` continuations
handled) or an inline code span. Prose mentions are citations, not invocations.
"""

from __future__ import annotations

import re
import shlex

_FENCE = re.compile(r"^\s{0,3}(```+|~~~+)")
_SPAN = re.compile(r"(`+)(.+?)\1")
#: where a script's path may start in a command: after a launcher's own words
_ROOT_PREFIX = re.compile(r"(?:\{baseDir\}/|\$\{?CLAUDE_SKILL_DIR\}?/|\./)(?=scripts/)")
#: words that start a script rather than being one of its arguments
LAUNCH_WORDS = {"python", "python3", "py", "uv", "run", "--script", "pipx", "env", "-S", "bash", "sh", "exec",
                "poetry", "pdm", "hatch", "rye", "uvx", "-u", "-B", "-X", "utf8", "sudo", "time"}
_ENDS = {"&&", "||", ";", "&"}


def code_lines(lines: list[str]) -> dict[int, str]:
    """1-based line number -> text of every line inside a fenced code block."""
    inside: str | None = None
    found: dict[int, str] = {}
    for number, text in enumerate(lines, 1):
        m = _FENCE.match(text)
        if m:
            if inside is None:
                inside = m.group(1)[0] * 3
            elif m.group(1).startswith(inside):
                inside = None
            continue
        if inside is not None:
            found[number] = text
    return found


def command_at(lines: list[str], line: int, column: int, fenced: dict[int, str]) -> str | None:
    """The command holding the citation at *line*/*column* (1-based), or None when it is not in code."""
    text = lines[line - 1]
    if line in fenced:
        body = text
        number = line
        while body.rstrip().endswith("\\") and number + 1 in fenced:
            number += 1
            body = body.rstrip()[:-1].rstrip() + " " + fenced[number].strip()
        start = 0
        inline = False
    else:
        for m in _SPAN.finditer(text):
            if m.start(2) <= column - 1 < m.end(2):
                body, start = m.group(2), m.start(2)
                break
        else:
            return None
        inline = True
    prompt = re.match(r"^\s*[$>%]\s+", body)
    if prompt and column - 1 - start >= prompt.end():
        body, start = body[prompt.end():], start + prompt.end()
    return command_of(body, column - 1 - start, inline)


#: one shell word (quotes kept) or an operator, as written
_WORD = re.compile(r"""(?P<op>&&|\|\||[;&|])|(?P<word>(?:[^\s'"\\;&|]+|'[^']*'|"(?:\\.|[^"\\])*"|\\.)+)""")


def command_of(body: str, at: int, inline: bool = False) -> str | None:
    """The one command of shell text *body* that holds offset *at*, from its launcher to its end, as written.

    In an *inline* code span a path alone (```scripts/x.py```) names the file; it is a command
    only with a launcher before it (``python3``, ``./``) or arguments after it.
    """
    words = []  # (text, start, end, is_operator)
    for m in _WORD.finditer(body):
        text = m.group(0)
        if m.group("word") and text.startswith("#"):
            break  # a comment
        words.append((text, m.start(), m.end(), m.group("op") is not None))
    index = next((i for i, (_, start, end, op) in enumerate(words) if not op and start <= at < end), None)
    if index is None:
        return None
    begin = index
    while begin > 0 and not words[begin - 1][3] and words[begin - 1][0] in LAUNCH_WORDS:
        begin -= 1
    if begin > 0 and not words[begin - 1][3]:
        prev = words[begin - 1][0]
        if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*=\S*", prev):
            return None  # the path is an argument of another command (cat scripts/x.py)
    end = index + 1
    while end < len(words) and words[end][0] not in _ENDS:
        end += 1
    if inline and begin == index and end == index + 1 and not words[index][0].startswith("./"):
        return None
    text = body[words[begin][1]:words[end - 1][2]]
    script = words[index][0]
    return text.replace(script, _ROOT_PREFIX.sub("", script.strip("\"'")), 1)


def script_arguments(command: str, script: str) -> list[str] | None:
    """The arguments *command* gives the script whose path ends in *script* (up to a pipe), or None."""
    try:
        lexer = shlex.shlex(command, posix=True, punctuation_chars=";&|<>")
        lexer.whitespace_split = True
        tokens = list(lexer)
    except ValueError:
        return None
    for i, token in enumerate(tokens):
        if token == script or token.endswith("/" + script):
            out = []
            for arg in tokens[i + 1:]:
                if arg in ("|", "||", "&&", ";", "&", ">", ">>", "<", "2>", "2>&1"):
                    break
                out.append(arg)
            return out
    return None
