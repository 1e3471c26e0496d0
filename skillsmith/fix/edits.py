"""Byte-range edits: what the shell codemods return and the engine splices in."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

# -- edits (shell codemods) -----------------------------------------------------------------


@dataclass(frozen=True, order=True)
class Edit:
    """Replace ``source[start:end]`` (byte offsets) with ``text``; ``start == end`` inserts."""

    start: int
    end: int
    text: bytes = b""


def apply_edits(source: bytes, edits: Iterable[Edit]) -> bytes:
    """*source* with *edits* spliced in, from the end backwards. Overlapping edits raise ValueError.

    Two inserts at the same offset keep their given order.
    """
    ordered = sorted(enumerate(edits), key=lambda pair: (pair[1].start, pair[1].end, pair[0]))
    previous_end = 0
    for _, e in ordered:
        if not 0 <= e.start <= e.end <= len(source):
            raise ValueError(f"edit out of range: {e}")
        if e.start < previous_end:
            raise ValueError(f"overlapping edits at byte {e.start}")
        previous_end = e.end
    out = bytearray(source)
    for _, e in reversed(ordered):
        out[e.start:e.end] = e.text
    return bytes(out)
