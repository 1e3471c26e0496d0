#!/usr/bin/env python3
"""Benchmark `skillsmith check` against agnix, `--help` against `python -c pass`.

Usage:   python bench/check.py [--tree DIR] [--skills N] [--scripts N] [--repeat N] [--scaling]
                               [--agnix PATH] [--jobs N] [--keep]
Input:   DIR, a folder of skills (copied, never changed); without it a synthetic tree is generated
Output:  the table of the performance issue, each row a ratio against its anchor in the same run (stdout)
Stderr:  progress and every single measurement
Exit:    0 measured, 2 usage, 5 agnix missing and not installable

Rows (medians of --repeat runs; CPU is user + system time of the run's processes, from
getrusage of the children; peak memory is the largest resident set of any process of a
run, wait4's ru_maxrss):
  check cold (empty cache) / agnix           goal <= 1.0x CPU
  check warm, nothing changed / agnix        goal <= 0.10x
  check warm after editing one file / agnix  goal <= 0.10x
  check of a copy at another path / agnix    goal: cache hits (far below cold)
  peak memory, cold check / agnix's          goal <= 1.0x
  skillsmith --help / python -c pass         goal <= 35 ms
and with --scaling, cold CPU for 1x, 2x and 4x copies of the tree side by side (how cost grows).

agnix (a skills linter, on PyPI: `pip install agnix`, an optional dependency of this bench) is
taken from PATH or --agnix, else installed into a virtualenv under the cache folder. Wall
time is printed too, but on a shared machine only the CPU ratios of one run compare.

Examples:
  python bench/check.py --tree ~/skills-collection/skills
  python bench/check.py --skills 200 --scripts 150 --repeat 1 --scaling
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SKILL_MD = """---
name: {name}
description: {description}
license: MIT
---

# {title}

{intro}

## Scripts

{scripts}

## References

{refs}

## Workflow

1. Read the input the user gives.
2. Run the script that fits, with `--json` when the output feeds another step.
3. Report the result in a short table.
"""

PY_SCRIPT = '''#!/usr/bin/env python3
"""{title} for the {skill} skill.

Usage:   {file} [--json] FILE
Input:   FILE, a text file
Output:  one line per record; with --json the {skill}.{stem}/v1 envelope
Stderr:  errors only
Exit:    0 ok, 2 usage, 3 not found

Examples:
  {file} data.txt
  {file} --json data.txt | jq '.data[0]'
"""

import argparse
import json
import sys
from pathlib import Path

EXIT_OK = 0
EXIT_USAGE = 2
EXIT_NOT_FOUND = 3

EPILOG = """examples:
  {file} data.txt
  {file} --json data.txt | jq '.data[0]'
"""


def records(path: Path) -> list[dict]:
    out = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if line.strip():
            out.append({{"line": number, "text": line.strip(), "words": len(line.split())}})
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0], epilog=EPILOG,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("file", type=Path)
    parser.add_argument("--json", action="store_true", help="print the JSON envelope")
    args = parser.parse_args()
    if not args.file.is_file():
        print(f"{file}: {{args.file}}: no such file", file=sys.stderr)
        return EXIT_NOT_FOUND
    data = records(args.file)
    if args.json:
        print(json.dumps({{"data": data, "meta": {{"count": len(data)}}}}))
    else:
        for r in data:
            print(f"{{r['line']}}\\t{{r['words']}}\\t{{r['text']}}")
    return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
'''

SH_SCRIPT = '''#!/usr/bin/env bash
# {title} for the {skill} skill.
#
# Usage:   {file} [--json] FILE
# Input:   FILE, a text file
# Output:  the line count; with --json the {skill}.{stem}/v1 envelope
# Stderr:  errors only
# Exit:    0 ok, 2 usage, 3 not found
#
# Examples:
#   {file} data.txt
#   {file} --json data.txt | jq '.data[0].lines'
set -uo pipefail

readonly EXIT_OK=0
readonly EXIT_USAGE=2
readonly EXIT_NOT_FOUND=3

usage() {{
  awk 'NR > 1 && /^#/ {{ sub(/^# ?/, ""); print; next }} NR > 1 {{ exit }}' "$0"
}}

json=0
file=""
while [[ $# -gt 0 ]]; do
  case "$1" in
    -h|--help) usage; exit "$EXIT_OK" ;;
    --json) json=1; shift ;;
    -*) echo "{file}: unknown option: $1" >&2; exit "$EXIT_USAGE" ;;
    *) file="$1"; shift ;;
  esac
done

if [[ -z "$file" ]]; then
  echo "{file}: missing FILE (try --help)" >&2
  exit "$EXIT_USAGE"
fi
if [[ ! -f "$file" ]]; then
  echo "{file}: $file: no such file" >&2
  exit "$EXIT_NOT_FOUND"
fi

lines=$(wc -l < "$file" | tr -d ' ')
if [[ "$json" -eq 1 ]]; then
  printf '{{"data": [{{"lines": %s}}], "meta": {{"count": 1}}}}\\n' "$lines"
else
  echo "$lines"
fi
'''

REFERENCE = "# {title}\n\n" + "\n".join(
    f"- Rule {i}: keep columns aligned and numbers right-aligned; quote cells with `|`." for i in range(40)
) + "\n"


def build_tree(root: Path, n_skills: int, n_scripts: int) -> tuple[int, int]:
    """Write the synthetic tree; about one skill in ten has a defect. Returns (files, bytes)."""
    files = size = 0

    def write(path: Path, text: str, mode: int = 0o644) -> None:
        nonlocal files, size
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        path.chmod(mode)
        files += 1
        size += len(text)

    scripts_left = n_scripts
    for i in range(n_skills):
        name = f"skill-{i:04d}"
        folder = root / "skills" / name
        n_here = min(scripts_left, 2 if i % 4 != 3 else 0)
        scripts_left -= n_here
        script_lines, ref_lines = [], []
        for k in range(n_here):
            stem = f"tool_{k}"
            if (i + k) % 2:
                file = f"{stem}.py"
                write(folder / "scripts" / file, PY_SCRIPT.format(title=f"Summarise records ({k})", skill=name,
                                                                   file=file, stem=stem), 0o755)
                script_lines.append(f"- Summarise a file: `python3 scripts/{file} --json data.txt`")
            else:
                file = f"{stem}.sh"
                mode = 0o644 if i % 10 == 7 else 0o755  # some lack the executable bit
                write(folder / "scripts" / file, SH_SCRIPT.format(title=f"Count lines ({k})", skill=name,
                                                                   file=file, stem=stem), mode)
                script_lines.append(f"- Count lines: `bash scripts/{file} data.txt`")
        if i % 2 == 0:
            write(folder / "references" / "guide.md", REFERENCE.format(title=f"Guide for {name}"))
            ref_lines.append("- Read [references/guide.md](references/guide.md) when formatting tables.")
        description = f"Formats and summarises text files, variant {i}. Use when the user asks for summaries."
        if i % 10 == 5:
            description = f"Formats <files> variant {i}."  # a warning
        skill_name = name if i % 10 != 9 else f"Skill_{i}"  # an error
        write(folder / "SKILL.md", SKILL_MD.format(
            name=skill_name, description=description, title=name.replace("-", " ").title(),
            intro="Turn text files into short summaries with the scripts below.",
            scripts="\n".join(script_lines) or "This skill has no scripts.",
            refs="\n".join(ref_lines) or "None.",
        ))
    return files, size


def timed(cmd: list[str], env: dict | None = None, cwd: Path | None = None) -> tuple[float, float, float, int]:
    """(wall seconds, CPU seconds, peak RSS in MiB of any process of the run, exit code); output discarded."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL,
                            env=env, cwd=cwd)
    _, status, usage = os.wait4(proc.pid, 0)
    elapsed = time.perf_counter() - start
    return elapsed, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, os.waitstatus_to_exitcode(status)


def agnix_binary(explicit: str | None) -> str:
    if explicit:
        return explicit
    found = shutil.which("agnix") or shutil.which("agnix", path=os.path.dirname(sys.executable))
    if found:
        return found
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "skillsmith-bench" / "agnix-venv"
    exe = base / "bin" / "agnix"
    if not exe.exists():
        print(f"installing agnix into {base} ...", file=sys.stderr)
        subprocess.run([sys.executable, "-m", "venv", str(base)], check=True)
        subprocess.run([str(base / "bin" / "pip"), "install", "--quiet", "agnix"], check=True)
    return str(exe)


def agnix_version(agnix: str) -> str:
    out = subprocess.run([agnix, "--version"], capture_output=True, text=True).stdout.split()
    return out[-1] if out else "?"


class Samples:
    """Measurements of one row: medians of wall and CPU, the largest peak."""

    def __init__(self, label: str) -> None:
        self.label, self.walls, self.cpus, self.peaks = label, [], [], []

    def add(self, measured: tuple[float, float, float, int]) -> None:
        wall, cpu, peak, code = measured
        print(f"  {self.label}: {wall:.2f} s wall, {cpu:.2f} s CPU, {peak:.0f} MiB, exit {code}", file=sys.stderr)
        self.walls.append(wall)
        self.cpus.append(cpu)
        self.peaks.append(peak)

    @property
    def wall(self) -> float:
        return statistics.median(self.walls)

    @property
    def cpu(self) -> float:
        return statistics.median(self.cpus)

    @property
    def peak(self) -> float:
        return max(self.peaks)


def edit_one_file(tree: Path, round_: int) -> None:
    """Append a line to one skill's SKILL.md (another line each round), as a user's edit."""
    skill_md = min(tree.rglob("SKILL.md"))
    with open(skill_md, "a", encoding="utf-8") as fh:
        fh.write(f"\nEdited in round {round_}.\n")


def copies(tree: Path, base: Path, times: int) -> Path:
    """*times* hard-linked copies of *tree* side by side under one folder (cheap; check only reads them)."""
    out = base / f"x{times}"
    for i in range(times):
        shutil.copytree(tree, out / f"copy{i}", symlinks=True, copy_function=os.link)
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[1], epilog=__doc__.split("Examples:")[1],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tree", type=Path, help="a folder of skills to measure on (copied first)")
    parser.add_argument("--skills", type=int, default=2000, help="synthetic tree: skills (without --tree)")
    parser.add_argument("--scripts", type=int, default=1500, help="synthetic tree: scripts (without --tree)")
    parser.add_argument("--repeat", type=int, default=3, help="runs per measurement; the median counts")
    parser.add_argument("--jobs", type=int, help="passed to skillsmith check --jobs")
    parser.add_argument("--scaling", action="store_true", help="also time cold checks of 1x, 2x and 4x the tree")
    parser.add_argument("--agnix", help="path to an agnix binary (default: PATH, else install from PyPI)")
    parser.add_argument("--keep", action="store_true", help="keep the temporary folder and print its path")
    args = parser.parse_args()
    if args.tree is not None and not args.tree.is_dir():
        parser.error(f"--tree {args.tree}: not a folder")

    try:
        agnix = agnix_binary(args.agnix)
    except (OSError, subprocess.CalledProcessError) as exc:
        print(f"check.py: cannot install agnix: {exc}", file=sys.stderr)
        return 5
    base = Path(tempfile.mkdtemp(prefix="skillsmith-bench-"))
    try:
        tree = base / "a" / "skills"
        if args.tree is not None:
            print(f"copying {args.tree} ...", file=sys.stderr)
            shutil.copytree(args.tree, tree, symlinks=True)
        else:
            build_tree(tree, args.skills, args.scripts)
        checkout = base / "b" / "skills"  # the same tree at another path, as a CI checkout is
        shutil.copytree(tree, checkout, symlinks=True)
        n_skills = sum(1 for _ in tree.rglob("SKILL.md"))
        n_scripts = sum(1 for p in tree.rglob("*") if p.parent.name == "scripts" and p.is_file())
        n_files = sum(1 for p in tree.rglob("*") if p.is_file())
        print(f"tree: {n_skills} SKILL.md, {n_scripts} files in scripts/, {n_files} files", file=sys.stderr)
        cache = base / "cache"
        env = dict(os.environ, SKILLSMITH_CACHE_DIR=str(cache))
        env.pop("PYTHONDONTWRITEBYTECODE", None)  # run as installed: compiled modules are reused
        skillsmith = [sys.executable, "-m", "skillsmith"]
        flags = ["--format", "json", "--exit-zero"] + (["--jobs", str(args.jobs)] if args.jobs else [])

        def check(path: Path, *more: str) -> tuple[float, float, float, int]:
            return timed(skillsmith + ["check", str(path), *flags, *more], env)

        subprocess.run(skillsmith + ["check", str(tree), *flags, "--no-cache"], env=env,
                       capture_output=True)  # compiles bytecode, warms the disk cache
        cold, warm, edited, copy, ag = (Samples(n) for n in (
            "check cold", "check warm", "check after editing one file", "check of a copy elsewhere", "agnix"))
        for round_ in range(args.repeat):
            shutil.rmtree(cache, ignore_errors=True)
            cold.add(check(tree))
            warm.add(check(tree))
            edit_one_file(tree, round_)
            edited.add(check(tree))
            copy.add(check(checkout))
            ag.add(timed([agnix, "--format", "json", "--max-files", "0", str(tree)]))
        helps, passes = Samples("skillsmith --help"), Samples("python -c pass")
        for _ in range(max(5, args.repeat)):
            helps.add(timed(skillsmith + ["--help"], env))
            passes.add(timed([sys.executable, "-c", "pass"], env))
        scaling = []
        if args.scaling:
            for times in (1, 2, 4):
                row = Samples(f"check cold, {times}x the tree")
                many = copies(tree, base / "scaling", times)
                for _ in range(args.repeat):
                    row.add(check(many, "--no-cache"))
                scaling.append((times, row))
                shutil.rmtree(many)

        def verdict(ok: bool) -> str:
            return "met" if ok else "MISSED"

        print(f"{n_skills} skills, {n_scripts} scripts, {n_files} files; median of {args.repeat}; "
              f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f}; agnix {agnix_version(agnix)}")
        print(f"{'measure':<38} {'CPU':>8} {'anchor':>8} {'ratio':>7} {'goal':>10}  {'':6} {'wall':>7}")
        for row, goal in ((cold, 1.0), (warm, 0.10), (edited, 0.10)):
            ratio = row.cpu / ag.cpu
            print(f"{row.label:<38} {row.cpu:>7.2f}s {ag.cpu:>7.2f}s {ratio:>6.2f}x {'<= ' + str(goal) + 'x':>10}  "
                  f"{verdict(ratio <= goal):<6} {row.wall:>6.2f}s")
        hits = copy.cpu < 0.5 * cold.cpu
        print(f"{copy.label:<38} {copy.cpu:>7.2f}s {ag.cpu:>7.2f}s {copy.cpu / ag.cpu:>6.2f}x {'cache hits':>10}  "
              f"{verdict(hits):<6} {copy.wall:>6.2f}s")
        print(f"{'peak memory, cold check':<38} {cold.peak:>6.0f}MiB {ag.peak:>5.0f}MiB {cold.peak / ag.peak:>6.2f}x "
              f"{'<= 1.0x':>10}  {verdict(cold.peak <= ag.peak):<6}")
        print(f"{'skillsmith --help':<38} {helps.cpu * 1000:>6.0f}ms {passes.cpu * 1000:>6.0f}ms "
              f"{helps.cpu / passes.cpu:>6.2f}x {'<= 35 ms':>10}  {verdict(helps.cpu <= 0.035):<6} "
              f"{helps.wall * 1000:>5.0f}ms (CPU; wall beside)")
        print(f"{'agnix':<38} {ag.cpu:>7.2f}s {'':>8} {1:>6.2f}x {'':>10}  {'':6} {ag.wall:>6.2f}s")
        for times, row in scaling:
            first = scaling[0][1].cpu
            print(f"{row.label:<38} {row.cpu:>7.2f}s {first:>7.2f}s {row.cpu / first:>6.2f}x {'~' + str(times) + 'x':>10}  "
                  f"{'':6} {row.wall:>6.2f}s  {row.peak:.0f} MiB")
    finally:
        if args.keep:
            print(f"kept {base}", file=sys.stderr)
        else:
            shutil.rmtree(base, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
