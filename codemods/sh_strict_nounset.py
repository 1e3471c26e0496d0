"""Add ``nounset`` to a shell script that reads variables that may be unset (unsafe).

``set -u`` then stops the script where it used to read an empty string (``[ -z "$1" ]``
run without arguments): review each such read, give it a default (``${1:-}``) or check
``$#`` first. The safe strict-mode fix holds ``nounset`` back in that case; this one, run
with ``--unsafe-fixes``, adds it.
"""

from __future__ import annotations

from skillsmith.codemods.sh_strict_mode import StrictMode


class StrictNounset(StrictMode):
    DESCRIPTION = "Add nounset even when the script reads variables that may be unset (behaviour changes)."
    RULES = ("SHL001",)
    SAFE = False
    HOLD_BACK_NOUNSET = False
