"""A file read once: bytes, encoding, newline style and lazily built views of its text.

It is also the one place that writes text back the way the file was encoded
(:meth:`SourceFile.encode`): every edit of an existing file (fixes, ``add script``, the
answers file) goes through it.
"""

from __future__ import annotations

import codecs
import os
import stat
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

from skillsmith.lang.encoding import cookie_encoding, has_bom, newline_style

#: files larger than this are not read (a finding says so)
MAX_BYTES = 1024 * 1024

TEXT_SUFFIXES = frozenset(
    ".md .markdown .txt .rst .py .sh .bash .zsh .json .yaml .yml .toml .cfg .ini .js .mjs .cjs .ts "
    ".mts .cts .html .htm .css .csv .tsv .xml .sql .j2 .jinja .tmpl .template .org .env".split()
)


class EncodeError(ValueError):
    """New text cannot be written the way the original file was encoded; the message says why."""


@dataclass
class SourceFile:
    """One regular file of a skill, read at most once."""

    path: Path  # absolute
    rel: str  # POSIX path relative to the skill (or to the given path for loose scripts)
    size: int
    mode: int
    max_bytes: int = MAX_BYTES
    # with size and mode, what tells an unchanged file without reading it (see rules/snapshot.py)
    mtime_ns: int = 0
    ctime_ns: int = 0
    inode: int = 0
    device: int = 0
    _data: bytes | None = field(default=None, repr=False)
    _read_error: str | None = field(default=None, repr=False)
    _read: bool = field(default=False, repr=False)

    @classmethod
    def from_path(cls, path: Path, rel: str, st: os.stat_result | None = None, max_bytes: int = MAX_BYTES):
        st = st or path.stat()
        return cls(path=path, rel=rel, size=st.st_size, mode=stat.S_IMODE(st.st_mode), max_bytes=max_bytes,
                   mtime_ns=st.st_mtime_ns, ctime_ns=st.st_ctime_ns, inode=st.st_ino, device=st.st_dev)

    @classmethod
    def from_bytes(cls, path: Path, rel: str, data: bytes, mode: int = 0o644) -> "SourceFile":
        return cls(path=path, rel=rel, size=len(data), mode=mode, _data=data, _read=True)

    # -- raw bytes --------------------------------------------------------------------------

    @property
    def too_large(self) -> bool:
        return self.size > self.max_bytes

    def _load(self) -> None:
        if self._read:
            return
        self._read = True
        if self.too_large:
            self._read_error = f"larger than {self.max_bytes} bytes ({self.size} bytes); not read"
            return
        try:
            fd = os.open(self.path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
            with os.fdopen(fd, "rb") as fh:
                self._data = fh.read(self.max_bytes + 1)
        except OSError as exc:
            self._read_error = exc.strerror or str(exc)
            return
        if len(self._data) > self.max_bytes:
            self._read_error = f"larger than {self.max_bytes} bytes; not read"
            self._data = None

    @property
    def data(self) -> bytes | None:
        """The file's bytes, or None when it could not be read (see :attr:`read_error`)."""
        self._load()
        return self._data

    @property
    def read_error(self) -> str | None:
        self._load()
        return self._read_error

    @property
    def executable(self) -> bool:
        return bool(self.mode & 0o111)

    @cached_property
    def suffix(self) -> str:
        """``.py`` for ``scripts/run.PY``; ``""`` for ``Makefile``, ``.bashrc`` and ``name.``."""
        ext = os.path.splitext(self.rel.rpartition("/")[2])[1]
        return "" if ext == "." else ext.lower()

    @cached_property
    def is_binary(self) -> bool:
        """NUL bytes in the first 8 KB (the test hosts use to refuse reading a file)."""
        data = self.data
        return data is not None and b"\0" in data[:8192]

    # -- text --------------------------------------------------------------------------------

    @cached_property
    def bom(self) -> bool:
        return has_bom(self.data or b"")

    @cached_property
    def cookie_applies(self) -> bool:
        """Whether a Python coding cookie decides the encoding (``.py`` files and ``#!...python`` scripts)."""
        data = self.data or b""
        return self.suffix == ".py" or data.startswith(b"#!") and b"python" in data[:80]

    @cached_property
    def encoding(self) -> str:
        """``utf-8`` (or a Python coding cookie's encoding for ``.py`` files)."""
        if not self.cookie_applies:
            return "utf-8"
        enc = cookie_encoding(self.data or b"")
        return "utf-8" if enc in ("utf-8-sig", "invalid") else enc

    @cached_property
    def text(self) -> str | None:
        """The decoded text (BOM removed), or None for unreadable, binary or undecodable files."""
        data = self.data
        if data is None or self.is_binary:
            return None
        if self.bom:
            data = data[len(codecs.BOM_UTF8):]
        try:
            return data.decode(self.encoding)
        except (UnicodeDecodeError, LookupError):
            return None

    @cached_property
    def decode_error(self) -> tuple[int, int, str] | None:
        """(line, column, reason) of the first byte that is not valid in the file's encoding."""
        data = self.data
        if data is None or self.is_binary or self.text is not None:
            return None
        try:
            data.decode(self.encoding)
        except UnicodeDecodeError as exc:
            line = data.count(b"\n", 0, exc.start) + 1
            col = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
            return line, col, f"byte 0x{data[exc.start]:02x} is not valid {self.encoding}"
        except LookupError:
            return 1, 1, f"unknown encoding {self.encoding!r}"
        return None

    @cached_property
    def newline(self) -> str:
        """The file's line ending (see :func:`skillsmith.lang.encoding.newline_style`)."""
        return newline_style(self.data or b"")

    @cached_property
    def edit_text(self) -> str | None:
        """:attr:`text` with :attr:`newline` turned into ``\\n``: what edits work on and :meth:`encode` takes."""
        text = self.text
        if text is None or self.newline == "\n":
            return text
        return text.replace(self.newline, "\n")

    def encode(self, text: str) -> bytes:
        """*text* (``\\n`` newlines, as edited) as bytes encoded the way this file was.

        Kept from the original: the BOM, the encoding (a Python coding cookie's), the newline
        style (every ``\\n`` becomes :attr:`newline`) and whether the file ends with a newline.
        Raises :class:`EncodeError` when the file was not text, when *text* holds characters
        the encoding cannot represent, or when a coding cookie would move or change (it must
        stay in the first two lines and name the same encoding).
        """
        old = self.edit_text
        if old is None:
            raise EncodeError("not decodable text")
        ends = old.endswith("\n")
        if text.endswith("\n") != ends:
            text = text + "\n" if ends else text.rstrip("\n")
        if self.newline != "\n":
            text = text.replace("\n", self.newline)
        try:
            encoded = text.encode(self.encoding)
        except UnicodeEncodeError as exc:
            bad = exc.object[exc.start:exc.end]
            raise EncodeError(f"{self.encoding} cannot encode {bad!r}, which the new text needs") from None
        data = (codecs.BOM_UTF8 if self.bom else b"") + encoded
        if self.cookie_applies and cookie_encoding(data) != cookie_encoding(self.data or b""):
            raise EncodeError("the coding cookie would move out of the first two lines or change")
        return data

    @cached_property
    def lines(self) -> list[str]:
        """Lines of :attr:`text` without their line endings."""
        return (self.text or "").splitlines()

    @cached_property
    def python_parse(self):
        """``(ast.Module or None, SyntaxProblem or None)``: the one ``ast`` parse of this file's text.

        Built on first use and shared by everything that reads this version of the file: the
        rules, the fix engine's checks before and after a fix, and the check after the fix.
        """
        from skillsmith.lang import python

        if self.text is None:
            return None, None
        return python.parse(self.text, str(self.path))

    @cached_property
    def shebang(self) -> str | None:
        text = self.text
        if text is None or not text.startswith("#!"):
            return None
        return text.split("\n", 1)[0].rstrip("\r")

    @property
    def shebang_works(self) -> bool:
        """Whether ``./file`` would run the shebang's interpreter (:func:`shebang_works`)."""
        return shebang_works(self.data or b"")

    def line_col(self, offset: int) -> tuple[int, int]:
        """1-based line and column of character *offset* in :attr:`text`."""
        text = self.text or ""
        line = text.count("\n", 0, offset) + 1
        col = offset - (text.rfind("\n", 0, offset) + 1) + 1
        return line, col


def shebang_works(data: bytes) -> bool:
    """Whether the kernel runs *data*'s shebang: ``#!`` first (no BOM before it) and no CR ending
    its line (``env: 'python3\\r'``)."""
    return data.startswith(b"#!") and not data.split(b"\n", 1)[0].endswith(b"\r")
