"""The lines of a text that hold key phrases: one pass per text serving several rules.

A :class:`PhraseScan` is made from key sets, each a tuple of groups of keys (lower-case
strings); a line is a candidate for a key set when its text, lower-cased and with its blanks
made single spaces, holds a key of every group. The prose rules (SEC050-SEC052) each have a
key set; :meth:`PhraseScan.lines` finds the candidates of every set in one pass over a text
and keeps them while the text is in use, so the rules that follow read them instead of
scanning again.

The pass looks for one anchor per key of each set's first group, the key's longest word
(a word of a key is in every line that holds the key, so the anchors find every candidate;
the candidates are then confirmed key by key). It runs in C with ``pyahocorasick`` (an
Aho-Corasick automaton) when that is installed, else with one compiled regular expression of
the anchors. Both give the same lines: :data:`MATCHER` says which one runs, and
``PhraseScan(..., matcher="python")`` picks the fallback.
"""

from __future__ import annotations

import bisect
import re
from typing import Callable, Iterator

#: a text's lines: (line number, the line lower-cased with single blanks, whether the raw line hid characters)
Candidates = list[tuple[int, str, bool]]
KeySet = tuple[tuple[str, ...], ...]


def _ahocorasick():
    try:
        import ahocorasick
    except ImportError:
        return None
    return ahocorasick


#: the matcher the anchors are found with: ``"ahocorasick"`` (C) or ``"python"`` (a compiled regex)
MATCHER = "ahocorasick" if _ahocorasick() is not None else "python"
#: characters of text whose candidates are kept (oldest dropped first), so memory stays bounded
KEEP_CHARS = 2_000_000


def anchor(key: str) -> str:
    """The word of *key* the pass looks for: its longest (the first of the longest)."""
    return max(key.split(), key=len)


class PhraseScan:
    """Candidate lines of several key sets, found in one pass per text.

    *lowered* turns a text into the text the keys are looked for in (lower case, invisible
    characters removed; it must keep every ``\\n``); *hidden* tells whether a raw line hid
    characters.
    """

    def __init__(self, key_sets: tuple[KeySet, ...], lowered: Callable[[str], str], hidden: Callable[[str], bool],
                 matcher: str = MATCHER) -> None:
        self.key_sets = key_sets
        self._lowered = lowered
        self._hidden = hidden
        self.anchors = sorted({anchor(k) for groups in key_sets for k in groups[0]})
        self.matcher = matcher
        self._spans, self._holds = self._aho_finders() if matcher == "ahocorasick" else self._find_finders()
        self._kept: dict[int, tuple[str, dict[KeySet, Candidates]]] = {}
        self._kept_chars = 0

    def lines(self, text: str, key_set: KeySet) -> Candidates:
        """The candidates of *key_set* (one of this scan's sets) in *text*, in line order."""
        kept = self._kept.get(id(text))
        if kept is None or kept[0] is not text:
            kept = (text, self.scan(text))
            self._keep(text, kept)
        return kept[1][key_set]

    def _keep(self, text: str, entry: tuple[str, dict]) -> None:
        old = self._kept.pop(id(text), None)
        if old is not None:
            self._kept_chars -= len(old[0])
        self._kept[id(text)] = entry
        self._kept_chars += len(text)
        while self._kept_chars > KEEP_CHARS and len(self._kept) > 1:
            oldest = next(iter(self._kept))
            self._kept_chars -= len(self._kept.pop(oldest)[0])

    def scan(self, text: str) -> dict[KeySet, Candidates]:
        """Every key set's candidates in *text*, from one pass (nothing kept)."""
        found: dict[KeySet, Candidates] = {k: [] for k in self.key_sets}
        low = self._lowered(text)
        starts: list[int] = []  # where each line of *low* starts, once a line is a candidate
        raws: list[str] = []  # the lines of *text*, once a line of non-ASCII text is a candidate
        holds = self._holds
        for start, end, mask in self._spans(low):
            line = " ".join(low[start:end].split())
            number = 0
            for i in holds(line, mask):
                if not number:
                    if not starts:
                        starts = [0, *(m.end() for m in re.finditer("\n", low))]
                    number = bisect.bisect_right(starts, start)
                    if not raws and not text.isascii():
                        raws = text.split("\n")
                    raw = raws[number - 1] if raws else ""
                    hid = bool(raw) and self._hidden(raw)
                found[self.key_sets[i]].append((number, line, hid))
        return found

    # -- the C path: two automata ------------------------------------------------------------

    def _aho_finders(self):
        aho = _ahocorasick()
        anchors = aho.Automaton()
        for word, mask in self._anchor_masks().items():
            anchors.add_word(word, (len(word), mask))
        anchors.make_automaton()
        keys = aho.Automaton()
        owners: dict[str, list[tuple[int, int]]] = {}
        for i, key_set in enumerate(self.key_sets):
            for j, group in enumerate(key_set):
                for k in group:
                    owners.setdefault(k, []).append((i, j))
        for k, where in owners.items():
            keys.add_word(k, tuple(where))
        keys.make_automaton()
        sizes = [len(key_set) for key_set in self.key_sets]
        iterate, iterate_keys = anchors.iter, keys.iter

        def spans(low: str) -> Iterator[tuple[int, int, int]]:
            end = -1  # the end of the current line
            start = mask = 0
            for last, (_length, bits) in iterate(low):  # one pass; hits come in the order they end
                if last < end:
                    mask |= bits
                    continue
                if end >= 0:
                    yield start, end, mask
                start = low.rfind("\n", 0, last) + 1
                end = low.find("\n", last)
                end = len(low) if end == -1 else end
                mask = bits
            if end >= 0:
                yield start, end, mask

        def holds(line: str, mask: int) -> list[int]:
            seen = set()
            for _end, where in iterate_keys(line):
                seen.update(where)
            return [i for i in range(len(sizes)) if mask >> i & 1
                    and all((i, j) in seen for j in range(sizes[i]))]
        return spans, holds

    # -- the fallback: str.find and `in` ------------------------------------------------------

    def _find_finders(self):
        anchors = self._anchor_masks()
        key_sets = self.key_sets

        def spans(low: str) -> Iterator[tuple[int, int, int]]:
            masks: dict[tuple[int, int], int] = {}
            for word, bits in anchors.items():
                pos = low.find(word)
                while pos != -1:
                    start = low.rfind("\n", 0, pos) + 1
                    end = low.find("\n", pos)
                    end = len(low) if end == -1 else end
                    masks[start, end] = masks.get((start, end), 0) | bits
                    pos = low.find(word, end)
            for (start, end), bits in sorted(masks.items()):
                yield start, end, bits

        def holds(line: str, mask: int) -> list[int]:
            return [i for i, key_set in enumerate(key_sets) if mask >> i & 1
                    and all(any(k in line for k in group) for group in key_set)]
        return spans, holds

    def _anchor_masks(self) -> dict[str, int]:
        """Each anchor and the key sets (bit *i* for set *i*) one of whose first group's keys it anchors."""
        masks: dict[str, int] = {}
        for i, key_set in enumerate(self.key_sets):
            for k in key_set[0]:
                masks[anchor(k)] = masks.get(anchor(k), 0) | 1 << i
        return masks
