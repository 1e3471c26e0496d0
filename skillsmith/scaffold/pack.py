"""``pack``: a skill folder as the ``.skill`` archive hosts accept.

The layout is the one of Anthropic's skill-creator (``skills/skill-creator/scripts/package_skill.py``
in github.com/anthropics/skills): a zip file whose root holds the skill folder itself
(``my-skill/SKILL.md``, ``my-skill/scripts/run.py``, ...), named ``my-skill.skill``.

What goes in is what discovery reads for ``check`` (so never ``.git``, ``node_modules``,
``__pycache__``, virtualenvs, tool caches or gitignored paths), less:

- dotfiles and dot-folders, which hosts skip (StablEdge's ``list_files``, seed 001), unless
  ``SKILL.md`` cites them, which makes them part of what the agent reads;
- the answers file of ``skillsmith new`` (:data:`skillsmith.scaffold.answers.ANSWERS_FILE`);
- ``*.pyc`` files and a top-level ``evals/`` folder, which skill-creator's packager leaves out;
- symbolic links that leave the skill, dangle or name a folder. A link to a file inside
  the skill goes in as a regular file holding the target's bytes: nothing outside the
  folder is ever read, and hosts that skip links (StablEdge) still get the content;
- the archive itself, when it is written inside the skill.

The archive is reproducible: entries sorted by name, every timestamp 1980-01-01 00:00 (the
zip epoch), modes 0755 (a file with an execute bit) or 0644, Unix as the creating system,
deflate at level 9, no extra fields. The same tree gives the same bytes with the same zlib.

Host limits are the target's rules, run by the check that comes first: for StablEdge
(seed 001, "How the Agent accesses bundled files") a file over 20 MB is an error (STE013)
and more than 20 bundled files a warning (STE014). A skill with errors is refused
(:class:`skillsmith.errors.FindingsError`, exit 10) unless *force*.
"""

from __future__ import annotations

import hashlib
import io
import os
import stat
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from skillsmith.errors import FindingsError, InvalidInputError, NotFoundError
from skillsmith.scaffold.answers import ANSWERS_FILE

SUFFIX = ".skill"
#: the zip format's first representable moment; every entry carries it
EPOCH = (1980, 1, 1, 0, 0, 0)
COMPRESS_LEVEL = 9
LEFT_OUT_SUFFIXES = (".pyc",)
#: top-level folders skill-creator's packager leaves out (its evaluation sets)
LEFT_OUT_TOP = ("evals",)
READ_CHUNK = 1 << 20


@dataclass(frozen=True)
class Entry:
    """One file of the archive."""

    name: str  # the archive path: "<skill>/<rel>"
    rel: str  # the path inside the skill
    mode: int  # 0o755 or 0o644
    source: Path  # the file whose bytes go in (a link's target for an in-tree link)
    link: str | None = None  # the link's text, when the entry stands for a link


@dataclass(frozen=True)
class LeftOut:
    rel: str
    reason: str


@dataclass
class Packed:
    """What :func:`pack` wrote, or would write."""

    archive: Path
    skill: str
    entries: list[dict] = field(default_factory=list)  # name, size, mode, sha256 per file
    left_out: list[LeftOut] = field(default_factory=list)
    findings: list = field(default_factory=list)  # the check's findings (warnings, or errors with force)
    size: int = 0
    sha256: str = ""

    @property
    def errors(self) -> list:
        return [f for f in self.findings if f.severity == "error"]


def skill_folder(path: str | Path) -> Path:
    """The skill folder *path* names (a folder with a SKILL.md, or that SKILL.md)."""
    p = Path(os.path.abspath(path))
    if not os.path.lexists(p):
        raise NotFoundError(f"{path}: no such file or folder", {"path": str(path)})
    if p.name == "SKILL.md" and not p.is_dir():
        p = p.parent
    if not p.is_dir():
        raise InvalidInputError(f"{path}: not a folder", {"path": str(path)})
    if not (p / "SKILL.md").is_file():
        raise InvalidInputError(f"{path}: not a skill (no SKILL.md)", {"path": str(path)})
    return p


def archive_path(root: Path, output: str | Path | None) -> Path:
    """Where the archive goes: *output*, or ``<output>/<skill>.skill`` for a folder, or ``./<skill>.skill``."""
    name = root.name + SUFFIX
    if output is None:
        return Path(os.path.abspath(name))
    out = Path(os.path.abspath(output))
    return out / name if out.is_dir() else out


def normal_mode(mode: int) -> int:
    """0o755 for a file with any execute bit, else 0o644: what the archive records."""
    return 0o755 if mode & 0o111 else 0o644


def select(skill, archive: Path) -> tuple[list[Entry], list[LeftOut]]:
    """The entries of *skill* (a loaded :class:`~skillsmith.model.skill.Skill`) and what is left out, both sorted."""
    root = Path(skill.root)
    real_root = os.path.realpath(root)
    prefix = root.name
    entries: list[Entry] = []
    left: list[LeftOut] = []

    def reason_to_leave(rel: str) -> str | None:
        parts = PurePosixPath(rel).parts
        if rel == ANSWERS_FILE:
            return "the answers file of skillsmith new"
        if any(p.startswith(".") for p in parts) and not skill.cited(rel):
            return "a dotfile; hosts skip them"
        if rel.endswith(LEFT_OUT_SUFFIXES):
            return "compiled Python"
        if parts[0] in LEFT_OUT_TOP and len(parts) > 1:
            return f"{parts[0]}/ is left out, as skill-creator's packager does"
        if os.path.abspath(root / rel) == str(archive):
            return "the archive being written"
        return None

    for rel, f in skill.files.items():
        why = reason_to_leave(rel)
        if why:
            left.append(LeftOut(rel, why))
        else:
            entries.append(Entry(f"{prefix}/{rel}", rel, normal_mode(f.mode), Path(f.path)))
    for rel, text in skill.symlinks.items():
        why = reason_to_leave(rel)
        if why:
            left.append(LeftOut(rel, why))
            continue
        resolved = os.path.realpath(root / rel)
        inside = os.path.commonpath([resolved, real_root]) == real_root
        try:
            st = os.stat(resolved) if inside else None
        except OSError:
            st = None
        if not inside:
            left.append(LeftOut(rel, f"a link to {text}, outside the skill"))
        elif st is None:
            left.append(LeftOut(rel, f"a link to {text}, which does not exist"))
        elif not stat.S_ISREG(st.st_mode):
            left.append(LeftOut(rel, f"a link to {text}, not to a file"))
        else:
            entries.append(Entry(f"{prefix}/{rel}", rel, normal_mode(st.st_mode), Path(resolved), link=text))
    return sorted(entries, key=lambda e: e.name), sorted(left, key=lambda x: x.rel)


def read_all(path: Path) -> bytes:
    """The bytes of the regular file *path*, opened without following a link."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
    with os.fdopen(fd, "rb") as fh:
        if not stat.S_ISREG(os.fstat(fh.fileno()).st_mode):
            raise OSError(f"{path}: not a regular file")
        return fh.read()


def build(entries: list[Entry]) -> tuple[bytes, list[dict]]:
    """The archive's bytes and one record (name, size, mode, sha256) per entry, in order."""
    import zipfile

    buffer = io.BytesIO()
    records = []
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED, compresslevel=COMPRESS_LEVEL) as zf:
        for e in entries:
            data = read_all(e.source)
            info = zipfile.ZipInfo(e.name, date_time=EPOCH)
            info.create_system = 3  # Unix: external_attr carries the mode
            info.external_attr = (stat.S_IFREG | e.mode) << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            zf.writestr(info, data, compresslevel=COMPRESS_LEVEL)
            records.append({"name": e.name, "size": len(data), "mode": e.mode,
                            "sha256": hashlib.sha256(data).hexdigest(), "link": e.link})
    return buffer.getvalue(), records


def pack(path: str | Path, output: str | Path | None = None, *, force: bool = False,
         target: str | None = None) -> Packed:
    """Check the skill at *path*, then write its ``.skill`` archive atomically.

    *target* is the host whose rules the check applies (default: detected, as for ``check``).
    Raises :class:`NotFoundError` (3) for a missing path, :class:`InvalidInputError` (4) for
    a folder that is not a skill, one with more files than discovery reads, or an archive
    path that cannot be written, and :class:`FindingsError` (10) when the check found errors
    and not *force* (its ``details["findings"]`` lists them).
    """
    from skillsmith.discovery.discover import discover, load_skill
    from skillsmith.fix.atomic import atomic_write
    from skillsmith.model.sourcefile import MAX_BYTES
    from skillsmith.rules.engine import Options, check_paths
    from skillsmith.rules.finding import display_path

    root = skill_folder(path)
    archive = archive_path(root, output)
    findings = check_paths([root], Options(target=target)).findings
    errors = [f for f in findings if f.severity == "error"]
    if errors and not force:
        raise FindingsError(
            f"{display_path(root)}: {len(errors)} error{'s' if len(errors) != 1 else ''}; not packed "
            "(fix them, or pass --force)",
            {"findings": [f.to_json() for f in errors]},
        )
    [unit] = [u for u in discover([root]) if u.kind == "skill" and u.root == root]
    skill = load_skill(unit.root, unit.config, MAX_BYTES, unit.ignorer)
    if skill.unread.count:
        raise InvalidInputError(f"{display_path(root)}: more files than skillsmith reads; not packed",
                                {"path": str(root)})
    if skill.unread.unlisted:
        folder = sorted(skill.unread.unlisted)[0]
        raise InvalidInputError(f"{display_path(root)}: folder {folder}/ cannot be listed "
                                f"({skill.unread.unlisted[folder]}); not packed", {"path": str(root)})
    entries, left = select(skill, archive)
    try:
        data, records = build(entries)
    except OSError as exc:
        raise InvalidInputError(f"cannot read {exc.filename or exc}: {exc.strerror or exc}", {"path": str(root)})
    try:
        archive.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(archive, data, mode=0o644)
    except OSError as exc:
        raise InvalidInputError(f"{display_path(archive)}: cannot write: {exc.strerror or exc}",
                                {"path": str(archive)})
    return Packed(archive, root.name, records, left, findings, len(data), hashlib.sha256(data).hexdigest())
