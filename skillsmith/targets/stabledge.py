"""StablEdge progressive skills (seed 001): declared resources, runtimes, bundled files.

What the host does with a skill folder, written down once for the STE rules and for the
``resources`` fix: which files ``list_files`` shows, which runtime ``run_script`` picks, and
what a ``resources:`` item must look like. :func:`update_resources` is the fix itself, a pure
text transformation done with round-trip YAML (ruamel.yaml, imported lazily);
:func:`fix_skill_md` applies it to a SKILL.md, and :data:`TARGET` brings that to
``skillsmith fix`` as a file fixer.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import PurePosixPath

from skillsmith.lang.interpreter import shebang_interpreter
from skillsmith.model import frontmatter
from skillsmith.model.skillpath import PARENT, skill_path
from skillsmith.targets import FileFixer, Scaffold, Target
from skillsmith.targets.agentskills import name_problem, new_description_problem

ROLES = ("reference", "executable", "template", "asset")
#: extension -> runtime the host bundles
RUNTIME_SUFFIXES = {
    ".py": "python",
    ".js": "node", ".mjs": "node", ".cjs": "node",
    ".ts": "tsx", ".mts": "tsx", ".cts": "tsx",
    ".sh": "bash", ".bash": "bash",
}
#: interpreters the host accepts on the shebang line of a file without extension
SHEBANG_RUNTIMES = frozenset({"python", "python3", "node", "bash", "sh"})
#: extensions of programs a person would expect to run, but the host cannot
FOREIGN_PROGRAM_SUFFIXES = frozenset(
    ".rb .pl .pm .php .lua .r .ps1 .psm1 .bat .cmd .vbs .exe .com .bin .jar .go .rs .c .cc .cpp .swift "
    ".kt .zsh .fish .ksh .csh .tcl .awk .applescript .scpt .dll .so .dylib .appimage .msi .deb".split()
)
MAX_COPY_BYTES = 20 * 1024 * 1024
LISTED_IN_CONTEXT = 20
#: run_script's limits on argv: items, and bytes of each (seed 001, Running scripts)
MAX_ARGUMENTS = 64
MAX_ARGUMENT_BYTES = 8 * 1024
BINARY_PROBE_BYTES = 8192
#: documents written for people, which the seed says to leave out of a skill
PEOPLE_DOCS = re.compile(r"^(readme|install|installation|changelog|changes|history)(\.[A-Za-z0-9]+)?$", re.I)
SKIPPED_DIRS = frozenset({"__pycache__", "node_modules"})
#: top-level folders whose files are for the skill's developers (its own tests), not resources
UNDECLARED_DIRS = frozenset({"tests"})


@dataclass(frozen=True)
class Declared:
    """One item of the ``resources:`` list."""

    index: int
    line: int  # 1-based line in SKILL.md
    item: object  # as parsed
    path: str | None  # normalised (``\\`` -> ``/``), None when not a string
    role: object


# -- the frontmatter ------------------------------------------------------------------------


def fm_data(skill) -> dict | None:
    doc = skill.doc
    if doc is None or doc.frontmatter.data is None:
        return None
    return doc.frontmatter.data


def is_progressive(skill) -> bool:
    data = fm_data(skill)
    return bool(data) and data.get("progressive") is True


def declared(skill) -> list[Declared] | None:
    """The items of ``resources:`` when it is a list, else None."""
    data = fm_data(skill)
    if data is None or not isinstance(data.get("resources"), list):
        return None
    fm = skill.doc.frontmatter
    lines = _item_lines(fm.raw, fm.start_line + 1)
    key_line = fm.key_lines.get("resources", fm.start_line)
    out = []
    for i, item in enumerate(data["resources"]):
        path = role = None
        if isinstance(item, dict):
            raw_path = item.get("path")
            path = raw_path.replace("\\", "/") if isinstance(raw_path, str) else None
            role = item.get("role")
        out.append(Declared(i, lines[i] if i < len(lines) else key_line, item, path, role))
    return out


def _item_lines(raw: str, first_line: int) -> list[int]:
    """1-based lines of the items of the top-level ``resources`` sequence."""
    import yaml

    try:
        node = yaml.compose(raw, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    except yaml.YAMLError:
        return []
    if not isinstance(node, yaml.MappingNode):
        return []
    for key, value in node.value:
        if isinstance(key, yaml.ScalarNode) and key.value == "resources" and isinstance(value, yaml.SequenceNode):
            return [item.start_mark.line + first_line for item in value.value]
    return []


def path_problem(path: str) -> tuple[str, str] | None:
    """(kind, message) when a declared path breaks the seed's rules; kind names the rule.

    Inside the skill is :func:`~skillsmith.model.skillpath.skill_path`'s answer; StablEdge also
    refuses any ``..`` segment, even one that stays inside (the seed: it "cannot contain ..").
    """
    if not path.strip():
        return "empty", "resource 'path' is empty"
    where = skill_path(path)
    if where.why is not None and where.why != PARENT:
        return "absolute", f"resource path {path!r} is absolute; write it relative to the skill folder"
    if where.why == PARENT or ".." in path.replace("\\", "/").split("/"):
        return "parent", f"resource path {path!r} leaves the skill folder with '..'"
    if where.rel == "SKILL.md":
        return "skill-md", "SKILL.md cannot be declared as a resource"
    return None


# -- the files the host sees ----------------------------------------------------------------


def listed(rel: str) -> bool:
    """Whether ``list_files`` shows *rel* (a regular file below the skill)."""
    parts = PurePosixPath(rel).parts
    if rel == "SKILL.md":
        return False
    return not any(p.startswith(".") or p in SKIPPED_DIRS for p in parts)


def listed_files(skill) -> list[str]:
    return sorted(rel for rel in skill.files if listed(rel))


def linked_part(skill, rel: str) -> str | None:
    """The symbolic link *rel* is or runs through (*rel* itself or one of its folders), or None."""
    parts = PurePosixPath(rel).parts
    for depth in range(1, len(parts) + 1):
        prefix = "/".join(parts[:depth])
        if prefix in skill.symlinks:
            return prefix
    return None


_REDIRECTION = re.compile(r"^\d*(?:>>?|<<?|&>>?)")


def invocation_arguments(after: str) -> list[str]:
    """The arguments a worked invocation passes after the script's path, as ``run_script`` would get them.

    *after* is the code that follows the path (``--json a.log | jq .``). Split as a shell
    splits words (:mod:`shlex`; plain whitespace when the quoting is broken); redirections and
    everything from a ``|``, ``&&``, ``||`` or ``;`` on are not arguments.
    """
    import shlex

    try:
        words = shlex.split(after)
    except ValueError:
        words = after.split()
    args = []
    target_next = False
    for w in words:
        if w in ("|", "|&", "&&", "||", ";", "&"):
            break
        if target_next:  # the file of a redirection written apart (`2> errors.log`)
            target_next = False
            continue
        m = _REDIRECTION.match(w)
        if m:
            target_next = m.end() == len(w)
            continue
        args.append(w)
    return args


def runtime(f) -> str | None:
    """The runtime ``run_script`` would pick for *f*, or None."""
    if f.suffix:
        return RUNTIME_SUFFIXES.get(f.suffix)
    interp = shebang_interpreter(f.shebang)
    return interp if interp in SHEBANG_RUNTIMES else None


def looks_like_program(f) -> bool:
    """A file meant to be run: a known or foreign program extension, a shebang, or the exec bit."""
    if f.suffix in RUNTIME_SUFFIXES or f.suffix in FOREIGN_PROGRAM_SUFFIXES:
        return True
    if f.executable:
        return True
    return f.data is not None and f.data.startswith(b"#!")


def is_people_doc(rel: str) -> bool:
    return bool(PEOPLE_DOCS.match(PurePosixPath(rel).name))


def default_role(rel: str, f) -> str | None:
    """The role the fix declares for *rel*, or None when the file is better left undeclared."""
    parts = PurePosixPath(rel).parts
    if is_people_doc(rel) and parts[0] != "assets":
        return None  # STE015 asks to remove it
    if parts[0] in UNDECLARED_DIRS and len(parts) > 1:
        return None
    if parts[0] == "scripts":
        return "executable" if runtime(f) else None
    if parts[0] == "references":
        return "reference"
    if parts[0] == "assets":
        return "template" if any("template" in p.lower() for p in parts[1:]) else "asset"
    if f.suffix in (".md", ".markdown", ".txt", ".rst"):
        return "reference"
    return "asset"


def expected_roles(skill) -> dict[str, str]:
    """Files that should be declared, with the role the fix gives them."""
    out = {}
    for rel in listed_files(skill):
        role = default_role(rel, skill.files[rel])
        if role:
            out[rel] = role
    return out


# -- the fix ---------------------------------------------------------------------------------


def update_resources(text: str, roles: dict[str, str]) -> str | None:
    """*text* (a SKILL.md, ``\\n`` newlines) with its ``resources:`` list brought up to date.

    Only for progressive skills. Items for files in *roles* are kept as written (a bad role
    becomes the expected one); items that are not strings, name missing files, break the path
    rules or repeat a path are removed; files in *roles* not yet declared are appended in
    sorted order. Everything outside the ``resources`` block stays byte for byte; inside it,
    ruamel.yaml keeps comments and layout. Returns None when nothing changes or the
    frontmatter is not something to edit.
    """
    lines, close = frontmatter.split(text)
    if close is None or close < 0:
        return None
    raw = "\n".join(lines[1:close]) + "\n"
    yaml = _yaml()
    try:
        doc = yaml.load(raw)
    except Exception:  # ruamel raises many types; any of them means "do not touch"
        return None
    if not hasattr(doc, "lc") or doc.get("progressive") is not True:
        return None
    current = doc.get("resources")
    if current is not None and not isinstance(current, list):
        return None

    from ruamel.yaml.comments import CommentedMap, CommentedSeq

    seq = current if current is not None else CommentedSeq()
    changed = False
    seen: set[str] = set()
    for i in reversed(range(len(seq))):  # reversed: the first of two duplicates is kept
        item = seq[i]
        path = item.get("path") if isinstance(item, dict) else None
        key = skill_path(path).rel if isinstance(path, str) else None
        ok = key is not None and path_problem(path) is None and key in roles
        if ok and key in [skill_path(p).rel for p in _paths(seq[:i])]:
            ok = False
        if not ok:
            del seq[i]
            changed = True
            continue
        seen.add(key)
        if item.get("role") not in ROLES:
            item["role"] = roles[key]
            changed = True
    for rel in sorted(set(roles) - seen):
        seq.append(CommentedMap([("path", rel), ("role", roles[rel])]))
        changed = True
    if not changed:
        return None

    body_lines = lines[1:close]
    if current is None and "resources" not in doc:
        if not seq:
            return None
        start = end = len(body_lines)
        comment = None
    else:
        start = doc.lc.key("resources")[0]
        keys = list(doc.keys())
        following = [doc.lc.key(k)[0] for k in keys[keys.index("resources") + 1:]]
        end = following[0] if following else len(body_lines)
        while end > start + 1 and (not body_lines[end - 1].strip() or body_lines[end - 1].startswith("#")):
            end -= 1  # blank lines and top-level comments there belong to the next key
        comment = doc.ca.items.get("resources")
    block = _dump_block(seq, comment, body_lines[start:end])
    new_lines = lines[:1] + body_lines[:start] + block + body_lines[end:] + lines[close:]
    trailing = "\n" if text.endswith("\n") else ""
    return "\n".join(new_lines) + trailing


def _paths(items) -> list[str]:
    return [it["path"] for it in items if isinstance(it, dict) and isinstance(it.get("path"), str)]


def _yaml():
    from ruamel.yaml import YAML

    yaml = YAML(typ="rt")
    yaml.preserve_quotes = True
    yaml.width = 4096
    return yaml


def _dump_block(seq, comment, old: list[str]) -> list[str]:
    """``resources:`` and its items as lines, indented like the block they replace."""
    import io

    from ruamel.yaml.comments import CommentedMap

    dash = 2
    for line in old[1:]:
        stripped = line.lstrip()
        if stripped.startswith("- ") or stripped == "-":
            dash = len(line) - len(stripped)
            break
    yaml = _yaml()
    yaml.indent(mapping=2, sequence=dash + 2, offset=dash)
    wrapper = CommentedMap()
    wrapper["resources"] = seq
    if comment is not None:
        wrapper.ca.items["resources"] = comment
    out = io.StringIO()
    yaml.dump(wrapper, out)
    block = out.getvalue().rstrip("\n").split("\n")
    while len(block) > 1 and (not block[-1].strip() or block[-1].startswith("#")):
        block.pop()  # comments ruamel attached to the last item but that sit before the next key
    return block


def fix_skill_md(source, skill) -> bytes | None:
    """File-level fixer: new bytes for a progressive skill's SKILL.md, or None.

    *skill* is the checked skill (its list of files says which files are present); applies
    :func:`update_resources` and writes the result back as the file was encoded
    (:meth:`SourceFile.encode <skillsmith.model.sourcefile.SourceFile.encode>`).
    """
    if PurePosixPath(source.rel).name != "SKILL.md" or source.text is None or skill is None:
        return None
    new = update_resources(source.edit_text, expected_roles(skill))
    return None if new is None else source.encode(new)


# -- the target -----------------------------------------------------------------------------

_PROGRESSIVE = re.compile(r"^progressive\s*:", re.M)

#: the rules whose findings :func:`fix_skill_md` resolves (see their "Fix safety" sections)
RESOURCES_FIX_RULES = ("STE003", "STE004", "STE005", "STE006", "STE007", "STE008", "STE009", "STE016", "STE017")


def has_progressive_frontmatter(model) -> bool:
    """Whether *model* is a skill whose frontmatter has a ``progressive:`` key.

    Reads the frontmatter's lines only, no YAML parse, so that a cached run stays cheap.
    """
    from skillsmith.model.skill import Skill  # the skill model loads the language facts: not for --help

    md = model.skill_md if isinstance(model, Skill) else None
    if md is None or not md.text or "progressive" not in md.text:
        return False
    lines, close = frontmatter.split(md.text)
    return bool(close and close > 0 and _PROGRESSIVE.search("\n".join(lines[1:close])))


TARGET = Target(
    name="stabledge",
    summary="StablEdge Desktop progressive skills: `progressive: true` and declared `resources:` (seed 001)",
    detect=has_progressive_frontmatter,
    priority=10,
    fields=frozenset({"progressive", "resources", "network", "network_hosts", "version"}),
    new=Scaffold(template="skill", name_problem=name_problem, description_problem=new_description_problem),
    file_fixers=(
        FileFixer(
            "stabledge-resources", rules=RESOURCES_FIX_RULES, safe=True, pattern="SKILL.md", fix=fix_skill_md,
            description="Write or update the resources: list of a progressive skill from the files present",
        ),
    ),
)
