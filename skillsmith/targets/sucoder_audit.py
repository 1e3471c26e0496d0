"""The skills audit (seed 002, Compliance Auditing): permissions, then a full or diff review.

A git-tracked skills folder is reviewed against a baseline, the ref ``refs/audited``:

1. permissions: every file must be o+r and every folder o+rx (the auditor reads through
   those bits); links must stay inside the folder;
2. review: without a baseline (or with ``--full``) every file, otherwise only what changed
   since the baseline (added, modified, deleted; from git, including uncommitted work);
3. the reviewed files go through the security and file rules of ``skillsmith check`` plus the
   audit rules (scope creep against the baseline version of each skill);
4. nothing flagged: the baseline may move to HEAD (``--approve``); anything flagged: it stays,
   unless a reviewer accepts each flagged concern by name (``--accept RULE:PATH[:LINE]``) or all
   of them (``--accept-all``). An acceptance is never silent: who accepted which concerns, and
   when, is recorded in the audit trail, a git note on the approved commit under
   :data:`NOTES` (``git notes --ref=audited show``), and the move of the ref names it too.

The audit reads the skills and never writes them; only ``--init``, ``--commit`` and
``--approve`` write, and only to git.
"""

from __future__ import annotations

import difflib
import hashlib
import os
import re
import stat
from dataclasses import dataclass, field
from datetime import datetime, timezone
from functools import cached_property
from pathlib import Path, PurePosixPath

from skillsmith.config import Config
from skillsmith.discovery.git import Git, blob_id
from skillsmith.discovery.walk import Ignorer, walk_tree
from skillsmith.errors import InvalidInputError, NotFoundError, UsageError
from skillsmith.model.sourcefile import MAX_BYTES, SourceFile
from skillsmith.rules import registry
from skillsmith.rules.finding import Hit, display_path

BASELINE = "refs/audited"
#: where accepted concerns are recorded: a note on each commit approved with them
NOTES = "refs/notes/audited"
#: families of `check` rules whose findings are audit concerns (others are code quality)
CHECK_FAMILIES = ("SEC", "FIL")

ADDED, MODIFIED, DELETED = "added", "modified", "deleted"


def audit_selection() -> list[str]:
    """The rule selectors of an audit: the :data:`CHECK_FAMILIES`, and by ID their opt-in rules
    (``SEC052``), which `check` runs only when asked and an audit always runs."""
    return list(CHECK_FAMILIES) + [r.id for r in registry.all_rules() if r.opt_in and r.id.startswith(CHECK_FAMILIES)]
#: how much of a file is hashed at a time
CHUNK = 1 << 20


@dataclass(frozen=True)
class Entry:
    """One path below the audited root, from a walk that never follows links."""

    kind: str  # "file" | "dir" | "symlink" | "other"
    rel: str  # POSIX, relative to the root; "" for the root itself
    path: Path
    mode: int


@dataclass(frozen=True)
class Hunk:
    header: str  # "@@ -3,2 +3,4 @@"
    new_start: int
    new_end: int  # last new-side line the hunk covers


@dataclass
class Change:
    status: str  # added | modified | deleted
    rel: str
    path: Path
    old: bytes | None = None  # at the baseline (modified, deleted)
    new: bytes | None = None  # in the work tree (added, modified)
    hunks: list[Hunk] = field(default_factory=list)
    changed: set[int] = field(default_factory=set)  # new-side lines added or changed

    def hunk_at(self, line: int) -> Hunk | None:
        return next((h for h in self.hunks if h.new_start <= line <= h.new_end), None)


@dataclass
class Concern:
    rule: str
    path: str  # absolute, POSIX
    line: int
    column: int
    severity: str
    message: str
    hunk: str | None = None
    excerpt: str | None = None  # the flagged line, when the file is text
    accepted: bool = False  # a reviewer accepted it (--accept, --accept-all)

    def to_json(self) -> dict:
        return {"rule": self.rule, "path": display_path(self.path), "line": self.line, "column": self.column,
                "severity": self.severity, "message": self.message, "hunk": self.hunk, "excerpt": self.excerpt,
                "accepted": self.accepted}

    def to_text(self) -> str:
        where = f" (hunk {self.hunk})" if self.hunk else ""
        sev = "" if self.severity == "error" else f" ({self.severity})"
        mark = " [accepted]" if self.accepted else ""
        return f"{display_path(self.path)}:{self.line}:{self.column}: {self.rule} {self.message}{sev}{where}{mark}"

    def trail_line(self, root: Path) -> str:
        """The concern as the audit trail records an acceptance of it: rule, path in the root, line, message."""
        try:
            rel = Path(self.path).relative_to(root).as_posix()
        except ValueError:
            rel = self.path
        return f"{self.rule} {rel}:{self.line} {self.message}"


@dataclass(frozen=True)
class Acceptance:
    """A reviewer's acceptance of flagged concerns: ``RULE:PATH[:LINE]`` specs, or all of them."""

    reviewer: str  # "Name <email>"
    specs: tuple[str, ...] = ()
    everything: bool = False

    def matches(self, spec: str, concern: Concern, root: Path) -> bool:
        rule, path, line = parse_accept(spec)
        if concern.rule.upper() != rule or (line is not None and concern.line != line):
            return False
        wanted = Path(path)
        candidates = {wanted} if wanted.is_absolute() else {root / wanted, Path.cwd() / wanted}
        return os.path.normpath(concern.path) in {os.path.normpath(c) for c in candidates}

    def author(self) -> dict[str, str]:
        """git's environment that makes the reviewer the author of the trail's record (when it names an email)."""
        m = re.fullmatch(r"\s*(.*?)\s*<([^<>\s]+)>\s*", self.reviewer)
        if not m:
            return {}
        return {"GIT_AUTHOR_NAME": m.group(1) or m.group(2), "GIT_AUTHOR_EMAIL": m.group(2)}

    def apply(self, concerns: list[Concern], root: Path) -> None:
        """Mark the accepted concerns; a spec that names no concern is a usage error (a typo must not pass)."""
        for spec in self.specs:
            found = [c for c in concerns if self.matches(spec, c, root)]
            if not found:
                raise UsageError(f"--accept {spec}: no concern of this audit is {spec}; "
                                 "name one as RULE:PATH or RULE:PATH:LINE, as the report prints it")
            for c in found:
                c.accepted = True
        if self.everything:
            for c in concerns:
                c.accepted = True


def parse_accept(spec: str) -> tuple[str, str, int | None]:
    """``RULE:PATH[:LINE]`` as (rule, path, line or None); UsageError when it is not that shape."""
    rule, sep, rest = spec.partition(":")
    if not sep or not rule.strip() or not rest:
        raise UsageError(f"--accept {spec!r}: write RULE:PATH or RULE:PATH:LINE, e.g. SEC050:fmt/SKILL.md:10")
    path, sep, line = rest.rpartition(":")
    if sep and line.isdigit() and path:
        return rule.strip().upper(), path, int(line)
    return rule.strip().upper(), rest, None


def reviewer_identity(git: Git, given: str | None) -> str:
    """Who accepts: *given* (``Name <email>``), else the repository's git ``user.name`` and ``user.email``."""
    if given is not None:
        if not given.strip() or "\n" in given:
            raise UsageError("--accepted-by must name a person, like 'Ada Lovelace <ada@example.com>'")
        return given.strip()
    email = git.run("config", "user.email", check=False).stdout.decode("utf-8", "replace").strip()
    name = git.run("config", "user.name", check=False).stdout.decode("utf-8", "replace").strip()
    if not email:
        raise UsageError("accepting concerns records who accepted them: pass --accepted-by 'NAME <EMAIL>' "
                         "or set git config user.email")
    return f"{name} <{email}>" if name else f"<{email}>"


def trail_message(root: Path, head: str, audited: str | None, acceptance: Acceptance, accepted: list[Concern]) -> str:
    """The audit trail's record of an approval with accepted concerns: who, when, which."""
    lines = [
        f"skillsmith audit: approved with {len(accepted)} accepted concern{'s' if len(accepted) != 1 else ''}",
        "",
        f"Reviewer: {acceptance.reviewer}",
        f"Date: {now()}",
        f"Approved: {head}",
        f"Previous baseline: {audited or '(none)'}",
        "Accepted:" + (" all flagged concerns (--accept-all)" if acceptance.everything else ""),
    ]
    lines += [f"  {c.trail_line(root)}" for c in accepted]
    return "\n".join(lines) + "\n"


@dataclass
class Review:
    """What the audit rules receive: the walk, the reviewed changes and the baseline."""

    root: Path
    git: Git
    mode: str  # "full" | "diff"
    base: str | None  # baseline commit of a diff review
    base_name: str | None
    entries: list[Entry]
    changes: list[Change]
    ignored: list[str]
    max_bytes: int = MAX_BYTES
    #: the external reviewer (``--reviewer CMD``) and its prompt text; SUC030 runs it and keeps its verdict here
    reviewer: object | None = None  # sucoder_reviewer.Reviewer
    prompt: str | None = None
    verdict: object | None = None  # sucoder_reviewer.Verdict, once SUC030 asked

    @cached_property
    def base_files(self) -> set[str]:
        if self.base is None:
            return set()
        return set(self.git.paths("ls-tree", "-r", "-z", "--name-only", "--full-tree", self.base))

    def skill_of(self, rel: str) -> str:
        """The skill folder (relative to the root) that holds *rel*, now or at the baseline."""
        parts = PurePosixPath(rel).parts[:-1]
        for depth in range(len(parts), -1, -1):
            folder = "/".join(parts[:depth])
            md = f"{folder}/SKILL.md" if folder else "SKILL.md"
            if md in self.base_files or os.path.lexists(self.root / md):
                return folder
        return parts[0] if parts else ""

    def old_files(self, skill: str) -> dict[str, bytes]:
        """The skill's files at the baseline."""
        prefix = f"{skill}/" if skill else ""
        rels = [rel for rel in sorted(self.base_files) if rel.startswith(prefix) and self.skill_of(rel) == skill]
        return self.git.blobs(self.base, rels, self.max_bytes)  # type: ignore[arg-type]

    def new_files(self, skill: str) -> dict[str, bytes]:
        """The skill's regular files in the work tree."""
        prefix = f"{skill}/" if skill else ""
        out = {}
        for e in self.entries:
            if e.kind == "file" and e.rel.startswith(prefix) and self.skill_of(e.rel) == skill:
                data = read_bytes(e.path, self.max_bytes)
                if data is not None:
                    out[e.rel] = data
        return out

    @property
    def touched_skills(self) -> list[str]:
        return sorted({self.skill_of(c.rel) for c in self.changes if c.status != DELETED})

    def change(self, rel: str) -> Change | None:
        return self._by_rel.get(rel)

    @cached_property
    def _by_rel(self) -> dict[str, Change]:
        return {c.rel: c for c in self.changes}


@dataclass
class Outcome:
    review: Review
    head: str
    concerns: list[Concern]
    approved: bool = False
    notes: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)  # rules that failed: the review is incomplete
    reviewer: str | None = None  # who accepted concerns, when any were

    @property
    def open_concerns(self) -> list[Concern]:
        """The concerns no reviewer accepted: each keeps the baseline where it is."""
        return [c for c in self.concerns if not c.accepted]

    def summary(self) -> str:
        r = self.review
        counts = {s: sum(1 for c in r.changes if c.status == s) for s in (ADDED, MODIFIED, DELETED)}
        if r.mode == "full":
            scope = f"full review of {len(r.changes)} file{'s' if len(r.changes) != 1 else ''}"
        else:
            scope = (f"diff review since {r.base_name} ({r.base[:12]}): {counts[ADDED]} added, "  # type: ignore[index]
                     f"{counts[MODIFIED]} modified, {counts[DELETED]} deleted")
        accepted = len(self.concerns) - len(self.open_concerns)
        if self.open_concerns:
            files = len({c.path for c in self.open_concerns})
            n = len(self.open_concerns)
            also = f", {accepted} more accepted" if accepted else ""
            return (f"{n} concern{'s' if n != 1 else ''} in {files} file{'s' if files != 1 else ''}{also} ({scope}); "
                    f"{BASELINE} not moved.")
        if self.errors:
            return f"The review is incomplete: {len(self.errors)} rule error(s) ({scope}); {BASELINE} not moved."
        if accepted and self.approved:
            return (f"{accepted} concern{'s' if accepted != 1 else ''} accepted by {self.reviewer} ({scope}); "
                    f"{BASELINE} moved to {self.head[:12]}; the acceptance is recorded in "
                    f"'git notes --ref=audited show {self.head[:12]}'.")
        if self.approved:
            return f"No concerns ({scope}); {BASELINE} moved to {self.head[:12]}."
        return f"No concerns ({scope}); run with --approve to move {BASELINE} to {self.head[:12]}."

    def to_json(self) -> dict:
        r = self.review
        return {
            "mode": r.mode, "baseline": r.base, "baseline_ref": r.base_name, "head": self.head,
            "approved": self.approved, "accepted": sum(1 for c in self.concerns if c.accepted),
            "reviewer": self.reviewer,
            "reviewed": [{"status": c.status, "path": c.rel} for c in r.changes],
            "review_command": self.review_command(),
        }

    def review_command(self) -> dict | None:
        """What the external reviewer (``--reviewer CMD``) said: None without one."""
        r = self.review
        if r.reviewer is None:
            return None
        v = r.verdict
        return {"command": r.reviewer.command,  # type: ignore[attr-defined]
                "verdict": None if v is None else v.verdict,  # type: ignore[attr-defined]
                "problem": None if v is None else v.problem,  # type: ignore[attr-defined]
                "concerns": 0 if v is None else len(v.concerns)}  # type: ignore[attr-defined]

    def review_note(self) -> str | None:
        """One line on what the external reviewer said, for stderr (None without a reviewer)."""
        r = self.review
        if r.reviewer is None:
            return None
        v = r.verdict
        if v is None:
            return "nothing changed: the reviewer was not asked"
        if v.verdict == "approve":  # type: ignore[attr-defined]
            return "the reviewer approved"
        if v.verdict == "flag":  # type: ignore[attr-defined]
            n = max(1, len(v.concerns))  # type: ignore[attr-defined]
            return f"the reviewer flagged {n} concern{'s' if n != 1 else ''} (SUC030)"
        return f"the reviewer did not approve: {v.problem} (SUC030)"  # type: ignore[attr-defined]


def excerpt(data: bytes | None, line: int, limit: int = 200) -> str | None:
    """Line *line* of *data* (1-based), shortened, with invisible characters shown as escapes."""
    if not data or b"\0" in data[:8192]:
        return None
    lines = data.decode("utf-8", "replace").split("\n")
    if not 1 <= line <= len(lines):
        return None
    text = lines[line - 1].strip()
    text = "".join(ch if ch.isprintable() else ch.encode("unicode_escape").decode() for ch in text)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def read_bytes(path: Path, limit: int) -> bytes | None:
    f = SourceFile.from_path(path, path.name, max_bytes=limit)
    return f.data


def now() -> str:
    return datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


# -- the steps ---------------------------------------------------------------------------------


def open_repo(root: Path, init: bool) -> Git:
    """git for *root*, which must be the top of a work tree (``--init`` makes it one)."""
    if not os.path.lexists(root):
        raise NotFoundError(f"{root}: no such folder", {"path": str(root)})
    if not root.is_dir():
        raise InvalidInputError(f"{root}: not a folder", {"path": str(root)})
    git = Git(root, needed_by="the audit")
    top = git.top()
    if top is not None and top.resolve() == root.resolve():
        return git
    if init:
        git.run("init", "--quiet")
        git.commit_all(f"skillsmith audit: first snapshot of the skills at {now()}")
        return git
    where = f" (it is inside the repository at {top})" if top is not None else ""
    raise InvalidInputError(
        f"{root} is not the top of a git repository{where}; run 'skillsmith audit --init {root}' to track it",
        {"path": str(root), "repository": str(top) if top else None},
    )


def walk(root: Path) -> list[Entry]:
    """Every path below *root* and *root* itself, except the repository's ``.git``, without following links.

    Unlike the check's walk this one skips no other folder and honours no ignore file: the
    permissions of everything in the folder matter, and whoever writes the skills must not be
    able to hide a file from the audit.
    """
    try:
        st = root.stat()
    except OSError as exc:
        raise InvalidInputError(f"{root}: {exc.strerror}", {"path": str(root)})
    own_git = os.path.join(str(root), ".git")
    entries = [Entry("dir", "", root, stat.S_IMODE(st.st_mode))]
    for e in walk_tree(root, limit=None, skip=lambda d: d.path == own_git):
        if e.path != own_git:
            entries.append(Entry(e.kind, e.rel, Path(e.path), stat.S_IMODE(e.st.st_mode)))
    return entries


def hunks(old: bytes, new: bytes) -> tuple[list[Hunk], set[int]]:
    """Unified-diff hunks (3 lines of context) and the new-side lines added or changed."""
    a = old.decode("utf-8", "replace").splitlines()
    b = new.decode("utf-8", "replace").splitlines()
    found, changed = [], set()
    for group in difflib.SequenceMatcher(None, a, b, autojunk=False).get_grouped_opcodes(3):
        i1, i2, j1, j2 = group[0][1], group[-1][2], group[0][3], group[-1][4]
        old_range = f"{i1 + 1 if i2 > i1 else i1},{i2 - i1}"
        new_range = f"{j1 + 1 if j2 > j1 else j1},{j2 - j1}"
        found.append(Hunk(f"@@ -{old_range} +{new_range} @@", j1 + 1, max(j2, j1 + 1)))
        for tag, _i1, _i2, k1, k2 in group:
            if tag in ("replace", "insert"):
                changed.update(range(k1 + 1, k2 + 1))
    return found, changed


def changes_since(git: Git, root: Path, base: str, entries: list[Entry], ignored: list[str],
                  max_bytes: int) -> list[Change]:
    """Files added, modified or deleted in the work tree (committed or not) since *base*.

    Compared here, not by git: the baseline's tree gives each path's mode and blob id, and each
    work-tree file is hashed as the blob it would be, byte for byte. No filter, attribute,
    index state or config of the audited repository stands between a file and its review
    (a ``clean`` filter that replays the baseline's bytes used to hide a changed ``SKILL.md``).
    Files git ignores are left to SUC012; a nested repository's ``.git`` is not a skill's file.
    """
    old_tree = {rel: e for rel, e in git.tree(base).items() if e[0] != "160000"}
    fmt = git.object_format()
    folders = tuple(i for i in ignored if i.endswith("/"))
    files = {i for i in ignored if not i.endswith("/")}
    now = {e.rel: e for e in entries
           if e.kind in ("file", "symlink", "other") and ".git" not in e.rel.split("/")
           and e.rel not in files and not e.rel.startswith(folders)}
    found: dict[str, str] = {}
    for rel in old_tree.keys() | now.keys():
        if rel not in now:
            found[rel] = DELETED
        elif rel not in old_tree:
            found[rel] = ADDED
        elif not same_blob(now[rel], *old_tree[rel], fmt):
            found[rel] = MODIFIED
    old = git.blobs(base, [rel for rel, status in sorted(found.items()) if status != ADDED], max_bytes)
    out = []
    for rel, status in sorted(found.items()):
        path = root / rel
        change = Change(status, rel, path, old=old.get(rel))
        if status != DELETED and now[rel].kind == "file":
            change.new = read_bytes(path, max_bytes)
        if change.new is not None:
            change.hunks, change.changed = hunks(change.old or b"", change.new)
        out.append(change)
    return out


def same_blob(entry: Entry, mode: str, oid: str, size: int | None, object_format: str) -> bool:
    """Whether the work-tree *entry* is the baseline's blob (*mode*, *oid*, *size*) byte for byte, mode included."""
    try:
        if entry.kind == "symlink":
            return mode == "120000" and blob_id(os.readlink(os.fsencode(entry.path)), object_format) == oid
        if entry.kind != "file" or mode != ("100755" if entry.mode & 0o100 else "100644"):
            return False
        if size is not None and os.lstat(entry.path).st_size != size:
            return False
        h = hashlib.new(object_format)
        with open(entry.path, "rb") as fh:
            data = fh.read(CHUNK)
            h.update(b"blob %d\0" % os.fstat(fh.fileno()).st_size)
            while data:
                h.update(data)
                data = fh.read(CHUNK)
        return h.hexdigest() == oid
    except OSError:
        return False  # unreadable now: SUC010 says why, and the review sees it as changed


def full_review(entries: list[Entry]) -> list[Change]:
    return [Change(ADDED, e.rel, e.path) for e in entries if e.kind == "file"]


def check_concerns(review: Review, errors: list[str]) -> list[Concern]:
    """Findings of the security and file rules of ``check`` on the reviewed files.

    The skills folder's own configuration and inline ``skillsmith: ignore`` comments are not
    honoured: whoever writes the skills must not be able to silence their audit. A finding
    about a whole skill (scope ``unit``: part of it could not be read) is a concern wherever
    it points, so a skill that was not fully reviewed is never approved.
    """
    from skillsmith.discovery.discover import Unit, find_skills
    from skillsmith.rules import engine as checker

    reviewed = {str(c.path): c for c in review.changes if c.status != DELETED}
    if not reviewed:
        return []
    config = Config()
    ignorer = Ignorer(review.root, config)
    units = []
    covered: set[str] = set()
    for skill in find_skills(review.root, ignorer)[0]:
        inside = [p for p in reviewed if p == str(skill) or p.startswith(str(skill) + os.sep)]
        if inside:
            units.append(Unit("skill", skill, config, ignorer=ignorer))
            covered.update(inside)
    loose = [(c.rel, c.path) for p, c in reviewed.items() if p not in covered]
    if loose:
        units.append(Unit("loose", review.root, config, loose, ignorer=ignorer))
    registry.load_rules()
    options = checker.Options(select=audit_selection(), use_cache=False, suppressions=False, jobs=1)
    concerns = []
    for unit in units:
        result = checker.check_unit(unit, options)
        for f in result["findings"]:
            change = reviewed.get(str(Path(f["path"])))
            if change is None:
                rule = registry.get_rule(f["rule"])
                if rule is not None and rule.scope == "unit":  # the skill was not fully reviewed
                    concerns.append(Concern(f["rule"], f["path"], f["line"], f["column"], f["severity"], f["message"]))
                continue
            hunk = None
            if review.mode == "diff" and change.new is not None:
                if change.status == MODIFIED and f["line"] not in change.changed and not f["rule"].startswith("FIL"):
                    continue  # approved before, unchanged since
                found = change.hunk_at(f["line"])
                hunk = found.header if found else None
            concerns.append(Concern(f["rule"], f["path"], f["line"], f["column"], f["severity"], f["message"], hunk,
                                    excerpt(change.new if change.new is not None else read_bytes(change.path, review.max_bytes), f["line"])))
        errors.extend(result["notes"])
    return concerns


def audit_concerns(review: Review, errors: list[str]) -> list[Concern]:
    """Findings of the rules with scope ``audit`` (permissions, links, scope creep)."""
    concerns = []
    for r in registry.all_rules():
        if r.scope != "audit":
            continue
        try:
            hits: list[Hit] = list(r.check(review) or ())
        except Exception as exc:  # a rule bug must not pass as "no concerns"
            errors.append(f"internal error in rule {r.id}: {type(exc).__name__}: {exc}")
            continue
        for hit in hits:
            try:
                rel = Path(hit.path).relative_to(review.root).as_posix()
            except ValueError:
                rel = str(hit.path)
            change = review.change(rel)
            found = change.hunk_at(hit.line) if change is not None and review.mode == "diff" else None
            data = change.new if change is not None and change.new is not None else None
            concerns.append(Concern(r.id, Path(hit.path).as_posix(), hit.line, hit.column, r.severity, hit.message,
                                    found.header if found else None, excerpt(data, hit.line)))
    return concerns


#: order of the report: permissions, then security, then the rest
_ORDER = {"SUC01": 0, "SEC": 1, "FIL": 2, "SUC": 3}


def order(c: Concern) -> tuple:
    rank = next((v for k, v in _ORDER.items() if c.rule.startswith(k)), 4)
    return (rank, c.path, c.line, c.column, c.rule)


def run_audit(root: Path, *, full: bool = False, since: str | None = None, approve: bool = False,
              init: bool = False, commit: bool = False, max_bytes: int = MAX_BYTES,
              accept: list[str] | None = None, accept_all: bool = False, accepted_by: str | None = None,
              reviewer=None) -> Outcome:
    """Audit *root*; with *approve*, move the baseline when nothing (or nothing not accepted) is flagged.

    *accept* (``RULE:PATH[:LINE]`` specs) and *accept_all* accept flagged concerns for this
    approval; they need *approve* and a person, *accepted_by* (default: git's ``user.name``/``user.email``),
    and the approval records them (:func:`trail_message`, a note under :data:`NOTES`).

    *reviewer* (a :class:`~skillsmith.targets.sucoder_reviewer.Reviewer`) is the external
    reviewer: when something changed, SUC030 hands it the review, and anything but its approval
    is a concern, so the baseline moves only when the rules and the reviewer both approve.
    """
    notes: list[str] = []
    if (accept or accept_all) and not approve:
        raise UsageError("--accept and --accept-all accept concerns for an approval: add --approve")
    for spec in accept or ():
        parse_accept(spec)
    git = open_repo(root, init)
    prompt = None
    if reviewer is not None:
        from skillsmith.targets.sucoder_reviewer import read_prompt

        prompt = read_prompt(reviewer, root, notes)
    acceptance = None
    if accept or accept_all:
        acceptance = Acceptance(reviewer_identity(git, accepted_by), tuple(accept or ()), accept_all)
    if commit:
        if git.commit_all(f"skillsmith audit: snapshot of the skills at {now()}"):
            notes.append("committed pending changes")
    head = git.commit_id("HEAD")
    if head is None:
        raise InvalidInputError(f"{root}: the repository has no commits yet; run with --commit", {"path": str(root)})
    audited = git.commit_id(BASELINE)
    base = git.require_commit(since) if since else audited
    base_name = since if since else BASELINE
    mode = "full" if full or base is None else "diff"
    if approve:
        if git.dirty():
            raise InvalidInputError("--approve needs every change committed: run with --commit first",
                                    {"path": str(root)})
        if mode == "diff" and since and (audited is None or not git.is_ancestor(base, audited)):  # type: ignore[arg-type]
            raise UsageError(f"--approve with --since {since}: that review does not cover everything since {BASELINE}; "
                             "use --full, or a REF at or before it")
    entries = walk(root)
    ignored = git.paths("ls-files", "-z", "--others", "--ignored", "--exclude-standard", "--directory")
    changes = full_review(entries) if mode == "full" else changes_since(git, root, base, entries, ignored, max_bytes)  # type: ignore[arg-type]
    review = Review(root, git, mode, base if mode == "diff" else None, base_name if mode == "diff" else None,
                    entries, changes, ignored, max_bytes, reviewer, prompt)
    errors: list[str] = []
    concerns = audit_concerns(review, errors) + check_concerns(review, errors)
    concerns.sort(key=order)
    if acceptance is not None:
        acceptance.apply(concerns, root)
    outcome = Outcome(review, head, concerns, notes=notes, errors=errors,
                      reviewer=acceptance.reviewer if acceptance is not None else None)
    if approve and not outcome.open_concerns and not errors:
        accepted = [c for c in concerns if c.accepted]
        message = f"skillsmith audit: approved at {now()}"
        if accepted:
            # the trail first: an approval whose record could not be written does not happen
            as_reviewer = Git(root, needed_by="the audit", env=acceptance.author())  # type: ignore[union-attr]
            as_reviewer.run(*git.identity(), "notes", "--ref", NOTES, "append", "-m",
                            trail_message(root, head, audited, acceptance, accepted), head)  # type: ignore[arg-type]
            message += f" by {acceptance.reviewer} with {len(accepted)} accepted concern(s) ({NOTES})"  # type: ignore[union-attr]
        # move only from the value we read: a concurrent change of the ref makes this fail
        git.run("update-ref", "--create-reflog", "-m", message, BASELINE, head, audited or "")
        outcome.approved = True
    return outcome
