"""SKILL.md frontmatter, parsed safely.

Only YAML's safe subset is accepted: no ``!!python/...`` tags, no anchors or aliases (which
is how "billion laughs" bombs are built), at most 64 KB. A problem becomes a
:class:`FrontmatterError` with a line, never an exception that escapes.
"""

from __future__ import annotations

from dataclasses import dataclass, field

MAX_FRONTMATTER_BYTES = 64 * 1024


@dataclass
class FrontmatterError:
    kind: str  # "missing" | "unclosed" | "yaml" | "not-mapping"
    message: str
    line: int = 1
    column: int = 1


@dataclass
class Frontmatter:
    data: dict | None  # None when absent or broken
    error: FrontmatterError | None
    key_lines: dict[str, int] = field(default_factory=dict)  # top-level key -> 1-based line
    start_line: int = 1  # line of the opening ---
    end_line: int = 0  # line of the closing --- (0 when unclosed)
    body_start: int = 1  # 1-based line where the body begins
    raw: str = ""


def split(text: str) -> tuple[list[str], int | None]:
    """The lines of *text* and the index of the closing ``---`` line, if there is frontmatter."""
    lines = text.splitlines()
    if not lines or lines[0].rstrip() != "---":
        return lines, None
    for i in range(1, len(lines)):
        if lines[i].rstrip() in ("---", "..."):
            return lines, i
    return lines, -1


def parse(text: str) -> Frontmatter:
    lines, close = split(text)
    if close is None:
        return Frontmatter(None, FrontmatterError("missing", "SKILL.md does not start with a '---' frontmatter block"))
    if close == -1:
        return Frontmatter(
            None,
            FrontmatterError("unclosed", "frontmatter opened with '---' on line 1 is never closed"),
            body_start=len(lines) + 1,
        )
    raw = "\n".join(lines[1:close])
    fm = Frontmatter(None, None, start_line=1, end_line=close + 1, body_start=close + 2, raw=raw)
    if len(raw.encode("utf-8", "replace")) > MAX_FRONTMATTER_BYTES:
        fm.error = FrontmatterError("yaml", f"frontmatter is larger than {MAX_FRONTMATTER_BYTES} bytes")
        return fm
    data, key_lines, error = load_yaml(raw, line_offset=1)
    fm.key_lines = key_lines
    if error:
        fm.error = error
        return fm
    if data is None:
        data = {}
    if not isinstance(data, dict):
        fm.error = FrontmatterError("not-mapping", f"frontmatter is a {yaml_type(data)}, not a mapping of fields", 2)
        return fm
    fm.data = data
    return fm


def yaml_type(value: object) -> str:
    return {list: "list", str: "string", int: "number", float: "number", bool: "boolean"}.get(
        type(value), type(value).__name__
    )


def load_yaml(raw: str, line_offset: int = 0):
    """Parse *raw* with a safe loader that refuses aliases. Returns (data, key_lines, error)."""
    import yaml

    Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    loader = Loader(raw)
    try:
        try:
            node = loader.get_single_node()
            if node is None:
                return None, {}, None
            bad = _first_alias_or_tag(node)
            if bad is not None:
                return None, {}, FrontmatterError("yaml", bad[0], bad[1] + line_offset, bad[2])
            key_lines = {}
            if isinstance(node, yaml.MappingNode):
                for key, _ in node.value:
                    if isinstance(key, yaml.ScalarNode):
                        key_lines.setdefault(key.value, key.start_mark.line + 1 + line_offset)
            data = loader.construct_document(node)
            return data, key_lines, None
        finally:
            loader.dispose()
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = (mark.line + 1 + line_offset) if mark else 1 + line_offset
        col = (mark.column + 1) if mark else 1
        problem = exc.problem or exc.context or "invalid YAML"
        return None, {}, FrontmatterError("yaml", f"invalid YAML: {problem}", line, col)
    except yaml.YAMLError as exc:
        return None, {}, FrontmatterError("yaml", f"invalid YAML: {exc}", 1 + line_offset)
    except RecursionError:
        return None, {}, FrontmatterError("yaml", "invalid YAML: nested too deeply", 1 + line_offset)


_SAFE_TAG_PREFIX = "tag:yaml.org,2002:"
_SAFE_TAGS = {
    _SAFE_TAG_PREFIX + t
    for t in ("str", "int", "float", "bool", "null", "map", "seq", "timestamp", "binary", "set", "omap", "pairs", "merge", "value")
}


def _first_alias_or_tag(root):
    """(message, line, column) for the first alias or non-standard tag in the node tree."""
    import yaml

    seen = set()
    stack = [root]
    while stack:
        node = stack.pop()
        if id(node) in seen:
            mark = node.start_mark
            return "YAML anchors and aliases are not allowed in frontmatter", mark.line + 1, mark.column + 1
        seen.add(id(node))
        if node.tag not in _SAFE_TAGS:
            mark = node.start_mark
            return f"YAML tag {node.tag!r} is not allowed (safe YAML only)", mark.line + 1, mark.column + 1
        if isinstance(node, yaml.MappingNode):
            for key, value in node.value:
                stack.extend((key, value))
        elif isinstance(node, yaml.SequenceNode):
            stack.extend(node.value)
    return None
