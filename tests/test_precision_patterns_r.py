"""False findings seen on real public skills (set R, after its sample), each beside the rule's own case.

Every test writes a small skill with the pattern that used to give a wrong finding (no finding
now) and the pattern the rule is for (still a finding), and runs ``check`` on it.
"""

from __future__ import annotations

from test_precision_contract import skill
from test_precision_patterns_p import lines_of


def test_placeholder_links_and_another_named_skills_files_are_not_missing(tmp_path):
    """RES002 on real skills: uploading-files says "no `[link](...)`" (a placeholder link);
    claude-skills shows `<CLAUDE_SKILL_DIR>/scripts/foo.sh`-style names (`scripts/foo.sh`); the git
    skill points at "`/core:agent-loop`'s `references/dispatch-discipline.md`", a file of another skill."""
    body = "\n".join([
        "Show the URL bare: no `**bold**`, no [link](...), no backticks.",  # 5
        "",
        "Run `bash scripts/foo.sh` from your own skill to see the pattern.",  # 7
        "",
        "See `/core:agent-loop`'s `references/dispatch-discipline.md` for read-only agents.",  # 9
        "",
        "Read `references/gone.md` before you start, then [the guide](references/also-gone.md).",  # 11
    ])
    root = skill(tmp_path, "placeholders", body, {})
    assert lines_of(root, "RES002") == [("SKILL.md", 11), ("SKILL.md", 11)]
