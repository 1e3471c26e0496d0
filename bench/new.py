"""Wall time of `skillsmith new demo --defaults`, imports included (goal: at most 1.0 s).

Runs the installed command as a user would, in a fresh temporary folder each time, and prints
the median of several runs, the goal and their ratio (below 1.0 meets the goal). Prints; never
asserts.

    python bench/new.py [--runs N]
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

GOAL_SECONDS = 1.0


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def one_run(parent: Path, env: dict) -> tuple[float, float]:
    """Wall time and CPU time (user + system) of one `new`."""
    cpu = children_cpu()
    start = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, "-m", "skillsmith", "new", "demo", "--defaults"],
        cwd=parent, env=env, capture_output=True, text=True, stdin=subprocess.DEVNULL,
    )
    elapsed = time.perf_counter() - start
    if proc.returncode != 0:
        sys.exit(f"skillsmith new failed ({proc.returncode}): {proc.stderr}")
    return elapsed, children_cpu() - cpu


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=7, help="timed runs after one warm-up (default: 7)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="skillsmith-bench-new-") as tmp:
        env = {**os.environ, "SKILLSMITH_CACHE_DIR": str(Path(tmp) / "cache")}
        times, cpus = [], []
        for index in range(args.runs + 1):
            parent = Path(tmp) / f"run{index}"
            parent.mkdir()
            elapsed, cpu = one_run(parent, env)
            if index:  # the first run compiles bytecode and warms the disk cache
                times.append(elapsed)
                cpus.append(cpu)
            shutil.rmtree(parent)
    median = statistics.median(times)
    print(f"skillsmith new demo --defaults: median {median:.3f} s over {len(times)} runs "
          f"(min {min(times):.3f} s, max {max(times):.3f} s)")
    print(f"goal: <= {GOAL_SECONDS:.1f} s; ratio {median / GOAL_SECONDS:.2f} (below 1.00 meets the goal)")
    cpu = statistics.median(cpus)
    print(f"CPU time (user + system, includes git subprocesses): median {cpu:.3f} s; ratio {cpu / GOAL_SECONDS:.2f} "
          "(close to the wall time of an idle machine)")
    try:
        load = os.getloadavg()[0]
        print(f"load average while measuring: {load:.2f} on {os.cpu_count()} CPUs")
    except OSError:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
