"""Registers the StablEdge ``resources:`` update (:func:`skillsmith.stabledge.fix_skill_md`) with the fix engine.

Kept apart from :mod:`skillsmith.stabledge` so that ``check`` never imports the fix engine.
"""

from __future__ import annotations

from skillsmith.fix.engine import file_fixer
from skillsmith.targets.stabledge import fix_skill_md

#: the rules whose findings the update resolves (see their "Fix safety" sections)
RULES = ("STE003", "STE004", "STE005", "STE006", "STE007", "STE008", "STE009", "STE016")

file_fixer(
    "stabledge-resources", rules=RULES, safe=True, pattern="SKILL.md",
    description="Write or update the resources: list of a progressive skill from the files present",
)(fix_skill_md)
