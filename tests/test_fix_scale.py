"""``fix --diff`` over many one-script skills takes time linear in the number of skills.

Finding each file's skill by scanning every root for every file was quadratic (1,500 skills
spent minutes there). 500 and 2,000 generated skills are fixed (as a diff) in a real process;
four times the skills may take at most eight times as long (generous for a shared machine).
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path


def make_skills(root: Path, count: int) -> None:
    for i in range(count):
        skill = root / f"skill-{i:04d}"
        (skill / "scripts").mkdir(parents=True)
        (skill / "SKILL.md").write_text(f"---\nname: skill-{i:04d}\ndescription: Skill {i}. Use when testing scale.\n"
                                        "---\n\nRun `scripts/tool.sh`.\n")
        (skill / "scripts" / "tool.sh").write_text(f'echo "step {i} $1"\n')


def timed_fix_diff(root: Path, cache: Path) -> tuple[float, str]:
    env = dict(os.environ, SKILLSMITH_CACHE_DIR=str(cache))
    started = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "skillsmith", "fix", "--diff", str(root)], env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode in (0, 10), done.stderr
    return time.monotonic() - started, done.stdout


def test_fix_diff_time_is_linear_in_the_number_of_skills(tmp_path):
    small, large = tmp_path / "small", tmp_path / "large"
    make_skills(small, 500)
    make_skills(large, 2000)
    small_time, small_diff = timed_fix_diff(small, tmp_path / "cache-small")
    large_time, large_diff = timed_fix_diff(large, tmp_path / "cache-large")
    assert small_diff.count("+++ b/") == 500 and large_diff.count("+++ b/") == 2000
    assert large_time < 8 * small_time, (small_time, large_time)
