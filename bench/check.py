#!/usr/bin/env python3
"""Benchmark `skillsmith check` against agnix on a synthetic tree of skills.

Usage:   python bench/check.py [--skills N] [--scripts N] [--repeat N] [--agnix PATH] [--keep]
Input:   nothing; the tree is generated in a temporary folder
Output:  a table of timings, peak memory and ratios, with the goals beside them (stdout)
Stderr:  progress
Exit:    0 measured, 2 usage, 5 agnix missing and not installable

Builds about 2,000 skills and 1,500 scripts, then times `skillsmith check` cold (empty cache)
and warm (second run), and agnix (a skills linter from PyPI, installed into this bench's own
virtualenv under the cache folder unless --agnix names a binary) on the same tree. Peak
memory is the largest resident set of any process of a run (wait4's ru_maxrss).
Goals: cold <= 1.0x agnix, warm <= 0.25x agnix, peak memory <= 150 MB. Prints, never asserts.

Examples:
  python bench/check.py
  python bench/check.py --skills 200 --scripts 150 --repeat 1
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

GOAL_COLD = 1.0
GOAL_WARM = 0.25
GOAL_MEMORY_MB = 150

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


def timed(cmd: list[str], env: dict | None = None) -> tuple[float, float, float, int]:
    """(wall seconds, CPU seconds, peak RSS in MB of any process of the run, exit code).

    CPU time (user + system, the run's processes together) is printed beside wall time
    because wall time alone misleads on a busy machine. Output is discarded.
    """
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL, env=env)
    _, status, usage = os.wait4(proc.pid, 0)
    elapsed = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    return elapsed, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, proc.returncode


def agnix_binary(explicit: str | None) -> str:
    if explicit:
        return explicit
    found = shutil.which("agnix")
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


def median_run(label: str, cmd: list[str], repeat: int, prepare=None, env=None) -> tuple[float, float, float]:
    """(median wall seconds, median CPU seconds, largest peak MB) over *repeat* runs."""
    times, cpus, peaks = [], [], []
    for _ in range(repeat):
        if prepare:
            prepare()
        seconds, cpu, peak, code = timed(cmd, env)
        print(f"  {label}: {seconds:.2f} s wall, {cpu:.2f} s CPU, {peak:.0f} MB, exit {code}", file=sys.stderr)
        times.append(seconds)
        cpus.append(cpu)
        peaks.append(peak)
    return statistics.median(times), statistics.median(cpus), max(peaks)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0], epilog=__doc__.split("Examples:")[1],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--skills", type=int, default=2000)
    parser.add_argument("--scripts", type=int, default=1500)
    parser.add_argument("--repeat", type=int, default=3, help="runs per measurement; the median counts")
    parser.add_argument("--jobs", type=int, help="passed to skillsmith check --jobs")
    parser.add_argument("--agnix", help="path to an agnix binary (default: PATH, else install from PyPI)")
    parser.add_argument("--keep", action="store_true", help="keep the generated tree and print its path")
    args = parser.parse_args()

    try:
        agnix = agnix_binary(args.agnix)
    except (OSError, subprocess.CalledProcessError) as exc:
        print(f"check.py: cannot install agnix: {exc}", file=sys.stderr)
        return 5
    base = Path(tempfile.mkdtemp(prefix="skillsmith-bench-"))
    try:
        tree = base / "tree"
        files, size = build_tree(tree, args.skills, args.scripts)
        n_scripts = sum(1 for _ in tree.glob("skills/*/scripts/*"))
        print(f"tree: {args.skills} skills, {n_scripts} scripts, {files} files, {size / 1e6:.1f} MB in {tree}",
              file=sys.stderr)
        cache = base / "cache"
        env = dict(os.environ, SKILLSMITH_CACHE_DIR=str(cache))
        env.pop("PYTHONDONTWRITEBYTECODE", None)  # run as installed: compiled modules are reused
        check = [sys.executable, "-m", "skillsmith", "check", str(tree), "--format", "json", "--exit-zero"]
        if args.jobs:
            check += ["--jobs", str(args.jobs)]

        found = subprocess.run(check + ["--no-cache"], capture_output=True, text=True, env=env)
        import json

        findings = json.loads(found.stdout)["meta"]["count"]
        print(f"skillsmith: {findings} findings", file=sys.stderr)

        cold, cold_cpu, cold_peak = median_run("skillsmith cold", check, args.repeat,
                                               prepare=lambda: shutil.rmtree(cache, ignore_errors=True), env=env)
        warm, warm_cpu, warm_peak = median_run("skillsmith warm", check, args.repeat, env=env)
        ag, ag_cpu, ag_peak = median_run("agnix", [agnix, "--format", "json", "--max-files", "0", str(tree)], args.repeat)

        def verdict(ok: bool) -> str:
            return "ok" if ok else "MISSED"

        peak = max(cold_peak, warm_peak)
        load = os.getloadavg()[0]
        print(f"{args.skills} skills, {n_scripts} scripts, {files} files; median of {args.repeat}; "
              f"{os.cpu_count()} CPUs, load average {load:.1f}")
        print(f"{'':<24} {'wall':>8} {'ratio':>7} {'goal':>8}        {'CPU':>8} {'ratio':>7}")
        for label, wall, cpu, goal in (("skillsmith check, cold", cold, cold_cpu, GOAL_COLD),
                                       ("skillsmith check, warm", warm, warm_cpu, GOAL_WARM)):
            print(f"{label:<24} {wall:>7.2f}s {wall / ag:>6.2f}x {'<= ' + str(goal) + 'x':>8} "
                  f"{verdict(wall / ag <= goal):<6} {cpu:>7.2f}s {cpu / ag_cpu:>6.2f}x")
        print(f"{'agnix ' + agnix_version(agnix):<24} {ag:>7.2f}s {1:>6.2f}x {'':>8}        {ag_cpu:>7.2f}s {1:>6.2f}x")
        print(f"{'skillsmith peak memory':<24} {peak:>6.0f}MB {'':>7} {'<= ' + str(GOAL_MEMORY_MB) + 'MB':>8} "
              f"{verdict(peak <= GOAL_MEMORY_MB):<6} (agnix {ag_peak:.0f} MB)")
    finally:
        if args.keep:
            print(f"kept {base}", file=sys.stderr)
        else:
            shutil.rmtree(base, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
