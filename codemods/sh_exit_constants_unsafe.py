"""Name exit codes in a script that sources files or runs ``eval`` (unsafe, ``--unsafe-fixes``).

The sourced code may assign the same ``EXIT_*`` name; ``readonly`` then stops the script
with "readonly variable". Check what the sourced files assign before keeping this change.
"""

from __future__ import annotations

from skillsmith.codemods.sh_exit_constants import ExitConstants


class ExitConstantsUnsafe(ExitConstants):
    DESCRIPTION = "Name exit codes even where a sourced file may assign the same name (behaviour may change)."
    RULES = ("CON014",)
    SAFE = False
    LEVELS = ("safe", "unsafe")
