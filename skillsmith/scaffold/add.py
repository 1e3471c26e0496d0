"""``add script``: a new script, its SKILL.md entry, its test cases and its resource declaration."""

from __future__ import annotations

import os
import re
from pathlib import Path

from skillsmith.errors import (
    InvalidInputError,
    NotFoundError,
    UsageError,
)
from skillsmith.lang.header import FULL_STOPS
from skillsmith.model.sourcefile import SourceFile
from skillsmith.scaffold.answers import (
    ANSWERS_FILE,
    CASES_MARKER,
    DEFAULT_KIND,
    SKILL_TEMPLATE,
    Created,
    script_problem,
    kind_problem,
    summary_problem,
)
from skillsmith.scaffold.render import read_source, render, write_bytes, write_text

# -- add script --------------------------------------------------------------------------


def read_answers(root: Path) -> dict:
    """The skill's answers file (empty when there is none)."""
    import yaml

    path = root / ANSWERS_FILE
    if not os.path.lexists(path):
        return {}
    text = read_source(path).edit_text
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        raise InvalidInputError(f"{path}: not valid YAML: {exc}") from None
    return data if isinstance(data, dict) else {}


def skill_name(root: Path, skill_md: SourceFile) -> str:
    """The skill's name from *skill_md*'s frontmatter, else the folder name."""
    from skillsmith.model import frontmatter

    data = frontmatter.parse(skill_md.edit_text).data
    data = data if isinstance(data, dict) else {}
    return data["name"] if isinstance(data.get("name"), str) and data["name"] else root.name


def cited_line(script: str, json: bool, sample: str, kind: str = DEFAULT_KIND) -> str:
    """The SKILL.md entry for a new script of *kind*: a worked invocation (and its --json form)."""
    run = f"{'python3' if script.endswith('.py') else 'bash'} scripts/{script}"
    args = {"preflight": "--need git", "verifier": "--offline", "calculator": "counts.csv"}.get(kind, sample)
    lines = [f"- Run `{script}`{' on a file' if args == sample else ''}: `{run} {args}`"]
    if kind == "verifier":
        lines[0] += " (structure only; the facts and their sources are in [assets/facts.json](assets/facts.json))"
        lines.append(f"- Check the facts against their sources (network; exit 10 on drift, 7 when unreachable): `{run} --live`")
    elif json:
        lines.append(f"- The same as JSON: `{run} --json {'' if kind == 'preflight' else args + ' '}| jq '.data[0]'`")
    return "\n".join(lines) + "\n"


def insert_scripts_entry(text: str, entry: str) -> str:
    """*text* (SKILL.md, ``\\n`` newlines) with *entry* added to its "Scripts" section.

    The entry goes after the section's last list item (or its last line when it has no list);
    a section is added at the end when there is none. Only inserts: every line of the author's
    text stays as it is.
    """
    lines = text.splitlines(keepends=True)
    start = next((i for i, line in enumerate(lines) if re.match(r"^#{1,6}\s+Scripts\s*$", line.rstrip())), None)
    if start is None:
        tail = "" if text.endswith("\n") or not text else "\n"
        return text + tail + "\n## Scripts\n\n" + entry
    level = len(lines[start]) - len(lines[start].lstrip("#"))
    end = len(lines)
    for i in range(start + 1, len(lines)):
        m = re.match(r"^(#{1,6})\s", lines[i])
        if m and len(m.group(1)) <= level:
            end = i
            break
    items = [i for i in range(start + 1, end) if re.match(r"^\s{0,3}([-*+]|\d+[.)])\s", lines[i])]
    if items:
        last = items[-1] + 1
        while last < end and lines[last].strip() and lines[last][:1].isspace():
            last += 1  # the item's continuation lines
    else:
        last = end
        while last > start + 1 and not lines[last - 1].strip():
            last -= 1
        entry = "\n" + entry
    if last < len(lines) and lines[last].strip():
        entry += "\n"  # keep a blank line before what follows
    if not lines[last - 1].endswith("\n"):
        lines[last - 1] += "\n"
    return "".join(lines[:last]) + entry + "".join(lines[last:])


def insert_cases(text: str, cases: str) -> str | None:
    """*text* (tests/run.sh) with *cases* inserted above the marker line, or None without one."""
    lines = text.splitlines(keepends=True)
    for i, line in enumerate(lines):
        if line.strip() == CASES_MARKER:
            return "".join(lines[:i]) + cases + "\n" + "".join(lines[i:])
    return None


def add_script(skill_dir: str | Path, file_name: str, *, description: str | None = None,
               kind: str = DEFAULT_KIND) -> Created:
    """Add one compliant script of *kind* (seed 000 §8: ``answers.KINDS``) to a skill, its cases to
    tests/run.sh and a worked invocation to SKILL.md; a verifier also gets ``assets/facts.json``
    when the skill has none. Without *description* the script says what its kind does."""
    import tempfile

    root = Path(skill_dir)
    if not root.is_dir():
        raise NotFoundError(f"{root}: no such skill folder")
    if not (root / "SKILL.md").is_file():
        raise NotFoundError(f"{root}: no SKILL.md; is this a skill folder?")
    for folder in ("scripts", "tests"):
        if (root / folder).is_symlink():
            raise InvalidInputError(f"{root / folder} is a symbolic link; skillsmith writes only inside the skill")
    problem = script_problem(file_name) or kind_problem(kind, [file_name])
    if problem:
        raise UsageError(problem)
    summary = description.strip() if description else None  # None: the template's, for the kind
    problem = summary_problem(summary) if summary is not None else None
    if problem:
        raise UsageError(problem)
    if summary is not None and not summary.endswith(FULL_STOPS):
        summary += "."
    target = root / "scripts" / file_name
    if target.exists() or target.is_symlink():
        raise UsageError(f"{target} already exists")
    taken = {p.stem for p in (root / "scripts").glob("*") if p.suffix in (".py", ".sh")}
    if Path(file_name).stem in taken:
        raise UsageError(f"scripts/ already has a script named {Path(file_name).stem!r}")
    answers = read_answers(root)
    as_json = answers.get("json", True) is not False
    skill_md = root / "SKILL.md"
    md_file = read_source(skill_md)
    name = skill_name(root, md_file)
    run_sh = root / "tests" / "run.sh"
    run_file = read_source(run_sh) if run_sh.is_file() else None
    if run_file is not None and CASES_MARKER not in run_file.edit_text:
        raise InvalidInputError(
            f"{run_sh} has no line '{CASES_MARKER}'; add it where new cases belong, then retry"
        )
    with tempfile.TemporaryDirectory() as tmp:
        # the skill template with `part: script` renders only scripts/FILE and its cases.sh
        data = {"part": "script", "name": name, "scripts": [file_name], "json": as_json, "kind": kind}
        if summary is not None:
            data["summary"] = summary
        render(SKILL_TEMPLATE, Path(tmp), data)
        script_text = (Path(tmp) / "scripts" / file_name).read_bytes()
        cases = (Path(tmp) / "cases.sh").read_text(encoding="utf-8")
        facts = Path(tmp) / "assets" / "facts.json"
        facts_text = facts.read_bytes() if facts.is_file() else None
    sample = "assets/sample-input.txt" if (root / "assets" / "sample-input.txt").is_file() else "notes.txt"
    new_md = insert_scripts_entry(md_file.edit_text, cited_line(file_name, as_json, sample, kind))
    new_md = declare_resource(new_md, f"scripts/{file_name}", "executable")
    written = [f"scripts/{file_name}"]
    target.parent.mkdir(exist_ok=True)
    write_bytes(target, script_text, mode=0o755)
    facts_file = root / "assets" / "facts.json"
    if facts_text is not None and not (facts_file.exists() or facts_file.is_symlink()):
        if (root / "assets").is_symlink():
            raise InvalidInputError(f"{root / 'assets'} is a symbolic link; skillsmith writes only inside the skill")
        facts_file.parent.mkdir(exist_ok=True)
        write_bytes(facts_file, facts_text)
        new_md = declare_resource(new_md, "assets/facts.json", "asset")
        written.append("assets/facts.json")
    if run_file is not None:
        write_text(run_file, insert_cases(run_file.edit_text, cases))
        written.append("tests/run.sh")
    write_text(md_file, new_md)
    written.append("SKILL.md")
    return Created(root=root, files=written)


def declare_resource(text: str, rel: str, role: str) -> str:
    """*text* (SKILL.md, ``\\n`` newlines) with *rel* added to a progressive skill's ``resources:``.

    Inserts one item at the end of the list; any other SKILL.md comes back unchanged.
    """
    lines = text.split("\n")
    if not lines or lines[0].strip() != "---":
        return text
    try:
        close = lines.index("---", 1)
    except ValueError:
        return text
    head = lines[1:close]
    if "progressive: true" not in (line.strip() for line in head):
        return text
    start = next((i for i, line in enumerate(head) if line.rstrip() == "resources:"), None)
    if start is None:
        return text
    end = start + 1
    while end < len(head) and (head[end].startswith((" ", "-")) or not head[end].strip()):
        end += 1
    item = [f"  - path: {rel}", f"    role: {role}"]
    return "\n".join(lines[: 1 + end] + item + lines[1 + end :])
