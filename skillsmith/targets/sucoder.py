"""Agent-agnostic discovery links in a project root (seed 002), for every host that documents its names.

A project keeps one source of truth under agent-agnostic names and links the names each
agent discovers natively to it. The canonical names are sucoder's (seed 002) first, then
the cross-client ones many hosts read:

- instructions: ``AGENT.md``, ``AGENT.org``, then ``AGENTS.md`` (https://agents.md);
- skills: ``.skills/``, then ``.agents/skills/``.

Each host in :data:`HOSTS` names the file it reads instructions from and the folder it
discovers project skills in, as its documentation (``docs``) says; :func:`pairs` makes one
link per name a chosen host needs (``CLAUDE.md -> AGENT.md``, ``.claude/skills -> ../.skills``,
``.cursor/skills -> ../.skills``, ...). Only hosts whose documentation names a project folder
are listed.

:func:`inspect` reports the state of each link; :func:`create` makes a missing one, and only
where nothing exists: nothing here ever replaces or removes a file, folder or link (seed 002:
"If both exist independently (no symlink): warn, do not overwrite").
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

from skillsmith.targets import Target

#: names whose presence in a folder makes it a project root for the ``project`` rule scope
PROJECT_MARKERS = ("AGENT.md", "AGENT.org", "CLAUDE.md", ".skills", ".claude")
#: canonical names, preferred first: sucoder's, then the cross-client ones
INSTRUCTIONS = ("AGENT.md", "AGENT.org", "AGENTS.md")
SKILLS = (".skills", ".agents/skills")


@dataclass(frozen=True)
class Host:
    """A host's discovery names in a project root, and where it documents them."""

    name: str
    title: str
    instructions: str | None  # the project instructions file it reads, when it documents one
    skills: str  # the folder it discovers project skills in
    docs: tuple[str, ...]


HOSTS = (
    Host("claude", "Claude Code", "CLAUDE.md", ".claude/skills", ("https://code.claude.com/docs/en/skills",)),
    Host("codex", "OpenAI Codex", "AGENTS.md", ".agents/skills",
         ("https://developers.openai.com/codex/skills", "https://developers.openai.com/codex/guides/agents-md")),
    Host("copilot", "GitHub Copilot", None, ".github/skills",
         ("https://docs.github.com/en/copilot/how-tos/use-copilot-agents/cloud-agent/create-skills",)),
    Host("cursor", "Cursor", None, ".cursor/skills", ("https://cursor.com/docs/skills",)),
    Host("gemini", "Gemini CLI", "GEMINI.md", ".gemini/skills",
         ("https://geminicli.com/docs/cli/using-agent-skills", "https://geminicli.com/docs/cli/skills")),
    Host("opencode", "OpenCode", None, ".opencode/skills", ("https://opencode.ai/docs/skills",)),
)
HOST_NAMES = tuple(h.name for h in HOSTS)
#: the hosts ``link`` and the SUC rules serve unless told otherwise (seed 002 links for Claude)
DEFAULT_HOSTS = ("claude",)

# states of one link
ABSENT = "absent"  # nothing to link: no canonical file or folder
MISSING = "missing"  # the canonical exists, the link does not
LINKED = "linked"  # the link (or the canonical) resolves to the other
DIVERGED = "diverged"  # both exist independently
BROKEN = "broken"  # a link that points at nothing
BLOCKED = "blocked"  # the link's parent cannot hold it (.claude is a file or a link)


@dataclass(frozen=True)
class Pair:
    """One discovery link: where it lives, what it stands for, and the text it holds."""

    link: str  # relative to the project root: "CLAUDE.md", ".claude/skills"
    canonical: str  # relative to the project root: "AGENT.md", ".skills"
    target: str  # the link's content, relative to the link's folder: "AGENT.md", "../.skills"
    folder: bool  # the canonical is a folder
    host: str = "claude"  # the host that discovers the link's name


@dataclass(frozen=True)
class LinkState:
    pair: Pair
    state: str
    detail: str
    broken: str | None = None  # the dangling link, relative to the root, when state is BROKEN


def canonical(root: Path, names: tuple[str, ...]) -> str:
    """The first of *names* present below *root* (a dangling link counts), else the first name."""
    return next((n for n in names if os.path.lexists(root / n)), names[0])


def pairs(root: Path, hosts: tuple[str, ...] | list[str] = DEFAULT_HOSTS) -> list[Pair]:
    """The discovery links *hosts* need below *root*: instructions first, then skills.

    A host's name that is the canonical itself (``AGENTS.md`` for Codex when there is no
    ``AGENT.md``) needs no link.
    """
    chosen = [h for h in HOSTS if h.name in hosts]
    found: list[Pair] = []
    for attr, names, folder in (("instructions", INSTRUCTIONS, False), ("skills", SKILLS, True)):
        source = canonical(root, names)
        for host in chosen:
            link = getattr(host, attr)
            if link is None or link == source:
                continue
            target = os.path.relpath(source, os.path.dirname(link) or ".")
            found.append(Pair(link, source, Path(target).as_posix(), folder, host.name))
    return found


def is_project_root(path: Path) -> bool:
    return any(os.path.lexists(path / name) for name in PROJECT_MARKERS)


def _is_kind(path: Path, folder: bool) -> bool:
    return path.is_dir() if folder else path.is_file()


def _same(a: Path, b: Path) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


#: how many entries of a skills folder are compared one by one
_MAX_ENTRIES = 10_000


def _links_each(link: Path, canonical: Path) -> bool:
    """Whether the folder *link* holds its skills as links into *canonical*, one per skill (the layout
    ``npx skills add`` makes: ``.claude/skills/x -> ../../.agents/skills/x``): at least one is, and no
    skill of *canonical* has a separate copy in it (a skill only the link folder has is its own)."""
    try:
        entries = list(os.scandir(link))[:_MAX_ENTRIES]
    except OSError:
        return False
    linked = False
    for entry in entries:
        other = canonical / entry.name
        if not os.path.lexists(other):
            continue
        if not _same(Path(entry.path), other):
            return False
        linked = True
    return linked


def inspect_pair(root: Path, pair: Pair) -> LinkState:
    link, canonical = root / pair.link, root / pair.canonical
    for rel, path in ((pair.link, link), (pair.canonical, canonical)):
        if path.is_symlink() and not path.exists():
            target = os.readlink(path)
            return LinkState(pair, BROKEN, f"{rel} is a link to {target}, which does not exist", broken=rel)
    if not _is_kind(canonical, pair.folder):
        return LinkState(pair, ABSENT, f"no {pair.canonical} to link to")
    if not os.path.lexists(link):
        parent = link.parent
        if parent != root and (parent.is_symlink() or (os.path.lexists(parent) and not parent.is_dir())):
            what = "a link" if parent.is_symlink() else "not a folder"
            rel = parent.relative_to(root).as_posix()
            return LinkState(pair, BLOCKED, f"{rel} is {what}; {pair.link} cannot be created inside it")
        return LinkState(pair, MISSING, f"{pair.link} is missing; it should link to {pair.target}")
    if _same(link, canonical):
        return LinkState(pair, LINKED, f"{pair.link} and {pair.canonical} are the same")
    if not pair.folder and _defers_to(link, pair.canonical):
        return LinkState(pair, LINKED, f"{pair.link} imports or points to {pair.canonical}: one source")
    if not pair.folder and _defers_to(canonical, pair.link):
        return LinkState(pair, LINKED, f"{pair.canonical} imports or points to {pair.link}: one source")
    if pair.folder and not link.is_symlink() and _links_each(link, canonical):
        return LinkState(pair, LINKED, f"each skill in {pair.link} that {pair.canonical} holds is a link to it: one source")
    if link.is_symlink():
        detail = f"{pair.link} links to {os.readlink(link)}, not to {pair.canonical}"
    else:
        kind = "folders" if pair.folder else "files"
        detail = f"{pair.link} and {pair.canonical} both exist as separate {kind}"
    return LinkState(pair, DIVERGED, detail)


def _defers_to(link: Path, canonical: str) -> bool:
    """Whether the file *link* takes its instructions from the canonical one: it imports it
    (Claude Code's ``@AGENTS.md`` line, maybe with sections of its own for that host), or it is a
    short pointer that names it ("You MUST read `AGENTS.md` ... Read `AGENTS.md` now")."""
    if link.is_symlink() or not link.is_file():
        return False
    try:
        size = link.stat().st_size
        if size > 65_536:
            return False
        text = link.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return False
    lines = [ln.strip() for ln in text.splitlines() if ln.strip() and not ln.lstrip().startswith("<!--")]
    if any(ln.startswith("@") and ln[1:].strip().strip("./") == canonical for ln in lines):
        return True
    return size <= 1024 and canonical in text


def inspect(root: Path, hosts: tuple[str, ...] | list[str] = DEFAULT_HOSTS) -> list[LinkState]:
    """The state of each discovery link *hosts* need below *root*."""
    return [inspect_pair(root, pair) for pair in pairs(root, hosts)]


def create(root: Path, state: LinkState) -> LinkState:
    """Create the missing link of *state*; an existing path is never replaced.

    Returns the new state (LINKED), or DIVERGED when something appeared meanwhile.
    """
    pair = state.pair
    link = root / pair.link
    if link.parent != root:
        try:
            link.parent.mkdir(exist_ok=True)
        except FileExistsError:
            return LinkState(pair, BLOCKED, f"{link.parent.name} is not a folder")
        if link.parent.is_symlink():
            return LinkState(pair, BLOCKED, f"{link.parent.name} is a link; {pair.link} not created")
    try:
        os.symlink(pair.target, link, target_is_directory=pair.folder)
    except FileExistsError:
        return LinkState(pair, DIVERGED, f"{pair.link} appeared meanwhile; left alone")
    return LinkState(pair, LINKED, f"{pair.link} -> {pair.target}")


@dataclass
class Project:
    """A project root for the ``project`` rule scope: it has no files of its own to check."""

    root: Path
    target: str = "sucoder"
    files: dict = field(default_factory=dict)
    scripts: list = field(default_factory=list)

    @cached_property
    def links(self) -> list[LinkState]:
        return inspect(self.root)


def is_project(model) -> bool:
    """Whether *model* is a project root (checked for its discovery links), not a skill."""
    return isinstance(model, Project)


TARGET = Target(
    name="sucoder",
    summary="sucoder projects: agent-agnostic discovery links and the skills audit (seed 002)",
    detect=is_project,
    priority=30,
    fields=frozenset({"when_to_use", "argument-hint", "model", "disable-model-invocation", "user-invocable", "version"}),
)
