"""``SourceFile.encode``: new text goes back encoded the way the file was (the one write-back)."""

from __future__ import annotations

import codecs
from pathlib import Path

import pytest

from skillsmith.model.sourcefile import EncodeError, SourceFile, newline_style


def source(data: bytes, rel: str = "scripts/x.py") -> SourceFile:
    return SourceFile.from_bytes(Path("/s") / rel, rel, data)


@pytest.mark.parametrize("data", [
    b"a\nb\n",
    b"a\r\nb\r\n",
    b"a\rb\r",
    b"a\nb",
    b"a\r\nb",
    codecs.BOM_UTF8 + b"a\r\nb\r\n",
    b"# -*- coding: latin-1 -*-\nname = '\xe9'\n",
    b"",
])
def test_unchanged_text_encodes_to_the_same_bytes(data):
    f = source(data)
    assert "\r" not in f.edit_text
    assert f.encode(f.edit_text) == data


def test_inserted_lines_take_the_files_newline_style_and_bom():
    f = source(codecs.BOM_UTF8 + b"a\r\nb\r\n", "SKILL.md")
    assert f.edit_text == "a\nb\n"
    assert f.encode("a\nnew\nb\n") == codecs.BOM_UTF8 + b"a\r\nnew\r\nb\r\n"
    assert source(b"a\rb\r").encode("a\nnew\nb\n") == b"a\rnew\rb\r"


def test_the_trailing_newline_state_is_kept_both_ways():
    assert source(b"a\nb").encode("a\nb\nc\n") == b"a\nb\nc"
    assert source(b"a\r\nb\r\n").encode("a\nb\nc") == b"a\r\nb\r\nc\r\n"


def test_the_coding_cookies_encoding_is_used_and_what_it_cannot_hold_is_refused():
    f = source(b"# -*- coding: latin-1 -*-\nname = '\xe9'\n")
    assert f.encoding == "iso-8859-1"
    assert f.encode("# -*- coding: latin-1 -*-\nname = '\xe8'\n") == b"# -*- coding: latin-1 -*-\nname = '\xe8'\n"
    with pytest.raises(EncodeError, match="cannot encode '€'"):
        f.encode("# -*- coding: latin-1 -*-\nname = '€'\n")


def test_a_coding_cookie_may_not_move_or_change():
    f = source(b"# -*- coding: latin-1 -*-\nx = 1\n")
    with pytest.raises(EncodeError, match="coding cookie"):
        f.encode("#!/usr/bin/env python3\n'''Doc.'''\n# -*- coding: latin-1 -*-\nx = 1\n")
    with pytest.raises(EncodeError, match="coding cookie"):
        source(b"x = 1\n").encode("# -*- coding: latin-1 -*-\nx = 1\n")
    # outside Python a line that looks like a cookie is just text
    md = source(b"# -*- coding: latin-1 -*-\n", "notes.md")
    assert md.encode("text\n# -*- coding: latin-1 -*-\n") == b"text\n# -*- coding: latin-1 -*-\n"


def test_a_file_that_is_not_text_cannot_take_new_text():
    with pytest.raises(EncodeError, match="not decodable"):
        source(b"\xff\xfe bad utf-8\n", "SKILL.md").encode("text\n")


def test_newline_style():
    assert [newline_style(d) for d in (b"a\r\nb\n", b"a\rb", b"a\nb\r", b"")] == ["\r\n", "\r", "\n", "\n"]
