#!/usr/bin/env python3
"""Time `skillsmith fix` (every codemod) against libcst's CLI running one codemod.

Usage:   python bench/fix.py [--skills N] [--scripts M] [--codemod MODULE.CLASS] [--fixable PCT]
Input:   none; writes a synthetic tree of skills with Python scripts to a temp folder
Output:  timings and the ratio (libcst CLI time / skillsmith time) on stdout
Stderr:  progress
Exit:    0 ok, 1 a run failed

Both tools get an identical copy of the tree. `skillsmith fix` runs its fast check, then every
Python codemod on the files that need one; `python -m libcst.tool codemod` parses every file
and runs one codemod. Goal: a ratio of at least 5.

Examples:
  python bench/fix.py
  python bench/fix.py --skills 20 --scripts 10 --codemod py_exit_constants.ExitConstants
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from importlib import resources
from pathlib import Path

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


def timed(cmd: list[str], cwd: Path, env: dict) -> tuple[float, float]:
    """(wall seconds, CPU seconds of the process and its children) for running *cmd*."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, stdin=subprocess.DEVNULL)
    elapsed = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode not in (0, 10):
        sys.stderr.write(proc.stdout + proc.stderr)
        raise SystemExit(1)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return elapsed, cpu


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0], epilog=__doc__.split("Examples:")[1],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--skills", type=int, default=40)
    parser.add_argument("--scripts", type=int, default=5, help="scripts per skill")
    parser.add_argument("--fixable", type=int, default=50, metavar="PCT", help="percent of scripts that need fixes")
    parser.add_argument("--codemod", default="py_docstring.DocstringContract", help="the codemod libcst's CLI runs")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        a, b = tmp / "a", tmp / "b"
        a.mkdir()
        fixable = build(a, args.skills, args.scripts, args.fixable)
        shutil.copytree(a, b, symlinks=True)
        config = resources.files("skillsmith.codemods") / ".libcst.codemod.yaml"
        (b / ".libcst.codemod.yaml").write_text(config.read_text())
        total = args.skills * args.scripts
        size = sum(p.stat().st_size for p in a.rglob("*.py")) // total
        print(f"tree: {args.skills} skills, {total} scripts (~{size} bytes each), {fixable} need fixes", file=sys.stderr)
        env = dict(os.environ, SKILLSMITH_CACHE_DIR=str(tmp / "cache"), NO_COLOR="1")

        ours = timed([sys.executable, "-m", "skillsmith", "fix", str(a)], tmp, env)
        theirs = timed([sys.executable, "-m", "libcst.tool", "codemod", "--no-format", "--hide-progress",
                        args.codemod, "."], b, env)
        changed = sum(1 for p in a.rglob("*.py") if p.read_bytes() != (b / p.relative_to(a)).read_bytes())
        again = timed([sys.executable, "-m", "skillsmith", "fix", str(a)], tmp, env)

    print(f"{'':44s} {'wall':>8s} {'cpu':>8s}")
    print(f"{'skillsmith fix (all codemods)':44s} {ours[0]:7.2f}s {ours[1]:7.2f}s")
    print(f"{'libcst.tool codemod ' + args.codemod:44s} {theirs[0]:7.2f}s {theirs[1]:7.2f}s")
    print(f"{'skillsmith fix, second run (nothing to do)':44s} {again[0]:7.2f}s {again[1]:7.2f}s")
    print(f"ratio libcst/skillsmith: wall {theirs[0] / ours[0]:.2f}x, cpu {theirs[1] / ours[1]:.2f}x (goal >= 5x); "
          f"files changed by skillsmith and not by libcst's one codemod, or differently: {changed}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
