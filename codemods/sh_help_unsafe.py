"""Add the help branch to a script whose ``--help`` went elsewhere before (unsafe, ``--unsafe-fixes``).

A dispatcher's ``--help`` reached the program it forwards to; a script with its own usage
text printed that. The new branch prints the header instead: check that the header says
what the old help said.
"""

from __future__ import annotations

from skillsmith.codemods.sh_help import HelpBranch


class HelpBranchUnsafe(HelpBranch):
    DESCRIPTION = "Add the -h/--help branch even where --help reached another program or the script's own usage."
    RULES = ("CON009",)
    SAFE = False
    LEVELS = ("safe", "unsafe")
