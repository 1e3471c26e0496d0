"""Scaffolding: new skills, new scripts and template updates, rendered with Copier.

The answers are collected and validated here (with the validators ``check`` uses) before
Copier sees them; Copier then renders with ``data=`` and ``defaults=True``, an explicit
answers file and explicit settings, so nothing is asked twice and a user's own Copier
settings never leak in. Copier is imported only inside the functions that render.
"""

from __future__ import annotations

import re
import subprocess
import warnings
from dataclasses import asdict, dataclass, field
from pathlib import Path

from skillsmith.errors import (
    InvalidInputError,
    MissingDependencyError,
    NotFoundError,
    SkillsmithError,
    UsageError,
)
from skillsmith.rules.spec import description_problem, name_problem

ANSWERS_FILE = ".skillsmith-answers.yml"
#: targets ``new`` can generate; kvist comes from its own template when it is installed
TARGETS = ("agentskills", "stabledge", "kvist")
DEFAULT_SCRIPTS = ("main.py",)
VERIFIER = "verify_facts.py"
#: the line in tests/run.sh above which ``add script`` inserts its cases
CASES_MARKER = "# skillsmith add script: new cases go above this line"
DEFAULT_SUMMARY = "Count the lines and words of a text file."

_SCRIPT = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]*\.(py|sh)$")


@dataclass
class Answers:
    """Everything the skill template asks."""

    name: str
    description: str
    target: str = "agentskills"
    license: str = ""
    author: str = ""
    scripts: list[str] = field(default_factory=lambda: list(DEFAULT_SCRIPTS))
    examples: bool = True
    json: bool = True
    verifier: bool = False

    def data(self) -> dict:
        return asdict(self)


@dataclass
class Created:
    """What a command wrote: the skill folder and its files, relative to it."""

    root: Path
    files: list[str]
    version: str | None = None

    def to_json(self) -> dict:
        return {"path": str(self.root), "files": self.files, "template_version": self.version}


def default_description(name: str) -> str:
    return f"Describe what {name} does and when an agent should use it."


def script_problem(file_name: str) -> str | None:
    """Why *file_name* cannot be a script name, or None."""
    if "/" in file_name or "\\" in file_name:
        return f"script {file_name!r} must be a file name, not a path (it goes in scripts/)"
    if not file_name.endswith((".py", ".sh")):
        return f"script {file_name!r} must end in .py or .sh"
    if not _SCRIPT.match(file_name):
        return f"script {file_name!r} may use only letters, digits, '_' and '-' before its extension"
    return None


def summary_problem(text: str) -> str | None:
    """Why *text* cannot be a script's one-line description, or None."""
    if not text.strip():
        return "the script description is empty"
    if len(text) > 200:
        return "the script description is longer than 200 characters"
    if any(ch in text for ch in '"\\`$') or any(ord(ch) < 32 for ch in text):
        return "the script description must be one line without quotes, backslashes, backticks or '$'"
    return None


def identifier_problem(name: object, target: str) -> str | None:
    """Why *name* cannot name a skill for *target* (check's own message), or None.

    A kvist skill is named by its kvist id (``log_digest``), checked by the kvist rules'
    validator when it is installed; every other target uses the Agent Skills name rule.
    """
    if target != "kvist":
        return name_problem(name)
    try:
        from skillsmith.kvist import ident_problem
    except ImportError:
        ident_problem = None
    if not isinstance(name, str) or not name or name in (".", "..") or "/" in name or "\\" in name:
        return f"{name!r} cannot be a folder name"
    return ident_problem(name, "id") if ident_problem else None


def validate(answers: Answers) -> None:
    """Raise :class:`UsageError` with ``check``'s own message when an answer is invalid."""
    if answers.target not in TARGETS:
        raise UsageError(f"unknown target {answers.target!r}; choose one of {', '.join(TARGETS)}")
    for problem in (identifier_problem(answers.name, answers.target), description_problem(answers.description)):
        if problem:
            raise UsageError(problem)
    if not answers.scripts:
        raise UsageError("a skill needs at least one script")
    for script in answers.scripts:
        problem = script_problem(script)
        if problem:
            raise UsageError(problem)
    stems = [s[:-3] for s in answers.scripts]
    if len(set(stems)) != len(stems) or (answers.verifier and VERIFIER in answers.scripts):
        raise UsageError("script names must be unique (by name without extension, and not verify_facts.py with --verifier)")
    for label, value in (("license", answers.license), ("author", answers.author)):
        if "\n" in value or len(value) > 200:
            raise UsageError(f"{label} must be one line of at most 200 characters")


def copier_settings():
    """Explicit, empty Copier settings: the user's Copier configuration does not apply."""
    try:
        from copier import Settings
    except ImportError:  # older Copier releases keep it in copier.settings
        from copier.settings import Settings

    return Settings()


def template_available(template: str) -> bool:
    """Whether the installed templates include *template* (``templates/<template>/copier.yml``)."""
    from skillsmith.template_history import templates_root

    folder = templates_root() / template
    return (folder / "copier.yml").is_file() or (folder / "copier.yaml").is_file()


def render(template: str, dest: Path, data: dict, *, overwrite: bool = False) -> str | None:
    """Render template *template* into *dest*; return the template version (None without history).

    The packaged folder is rendered directly (no git needed). For a template with history, the
    answers file then gets the ``_src_path`` and ``_commit`` that ``update`` needs.
    """
    from copier import run_copy

    from skillsmith import template_history as history

    dest = dest.resolve()
    source = history.templates_root() / template
    with copier_errors(), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        run_copy(
            str(source), dest, data=data, answers_file=ANSWERS_FILE, settings=copier_settings(),
            defaults=True, overwrite=overwrite, quiet=True, unsafe=False, cleanup_on_error=False,
        )
    tag = history.current_tag(template) if template in history.HISTORY_TEMPLATES else None
    answers = dest / ANSWERS_FILE
    if tag and answers.is_file():
        record_source(answers, history.source_name(template), tag)
    return tag


def record_source(answers_file: Path, source: str, tag: str) -> None:
    """Set ``_src_path`` and ``_commit`` in an answers file, keeping its comments and answers."""
    import yaml

    file = read_text(answers_file)
    data = yaml.safe_load(file.text)
    if not isinstance(data, dict):
        raise InvalidInputError(f"{answers_file}: the rendered answers are not a mapping")
    head = [line for line in file.text.splitlines() if line.startswith("#")]
    answers = {"_commit": tag, "_src_path": source}
    answers.update((k, v) for k, v in data.items() if k not in answers)
    body = yaml.safe_dump(answers, sort_keys=False, allow_unicode=True, default_flow_style=False)
    write_text(file, "\n".join(head) + "\n" + body)


class copier_errors:
    """Turn Copier's and git's errors into :class:`SkillsmithError` with a clear message."""

    def __enter__(self):
        return self

    def __exit__(self, kind, error, tb):
        if error is None or isinstance(error, SkillsmithError):
            return False
        from copier.errors import CopierError

        if isinstance(error, subprocess.CalledProcessError):
            detail = (error.stderr or "").strip().splitlines()
            raise SkillsmithError(f"git failed: {detail[-1] if detail else error}") from None
        if isinstance(error, CopierError):
            raise InvalidInputError(f"template rendering failed: {error}") from None
        if isinstance(error, ValueError) and str(error).startswith("Validation error for question"):
            raise UsageError(str(error).split(": ", 1)[-1]) from None
        if isinstance(error, FileNotFoundError) and str(error.filename or "").endswith(".bundle"):
            raise SkillsmithError(f"template history not found: {error.filename} (reinstall skillsmith)") from None
        return False


def files_below(root: Path) -> list[str]:
    return sorted(p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file() and ".git" not in p.parts)


def new(
    name: str,
    dest: str | Path = ".",
    *,
    target: str = "agentskills",
    description: str | None = None,
    scripts: list[str] | None = None,
    license: str = "",
    author: str = "",
    examples: bool = True,
    json: bool = True,
    verifier: bool = False,
    force: bool = False,
) -> Created:
    """Create the skill folder ``dest/name`` from the templates and return what was written.

    Raises :class:`UsageError` for invalid answers or a non-empty folder without *force*.
    Copier renders with the process's working directory set to the template cache while it
    runs (see :mod:`skillsmith.template_history`).
    """
    answers = Answers(
        name=name, description=description if description is not None else default_description(name),
        target=target, license=license, author=author,
        scripts=list(scripts) if scripts else list(DEFAULT_SCRIPTS), examples=examples, json=json,
        verifier=verifier,
    )
    validate(answers)
    if target == "kvist" and not template_available("kvist"):
        raise UsageError("the kvist target is not available in this installation (no kvist template)")
    parent = Path(dest)
    if parent.exists() and not parent.is_dir():
        raise UsageError(f"--dest {parent} is not a folder")
    root = parent / name
    if root.is_symlink() or (root.exists() and not root.is_dir()):
        raise UsageError(f"{root} exists and is not a folder")
    if root.is_dir() and any(root.iterdir()) and not force:
        raise UsageError(f"{root} exists and is not empty; pass --force to render into it")
    if target == "kvist":
        version = render("kvist", root, {
            "id": name, "name": name, "summary": answers.description, "description": answers.description,
        }, overwrite=force)
    else:
        version = render("skill", root, answers.data(), overwrite=force)
    return Created(root=root, files=files_below(root), version=version)


# -- careful writes ---------------------------------------------------------------------


@dataclass
class TextFile:
    """A text file read for an edit: text with ``\n`` newlines, plus what to restore on write."""

    path: Path
    text: str
    newline: str
    bom: bool


def read_text(path: Path) -> TextFile:
    data = path.read_bytes()
    bom = data.startswith(b"\xef\xbb\xbf")
    try:
        text = data[3 if bom else 0 :].decode("utf-8")
    except UnicodeDecodeError:
        raise InvalidInputError(f"{path}: not UTF-8 text; not edited") from None
    newline = "\r\n" if "\r\n" in text else "\n"
    return TextFile(path, text.replace("\r\n", "\n"), newline, bom)


def write_text(file: TextFile, text: str) -> None:
    """Write *text* back with the file's newline style, BOM and mode bits."""
    data = text.replace("\n", file.newline).encode("utf-8")
    write_bytes(file.path, (b"\xef\xbb\xbf" if file.bom else b"") + data)


def write_bytes(path: Path, data: bytes, mode: int | None = None) -> None:
    """Atomic write (see :mod:`skillsmith.atomic`); never through a symbolic link."""
    from skillsmith.atomic import atomic_write

    try:
        atomic_write(path, data, mode=mode)
    except OSError as exc:
        raise InvalidInputError(f"{path}: not written: {exc}") from None


# -- add script --------------------------------------------------------------------------


def read_answers(root: Path) -> dict:
    """The skill's answers file (empty when there is none)."""
    import yaml

    path = root / ANSWERS_FILE
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    except (OSError, UnicodeDecodeError) as exc:
        raise InvalidInputError(f"{path}: cannot read: {exc}") from None
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        raise InvalidInputError(f"{path}: not valid YAML: {exc}") from None
    return data if isinstance(data, dict) else {}


def skill_name(root: Path) -> str:
    """The skill's name from SKILL.md's frontmatter, else the folder name."""
    from skillsmith import frontmatter

    try:
        fm = frontmatter.parse((root / "SKILL.md").read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError):
        return root.name
    data = fm.data if isinstance(fm.data, dict) else {}
    return data["name"] if isinstance(data.get("name"), str) and data["name"] else root.name


def cited_line(script: str, json: bool, sample: str) -> str:
    run = f"{'python3' if script.endswith('.py') else 'bash'} scripts/{script}"
    lines = [f"- Run `{script}` on a file: `{run} {sample}`"]
    if json:
        lines.append(f"- The same as JSON: `{run} --json {sample} | jq '.data[0]'`")
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


def add_script(skill_dir: str | Path, file_name: str, *, description: str | None = None) -> Created:
    """Add one compliant script to a skill, its cases to tests/run.sh and a worked invocation to SKILL.md."""
    import tempfile

    root = Path(skill_dir)
    if not root.is_dir():
        raise NotFoundError(f"{root}: no such skill folder")
    if not (root / "SKILL.md").is_file():
        raise NotFoundError(f"{root}: no SKILL.md; is this a skill folder?")
    for folder in ("scripts", "tests"):
        if (root / folder).is_symlink():
            raise InvalidInputError(f"{root / folder} is a symbolic link; skillsmith writes only inside the skill")
    problem = script_problem(file_name)
    if problem:
        raise UsageError(problem)
    summary = description.strip() if description else DEFAULT_SUMMARY
    problem = summary_problem(summary)
    if problem:
        raise UsageError(problem)
    if not summary.endswith("."):
        summary += "."
    target = root / "scripts" / file_name
    if target.exists() or target.is_symlink():
        raise UsageError(f"{target} already exists")
    taken = {p.stem for p in (root / "scripts").glob("*") if p.suffix in (".py", ".sh")}
    if Path(file_name).stem in taken:
        raise UsageError(f"scripts/ already has a script named {Path(file_name).stem!r}")
    answers = read_answers(root)
    as_json = answers.get("json", True) is not False
    name = skill_name(root)
    run_sh = root / "tests" / "run.sh"
    run_text = run_sh.read_text(encoding="utf-8") if run_sh.is_file() else None
    if run_text is not None and CASES_MARKER not in run_text:
        raise InvalidInputError(
            f"{run_sh} has no line '{CASES_MARKER}'; add it where new cases belong, then retry"
        )
    with tempfile.TemporaryDirectory() as tmp:
        render("script", Path(tmp), {"name": name, "script": file_name, "summary": summary, "json": as_json})
        script_text = (Path(tmp) / "scripts" / file_name).read_bytes()
        cases = (Path(tmp) / "cases.sh").read_text(encoding="utf-8")
    skill_md = root / "SKILL.md"
    sample = "assets/sample-input.txt" if (root / "assets" / "sample-input.txt").is_file() else "notes.txt"
    md_file = read_text(skill_md)
    new_md = insert_scripts_entry(md_file.text, cited_line(file_name, as_json, sample))
    new_md = declare_resource(new_md, f"scripts/{file_name}", "executable")
    written = [f"scripts/{file_name}"]
    target.parent.mkdir(exist_ok=True)
    write_bytes(target, script_text, mode=0o755)
    if run_text is not None:
        run_file = read_text(run_sh)
        write_text(run_file, insert_cases(run_file.text, cases))
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


# -- update ------------------------------------------------------------------------------


@dataclass
class Updated:
    root: Path
    old_version: str | None
    new_version: str
    changed: list[str]
    conflicts: list[str]
    diff: str = ""

    def to_json(self) -> list[dict]:
        return [
            {"path": rel, "status": "conflict" if rel in self.conflicts else "updated"} for rel in self.changed
        ]


def git_toplevel(root: Path) -> Path | None:
    from skillsmith.template_history import git

    try:
        return Path(git("rev-parse", "--show-toplevel", cwd=root).strip())
    except subprocess.CalledProcessError:
        return None


def git_status(root: Path) -> list[str]:
    from skillsmith.template_history import git

    out = git("status", "--porcelain", "--untracked-files=all", "--", ".", cwd=root)
    return [line for line in out.splitlines() if line.strip()]


def update(skill_dir: str | Path = ".", *, pretend: bool = False) -> Updated:
    """Bring a generated skill up to the current skill template with Copier's 3-way merge.

    The skill must be in a clean git work tree. Changes are left uncommitted for review;
    conflicts are marked inline. With *pretend*, the update runs in a temporary clone of the
    repository and only the diff is returned.
    """
    import shutil
    import tempfile

    from skillsmith import template_history as history

    root = Path(skill_dir).resolve()
    if not root.is_dir():
        raise NotFoundError(f"{skill_dir}: no such skill folder")
    answers = read_answers(root)
    if not answers:
        raise InvalidInputError(
            f"{skill_dir}: no {ANSWERS_FILE}; only skills made with 'skillsmith new' can be updated"
        )
    if not answers.get("_src_path") or not answers.get("_commit"):
        raise InvalidInputError(f"{root / ANSWERS_FILE}: '_src_path' or '_commit' is missing; cannot tell which template version made this skill")
    template = str(answers["_src_path"])
    names = {history.source_name(n): n for n in history.HISTORY_TEMPLATES}
    if template not in names:
        raise InvalidInputError(f"{root / ANSWERS_FILE}: _src_path {template!r} is not a skillsmith template with history")
    top = git_toplevel(root)
    if top is None:
        raise MissingDependencyError(
            f"{skill_dir} is not in a git repository; run 'git init && git add -A && git commit -m skill' in it first, "
            "so the update can be reviewed and undone"
        )
    dirty = git_status(root)
    if dirty:
        raise MissingDependencyError(
            f"{skill_dir} has uncommitted changes ({len(dirty)} path(s)); commit or stash them, then retry"
        )
    with copier_errors():
        repo, tag = history.clone(names[template])
        known = history.sorted_tags(repo)
    old = str(answers["_commit"])
    if old not in known:
        raise InvalidInputError(
            f"{root / ANSWERS_FILE}: template version {old!r} is not in this skillsmith's template history "
            f"(versions {known[0]} to {tag}); update skillsmith, or regenerate the skill"
        )
    if known.index(old) > known.index(tag):
        raise InvalidInputError(f"the skill was made with template {old}, newer than this skillsmith's {tag}; update skillsmith")
    if old == tag:
        return Updated(root=root, old_version=old, new_version=tag, changed=[], conflicts=[])
    if not pretend:
        return run_copier_update(root, tag, old)
    with tempfile.TemporaryDirectory(prefix="skillsmith-update-") as tmp:
        copy = Path(tmp) / "repo"
        history.git("clone", "--quiet", "--shared", str(top), str(copy))
        sub = copy / root.relative_to(top.resolve())
        result = run_copier_update(sub, tag, old)
        result.diff = history.git("diff", "--no-color", "--", ".", cwd=sub)
        result.root = root
        shutil.rmtree(copy, ignore_errors=True)
        return result


def run_copier_update(root: Path, tag: str, old: str) -> Updated:
    from copier import run_update

    from skillsmith import template_history as history

    with copier_errors(), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with history.in_clones_dir():
            run_update(
                root, answers_file=ANSWERS_FILE, vcs_ref=tag, settings=copier_settings(), defaults=True,
                overwrite=True, conflict="inline", quiet=True, unsafe=False, skip_answered=True,
            )
    changed = [line[3:] for line in git_status(root)]
    prefix = history.git("rev-parse", "--show-prefix", cwd=root).strip()
    changed = sorted(rel[len(prefix):] if rel.startswith(prefix) else rel for rel in changed)
    conflicts = [rel for rel in changed if has_markers(root / rel)]
    return Updated(root=root, old_version=old, new_version=tag, changed=changed, conflicts=conflicts)


def has_markers(path: Path) -> bool:
    try:
        data = path.read_bytes()
    except OSError:
        return False
    return b"\n<<<<<<< " in b"\n" + data and b"\n>>>>>>> " in data
