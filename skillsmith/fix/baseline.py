"""Inline ignores for a baseline: a ``skillsmith: ignore[ID]`` comment where a file provably means the same with it.

``skillsmith init --baseline`` records the findings a collection has today, so ``check`` can
run in CI at once and the list can be burnt down. A finding on a line that can carry a comment
gets one at the end of its line, or of the line above (a comment silences its own line and the
next), naming the rule IDs and, as the reason, ``baseline:`` and the rules' names
(:func:`skillsmith.rules.suppression.ignore_comment`). Everything else is left to the config's
``per-file-ignores`` (:mod:`skillsmith.scaffold.adopt`).

A comment goes only where the file means the same with it, and that is proved, not assumed:

- Python: the file's ``ast`` is the same (comments are not in it; a ``#`` inside a string or
  after a backslash would change or break it); never on a shebang or coding-cookie line;
- shell: tree-sitter's tree without its comment nodes is the same, it has no new error, and
  ``bash -n`` accepts the file as it did; never on the shebang line, a comment line (the header
  block is the script's contract) or a blank line;
- Markdown: the frontmatter's data and key lines and the citations of the body are the same; a
  YAML comment in the frontmatter, an HTML comment in the body, never in fenced code, an HTML
  block, a table, a heading, an indented line or a line that ends in a hard break.

No line that already holds a comment gets a second one. The new text is written back as the
file was encoded (:meth:`SourceFile.encode`); a file that cannot take it is left alone.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field
from typing import Callable

from skillsmith.lang.interpreter import SCRIPT_SUFFIXES, interpreter_language, shebang_interpreter
from skillsmith.model.sourcefile import SourceFile
from skillsmith.rules.finding import Finding
from skillsmith.rules.suppression import ignore_comment

MARKDOWN_SUFFIXES = (".md", ".markdown")
_COOKIE = re.compile(r"^[ \t\f]*#.*?coding[:=]")
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
#: Markdown lines whose meaning text at their end would change: tables, HTML, headings,
#: setext underlines and thematic breaks, link reference definitions
_MARKDOWN_BLOCK = re.compile(r"^\s*([|<]|#{1,6}(\s|$)|=+\s*$|([-*_]\s*){3,}$|\[[^\]]+\]:)")


def language(source: SourceFile) -> str | None:
    """``python``, ``shell`` or ``markdown`` for a file that can carry an inline ignore, else None."""
    if source.suffix in MARKDOWN_SUFFIXES:
        return "markdown"
    return SCRIPT_SUFFIXES.get(source.suffix) or interpreter_language(shebang_interpreter(source.shebang))


@dataclass
class Placed:
    """What :func:`inline_ignores` did to one file."""

    text: str | None  # the new text (``\\n`` newlines), None when nothing was placed
    placed: list[Finding] = field(default_factory=list)
    unplaced: list[Finding] = field(default_factory=list)


def inline_ignores(source: SourceFile, findings: list[Finding], reason: Callable[[list[str]], str]) -> Placed:
    """*source*'s text with an ignore comment for each of *findings* that can carry one.

    *findings* are in *source*; ``reason(ids)`` is the text after a comment's rule IDs.
    """
    kind = language(source)
    text = source.edit_text
    if kind is None or text is None:
        return Placed(None, [], list(findings))
    lines = text.split("\n")
    proof = Proof(kind, text)
    if not proof.valid:
        return Placed(None, [], list(findings))
    by_line: dict[int, list[Finding]] = {}
    for f in sorted(findings, key=lambda f: (f.line, f.rule)):
        by_line.setdefault(f.line, []).append(f)
    # each line's comment goes on it or the line above, where the language allows one ...
    options = {line: [t for t in (line, line - 1) if proof.may_carry(lines, t)] for line in by_line}
    unplaced = [f for line, group in by_line.items() if not options[line] for f in group]
    first: dict[int, list[Finding]] = {}
    for line, group in by_line.items():
        if options[line]:
            first.setdefault(options[line][0], []).extend(group)
    # ... and stays only where the file provably means the same: all at once, else one by one
    accepted: dict[int, list[Finding]] = {}
    if first and proof.same(with_comments(lines, first, reason, kind)):
        accepted = first
    elif first:
        for line, group in by_line.items():
            for at in options[line]:
                trial = {**accepted, at: accepted.get(at, []) + group}
                if proof.same(with_comments(lines, trial, reason, kind)):
                    accepted = trial
                    break
            else:
                unplaced.extend(group if options[line] else ())  # (lines without options are in already)
    placed = [f for group in accepted.values() for f in group]
    new_text = with_comments(lines, accepted, reason, kind) if accepted else None
    return Placed(new_text, placed, sorted(unplaced, key=lambda f: (f.line, f.rule)))


def with_comments(lines: list[str], groups: dict[int, list[Finding]], reason: Callable[[list[str]], str],
                  kind: str) -> str:
    """*lines* joined, each line of *groups* (1-based) ending in the comment for its findings."""
    out = list(lines)
    for at, group in groups.items():
        ids = sorted({f.rule for f in group})
        html = kind == "markdown" and not Proof.in_frontmatter(lines, at)
        comment = ignore_comment(ids, reason(ids), markdown=html)
        line = out[at - 1]
        out[at - 1] = line + comment if not line.strip() else line + (" " if html else "  ") + comment
    return "\n".join(out)


#: tree-sitter-bash nodes whose newlines separate statements: a comment there is a comment to bash
SHELL_BETWEEN_STATEMENTS = frozenset({
    "program", "do_group", "if_statement", "elif_clause", "else_clause", "while_statement", "for_statement",
    "case_statement", "case_item", "function_definition", "subshell", "list", "pipeline", "redirected_statement",
})


class Proof:
    """What must stay the same in a file of one language, and which of its lines may carry a comment."""

    def __init__(self, kind: str, text: str) -> None:
        self.kind = kind
        self.text = text
        self.lines = text.split("\n")
        self._shell_tree = None
        self.before = self.meaning(text)
        self.valid = self.before is not None
        self.comment_rows = self.commented_rows() if self.valid else set()

    # -- which lines ---------------------------------------------------------------------

    @staticmethod
    def in_frontmatter(lines: list[str], at: int) -> bool:
        """Whether line *at* (1-based) is inside a SKILL.md-style ``---`` frontmatter block."""
        if not lines or lines[0].rstrip() != "---":
            return False
        close = next((i for i in range(1, len(lines)) if lines[i].rstrip() in ("---", "...")), None)
        return close is not None and 1 < at <= close

    def may_carry(self, lines: list[str], at: int) -> bool:
        """Whether line *at* (1-based) is one this language lets a comment end, before the proof."""
        if not 1 <= at <= len(lines) or at in self.comment_rows:
            return False
        line = lines[at - 1]
        if self.kind == "python":
            if at == 1 and line.startswith("#!") or at <= 2 and _COOKIE.match(line):
                return False
            return "#" not in line and not line.rstrip().endswith("\\")
        if self.kind == "shell":
            if at == 1 and line.startswith("#!"):
                return False
            stripped = line.strip()
            return (bool(stripped) and not stripped.startswith("#") and not stripped.endswith("\\")
                    and self.shell_line_ends_a_statement(at))
        return self.markdown_may_carry(lines, at)

    def shell_line_ends_a_statement(self, at: int) -> bool:
        """Whether the newline that ends line *at* is where bash reads a comment as one.

        That is between statements (in a script, a block, a loop, a case, a function, ``$( )``,
        after ``&&`` or ``|``, or after a heredoc's opening line), never inside an arithmetic
        expression, a test, a string, an expansion, an array or a heredoc's body, where bash
        reads a ``#`` as text (or fails only when the line runs) though ``bash -n`` accepts it.
        """
        from skillsmith.lang import shell

        data = self.text.encode("utf-8", "surrogateescape")
        end = -1
        for _ in range(at):
            end = data.find(b"\n", end + 1)
            if end < 0:
                return False
        tree = self._shell_tree or shell.parse(data)
        if tree is None:  # the parser gave up: no line is known to be one
            return False
        self._shell_tree = tree
        node = tree.root_node.descendant_for_byte_range(end, end + 1)
        kind = node.type
        if kind in SHELL_BETWEEN_STATEMENTS:
            return True
        first = node.children[0].type if node.children else ""
        if kind == "compound_statement":
            return first == "{"  # a brace group; `(( ))` arithmetic is a compound statement too
        if kind == "command_substitution":
            return first == "$("  # not backticks
        if kind == "heredoc_redirect":
            body = next((c for c in node.children if c.type == "heredoc_body"), None)
            return body is None or end < body.start_byte
        return False

    def markdown_may_carry(self, lines: list[str], at: int) -> bool:
        line = lines[at - 1]
        if not line.strip():
            return False
        if self.in_frontmatter(lines, at):
            return "#" not in line
        if at == 1 and line.rstrip() == "---":
            return False
        if line.startswith(("    ", "\t")) or _MARKDOWN_BLOCK.match(line) or line.endswith(("  ", "\\")):
            return False
        fence = None
        in_comment = False
        for prior in lines[: at - 1]:
            m = _FENCE.match(prior)
            if fence is None and m:
                fence = m.group(1)[0] * 3
            elif fence is not None and prior.strip().startswith(fence):
                fence = None
            if fence is None:
                in_comment = (in_comment or "<!--" in prior) and "-->" not in prior.rsplit("<!--", 1)[-1]
        return fence is None and not in_comment and not _FENCE.match(line) and "<!--" not in line and "-->" not in line

    def commented_rows(self) -> set[int]:
        """Lines (1-based) that already hold a comment: none gets a second one."""
        if self.kind == "python":
            import io
            import tokenize

            rows = set()
            try:
                for tok in tokenize.generate_tokens(io.StringIO(self.text).readline):
                    if tok.type == tokenize.COMMENT:
                        rows.add(tok.start[0])
            except (tokenize.TokenError, SyntaxError, IndentationError):
                pass
            return rows
        if self.kind == "shell":
            from skillsmith.lang import shell

            tree = shell.parse(self.text.encode("utf-8", "surrogateescape"))
            if tree is None:  # the parser gave up: any line may hold one
                return set(range(1, len(self.lines) + 1))
            return {node.start_point[0] + 1 for node in shell.walk(tree.root_node) if node.type == "comment"}
        return {i for i, line in enumerate(self.lines, 1) if "<!--" in line or "-->" in line}

    # -- the proof -------------------------------------------------------------------------

    def meaning(self, text: str):
        """What the file means, comments aside, or None when that cannot be told (no proof possible)."""
        if self.kind == "python":
            from skillsmith.lang.python import parse

            module, problem = parse(text)
            return None if module is None else ast.dump(module)
        if self.kind == "shell":
            return shell_meaning(text)
        return markdown_meaning(text)

    def same(self, new_text: str) -> bool:
        after = self.meaning(new_text)
        return after is not None and after == self.before


def shell_meaning(text: str):
    """Every node of the tree but comments (type, and text for leaves), when ``bash -n`` accepts *text*."""
    from skillsmith.lang import shell
    from skillsmith.lang.bashcheck import NotChecked, syntax_error

    data = text.encode("utf-8", "surrogateescape")
    tree = shell.parse(data)
    if tree is None or tree.root_node.has_error:  # no tree (the parser gave up) is no proof
        return None
    try:
        if syntax_error(data) is not None:
            return None
    except NotChecked:
        return None  # no verdict is no proof
    return tuple((node.type, shell.text(node, data) if node.child_count == 0 else "")
                 for node in shell.walk(tree.root_node) if node.type != "comment")


def markdown_meaning(text: str):
    """The frontmatter's data and key lines, and the body's citations (where, what), of *text*."""
    from skillsmith.model import citations, frontmatter

    fm = frontmatter.parse(text)
    lines = text.split("\n")
    body = lines[fm.body_start - 1:] if fm.data is not None else lines
    first = fm.body_start if fm.data is not None else 1
    cited = tuple((c.target, c.raw, c.line, c.column, c.kind) for c in citations.extract(body, first))
    return (repr(fm.data), tuple(sorted(fm.key_lines.items())), fm.end_line, fm.error is None, cited)
