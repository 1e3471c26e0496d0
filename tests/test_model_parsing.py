"""The parsers behind the rules: frontmatter, citations, header blocks, shell and Python facts."""

from __future__ import annotations

import time

import pytest

from skillsmith.lang import header, python, shell
from skillsmith.model import citations, frontmatter


class TestFrontmatter:
    def test_fields_and_their_lines(self):
        fm = frontmatter.parse("---\nname: a\ndescription: b\n---\nbody\n")
        assert fm.error is None
        assert fm.data == {"name": "a", "description": "b"}
        assert fm.key_lines == {"name": 2, "description": 3}
        assert fm.body_start == 5

    @pytest.mark.parametrize(
        "text, kind",
        [
            ("# no frontmatter\n", "missing"),
            ("---\nname: a\n", "unclosed"),
            ("---\nname: [\n---\n", "yaml"),
            ("---\n- a\n- b\n---\n", "not-mapping"),
            ("---\nx: !!python/object/apply:os.system [touch /tmp/pwned]\n---\n", "yaml"),
        ],
    )
    def test_problems_are_reported_not_raised(self, text, kind):
        fm = frontmatter.parse(text)
        assert fm.data is None
        assert fm.error.kind == kind

    def test_python_tags_are_never_constructed(self, tmp_path):
        marker = tmp_path / "pwned"
        frontmatter.parse(f"---\nx: !!python/object/apply:os.system ['touch {marker}']\n---\n")
        assert not marker.exists()

    def test_alias_bomb_is_refused_fast(self):
        lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
        for i in range(1, 10):
            prev, cur = chr(ord("a") + i - 1), chr(ord("a") + i)
            lines.append(f"{cur}: &{cur} [{', '.join(['*' + prev] * 9)}]")
        start = time.monotonic()
        fm = frontmatter.parse("---\n" + "\n".join(lines) + "\n---\n")
        assert time.monotonic() - start < 5
        assert fm.error is not None and "alias" in fm.error.message

    def test_error_line_points_into_the_file(self):
        fm = frontmatter.parse("---\nname: ok\ndescription: Use when: x\n---\n")
        assert fm.error.kind == "yaml"
        assert fm.error.line == 3


class TestCitations:
    def test_links_paths_and_mentions(self):
        found = citations.extract(
            [
                "Read [the API](references/api.md#auth) first.",
                "Run `python3 scripts/run.py --json in.csv` then see FORMS.md.",
                "Never https://example.com/scripts/x.sh or [web](https://example.com).",
            ],
            10,
        )
        by_target = {c.target: c for c in found}
        assert by_target["references/api.md"].kind == "link"
        assert by_target["references/api.md"].line == 10
        assert by_target["scripts/run.py"].after.startswith(" --json")
        assert by_target["FORMS.md"].kind == "mention"
        assert all("example.com" not in c.raw for c in found)

    def test_base_dir_prefixes_are_normalised(self):
        found = citations.extract(["`{baseDir}/scripts/a.sh x`", "[t](./assets/t.txt)"], 1)
        assert [c.target for c in found] == ["scripts/a.sh", "assets/t.txt"]


class TestHeader:
    SHELL = [
        "#!/usr/bin/env bash",
        "# Do one thing.",
        "#",
        "# Usage:   x.sh [--json] FILE",
        "# Input:   FILE",
        "# Output:  lines",
        "#          and more lines",
        "# Stderr:  errors",
        "# Exit:    0 ok, 2 usage, 10 drift",
        "#",
        "# Examples:",
        "#   x.sh a",
        "#   x.sh --json a | jq .",
        "set -uo pipefail",
    ]

    def test_shell_block(self):
        h = header.shell_header(self.SHELL)
        assert h.description == "Do one thing."
        assert h.start_line == 2 and h.end_line == 13
        assert set(h.fields) == set(header.FIELDS)
        assert h.fields["Output"].value == "lines and more lines"
        assert h.exit_codes == {0, 2, 10}
        assert h.examples == ["x.sh a", "x.sh --json a | jq ."]

    def test_python_docstring(self):
        doc = "Do one thing.\n\n    Usage: x.py FILE\n    Exit: 0 ok\n\n    Examples:\n      x.py a\n"
        h = header.python_header(doc, 2)
        assert h.description == "Do one thing."
        assert h.fields["Usage"].line == 4
        assert h.examples == ["x.py a"]

    def test_no_block(self):
        assert header.shell_header(["#!/bin/bash", "echo hi"]) is None


class TestShellFacts:
    SRC = b"""#!/bin/bash
set -eu
set -o pipefail
readonly EXIT_USAGE=2
usage() { echo "usage" >&2; exit "$EXIT_USAGE"; }
case "${1:-}" in
  -h|--help) echo help; exit 0 ;;
  -*) usage ;;
esac
cat <<END
exit 9
END
exit 4
"""

    def test_facts(self):
        root = shell.parse(self.SRC).root_node
        assert sorted(c for c, _l, _c in shell.exit_codes(root, self.SRC)) == [0, 2, 4]  # not the heredoc's 9
        assert {"errexit", "nounset", "pipefail"} <= shell.set_options(root, self.SRC)
        assert shell.has_help_branch(root, self.SRC)
        assert shell.has_unknown_flag_exit(root, self.SRC)
        assert not shell.top_level_is_library(root, self.SRC)

    @pytest.mark.parametrize(
        "line, expected",
        [
            ("set -uo pipefail", {"nounset", "pipefail"}),
            ("set -Eeuo pipefail", {"errtrace", "errexit", "nounset", "pipefail"}),
            ("set -o nounset -o pipefail", {"nounset", "pipefail"}),
            ("set -o errexit -o nounset", {"errexit", "nounset"}),
        ],
    )
    def test_set_spellings(self, line, expected):
        src = f"#!/bin/bash\n{line}\n".encode()
        assert shell.set_options(shell.parse(src).root_node, src) == expected

    def test_library(self):
        src = b"# helpers\nlog() { echo \"$*\" >&2; }\nVERSION=1\n"
        assert shell.top_level_is_library(shell.parse(src).root_node, src)


class TestPythonFacts:
    def test_aliases_constants_and_exit_codes(self):
        src = (
            "import sys\nfrom argparse import ArgumentParser as AP\nEXIT_BAD = 4\n"
            "def main():\n    p = AP()\n    p.parse_args()\n    if x:\n        return EXIT_BAD\n    sys.exit(3)\n"
            "if __name__ == '__main__':\n    sys.exit(main())\n"
        )
        module, problem = python.parse(src)
        assert problem is None
        f = python.facts(module)
        assert len(f.parsers) == 1 and f.uses_argparse and f.has_main_guard
        assert {c for c, _l, _c in f.exit_codes} == {2, 3, 4}

    def test_newer_syntax_is_named(self):
        src = 'x = 1\nprint(f"{"nested"}")\n'
        module, problem = python.parse(src)
        if module is not None:
            pytest.skip("this Python already accepts PEP 701 f-strings")
        assert problem.needs == "3.12"


def test_the_facts_of_a_parse_do_not_keep_its_tree_alive():
    """The facts are shared per parse (a cache keyed weakly on the tree): once nothing else holds
    the tree, it and its facts are freed at once, so a run over many files keeps only what it uses."""
    import gc
    import weakref

    module, problem = python.parse("import sys\n\n\ndef main():\n    sys.exit(2)\n\n\nmain()\n")
    assert problem is None
    facts = python.facts(module)
    assert facts.exit_codes and python.facts(module) is facts  # one walk per parse
    gone = weakref.ref(module)
    del module, facts
    gc.disable()  # freed by reference counting alone, not by a later collection
    try:
        assert gone() is None
    finally:
        gc.enable()
