"""StablEdge rules (seed 001): progressive skills, declared resources, runtimes, bundled files."""

from __future__ import annotations

from skillsmith.model import citations
from skillsmith.model.skill import script_language
from skillsmith.model.skillpath import skill_path
from skillsmith.model.sourcefile import TEXT_SUFFIXES
from skillsmith.rules.finding import Hit
from skillsmith.rules.registry import rule
from skillsmith.targets import stabledge

SEED = "001"
TARGET = {"stabledge"}


def _at_key(skill, key: str) -> int:
    fm = skill.doc.frontmatter
    return fm.key_lines.get(key, fm.start_line)


def _items(skill):
    """Declared items of a progressive skill, when ``resources`` is a list."""
    if not stabledge.is_progressive(skill):
        return []
    return stabledge.declared(skill) or []


def _problem_hits(skill, kind: str):
    for d in _items(skill):
        if d.path is None:
            continue
        problem = stabledge.path_problem(d.path)
        if problem and problem[0] == kind:
            yield Hit(skill.skill_md.path, problem[1], d.line)


@rule(
    "STE001", "resources-without-progressive", summary="'resources' is declared but 'progressive' is not true.",
    seed=f"{SEED} Declaring resources", scope="skill", severity="warning", targets=TARGET,
)
def resources_without_progressive(skill):
    """
    ## What it does
    Flags a `resources:` list in a skill whose frontmatter does not also say `progressive: true`.

    ## Why is this bad?
    StablEdge parses `resources` only in a Progressive Skill; in a regular skill the list has
    no effect, so the roles and the upfront existence check the author wrote are silently lost.

    ## Example
    ```yaml
    name: pdf
    resources:
      - path: reference.md
        role: reference
    ```

    Use instead:
    ```yaml
    name: pdf
    progressive: true
    resources:
      - path: reference.md
        role: reference
    ```
    """
    data = stabledge.fm_data(skill)
    if data is not None and "resources" in data and data.get("progressive") is not True:
        why = "has no 'progressive'" if "progressive" not in data else f"has 'progressive: {data['progressive']}'"
        yield Hit(skill.skill_md.path, f"'resources' has no effect: the frontmatter {why}; add 'progressive: true'",
                  _at_key(skill, "resources"))


@rule(
    "STE002", "resources-malformed", summary="'resources' is not a list of items with a string 'path' and a 'role'.",
    seed=f"{SEED} Declaring resources", scope="skill", targets=TARGET,
)
def resources_malformed(skill):
    """
    ## What it does
    Checks the shape of `resources:` in a progressive skill: a list whose items are mappings
    with a string `path` and a `role`.

    ## Why is this bad?
    Any item StablEdge cannot read makes the whole Progressive validation fail, and the skill
    falls back to a regular one.

    ## Example
    ```yaml
    resources:
      - reference.md
    ```

    Use instead:
    ```yaml
    resources:
      - path: reference.md
        role: reference
    ```
    """
    if not stabledge.is_progressive(skill):
        return
    data = stabledge.fm_data(skill)
    if "resources" not in data or data["resources"] is None:
        return
    path = skill.skill_md.path
    if not isinstance(data["resources"], list):
        yield Hit(path, "'resources' must be a list of {path, role} items", _at_key(skill, "resources"))
        return
    for d in stabledge.declared(skill):
        if not isinstance(d.item, dict):
            yield Hit(path, f"resources item {d.index + 1} must be a mapping with 'path' and 'role'", d.line)
        elif "path" not in d.item:
            yield Hit(path, f"resources item {d.index + 1} has no 'path'", d.line)
        elif d.path is None:
            yield Hit(path, f"resources item {d.index + 1}: 'path' must be a string", d.line)
        elif "role" not in d.item:
            yield Hit(path, f"resources item {d.index + 1} ({d.path}) has no 'role'", d.line)


@rule(
    "STE003", "resource-path-empty", summary="A declared resource path is empty.",
    seed=f"{SEED} Declaring resources", scope="skill", targets=TARGET, fix="safe",
)
def resource_path_empty(skill):
    """
    ## What it does
    Flags a `resources` item whose `path` is an empty string.

    ## Why is this bad?
    StablEdge rejects the item, and with it the whole Progressive validation.

    ## Example
    ```yaml
    resources:
      - path: ""
        role: reference
    ```

    Use instead: name a file relative to the skill folder, or remove the item.

    ## Fix safety
    `skillsmith fix` removes the item; it named no file, so nothing is lost.
    """
    yield from _problem_hits(skill, "empty")


@rule(
    "STE004", "resource-path-absolute", summary="A declared resource path is absolute, starts with '~' or has a drive letter.",
    seed=f"{SEED} Declaring resources", scope="skill", targets=TARGET, fix="safe",
)
def resource_path_absolute(skill):
    """
    ## What it does
    Flags a `resources` item whose `path` is absolute (`/x`), starts with `~`, or has a drive
    letter (`C:\\x`). Backslashes are read as `/`, as the host does.

    ## Why is this bad?
    The agent reaches bundled files only through the skill tool, relative to the skill folder;
    StablEdge rejects such a path and the whole Progressive validation with it.

    ## Example
    ```yaml
    resources:
      - path: /home/me/pdf/reference.md
        role: reference
    ```

    Use instead:
    ```yaml
    resources:
      - path: reference.md
        role: reference
    ```

    ## Fix safety
    `skillsmith fix` removes the item and declares the files that are present with the role
    their folder implies.
    """
    yield from _problem_hits(skill, "absolute")


@rule(
    "STE005", "resource-path-parent", summary="A declared resource path leaves the skill folder with '..'.",
    seed=f"{SEED} Declaring resources", scope="skill", targets=TARGET, fix="safe",
)
def resource_path_parent(skill):
    """
    ## What it does
    Flags a `resources` item whose `path` contains a `..` segment (also written `..\\`).

    ## Why is this bad?
    Paths must stay inside the skill folder; StablEdge rejects the item and the whole
    Progressive validation with it.

    ## Example
    ```yaml
    resources:
      - path: ../shared/api.md
        role: reference
    ```

    Use instead: copy the file into the skill (`references/api.md`) and declare that.

    ## Fix safety
    `skillsmith fix` removes the item; the file outside the skill was never reachable.
    """
    yield from _problem_hits(skill, "parent")


@rule(
    "STE006", "resource-path-skill-md", summary="SKILL.md is declared as a resource.",
    seed=f"{SEED} Declaring resources", scope="skill", targets=TARGET, fix="safe",
)
def resource_path_skill_md(skill):
    """
    ## What it does
    Flags a `resources` item whose `path` is `SKILL.md`.

    ## Why is this bad?
    `SKILL.md` is the skill itself, loaded at the first level; StablEdge refuses it as a
    resource and fails the whole Progressive validation.

    ## Example
    ```yaml
    resources:
      - path: SKILL.md
        role: reference
    ```

    Use instead: remove the item.

    ## Fix safety
    `skillsmith fix` removes the item.
    """
    yield from _problem_hits(skill, "skill-md")


@rule(
    "STE007", "resource-duplicate", summary="The same resource path is declared twice.",
    seed=f"{SEED} Declaring resources", scope="skill", targets=TARGET, fix="safe",
)
def resource_duplicate(skill):
    """
    ## What it does
    Flags a `resources` item whose path (after reading `\\` as `/`) was already declared.

    ## Why is this bad?
    StablEdge rejects duplicates and fails the whole Progressive validation.

    ## Example
    ```yaml
    resources:
      - path: reference.md
        role: reference
      - path: reference.md
        role: asset
    ```

    Use instead: declare each file once, with one role.

    ## Fix safety
    `skillsmith fix` keeps the first item and removes the later ones.
    """
    seen: dict[str, int] = {}
    for d in _items(skill):
        if d.path is None or stabledge.path_problem(d.path):
            continue
        key = skill_path(d.path).rel
        if key in seen:
            yield Hit(skill.skill_md.path, f"resource {d.path!r} is already declared on line {seen[key]}", d.line)
        else:
            seen[key] = d.line


@rule(
    "STE008", "resource-missing", summary="A declared resource does not exist in the skill folder.",
    seed=f"{SEED} Declaring resources", scope="skill", targets=TARGET, fix="safe",
)
def resource_missing(skill):
    """
    ## What it does
    Flags a `resources` item whose path is not a file inside the skill folder (missing, or a
    folder; a symbolic link is STE017).

    ## Why is this bad?
    Declaring a file makes StablEdge check upfront that it exists; a missing one fails the
    whole Progressive validation and the skill falls back to a regular one.

    ## Example
    ```yaml
    resources:
      - path: scripts/extract.py   # the file is scripts/extract_text.py
        role: executable
    ```

    Use instead: fix the path, or add the file.

    ## Fix safety
    `skillsmith fix` removes the item and declares the files that are present, each with the
    role its folder implies: when the path was only misspelt, check the role it picked.
    """
    for d in _items(skill):
        if d.path is None or stabledge.path_problem(d.path):
            continue
        key = skill_path(d.path).rel
        if key in skill.files or stabledge.linked_part(skill, key) is not None:
            continue  # present, or a link: STE017
        if key in skill.dirs:
            why = "is a folder, not a file"
        else:
            why = "does not exist in the skill folder"
        yield Hit(skill.skill_md.path, f"declared resource {d.path!r} {why}", d.line)


@rule(
    "STE009", "resource-role-invalid", summary="A resource 'role' is not reference, executable, template or asset.",
    seed=f"{SEED} Resource roles", scope="skill", targets=TARGET, fix="safe",
)
def resource_role_invalid(skill):
    """
    ## What it does
    Checks that each `resources` item's `role` is one of `reference`, `executable`,
    `template` or `asset`.

    ## Why is this bad?
    Any other value fails the whole Progressive validation.

    ## Example
    ```yaml
    resources:
      - path: scripts/extract.py
        role: script
    ```

    Use instead:
    ```yaml
    resources:
      - path: scripts/extract.py
        role: executable
    ```

    ## Fix safety
    `skillsmith fix` replaces the role with the one the file's folder implies (`references/`
    reference, `scripts/` executable, templates under `assets/` template, other assets asset).
    """
    for d in _items(skill):
        if isinstance(d.item, dict) and "role" in d.item and d.role not in stabledge.ROLES:
            yield Hit(skill.skill_md.path,
                      f"resource role {d.role!r} is not one of {', '.join(stabledge.ROLES)}", d.line)


@rule(
    "STE010", "executable-outside-scripts", summary="A resource declared 'executable' is not under scripts/.",
    seed=f"{SEED} Resource roles", scope="skill", severity="warning", targets=TARGET,
)
def executable_outside_scripts(skill):
    """
    ## What it does
    Warns about a `resources` item with `role: executable` whose path is not under `scripts/`.

    ## Why is this bad?
    Roles are labels only: `run_script` runs files under `scripts/` and nothing else, so the
    agent is told it can run a file it cannot.

    ## Example
    ```yaml
    resources:
      - path: tools/convert.py
        role: executable
    ```

    Use instead: move the file to `scripts/convert.py` and declare that path.
    """
    for d in _items(skill):
        if d.path is None or d.role != "executable" or stabledge.path_problem(d.path):
            continue
        if not (skill_path(d.path).rel or "").startswith("scripts/"):
            yield Hit(skill.skill_md.path,
                      f"{d.path!r} is declared executable but run_script only runs files under scripts/", d.line)


@rule(
    "STE011", "script-runtime-unknown", summary="A program under scripts/ has no runtime StablEdge knows.",
    seed=f"{SEED} Runtimes", scope="file", targets=TARGET,
)
def script_runtime_unknown(unit_and_file):
    """
    ## What it does
    Flags a file under `scripts/` that is meant to be run (a program extension, a shebang or
    the executable bit) but whose runtime the host does not bundle. StablEdge picks the
    runtime by extension: `.py`; `.js`, `.mjs`, `.cjs`; `.ts`, `.mts`, `.cts`; `.sh`, `.bash`;
    a file without extension by its shebang (`python`, `python3`, `node`, `bash`, `sh`).

    ## Why is this bad?
    Other types, compiled programs included, are not supported: `run_script` fails.

    ## Example
    `scripts/convert.rb`, or `scripts/convert` starting with `#!/usr/bin/env ruby`.

    Use instead: rewrite it in Python, JavaScript, TypeScript or Bash, or give an
    extensionless file a supported shebang (`#!/usr/bin/env python3`).
    """
    unit, f = unit_and_file
    if not f.rel.startswith("scripts/") or not stabledge.listed(f.rel):
        return
    if not stabledge.looks_like_program(f) or stabledge.runtime(f):
        return
    if f.suffix:
        why = f"StablEdge has no runtime for {f.suffix!r} files"
    elif f.shebang:
        why = f"the shebang {f.shebang!r} names no runtime StablEdge bundles (python, python3, node, bash, sh)"
    else:
        why = "it has no extension and no shebang, so StablEdge cannot pick a runtime"
    yield Hit(f.path, f"run_script cannot run {f.rel}: {why}")


@rule(
    "STE012", "resource-not-text", summary="A file the agent reads is not UTF-8 or has NUL bytes in its first 8 KB.",
    seed=f"{SEED} How the Agent accesses bundled files", scope="skill", targets=TARGET,
)
def resource_not_text(skill):
    """
    ## What it does
    Flags a reference (a file under `references/`, or one declared `role: reference`) that is
    not valid UTF-8, or whose first 8 KB contain a NUL byte: a PDF, a Word file, UTF-16 text.
    Files with a text suffix (`.md`, `.txt`, ...) are left to FIL003 and FIL004, which check
    them for every target.

    ## Why is this bad?
    `read_file` reads UTF-8 and rejects a file with NUL bytes in its first 8 KB as binary, so
    the agent cannot read the reference it was pointed at.

    ## Example
    `references/manual.pdf`.

    Use instead: convert it to Markdown or plain UTF-8 text; keep binaries under `assets/`
    with `role: asset`.
    """
    readers = {rel for rel in skill.files if rel.startswith("references/") and stabledge.listed(rel)}
    for d in _items(skill):
        rel = skill_path(d.path).rel if d.path is not None and d.role == "reference" else None
        if rel is not None:
            readers.add(rel)
    for rel in sorted(readers):
        f = skill.files.get(rel)
        if f is None or f.data is None or f.suffix in TEXT_SUFFIXES or script_language(f):
            continue
        if b"\0" in f.data[: stabledge.BINARY_PROBE_BYTES]:
            yield Hit(f.path, f"{rel} has NUL bytes in its first 8 KB; read_file rejects it as binary")
            continue
        try:
            f.data.decode("utf-8")
        except UnicodeDecodeError as exc:
            line = f.data.count(b"\n", 0, exc.start) + 1
            yield Hit(f.path, f"{rel} is not UTF-8 (byte 0x{f.data[exc.start]:02x}); read_file reads UTF-8 only", line)


@rule(
    "STE013", "file-too-large-to-copy", summary="A bundled file is larger than 20 MB.",
    seed=f"{SEED} How the Agent accesses bundled files", scope="file", targets=TARGET,
)
def file_too_large_to_copy(unit_and_file):
    """
    ## What it does
    Flags a bundled file larger than 20 MB.

    ## Why is this bad?
    `copy_file` refuses single files over 20 MB, so the agent can never bring it into the
    Workspace; it only makes the skill heavier to install.

    ## Example
    `assets/sample-video.mp4` of 80 MB.

    Use instead: ship a smaller sample, or have a script download the large file at run time.
    """
    unit, f = unit_and_file
    if f.size > stabledge.MAX_COPY_BYTES and stabledge.listed(f.rel):
        yield Hit(f.path, f"{f.rel} is {f.size / 1024 / 1024:.1f} MB; copy_file refuses files over 20 MB")


@rule(
    "STE014", "too-many-bundled-files", summary="More than 20 bundled files: the agent is shown only the first 20.",
    seed=f"{SEED} How the Agent accesses bundled files", scope="skill", severity="warning", targets=TARGET,
)
def too_many_bundled_files(skill):
    """
    ## What it does
    Warns when a skill bundles more than 20 files (counted as `list_files` does: no dotfiles,
    `__pycache__`, `node_modules`, symbolic links or the root `SKILL.md`).

    ## Why is this bad?
    When it loads the skill, StablEdge hands the agent only the first 20 items of the file
    list; the rest are found only if the agent pages through `list_files`.

    ## Example
    A skill with 35 reference pages.

    Use instead: keep only what the task needs; merge small references, and cite the ones
    the agent must read from `SKILL.md`.
    """
    files = stabledge.listed_files(skill)
    if len(files) > stabledge.LISTED_IN_CONTEXT and skill.skill_md is not None:
        hidden = ", ".join(files[stabledge.LISTED_IN_CONTEXT:][:3])
        yield Hit(skill.skill_md.path,
                  f"{len(files)} bundled files; the agent is shown only the first {stabledge.LISTED_IN_CONTEXT} "
                  f"(not {hidden}{', ...' if len(files) > stabledge.LISTED_IN_CONTEXT + 3 else ''})")


@rule(
    "STE015", "document-for-people", summary="A README, INSTALL or CHANGELOG is bundled with the skill.",
    seed=f"{SEED} Directory layout", scope="skill", severity="warning", targets=TARGET,
)
def document_for_people(skill):
    """
    ## What it does
    Flags README, INSTALL, CHANGELOG, CHANGES and HISTORY files in a StablEdge skill, unless
    they sit under `assets/` (a README template can be an asset) or `SKILL.md` cites them (then
    they are written for the agent). For other targets RES006 reports the same files.

    ## Why is this bad?
    StablEdge asks to leave out documents written for people: `list_files` shows them to the
    agent, they take places among the 20 files named when the skill loads, and they cost
    tokens when read.

    ## Example
    `my-skill/README.md` with installation steps.

    Use instead: put what the agent needs in `SKILL.md` or `references/`, and keep the
    README in the repository that holds the skill, outside the skill folder.
    """
    for rel in stabledge.listed_files(skill):
        if stabledge.is_people_doc(rel) and not rel.startswith("assets/") and not skill.cited(rel):
            yield Hit(skill.files[rel].path, f"{rel} is written for people; StablEdge asks to leave it out of the skill")


@rule(
    "STE016", "resource-undeclared", summary="A bundled file of a progressive skill is not declared in 'resources'.",
    seed=f"{SEED} Declaring resources", scope="skill", severity="warning", targets=TARGET, fix="safe",
)
def resource_undeclared(skill):
    """
    ## What it does
    In a progressive skill, flags bundled files missing from `resources:`: references,
    scripts with a runtime, templates and assets. The skill's own `tests/` and documents
    for people (STE015) are not expected there.

    ## Why is this bad?
    Undeclared files can still be read, but the agent sees no role for them in the file list
    and StablEdge does not check upfront that they exist.

    ## Example
    ```yaml
    progressive: true
    resources:
      - path: reference.md
        role: reference
    ```
    with `scripts/extract.py` present but not listed.

    Use instead: declare it with `role: executable`, or run `skillsmith fix`.

    ## Fix safety
    `skillsmith fix` rewrites only the `resources:` block with round-trip YAML: existing items,
    their order and their comments stay, new items are appended with the role their folder
    implies; the rest of the frontmatter is left byte for byte.
    """
    if not stabledge.is_progressive(skill):
        return
    data = stabledge.fm_data(skill)
    items = stabledge.declared(skill)
    if data.get("resources") is not None and (items is None or any(d.path is None for d in items)):
        return  # malformed: STE002
    # an item StablEdge refuses (STE003-STE006) declares nothing, as the fix that adds the file knows
    declared = {skill_path(d.path).rel for d in items or [] if not stabledge.path_problem(d.path)}
    line = _at_key(skill, "resources" if "resources" in data else "progressive")
    for rel, role in stabledge.expected_roles(skill).items():
        if rel not in declared:
            yield Hit(skill.skill_md.path, f"{rel} is not declared in 'resources' (role: {role})", line)


@rule(
    "STE017", "resource-symlink", summary="A declared resource is a symbolic link, or lies in a linked folder.",
    seed=f"{SEED} How the Agent accesses bundled files", scope="skill", targets=TARGET, fix="safe",
)
def resource_symlink(skill):
    """
    ## What it does
    Flags a `resources` item whose path is a symbolic link, or runs through a linked folder
    (`references/api.md` where `references` links elsewhere).

    ## Why is this bad?
    StablEdge's `list_files` skips symbolic links, and paths that leave the skill folder
    through a link are rejected: the declared file is not there for the agent, and the
    Progressive validation that wants each declared file to exist fails.

    ## Example
    ```yaml
    resources:
      - path: references/api.md   # references/api.md -> ../../shared/api.md
        role: reference
    ```

    Use instead: copy the file into the skill (a release step can do it) and declare the copy.

    ## Fix safety
    `skillsmith fix` removes the item (the agent cannot reach the file either way) and
    declares the regular files that are present, each with the role its folder implies.
    """
    for d in _items(skill):
        if d.path is None or stabledge.path_problem(d.path):
            continue
        link = stabledge.linked_part(skill, skill_path(d.path).rel)
        if link is None:
            continue
        where = "is a symbolic link" if link == skill_path(d.path).rel else f"lies in {link}, a symbolic link"
        yield Hit(skill.skill_md.path,
                  f"declared resource {d.path!r} {where}; StablEdge's file listing skips links: "
                  "copy the file into the skill", d.line)


@rule(
    "STE018", "invocation-argv-limit", summary="A cited invocation passes more than 64 arguments, or one over 8 KB.",
    seed=f"{SEED} Running scripts (Limits)", scope="skill", targets=TARGET,
)
def invocation_argv_limit(skill):
    """
    ## What it does
    Reads each worked invocation of a script under `scripts/` that `SKILL.md` (or the
    Markdown it links) shows, and flags one that passes more than 64 arguments, or an
    argument longer than 8 KB (UTF-8), after the script's path. Redirections and what
    follows a `|` are not arguments.

    ## Why is this bad?
    `run_script` passes arguments one by one through `argv`, at most 64 items of no more
    than 8 KB each. An agent that follows the example makes a call the host refuses.

    ## Example
    ```bash
    python scripts/merge.py a.pdf b.pdf c.pdf ... (70 files)
    ```

    Use instead: pass a list file or a folder (`python scripts/merge.py --list files.txt`),
    or read the large value from a file in the Workspace.
    """
    fences: dict[str, set[int]] = {}
    seen: set[tuple[str, int, int]] = set()
    for f, c in skill.linked_citations:
        if not c.target.startswith("scripts/") or c.target not in skill.files or f.text is None:
            continue
        if (f.rel, c.line, c.column) in seen:
            continue
        seen.add((f.rel, c.line, c.column))
        if f.rel not in fences:
            fences[f.rel] = citations.fenced_lines(f.lines)
        after = citations.code_after(f.lines, c, c.line in fences[f.rel])
        if after is None:
            continue
        args = stabledge.invocation_arguments(after)
        if len(args) > stabledge.MAX_ARGUMENTS:
            yield Hit(f.path, f"this invocation of {c.target} passes {len(args)} arguments; "
                              f"run_script takes at most {stabledge.MAX_ARGUMENTS}", c.line, c.column)
        for i, arg in enumerate(args, 1):
            size = len(arg.encode("utf-8"))
            if size > stabledge.MAX_ARGUMENT_BYTES:
                yield Hit(f.path, f"argument {i} of this invocation of {c.target} is {size} bytes; "
                                  f"run_script takes at most {stabledge.MAX_ARGUMENT_BYTES} bytes an argument",
                          c.line, c.column)
                break


@rule(
    "STE019", "install-high-risk", summary="The skill holds scripts or executable files: StablEdge's install preview marks it high-risk.",
    seed=f"{SEED} Running scripts (Safety mechanisms)", scope="skill", severity="info", targets=TARGET, opt_in=True,
)
def install_high_risk(skill):
    """
    ## What it does
    Notes, once per skill, that it holds scripts or executable files (a program under
    `scripts/`, a file with a runtime's extension, a shebang or the executable bit), naming
    up to three of them. Opt-in: it runs only when selected by its ID or name
    (`check --select STE019`, or `--select STE,STE019`), since every skill with scripts gets it.

    ## Why is this bad?
    It is not a defect. During install preview StablEdge marks such a skill as high-risk
    (`SKILL_INSTALL_EXECUTABLE_CONTENT`) and reminds users to check the content first, and
    every run of a script asks for its own confirmation. Expect the warning, keep the
    scripts few and readable, and say in `SKILL.md` what each one does.

    ## Example
    `report/scripts/build.py` in a skill meant for StablEdge.

    Use instead: nothing to change when the scripts are needed; a skill that needs none can
    leave them out and install without the warning.
    """
    programs = [rel for rel in stabledge.listed_files(skill) if stabledge.looks_like_program(skill.files[rel])]
    if programs and skill.skill_md is not None:
        more = f" and {len(programs) - 3} more" if len(programs) > 3 else ""
        yield Hit(skill.skill_md.path,
                  f"holds scripts or executable files ({', '.join(programs[:3])}{more}): StablEdge's install preview "
                  "marks the skill high-risk (SKILL_INSTALL_EXECUTABLE_CONTENT) and asks users to check it first")
