"""What tells a script that waits for someone at a keyboard apart from one an agent can run.

Agents run scripts in shells with no terminal: a prompt waits for input that never comes, or
reads end-of-file (https://agentskills.io/skill-creation/using-scripts, "Avoid interactive
prompts"). A script that offers another way (``--yes``, ``--non-interactive``, prompts only
under an opt-in ``--interactive``, says it is an interactive wizard for people) is left alone.
"""

from __future__ import annotations

import re

#: options or words (in a script's strings or text) saying it also runs without a keyboard, or
#: prompts only when asked to, or is meant for a person at a terminal
NON_INTERACTIVE = re.compile(r"--(yes|force|non-?interactive|no-?input|no-?prompt|batch|assume-yes|auto|"
                             r"interactive|confirm|quiet|headless|ci)\b|(^|\s)-y\b|\binteractive\b|\bwizards?\b"
                             r"|\u4ea4\u4e92\u5f0f|\u5bfe\u8a71\u5f0f|\u30a4\u30f3\u30bf\u30e9\u30af\u30c6\u30a3\u30d6|\u5411\u5bfc",
                             re.IGNORECASE)  # 交互式 (zh), 対話式, インタラクティブ (ja) "interactive"; 向导 (zh) "wizard"


def waiting_message(prompts: int) -> str:
    """The finding's message for a script with *prompts* keyboard prompts (PYS058, SHL055: one finding per script)."""
    more = f" ({prompts} prompts)" if prompts > 1 else ""
    return (f"waits for someone to type{more}; an agent has no terminal, so take the answer as an option (--yes) "
            "or an environment variable")
