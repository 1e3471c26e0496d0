"""How a file's bytes are text: the UTF-8 BOM, the newline style and a Python coding cookie.

The one detection of these; :class:`skillsmith.model.sourcefile.SourceFile` reads and writes
files with it, and shell codemods (``lang.shell_layout``) insert lines in the file's style.
"""

from __future__ import annotations

import codecs
import io
import tokenize


def has_bom(data: bytes) -> bool:
    """Whether *data* starts with the UTF-8 byte order mark."""
    return data.startswith(codecs.BOM_UTF8)


def newline_style(data: bytes) -> str:
    """The line ending of *data*: ``\\r\\n`` when it holds any, ``\\r`` when it has only lone CRs, else ``\\n``."""
    if b"\r\n" in data:
        return "\r\n"
    if b"\r" in data and b"\n" not in data:
        return "\r"
    return "\n"


def cookie_encoding(data: bytes) -> str:
    """The encoding Python reads *data* in (BOM, coding cookie; ``utf-8-sig`` with a BOM), ``invalid`` for a bad cookie."""
    try:
        enc, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    except SyntaxError:
        return "invalid"
    return enc
