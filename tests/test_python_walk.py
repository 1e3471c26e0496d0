"""The one walk of a Python parse (``lang/python.py``): the rules, the checklist and the script
evidence share it instead of walking the tree again, so it must give what ``ast`` gives.

``python.walk`` is ``list(ast.walk(...))`` node for node; ``top_level_walks`` is each top-level
statement's own ``ast.walk``; ``parent_map`` is the parent ``ast.iter_child_nodes`` names; and
the exit sites found through them are those in nested statements too.
"""

from __future__ import annotations

import ast
import textwrap

import pytest
from conftest import FIXTURES

from skillsmith.lang import python

TRICKY = textwrap.dedent('''\
    """Doc."""
    import sys as system, os.path
    from pathlib import Path

    EXIT_USAGE = 2

    @decorator(lambda x: [y for y in x if y])
    class Tool(Base, metaclass=Meta):
        LIMIT: int = 3

        async def run(self, *args, key=None, **kw):
            async with open_it() as (a, b):
                async for item in stream():
                    yield {k: v for k, v in item.items()}
            try:
                pass
            except* (ValueError, TypeError) as exc:
                raise SystemExit(EXIT_USAGE) from exc

    def main(argv=None):
        match argv:
            case [first, *rest] if first:
                return 0
            case {"k": value}:
                return 1
            case _:
                pass
        with open(__file__) as fh, open(os.path.devnull, "w"):
            del fh
        return f"{argv!r:>10}" and (lambda: (yield))

    if __name__ == "__main__":
        system.exit(main())
    ''')


def _sources() -> list[tuple[str, str]]:
    found = [("tricky", TRICKY)]
    for path in sorted(FIXTURES.rglob("*.py"))[:60]:
        text = path.read_text(encoding="utf-8", errors="replace")
        if python.parse(text)[0] is not None:
            found.append((str(path.relative_to(FIXTURES)), text))
    return found


SOURCES = _sources()
#: nodes CPython shares between trees (``Load()``, ``Add()``): each has many parents
SHARED = (ast.expr_context, ast.operator, ast.unaryop, ast.cmpop, ast.boolop)


@pytest.mark.parametrize("name,text", SOURCES, ids=[n for n, _ in SOURCES])
def test_the_one_walk_gives_what_ast_gives(name, text):
    module = ast.parse(text)
    expected = list(ast.walk(module))
    got = python.walk(module)
    assert len(got) == len(expected) and all(a is b for a, b in zip(got, expected))
    facts = python.facts(module)
    assert len(facts.nodes) == len(expected) - 1 and all(a is b for a, b in zip(facts.nodes, expected[1:]))

    for stmt, nodes in python.top_level_walks(module, facts):
        own = list(ast.walk(stmt))
        assert len(nodes) == len(own) and all(a is b for a, b in zip(nodes, own))

    parents = {}
    for stmt in module.body:
        for node in ast.walk(stmt):
            for child in ast.iter_child_nodes(node):
                if not isinstance(child, SHARED):
                    parents[id(child)] = node
    got_parents = {k: v for k, v in python.parent_map(facts).items() if not isinstance(v, SHARED)}
    assert {k: v for k, v in got_parents.items() if k in parents} == parents
    assert set(got_parents) - set(parents) <= {id(n) for n in facts.nodes if isinstance(n, SHARED)}
    assert all(list(python.children(n)) == list(ast.iter_child_nodes(n)) for n in expected)


NESTED_EXITS = textwrap.dedent('''\
    import os
    import sys


    def load(path):
        if not os.path.exists(path):
            print("no such file", file=sys.stderr)
            sys.exit(3)
        return path


    if __name__ == "__main__":
        if len(sys.argv) < 2:
            print("Usage: python tool.py <csv_file>")
            sys.exit(1)
        try:
            load(sys.argv[1])
        except Exception as e:
            print(f"Error: {e}")
            sys.exit(4)
        else:
            for _ in range(2):
                raise SystemExit(0)
    ''')


def test_exits_in_nested_statements_are_found_with_the_hint_around_them():
    module = ast.parse(NESTED_EXITS)
    sites = python.exit_sites(module, python.facts(module))
    assert [(s.code, s.line) for s in sites] == [(3, 8), (1, 15), (4, 20), (0, 23)]
    hints = {s.code: s.hint for s in sites}
    assert "not found" in hints[3] and "no such file" in hints[3]
    assert "usage" in hints[1]
    assert "error:" in hints[4]
