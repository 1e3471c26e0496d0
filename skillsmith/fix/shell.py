"""Shell fixes: one tree-sitter parse, each codemod's edits, re-verify with ``bash -n``."""

from __future__ import annotations

from skillsmith.fix.context import FixContext
from skillsmith.fix.edits import apply_edits
from skillsmith.fix.engine import FileFix, Fixer, Unfixable, held_lines
from skillsmith.lang import bashcheck

# -- shell ---------------------------------------------------------------------------------


def transform(script, fixers: list[Fixer], out: FileFix, context: FixContext) -> bytes:
    """Run each codemod's edits on the checked *script*'s tree, re-verify with ``bash -n``.

    The check's tree-sitter tree is the first codemod's; the tree is re-parsed only after a
    codemod changed the bytes, so every codemod sees a tree that matches its source. Each
    codemod is built with *context*, its finding lines moved to where the edits before it
    put them; a codemod whose edits would rewrite a line it must leave alone (a suppressed
    finding's) is not applied.
    """
    f = script.file
    from skillsmith.lang import shell

    data = f.data
    tree = script.sh_tree if script.sh_tree is not None else shell.parse(data)
    if tree is None:
        raise Unfixable(f"the shell parser gave up on it ({shell.GAVE_UP})")
    errors_before = _error_nodes(tree)
    for fx in fixers:
        try:
            edits = fx.impl(context).edits(data, tree)
            new = apply_edits(data, edits) if edits else data
        except Exception as exc:  # a codemod bug must never cost the user their file
            raise Unfixable(f"{fx.name} failed: {type(exc).__name__}: {exc}") from None
        if new != data and touches(data, edits, held_lines(context, fx)):
            continue
        if new != data:
            context = context.shifted(data, edits)
            data = new
            tree = shell.parse(data)
            if tree is None:
                raise Unfixable(f"the shell parser gave up on the fixed script ({shell.GAVE_UP})")
            out.applied.append(fx.name)
            out.fixed_rules |= fx.rules & out.rules
    if data == f.data:
        return data
    if _error_nodes(tree) > errors_before:
        raise Unfixable("the fixed script would have new parse errors; left unchanged")
    # bash cannot run a CRLF script at all; check the syntax of the lines themselves
    try:
        problem = bashcheck.syntax_error(data.replace(b"\r\n", b"\n") if f.newline == "\r\n" else data)
    except bashcheck.NotChecked as why:  # unverified is not verified: the file is not written
        raise Unfixable(f"`bash -n` could not check the fixed script ({why}); left unchanged") from None
    if problem is not None:
        raise Unfixable(f"the fixed script fails `bash -n` (line {problem[0]}: {problem[1]}); left unchanged")
    return data


def touches(data: bytes, edits, lines: set[int]) -> bool:
    """Whether an edit replaces bytes of one of the 1-based *lines* (inserting before or after it is fine)."""
    if not lines:
        return False
    starts = [0] + [i + 1 for i, b in enumerate(data) if b == 0x0A]
    for line in lines:
        if not 0 < line <= len(starts):
            continue
        start = starts[line - 1]
        end = starts[line] - 1 if line < len(starts) else len(data)
        if any(e.start < end and e.end > start and e.end > e.start for e in edits):
            return True
    return False


def _error_nodes(tree) -> int:
    if tree is None or not tree.root_node.has_error:
        return 0
    count, stack = 0, [tree.root_node]
    while stack:
        node = stack.pop()
        if node.type == "ERROR" or node.is_missing:
            count += 1
        stack.extend(c for c in node.children if c.has_error or c.is_missing)
    return count
