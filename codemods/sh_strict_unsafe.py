"""Turn on ``nounset`` and ``pipefail`` even where that changes what the script does (unsafe).

``set -u`` then stops the script where it used to read an empty string (``[ -z "$1" ]``
run without arguments); ``pipefail`` fails a pipeline whose reader stopped early
(``seq 1 100000 | grep -q 5`` is false with it) or whose first command failed. Review each
place the finding names before keeping this change. Runs only with ``--unsafe-fixes``.
"""

from __future__ import annotations

from skillsmith.codemods.sh_strict_mode import StrictMode


class StrictModeUnsafe(StrictMode):
    DESCRIPTION = "Add nounset and pipefail even where the script reads unset variables or uses a pipeline's status (behaviour changes)."
    RULES = ("SHL001",)
    SAFE = False
    RUNTIME_DEPENDENT = True
