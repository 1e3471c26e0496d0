#!/usr/bin/env python3
"""Time `skillsmith fix` against the libcst floor: parsing and printing the files it edits.

Usage:   python bench/fix.py [--tree DIR] [--skills N] [--scripts M] [--fixable PCT] [--repeat N]
Input:   DIR, a folder of skills or scripts (copied for each run, never changed); without it a
         synthetic tree of skills with Python scripts
Output:  the fix rows of the performance issue's table, each against its anchor in the same run (stdout)
Stderr:  progress and every single measurement
Exit:    0 measured, 1 a run failed, 2 usage

Rows (medians of --repeat runs; CPU is user + system time of the run's processes, peak memory
the largest resident set of any of them, both from wait4):
  skillsmith fix / floor     goal <= 2.0x CPU; the floor is `libcst.parse_module(text).code`
                             over the original text of every file fix edited, in one process
  peak memory, fix           goal <= 150 MiB
  skillsmith fix, second run (nothing left to do), for reference
A fix parses each file with libcst at least once and prints it, so the floor is what any
libcst-based fixer pays; the ratio is what verifying, checking before and after and writing add.

Examples:
  python bench/fix.py --tree ~/skills-collection/skills
  python bench/fix.py --skills 20 --scripts 10 --repeat 1
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

GOAL_RATIO = 2.0
GOAL_MEMORY_MIB = 150

FLOOR = """
import sys
import libcst
for name in sys.argv[1:]:
    with open(name, encoding="utf-8") as fh:
        libcst.parse_module(fh.read()).code
"""

COMPLIANT = '''\
#!/usr/bin/env python3
"""Summarise the records of a {name} export.

Usage:   {file} [--json] [--limit N] FILE
Input:   FILE, a JSON lines export
Output:  one line per record; with --json the envelope {{data, meta}}
Stderr:  errors only
Exit:    0 ok, 2 usage, 3 not found, 4 invalid input

Examples:
  {file} export.jsonl
  {file} --json export.jsonl | jq '.data[0]'
"""

import argparse
import json
import sys

EXIT_OK = 0
EXIT_NOT_FOUND = 3
EXIT_INVALID = 4


def emit_json(data, schema):
    items = data if isinstance(data, list) else [data]
    print(json.dumps({{"data": items, "meta": {{"count": len(items), "schema": schema}}}}))

'''

NEEDS_FIX = '''\
import argparse
import json
import os
import sys

'''

BODY = '''

def load_{i}(path):
    records = []
    with open(path, encoding="utf-8") as fh:
        for number, line in enumerate(fh, 1):
            line = line.strip()
            if not line:
                continue
            try:
                records.append(json.loads(line))
            except ValueError as exc:
                print(f"{{path}}:{{number}}: {{exc}}", file=sys.stderr)
                sys.exit({code})
    return records


def summarise_{i}(records, limit):
    out = []
    for record in records[:limit]:
        keys = sorted(record) if isinstance(record, dict) else []
        out.append({{"keys": keys, "size": len(json.dumps(record))}})
    return out
'''

MAIN = '''

def main(argv=None):
    parser = argparse.ArgumentParser(description="Summarise {name} records."{extra})
    parser.add_argument("file")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--limit", type=int, default=20, metavar="N")
    args = parser.parse_args(argv)
    if not os.path.exists(args.file):
        print(f"{{args.file}}: not found", file=sys.stderr)
        return 3
    rows = summarise_0(load_0(args.file), args.limit)
    for row in rows:
        print(row["size"], ",".join(row["keys"]))
    return 0


if __name__ == "__main__":
    {ending}
'''


def script(name: str, file: str, fixable: bool) -> str:
    if fixable:
        text = NEEDS_FIX
        code = "4"
        extra = ""
        ending = "main()"
    else:
        text = COMPLIANT.format(name=name, file=file)
        text = text.replace("import sys\n", "import os\nimport sys\n", 1)
        code = "EXIT_INVALID"
        extra = ',\n        epilog="examples:\\n  tool.py export.jsonl\\n",\n        formatter_class=argparse.RawDescriptionHelpFormatter,\n    '
        ending = "sys.exit(main())"
    for i in range(4):
        text += BODY.format(i=i, code=code)
    main = MAIN.format(name=name, extra=extra, ending=ending)
    if not fixable:
        main = main.replace("return 3", "return EXIT_NOT_FOUND").replace("return 0", "return EXIT_OK")
    return text + main


def build(root: Path, skills: int, scripts: int, fixable_pct: int) -> int:
    rng = random.Random(7)
    count = 0
    for s in range(skills):
        skill = root / f"skill-{s:03d}"
        (skill / "scripts").mkdir(parents=True)
        lines = []
        for j in range(scripts):
            file = f"tool_{j}.py"
            fixable = rng.randrange(100) < fixable_pct
            count += fixable
            path = skill / "scripts" / file
            path.write_text(script(f"skill{s}", file, fixable))
            path.chmod(0o644 if fixable else 0o755)
            lines.append(f"- `scripts/{file} --json data.jsonl` summarises a file.")
        (skill / "SKILL.md").write_text(
            f"---\nname: skill-{s:03d}\ndescription: Summarise export files for the benchmark.\n---\n\n"
            f"# skill-{s:03d}\n\n" + "\n".join(lines) + "\n"
        )
    return count


def timed(cmd: list[str], env: dict | None = None, cwd: Path | None = None) -> tuple[float, float, float, int]:
    """(wall seconds, CPU seconds, peak RSS in MiB of any process of the run, exit code); output discarded."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL,
                            env=env, cwd=cwd)
    _, status, usage = os.wait4(proc.pid, 0)
    elapsed = time.perf_counter() - start
    return elapsed, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, os.waitstatus_to_exitcode(status)


def edited(original: Path, fixed: Path) -> list[Path]:
    """The files of *original* whose copy under *fixed* fix changed (Python files only: the floor is libcst's)."""
    out = []
    for path in sorted(original.rglob("*")):
        if path.is_file() and not path.is_symlink():
            other = fixed / path.relative_to(original)
            if other.is_file() and other.read_bytes() != path.read_bytes() and _is_python(path):
                out.append(path)
    return out


def _is_python(path: Path) -> bool:
    if path.suffix == ".py":
        return True
    with open(path, "rb") as fh:
        first = fh.readline(200)
    return first.startswith(b"#!") and b"python" in first


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[1], epilog=__doc__.split("Examples:")[1],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tree", type=Path, help="a folder of skills or scripts to fix (copied for each run)")
    parser.add_argument("--skills", type=int, default=40, help="synthetic tree: skills (without --tree)")
    parser.add_argument("--scripts", type=int, default=5, help="synthetic tree: scripts per skill")
    parser.add_argument("--fixable", type=int, default=50, metavar="PCT", help="synthetic tree: percent needing fixes")
    parser.add_argument("--repeat", type=int, default=3, help="runs per measurement; the median counts")
    args = parser.parse_args()
    if args.tree is not None and not args.tree.is_dir():
        parser.error(f"--tree {args.tree}: not a folder")

    with tempfile.TemporaryDirectory(prefix="skillsmith-bench-fix-") as tmp:
        tmp = Path(tmp)
        original = tmp / "original"
        if args.tree is not None:
            shutil.copytree(args.tree, original, symlinks=True)
        else:
            original.mkdir()
            build(original, args.skills, args.scripts, args.fixable)
        env = dict(os.environ, SKILLSMITH_CACHE_DIR=str(tmp / "cache"), NO_COLOR="1")
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        fix = [sys.executable, "-m", "skillsmith", "fix"]
        runs, again, floors, changed = [], [], [], []
        for round_ in range(args.repeat):
            work = tmp / f"run{round_}"
            shutil.copytree(original, work, symlinks=True)
            shutil.rmtree(tmp / "cache", ignore_errors=True)
            runs.append(timed(fix + [str(work)], env))
            again.append(timed(fix + [str(work)], env))
            changed = edited(original, work)
            floors.append(timed([sys.executable, "-c", FLOOR, *map(str, changed)], env))
            for label, m in (("skillsmith fix", runs[-1]), ("fix, second run", again[-1]), ("libcst floor", floors[-1])):
                print(f"  {label}: {m[0]:.2f} s wall, {m[1]:.2f} s CPU, {m[2]:.0f} MiB, exit {m[3]}", file=sys.stderr)
            if runs[-1][3] not in (0, 10) or floors[-1][3] != 0:
                print("fix.py: a run failed", file=sys.stderr)
                return 1
            shutil.rmtree(work)
        n_py = sum(1 for p in original.rglob("*") if p.is_file() and not p.is_symlink() and _is_python(p))

    def median(rows, i):
        return statistics.median(r[i] for r in rows)

    ours, floor, second = median(runs, 1), median(floors, 1), median(again, 1)
    peak = max(r[2] for r in runs)
    print(f"{n_py} Python files, {len(changed)} edited by fix; median of {args.repeat}; "
          f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f}")
    print(f"{'measure':<34} {'CPU':>8} {'anchor':>8} {'ratio':>7} {'goal':>10}  {'':6} {'wall':>7}")
    print(f"{'skillsmith fix':<34} {ours:>7.2f}s {floor:>7.2f}s {ours / floor:>6.2f}x {'<= 2.0x':>10}  "
          f"{'met' if ours / floor <= GOAL_RATIO else 'MISSED':<6} {median(runs, 0):>6.2f}s")
    print(f"{'peak memory, fix':<34} {peak:>6.0f}MiB {'':>8} {'':>7} {'<= 150MiB':>10}  "
          f"{'met' if peak <= GOAL_MEMORY_MIB else 'MISSED':<6}")
    print(f"{'skillsmith fix, second run':<34} {second:>7.2f}s {floor:>7.2f}s {second / floor:>6.2f}x {'':>10}  "
          f"{'':6} {median(again, 0):>6.2f}s")
    print(f"{'libcst floor (one process)':<34} {floor:>7.2f}s {'':>8} {1:>6.2f}x {'':>10}  {'':6} "
          f"{median(floors, 0):>6.2f}s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
