"""Spec rules: SKILL.md frontmatter and body, per the Agent Skills specification."""

from __future__ import annotations

import os
import re
from pathlib import Path

from skillsmith.model.frontmatter import yaml_type
from skillsmith.rules.finding import Hit, display_path
from skillsmith.rules.registry import rule
from skillsmith.targets import TARGETS, claude_code, codex, get, hosts_reading
from skillsmith.targets.agentskills import description_markup, description_problem, name_problem

SPEC = "Agent Skills spec"
COMPATIBILITY_MAX = 500
BODY_MAX_LINES = 500
#: the specification's recommended most for the body, and the estimate of a token's size
BODY_MAX_TOKENS = 5000
CHARS_PER_TOKEN = 4

#: top-level fields every target understands (each target adds its own: ``Target.fields``)
SPEC_FIELDS = {"name", "description", "license", "compatibility", "metadata", "allowed-tools"}

#: every field some target reads beyond the specification's
HOST_FIELDS = frozenset().union(*(t.fields for t in TARGETS))

#: the targets whose skills are named by SKILL.md's frontmatter (a kvist skill is named by its manifest)
NAMED_IN_FRONTMATTER = tuple(t.name for t in TARGETS if t.named_in_frontmatter)
#: every target but Claude Code's, for what only matters to other hosts or to Claude's upload: a skill
#: of `.claude/skills/` or of a Claude Code plugin is loaded by Claude Code, never uploaded
NOT_CLAUDE_CODE = tuple(t.name for t in TARGETS if t is not claude_code.TARGET)
#: the targets whose skills may go through Claude's skill upload (a Claude Code or Codex skill does not)
MAY_BE_UPLOADED = tuple(t for t in NOT_CLAUDE_CODE if t != codex.TARGET.name)


def frontmatter(skill):
    """The parsed frontmatter mapping, or None when there is none to check."""
    doc = skill.doc
    if doc is None or doc.frontmatter.data is None:
        return None
    return doc.frontmatter


#: a name that is a placeholder of a template: `<skill-name>`, `{{ skill_name }}`, `{name}`, perhaps
#: with a literal part around it (`pneuma-{{modeName}}`)
_PLACEHOLDER_NAME = re.compile(r"\s*(?:[a-z0-9-]{0,40}(?:<[^<>]{1,60}>|\{\{[^{}]{1,60}\}\}|\{[\w-]{1,60}\})[a-z0-9-]{0,40}"
                               r"|\[[\w -]{1,60}\])\s*")


def is_placeholder_name(name) -> bool:
    """Whether the frontmatter *name* is a template's placeholder (``<skill-name>``): the file is a
    template to copy, and its name and description are filled in later."""
    return isinstance(name, str) and _PLACEHOLDER_NAME.fullmatch(name) is not None


def at_key(skill, key: str, message: str) -> Hit:
    fm = skill.doc.frontmatter
    return Hit(skill.skill_md.path, message, fm.key_lines.get(key, fm.start_line), 1)


@rule("SPC001", "skill-md-missing", summary="The skill folder has no SKILL.md.", seed=SPEC, scope="skill")
def skill_md_missing(skill):
    """
    ## What it does
    Flags a skill folder without a `SKILL.md` file, or whose `SKILL.md` is a symbolic link
    (which skillsmith does not follow); a link to nothing is said to be broken.

    ## Why is this bad?
    Hosts discover a skill by its `SKILL.md`; without it the folder is invisible to every agent.

    ## Example
    A folder with `scripts/` and `references/` but no `SKILL.md`.

    Use instead: add a `SKILL.md` with `name` and `description` frontmatter.
    """
    if skill.skill_md is None:
        link = skill.symlinks.get("SKILL.md")
        if link is None:
            why = "SKILL.md is missing"
        elif not os.path.exists(skill.root / "SKILL.md"):  # a stat of the target, never a read
            why = f"SKILL.md is a broken symbolic link: {link} does not exist; every host sees no SKILL.md here"
        else:
            why = f"SKILL.md is a symbolic link (to {link}); skillsmith does not follow links and hosts that copy skills may drop it"
        yield Hit(skill.root / "SKILL.md", why)


@rule("SPC002", "frontmatter-missing", summary="SKILL.md does not start with YAML frontmatter.", seed=SPEC, scope="skill", targets=NAMED_IN_FRONTMATTER)
def frontmatter_missing(skill):
    """
    ## What it does
    Flags a `SKILL.md` whose first line is not `---`.

    ## Why is this bad?
    The frontmatter carries `name` and `description`, which hosts use to decide when to load
    the skill. Without it the skill is never routed to.

    ## Example
    ```markdown
    # My skill
    ```

    Use instead:
    ```markdown
    ---
    name: my-skill
    description: Does one thing well. Use when ...
    ---
    # My skill
    ```
    """
    doc = skill.doc
    if doc is not None and doc.frontmatter.error and doc.frontmatter.error.kind == "missing":
        yield Hit(doc.file.path, doc.frontmatter.error.message)


@rule("SPC003", "frontmatter-unclosed", summary="The frontmatter block is never closed with '---'.", seed=SPEC, scope="skill")
def frontmatter_unclosed(skill):
    """
    ## What it does
    Flags frontmatter that opens with `---` but has no closing `---` line.

    ## Why is this bad?
    Hosts read the whole file as YAML or reject the skill.

    ## Example
    ```markdown
    ---
    name: my-skill
    # My skill
    ```

    Use instead: close the block with a `---` line before the body.
    """
    doc = skill.doc
    if doc is not None and doc.frontmatter.error and doc.frontmatter.error.kind == "unclosed":
        yield Hit(doc.file.path, doc.frontmatter.error.message)


@rule("SPC004", "frontmatter-invalid-yaml", summary="The frontmatter is not valid, safe YAML.", seed=SPEC, scope="skill",
      fix="safe")
def frontmatter_invalid_yaml(skill):
    """
    ## What it does
    Flags frontmatter that does not parse as YAML, uses tags outside YAML's safe subset
    (`!!python/object`), uses anchors and aliases, or is larger than 64 KB. The message says
    which character broke it (line and column) and how to quote the value.

    ## Why is this bad?
    A host that cannot parse the frontmatter drops the skill. Unsafe tags and alias bombs are
    how hostile skills attack the tools that read them; skillsmith never constructs them.

    ## Example
    ```yaml
    description: Use when: the user asks
    argument-hint: [file] [options]
    ```

    Use instead: quote values that YAML would read as structure:
    ```yaml
    description: 'Use when: the user asks'
    argument-hint: '[file] [options]'
    ```

    ## Fix safety
    Safe, and offered only where the author's intent is unambiguous: a `: ` inside a plain
    value, a value starting with `@`, a backtick, `%`, `,`, `]`, `}` or `*` followed by text, a quoted string
    followed by more text, text starting with `[` or `{` in a text field (`argument-hint`,
    `description`, ...), a plain value continued on unindented lines, and tabs indenting a
    block (each tab becomes two spaces). `fix` quotes just that value (single quotes, or double
    quotes when that needs fewer escapes) and keeps every other byte of the file (BOM, line
    endings, comments, key order); the result must parse with the safe loader, keep the same
    fields and give the value exactly the text the author wrote, or nothing is written.
    Never repaired: tags, anchors and aliases, block scalars, a value with ` #` (a comment or
    text?), a field name glued into a value (`...text.license: MIT`: a lost line break), a
    broken flow list in a list field, indentation that mixes tabs and spaces.
    """
    doc = skill.doc
    if doc is not None and doc.frontmatter.error and doc.frontmatter.error.kind == "yaml":
        from skillsmith.model.frontmatter_repair import repair

        e = doc.frontmatter.error
        found = repair(doc.file)
        if found is None:
            yield Hit(doc.file.path, e.message, e.line, e.column, fix=None)
        else:
            yield Hit(doc.file.path, f"{e.message}: {found.message}", e.line, e.column,
                      fix="safe" if found.data is not None else None)


@rule("SPC005", "frontmatter-not-mapping", summary="The frontmatter is not a mapping of fields.", seed=SPEC, scope="skill")
def frontmatter_not_mapping(skill):
    """
    ## What it does
    Flags frontmatter that is valid YAML but a list or a scalar rather than `key: value` fields.

    ## Why is this bad?
    Hosts look up `name` and `description` as keys; a list has none.

    ## Example
    ```yaml
    - name: my-skill
    ```

    Use instead:
    ```yaml
    name: my-skill
    ```
    """
    doc = skill.doc
    if doc is not None and doc.frontmatter.error and doc.frontmatter.error.kind == "not-mapping":
        e = doc.frontmatter.error
        yield Hit(doc.file.path, e.message, e.line, e.column)


@rule("SPC006", "name-missing", summary="The frontmatter has no 'name'.", seed=SPEC, scope="skill", targets=NAMED_IN_FRONTMATTER)
def name_missing(skill):
    """
    ## What it does
    Flags frontmatter without a `name` field.

    ## Why is this bad?
    `name` is required by the specification; hosts identify and invoke the skill by it.

    ## Example
    ```yaml
    description: Formats tables.
    ```

    Use instead:
    ```yaml
    name: table-formatter
    description: Formats tables.
    ```
    """
    fm = frontmatter(skill)
    if fm is not None and "name" not in fm.data:
        yield Hit(skill.skill_md.path, "frontmatter has no 'name' field", fm.start_line)


@rule("SPC007", "name-invalid", summary="'name' is not 1-64 characters of a-z, 0-9 and single hyphens.", seed=SPEC, scope="skill", targets=NAMED_IN_FRONTMATTER)
def name_invalid(skill):
    """
    ## What it does
    Checks that `name` is a string of 1 to 64 characters, only lowercase letters, digits and
    hyphens, with no leading, trailing or consecutive hyphens.
    A template's placeholder (`name: <skill-name>`, `{{ skill_name }}`, `pneuma-{{modeName}}`) is
    not flagged: the file is copied and filled in.

    ## Why is this bad?
    Hosts reject or rename skills whose names break these rules, and the name becomes part of
    commands and paths.

    ## Example
    ```yaml
    name: My_Skill
    ```

    Use instead:
    ```yaml
    name: my-skill
    ```
    """
    fm = frontmatter(skill)
    if fm is None or "name" not in fm.data:
        return
    if is_placeholder_name(fm.data["name"]):
        return  # a template's SKILL.md: `name: <skill-name>` is filled in by whoever copies it
    problem = name_problem(fm.data["name"])
    if problem:
        folder = skill.root.name
        if name_problem(folder) is None and isinstance(fm.data["name"], str) and fm.data["name"] != folder:
            problem += f"; the folder is {folder!r}, and the name must match it"  # SPC008 waits for a valid name
        yield at_key(skill, "name", problem)


#: the folder of a skill to copy, not one to install: ``template/``, ``_template/``, ``skill-template/``
_TEMPLATE_FOLDER = re.compile(r"^[._-]*(?:skills?[-_])?(?:templates?|skeleton)$", re.IGNORECASE)


@rule("SPC008", "name-folder-mismatch", summary="'name' differs from the skill's folder name.", seed=SPEC, scope="skill", targets=NAMED_IN_FRONTMATTER)
def name_folder_mismatch(skill):
    """
    ## What it does
    Flags a `name` that is not the name of the folder holding `SKILL.md`.

    ## Why is this bad?
    The specification requires them to match; hosts that install by folder and invoke by
    name then disagree about what the skill is called.

    ## Example
    Folder `pdf-tools/` with `name: pdf`.

    Use instead: rename the folder or the field so both say `pdf-tools`.

    A skill to copy is not flagged: a folder named as a template (`template/`, `_template/`,
    `skill-template/`) whose `name` is the one a copy starts from (`name: my-great-skill`).
    """
    fm = frontmatter(skill)
    if fm is None or _TEMPLATE_FOLDER.match(skill.root.name):
        return
    name = fm.data.get("name")
    if isinstance(name, str) and name_problem(name) is None and name != skill.root.name:
        yield at_key(skill, "name", f"'name' is {name!r} but the folder is {skill.root.name!r}")


@rule("SPC009", "description-missing", summary="The frontmatter has no 'description'.", seed=SPEC, scope="skill", targets=NAMED_IN_FRONTMATTER)
def description_missing(skill):
    """
    ## What it does
    Flags frontmatter without a `description` field.

    ## Why is this bad?
    Agents choose skills by their description; a skill without one is never chosen.

    ## Example
    ```yaml
    name: my-skill
    ```

    Use instead:
    ```yaml
    name: my-skill
    description: Converts CSV to Markdown tables. Use when the user pastes CSV.
    ```
    """
    fm = frontmatter(skill)
    if fm is not None and "description" not in fm.data:
        yield Hit(skill.skill_md.path, "frontmatter has no 'description' field", fm.start_line)


@rule("SPC010", "description-invalid", summary="'description' is empty, not a string, or over 1024 characters.", seed=SPEC, scope="skill")
def description_invalid(skill):
    """
    ## What it does
    Checks that `description` is a non-empty string of at most 1024 characters.

    ## Why is this bad?
    Hosts truncate or reject longer descriptions, and an empty one routes nothing.

    ## Example
    ```yaml
    description:
    ```

    Use instead: one or two sentences saying what the skill does and when to use it.
    """
    fm = frontmatter(skill)
    if fm is None or "description" not in fm.data:
        return
    problem = description_problem(fm.data["description"])
    if problem:
        yield at_key(skill, "description", problem)


@rule(
    "SPC011", "description-angle-brackets", summary="'description' contains '<' or '>'.",
    seed=SPEC, scope="skill", severity="warning", targets=MAY_BE_UPLOADED,
)
def description_angle_brackets(skill):
    """
    ## What it does
    Warns about `<` or `>` in `description`.

    ## Why is this bad?
    Claude's skill uploader rejects descriptions with angle brackets (they look like markup).
    Not reported under the `claude-code` and `codex` targets: those hosts load such a skill as it
    is, and a skill of `.claude/skills/`, of a Claude Code plugin or of a Codex skills folder does
    not go through the uploader.
    Nor in a template whose `name` is a placeholder (`<skill-name>`): its `<When to use ...>` is
    text to fill in.

    ## Example
    ```yaml
    description: Use for <file> conversions.
    ```

    Use instead:
    ```yaml
    description: Use for file conversions.
    ```
    """
    fm = frontmatter(skill)
    if fm is None:
        return
    d = fm.data.get("description")
    if is_placeholder_name(fm.data.get("name")):
        return  # a template's `<When should an agent use this skill?>`, filled in by whoever copies it
    problem = description_markup(d) if isinstance(d, str) else None
    if problem:
        yield at_key(skill, "description", problem)


@rule("SPC012", "compatibility-invalid", summary="'compatibility' is not a string of 1-500 characters.", seed=SPEC, scope="skill")
def compatibility_invalid(skill):
    """
    ## What it does
    Checks that the optional `compatibility` field is a string of 1 to 500 characters.

    ## Why is this bad?
    The specification bounds it; hosts show it to people deciding whether the skill fits.

    ## Example
    ```yaml
    compatibility: ""
    ```

    Use instead:
    ```yaml
    compatibility: Needs git and network access.
    ```
    """
    fm = frontmatter(skill)
    if fm is None or "compatibility" not in fm.data:
        return
    value = fm.data["compatibility"]
    if not isinstance(value, str):
        yield at_key(skill, "compatibility", f"'compatibility' must be a string, not a {yaml_type(value)}")
    elif not 1 <= len(value) <= COMPATIBILITY_MAX:
        yield at_key(skill, "compatibility", f"'compatibility' must be 1-{COMPATIBILITY_MAX} characters, not {len(value)}")


#: keys of `metadata` under which a host documents a map of its own (OpenClaw, under its earlier names too)
HOST_METADATA_KEYS = frozenset({"openclaw", "clawdbot", "clawdis", "moltbot"})


def _as_string(value: object) -> str:
    """How to write a ``metadata`` value as the string the specification asks for."""
    if isinstance(value, list) and all(isinstance(v, (str, int, float)) and not isinstance(v, bool) for v in value):
        return f"write it as one string ({', '.join(map(str, value))!r})" if value else "write it as a string"
    if isinstance(value, (list, dict)):
        return "write it as strings, one entry each, or move it out of 'metadata'"
    return "quote it"


@rule("SPC013", "metadata-invalid", summary="'metadata' is not a map of strings to strings.", seed=SPEC, scope="skill")
def metadata_invalid(skill):
    """
    ## What it does
    Checks that the optional `metadata` field maps string keys to string values. Not flagged:
    a map under a host's own key, which that host documents as one (OpenClaw's
    `metadata.openclaw: {requires: {env: [...]}}`, and its earlier names `clawdbot`, `clawdis`, `moltbot`),
    and `internal: true`, which the skills CLI (`npx skills`) reads as the boolean that keeps a
    skill out of its install lists (the string `"true"` would not).

    ## Why is this bad?
    Hosts store metadata as string pairs; numbers, lists and nested maps are rejected or
    silently changed.

    ## Example
    ```yaml
    metadata:
      version: 1.2
    ```

    Use instead:
    ```yaml
    metadata:
      version: "1.2"
    ```

    A list is one string (`tags: [capacity, scaling]` becomes `tags: "capacity, scaling"`);
    quoting it whole would keep the brackets in the value.
    """
    fm = frontmatter(skill)
    if fm is None or "metadata" not in fm.data:
        return
    value = fm.data["metadata"]
    if not isinstance(value, dict):
        yield at_key(skill, "metadata", f"'metadata' must be a map of strings, not a {yaml_type(value)}")
        return
    for k, v in value.items():
        if k in HOST_METADATA_KEYS and isinstance(v, dict):
            continue  # the host's own documented map: OpenClaw gates a skill on `metadata.openclaw.requires`
        if k == "internal" and v is True:
            continue  # the skills CLI hides a skill on `metadata.internal === true`; "true" would not hide it
        if not isinstance(k, str) or not isinstance(v, str):
            yield at_key(skill, "metadata", f"'metadata' entry {k!r}: {v!r} is not a string to string pair; {_as_string(v)}")
            return


@rule("SPC014", "allowed-tools-invalid", summary="'allowed-tools' is not a space-separated string or a list of tool names.", seed=SPEC, scope="skill")
def allowed_tools_invalid(skill):
    """
    ## What it does
    Checks that the optional `allowed-tools` field is one string of space-separated tool names,
    or a YAML list of tool names (which Claude Code reads too).

    ## Why is this bad?
    A number, a mapping or an empty value grants nothing, and the author believes it does.
    An empty list (`allowed-tools: []`) is not flagged: it says on purpose that no tool is
    pre-approved (a read-only reviewer skill).

    ## Example
    ```yaml
    allowed-tools: {Bash: true}
    ```

    Use instead:
    ```yaml
    allowed-tools: Bash Read
    ```
    """
    fm = frontmatter(skill)
    if fm is None or "allowed-tools" not in fm.data:
        return
    value = fm.data["allowed-tools"]
    if isinstance(value, list) and all(isinstance(v, str) and v.strip() for v in value):
        return  # `[]` says on purpose that no tool is pre-approved
    if not isinstance(value, str):
        yield at_key(skill, "allowed-tools", f"'allowed-tools' must be a space-separated string, not a {yaml_type(value)}")
    elif not value.strip():
        yield at_key(skill, "allowed-tools", "'allowed-tools' is empty")


@rule("SPC020", "allowed-tools-commas", summary="'allowed-tools' separates tool names with commas, not spaces.",
      seed=SPEC, scope="skill", severity="warning", targets=NOT_CLAUDE_CODE)
def allowed_tools_commas(skill):
    """
    ## What it does
    Flags an `allowed-tools` string that separates its tool names with commas.

    ## Why is this bad?
    The specification defines the field as space-separated. Claude Code also reads commas,
    so the skill works there; another host may read `Read,` as a tool name and grant nothing.
    A portability warning, not an error, and not reported under the `claude-code` target (a
    skill of `.claude/skills/` or of a Claude Code plugin), which reads commas.

    ## Example
    ```yaml
    allowed-tools: Read, Write, Bash
    ```

    Use instead:
    ```yaml
    allowed-tools: Read Write Bash
    ```
    """
    fm = frontmatter(skill)
    value = fm.data.get("allowed-tools") if fm is not None else None
    if isinstance(value, str) and "," in value:
        yield at_key(skill, "allowed-tools", "'allowed-tools' separates tools with commas; the spec says spaces "
                                              "(Claude Code reads both; other hosts may not)")


@rule("SPC015", "unknown-field", summary="A top-level frontmatter field no known host defines.", seed=SPEC, scope="skill", severity="warning")
def unknown_field(skill):
    """
    ## What it does
    Flags top-level frontmatter fields that neither the specification nor any known host
    defines. A field the skill's target reads (Claude Code's `when_to_use` under
    `--target claude-code`, StablEdge's `progressive`) is accepted; one only another host
    reads is a portability warning instead (SPC030).

    ## Why is this bad?
    Unknown fields are usually typos (`descripton`) that silently drop what was meant, and
    strict hosts reject the skill.

    ## Example
    ```yaml
    descripton: Formats tables.
    ```

    Use instead: spell the field right, or move custom data under `metadata`.
    """
    fm = frontmatter(skill)
    if fm is None:
        return
    known = SPEC_FIELDS | get(skill.target).fields
    for key in fm.data:
        if isinstance(key, str) and (key in SPEC_FIELDS or hosts_reading(key)):
            continue
        hint = ""
        close = [k for k in sorted(known | HOST_FIELDS) if _close(str(key), k)]
        if close:
            hint = f"; did you mean {close[0]!r}?"
        yield at_key(skill, str(key), f"unknown frontmatter field {key!r} for target {skill.target}{hint}")


def _close(a: str, b: str) -> bool:
    import difflib

    return difflib.SequenceMatcher(None, a.lower(), b.lower()).ratio() >= 0.8


@rule("SPC016", "body-too-long", summary="The SKILL.md body is over 500 lines or about 5,000 tokens.", seed=SPEC, scope="skill", severity="warning")
def body_too_long(skill):
    """
    ## What it does
    Warns when the body of `SKILL.md` (after the frontmatter) is longer than 500 lines, or
    than the specification's recommended ~5,000 tokens (estimated as 4 characters a token).
    One finding for a body that is both.

    ## Why is this bad?
    The whole body is loaded into the agent's context whenever the skill triggers. Long
    bodies cost tokens on every use; detail belongs in `references/`, loaded on demand.

    ## Example
    A 900-line SKILL.md with a full API reference inline.

    Use instead: keep routing and the common patterns in SKILL.md and move the reference
    into `references/api.md`, cited with when to read it.
    """
    doc = skill.doc
    if doc is None:
        return
    if len(doc.body_lines) > BODY_MAX_LINES:
        yield Hit(
            doc.file.path,
            f"body is {len(doc.body_lines)} lines; keep it under {BODY_MAX_LINES} and move detail to references/",
            doc.body_start + BODY_MAX_LINES,
        )
        return
    tokens = body_tokens(doc.body_lines)
    if tokens > BODY_MAX_TOKENS:
        yield Hit(
            doc.file.path,
            f"body is about {tokens:,} tokens; keep it under {BODY_MAX_TOKENS:,} and move detail to references/",
            doc.body_start,
        )


def body_tokens(lines: list[str]) -> int:
    """About how many tokens *lines* cost an agent: 4 characters a token, the usual estimate for English and code."""
    return sum(len(line) + 1 for line in lines) // CHARS_PER_TOKEN


#: words that say when to use a skill (the specification: what it does *and when to use it*)
_WHEN = re.compile(
    # "use" as a verb, not "ease of use" or "use cases"; "Agent MUST load for .kb/ directories" says when
    r"\b(?:when|whenever|if|(?<!of )use(?! cases?\b)|used|trigger\w*|invoke\w*|ask\w*|request\w*|need\w*|want\w*"
    r"|before|after|during|while|for (?:any|all|tasks?|work|questions?|requests?|users?)|appl(?:y|ies) to"
    r"|relevant (?:to|for|when)|(?:useful|helpful|ideal|perfect|best|great) for|must (?:load|use|be (?:loaded|used))|activated (?:by|on|for)|wenn|quand|cuando|lorsque)\b"
    r"|\u0e40\u0e21\u0e37\u0e48\u0e2d"  # Thai เมื่อ ("when")
    r"|\u65f6|\u6642|\u5f53|\u3067\u4f7f\u7528|\u5834\u5408|\u9002\u7528|\u9002\u5408"  # 时 時 当; で使用 ("used for"), 場合 ("in case"), 适用 ("applies to"), 适合 ("suited to")
    r"|\u30c8\u30ea\u30ac\u30fc|\u89e6\u53d1|\u3068\u304d|\u969b"  # トリガー, 触发 ("trigger"); とき, 際 ("when")
    r"|\u4f7f\u3046",  # 使う ("use": 「…」では必ず使う)
    re.I,
)


#: common English words, not a suffix after an apostrophe (Turkish "v1'in" is not "in")
_ENGLISH = re.compile(r"(?<!['\u2019])\b(?:the|and|of|to|for|with|from|in|on|a|an|or|by|using|is|are|your|this|that|into|via)\b", re.I)


def _mostly_latin(text: str) -> bool:
    """Whether most of *text*'s letters are Latin: a Japanese description with "Cost-plus" in it is Japanese."""
    letters = [c for c in text if c.isalpha()]
    return sum(c.isascii() for c in letters) >= 0.7 * len(letters)


@rule("SPC017", "description-no-when", summary="The description says what the skill does but not when to use it.",
      seed=SPEC, scope="skill", severity="warning", targets=NAMED_IN_FRONTMATTER)
def description_no_when(skill):
    """
    ## What it does
    Warns when `description` has no word that says when the skill applies ("use when", "applies to",
    "if the user", "for requests about", "before", "triggers", "Activated by keywords: ...",
    "Agent MUST load for ...", "Useful for debugging ..."; 时, 場合,
    适用, 适合, トリガー, とき, เมื่อ; not "ease of use" or "use cases"). A
    description mostly in another script, or in a language whose words for "when" it does
    not know, is not judged, nor a skill that says when in
    Claude Code's `when_to_use` field (the host lists it with the description), nor one with
    `disable-model-invocation: true` (only the user runs it; the model never picks it). A
    description that says when after a ` #`, which YAML cut off as a comment, gets SPC035 instead.

    ## Why is this bad?
    Agents pick a skill from its description alone. The specification asks it to say what the
    skill does and when to use it; one that only says what is picked too rarely, or for the
    wrong requests.

    ## Example
    ```yaml
    description: Toolkit for styling slides with a colour theme.
    ```

    Use instead:
    ```yaml
    description: Styles slides with a colour theme. Use when the user asks for a theme or a consistent look.
    ```
    """
    fm = frontmatter(skill)
    if fm is None:
        return
    description = fm.data.get("description")
    if not isinstance(description, str) or not description.strip() or _WHEN.search(description):
        return
    if _WHEN.search(comment_cut(skill, "description") or ""):
        return  # it says when after a ' #' that YAML cut off: SPC035 says so
    when = fm.data.get("when_to_use")
    if isinstance(when, str) and when.strip():
        return  # Claude Code's field for it, shown with the description
    if fm.data.get("disable-model-invocation") is True:
        return  # only the user runs it (/name): the model never reads the description to pick it
    if not _ENGLISH.search(description) or not _mostly_latin(description):
        return  # the words that say when are only known in English (and a few others)
    yield at_key(skill, "description", "'description' says what the skill does but not when to use it; add 'Use when ...'")


#: words Claude's skill upload refuses in a name
RESERVED_WORDS = ("anthropic", "claude")


@rule("SPC018", "name-reserved-word", summary="'name' contains a word hosts reserve ('anthropic', 'claude').",
      seed=SPEC, scope="skill", severity="info",
      targets=tuple(t for t in NAMED_IN_FRONTMATTER if t in MAY_BE_UPLOADED))
def name_reserved_word(skill):
    """
    ## What it does
    Warns when `name` contains `anthropic` or `claude`.

    ## Why is this bad?
    Claude's skill upload (the API and claude.ai) refuses names with these reserved words, so
    the skill cannot be installed there. Info, since other hosts (Claude Code among them)
    accept such names; not reported under the `claude-code` and `codex` targets (a skill in
    `.claude/skills/`, a Claude Code plugin or a Codex skills folder), where the name is valid,
    nor for a skill in a project's `.agents/skills/`, which hosts load in place.

    ## Example
    ```yaml
    name: claude-helper
    ```

    Use instead: name the skill after what it does: `name: commit-helper`.
    """
    fm = frontmatter(skill)
    if fm is None:
        return
    name = fm.data.get("name")
    if not isinstance(name, str):
        return
    found = [w for w in RESERVED_WORDS if w in name.lower()]
    parts = Path(os.path.abspath(skill.root)).parts
    if found and any(parts[i] in _LOCAL_SKILL_HOMES and parts[i + 1] == "skills" for i in range(len(parts) - 1)):
        return  # `.agents/skills/claude-code-marketplace`: a project's own skills folder, loaded in place, never uploaded
    if found:
        yield at_key(skill, "name", f"'name' {name!r} contains the reserved word {found[0]!r}, which Claude's skill upload refuses")


#: the folders in a project (or a home) whose ``skills/`` hosts load in place: ``.agents/skills`` (Codex, Cursor, Copilot,
#: Gemini CLI), ``.codex/skills``, ``.claude/skills``
_LOCAL_SKILL_HOMES = frozenset({".agents", ".codex", ".claude"})


# SPC019 (nested-skill-invalid) is retired: a SKILL.md nested in a skill is found as a skill of its
# own (skillsmith.discovery.discover) and gets every rule; its ID is not given to another rule.


@rule("SPC021", "duplicate-skill-name", summary="Two skills that a host loads together have the same 'name'.",
      seed=SPEC, scope="collection", targets=NAMED_IN_FRONTMATTER)
def duplicate_skill_name(entries):
    """
    ## What it does
    Compares the `name` of every skill one `check` run finds, and reports each `SKILL.md`
    whose `name` another skill of the same collection also has, on its `name:` line, naming
    the other. A collection is what a host loads side by side: one skills folder (the
    nearest folder above the skill named `skills`: `skills/`, `.claude/skills/`,
    `.agents/skills/`, a plugin's `skills/`, with its category folders, `skills/office/pdf`,
    which installers flatten; not below a hidden folder in it: a project snapshot's
    `skills/app/.local/secondary_skills/x`), else one plugin (a folder with
    `.claude-plugin/plugin.json`), else the folder that holds the skill (its siblings).

    Skills of two different plugins may share a name: "Plugin skills use a
    `plugin-name:skill-name` namespace, so they cannot conflict with other levels" (Claude
    Code, https://code.claude.com/docs/en/skills), nor with another plugin's. Copies of a skill kept for
    several hosts (`skills/pdf/` and `.claude/skills/pdf/`) are in different skills folders
    and are not reported either. A skill given on its own is compared with its siblings
    given in the same run. A skill whose `name` differs from its folder gets SPC008 on that
    line instead (one finding for one cause); the other skill still hears of the clash. A copy
    kept inside the skill itself (`docx/docx/SKILL.md` beside `docx/SKILL.md`), or any skill
    inside another one's folder (a module `marketing/references/seo-audit/SKILL.md` that
    `marketing` tells the agent to read), is not reported: a host loads the outer one, and the
    inner is its data (a skill in a `skills/` folder of another still counts). Nor is a skill to copy (a
    `template/` or `_template/` folder, as for SPC008), nor, in a folder that is no skills
    folder, a version kept beside the skill (`misc/websearch/` and `misc/websearch-0-1-0/`,
    an archive of snapshots).

    ## Why is this bad?
    The specification makes `name` the skill's identifier, and hosts list skills by it. Two
    skills with one name in the folder a host loads cannot both be listed: one shadows the
    other, and the agent never sees the skill that lost (which one depends on the host and
    on the order it reads folders in). An installer that copies skills by name overwrites
    one with the other.

    ## Example
    `.claude/skills/pptx-posters/SKILL.md`, copied from `latex-posters/`, still says
    `name: latex-posters`.

    Use instead: give each skill its own name, equal to its folder: `name: pptx-posters`.
    """
    roots = {entry.root for entry in entries}
    by_name: dict[tuple, list] = {}
    for entry in entries:
        if not _data_of_another(entry.root, roots):
            by_name.setdefault((entry.collection[1], entry.name), []).append(entry)
    for (folder, name), same in by_name.items():
        if len(same) < 2:
            continue
        for entry in same:
            if "SPC008" in entry.reported or _TEMPLATE_FOLDER.match(entry.skill_md.parent.name):
                continue  # its name is not its folder's (that finding on the same line says what to change), or it is a skill to copy
            rivals = [o for o in same if o is not entry and not _nested(o.skill_md.parent, entry.skill_md.parent)
                      and not (entry.collection[0] == "folder" and _snapshots(o.skill_md.parent.name, entry.skill_md.parent.name))]
            if not rivals:
                continue  # a copy kept inside the skill itself (docx/docx/SKILL.md), or a version kept beside it: no host loads both
            others = ", ".join(sorted(display_path(o.skill_md) for o in rivals))
            yield Hit(entry.skill_md, f"{name!r} is also the name of {others}, in the same {entry.collection[0]}: "
                                      "a host that lists skills by name loads one and hides the other", entry.line, 1)


#: a folder named for a version of a skill: ``websearch-0-1-0``, ``mermaid-11.14.0``, ``pdf-v2``
_VERSION_SUFFIX = re.compile(r"[-_]v?\d+(?:[-_.]\d+)*$")


def _snapshots(a: str, b: str) -> bool:
    """Whether folders *a* and *b* are versions of one skill (``websearch`` and ``websearch-0-1-0``)."""
    return _VERSION_SUFFIX.sub("", a) == _VERSION_SUFFIX.sub("", b) and (a != b)


def _data_of_another(root, roots: set) -> bool:
    """Whether the skill folder *root* lies inside another skill of *roots*, and not in a skills
    folder of it (``marketing/references/seo-audit`` under ``marketing``; not ``pack/skills/pdf``
    under a ``pack`` that is a skill too): the outer skill's data, which no host lists."""
    for parent in root.parents:
        if parent.name == "skills":
            return False
        if parent in roots:
            return True
    return False


def _nested(a, b) -> bool:
    """Whether one of the folders *a* and *b* holds the other."""
    return a in b.parents or b in a.parents


#: fields that record a fact and change nothing a host does: the host a skill is written for ignores them harmlessly
INFORMATIONAL_FIELDS = frozenset({"version"})


@rule("SPC030", "field-not-portable", summary="A frontmatter field another host reads, which the skill's target does not.",
      seed=SPEC, scope="skill", severity="warning")
def field_not_portable(skill):
    """
    ## What it does
    Flags a top-level frontmatter field that is not in the Agent Skills specification and that
    the skill's target does not read, while another known host does: Claude Code's
    `when_to_use` or `disable-model-invocation` in a portable skill or a Codex skill. The
    finding names the fields and the hosts that read them, once per skill (at the first such
    field). It runs when you name the target the skill must work for (`--target agentskills`,
    `target = "codex"` in the configuration): without that, a field only one host reads is
    evidence that the skill is written for that host, not a mistake. Under that host's target (`--target claude-code`,
    or a skill in `.claude/skills/` or a Claude Code plugin, even one with Codex's
    `agents/openai.yaml` too) the field is valid. A `version` in a
    Claude Code or Codex skill is not flagged: it records a fact, and the host the skill is written
    for ignores it without behaving differently (a portable skill still hears that the reference
    validator refuses it).

    ## Why is this bad?
    The skill behaves differently per host: the field works where it is read and is silently
    ignored everywhere else, and the specification's reference validator (`skills-ref`)
    refuses it. A portability warning, not an error: the skill works where it was written.

    ## Example
    ```yaml
    name: deploy
    description: Deploys the site. Use when the user asks to ship.
    disable-model-invocation: true
    ```

    Use instead: check the skill for the host it is written for (`--target claude-code`, or
    `target = "claude-code"` in the configuration), or move data no host needs under `metadata`.
    """
    fm = frontmatter(skill)
    if fm is None or not skill.target_named:
        return  # a field only some hosts read is evidence the skill is written for them
    target = get(skill.target)
    reader = f"{target.title} ignores" if target.title else "hosts that follow only the specification ignore"
    keys = [k for k in fm.data
            if isinstance(k, str) and k not in SPEC_FIELDS and not target.reads(k) and hosts_reading(k)
            and not (k in INFORMATIONAL_FIELDS and target in (claude_code.TARGET, codex.TARGET))]
    if keys and target is not claude_code.TARGET and claude_code.is_claude_code_skill(skill):
        keys = [k for k in keys if not claude_code.TARGET.reads(k)]  # Claude Code loads it too: its fields are valid
    if not keys:
        return
    groups: dict[str, list[str]] = {}  # the hosts, listed -> the fields they read
    for k in keys:
        groups.setdefault(_listed([t.title or t.name for t in hosts_reading(k)]), []).append(repr(k))
    shown = [f"{_listed(fields)} (read by {hosts})" for hosts, fields in groups.items()]
    one = len(keys) == 1
    yield at_key(skill, keys[0], f"{_listed(shown)} {'is not an' if one else 'are not'} Agent Skills specification "
                                 f"field{'' if one else 's'}: {reader} {'it' if one else 'them'}")


def _listed(items: list[str]) -> str:
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"


@rule("SPC031", "host-field-invalid", summary="A host's frontmatter field has a value of the wrong type.",
      seed="the target host's skills documentation", scope="skill")
def host_field_invalid(skill):
    """
    ## What it does
    Checks the value of each frontmatter field the skill's target reads beyond the
    specification's, against that host's documentation: under `claude-code`,
    `disable-model-invocation`, `user-invocable`, `background` and `default-enabled` are
    booleans, `model`, `agent`, `context`, `when_to_use` and `argument-hint` strings,
    `arguments`, `paths` and `disallowed-tools` a string or a list of strings, `hooks` a
    mapping, `effort` one of `low`, `medium`, `high`, `xhigh`, `max`, and `shell` `bash` or
    `powershell`.

    ## Why is this bad?
    A value of the wrong type does not do what it says: `disable-model-invocation: "no"` is a
    string, not false, and a host may read any non-empty string as true or drop the field.

    ## Example
    ```yaml
    disable-model-invocation: "yes"
    effort: maximum
    ```

    Use instead:
    ```yaml
    disable-model-invocation: true
    effort: max
    ```
    """
    fm = frontmatter(skill)
    target = get(skill.target)
    if fm is None or target.field_problem is None:
        return
    for key, value in fm.data.items():
        if isinstance(key, str) and target.reads(key):
            problem = target.field_problem(key, value)
            if problem:
                yield at_key(skill, key, problem)


CODEX = (codex.TARGET.name,)


def _sidecar_problems(skill, whole: bool):
    f = skill.files.get(codex.SIDECAR)
    if f is None or f.text is None:
        return
    problems = codex.sidecar_problems(f.text, lambda rel: rel in skill.files or skill.unread.may_hold(rel))
    for p in problems:
        if p.whole == whole:
            yield Hit(f.path, p.message, p.line, 1)


@rule("SPC032", "openai-yaml-invalid", summary="agents/openai.yaml is a file Codex ignores whole.",
      seed="Codex skills", scope="skill", targets=CODEX)
def openai_yaml_invalid(skill):
    """
    ## What it does
    Reads a Codex skill's `agents/openai.yaml` (safe YAML only) and flags what makes Codex
    ignore the whole file: it is not valid YAML, it is not a mapping, or a key Codex reads
    holds a value of the wrong type (`allow_implicit_invocation: "false"`, a number for
    `display_name`, a string for `dependencies.tools`).

    ## Why is this bad?
    Codex reads the file strictly and fails open: one wrong value and every setting in it is
    lost without a word. `allow_implicit_invocation: false` is dropped with the rest, so Codex
    invokes on its own a skill its author meant to run only when asked.

    ## Example
    ```yaml
    policy:
      allow_implicit_invocation: "false"
    ```

    Use instead:
    ```yaml
    policy:
      allow_implicit_invocation: false
    ```
    """
    yield from _sidecar_problems(skill, whole=True)


@rule("SPC033", "openai-yaml-ignored", summary="agents/openai.yaml has a key or value Codex does not use.",
      seed="Codex skills", scope="skill", severity="warning", targets=CODEX)
def openai_yaml_ignored(skill):
    """
    ## What it does
    Flags what Codex skips in a readable `agents/openai.yaml`: a key it does not read (often a
    typo, `default_promt`, or a key at the wrong level), and a value it drops alone: an empty
    string, a `display_name` over 64 characters or another text over 1,024, a `brand_color`
    that is not `#RRGGBB`, an icon that is not a file under the skill's `assets/`, a
    dependency tool without `type` or `value`.

    ## Why is this bad?
    The author believes the skill shows that name, icon or colour, or declares that
    dependency; Codex shows and installs nothing of it, and says so only in its log.

    ## Example
    ```yaml
    interface:
      display_name: "Release notes"
      brand_color: "blue"
    ```

    Use instead:
    ```yaml
    interface:
      display_name: "Release notes"
      brand_color: "#3B82F6"
    ```
    """
    yield from _sidecar_problems(skill, whole=False)


CLAUDE_CODE = (claude_code.TARGET.name,)
#: Claude Code's skill listing shows at most this much of ``description`` and ``when_to_use`` together
LISTING_CAP = 1536


@rule("SPC034", "listing-truncated", summary="Claude Code cuts description and when_to_use at 1,536 characters together.",
      seed="Claude Code skills documentation", scope="skill", severity="warning", targets=CLAUDE_CODE)
def listing_truncated(skill):
    """
    ## What it does
    Under the `claude-code` target, adds the lengths of `description` and `when_to_use` (the
    text Claude Code puts in its skill listing) and warns when they are over 1,536 characters.

    ## Why is this bad?
    Claude Code's listing, the only text the model sees before it picks a skill, truncates
    the combined `description` and `when_to_use` at 1,536 characters
    ([skills documentation](https://code.claude.com/docs/en/skills); its changelog: "raised
    the listing cap from 250 to 1,536 characters and added a startup warning when
    descriptions are truncated"). Whatever comes after the cut, often the trigger phrases at
    the end of `when_to_use`, never reaches the model.

    ## Example
    A 900-character `description` with a 700-character `when_to_use`.

    Use instead: put the key use case first in `description`, and keep `when_to_use` to the
    trigger phrases the description does not already say.
    """
    fm = frontmatter(skill)
    if fm is None:
        return
    texts = [fm.data.get(key) for key in ("description", "when_to_use")]
    if not isinstance(texts[1], str) or not all(isinstance(t, str) for t in texts):
        return  # without when_to_use, SPC010 already holds description to 1,024
    total = len(texts[0]) + len(texts[1])
    if total > LISTING_CAP:
        yield at_key(skill, "when_to_use", f"'description' and 'when_to_use' are {total:,} characters together; "
                     f"Claude Code's skill listing cuts them at {LISTING_CAP:,}")


#: words in a YAML comment, more than a note to the author's self would have
_COMMENT_WORDS = re.compile(r"[^\W\d_][\w'-]*")


def comment_cut(skill, key: str) -> str | None:
    """The text after `` #`` on *key*'s line when YAML read it as a comment and cut the value there
    (``description: Pair with experiments #3 (comparison pages). USE PROACTIVELY when ...``): a plain,
    one-line value whose parsed text is what comes before the comment, a ``#`` right before a word or
    number (not ``# skillsmith: ignore[...]``, a comment written as one), and at least four words after it."""
    fm = frontmatter(skill)
    value = fm.data.get(key) if fm is not None else None
    line = fm.key_lines.get(key) if isinstance(value, str) and value else None
    lines = skill.doc.file.lines if line is not None else []
    if not 0 < (line or 0) <= len(lines):
        return None
    raw = lines[line - 1].split(":", 1)[-1]
    at = re.search(r"[ \t]#(?=\S)", raw)  # "#3", "#N": a number cut off; "# note" is the author's comment
    if at is None or raw.lstrip()[:1] in "\"'|>[{&*!" or raw[:at.start()].strip() != value.strip():
        return None
    comment = raw[at.start():].strip()
    return comment if len(_COMMENT_WORDS.findall(comment)) >= 4 else None


@rule("SPC035", "value-cut-by-comment", summary="A ' #' in an unquoted description starts a YAML comment and cuts the text.",
      seed=SPEC, scope="skill", severity="warning", targets=NAMED_IN_FRONTMATTER)
def value_cut_by_comment(skill):
    """
    ## What it does
    Flags an unquoted one-line `description` or `when_to_use` with ` #` in it, the `#` right
    before a word or number (`#3`, `#N`), followed by more prose (at least four words): YAML
    starts a comment at a space and `#`, so the value ends there. A comment written as one
    (`# skillsmith: ignore[...]`, `# reviewed`) is not flagged.

    ## Why is this bad?
    Hosts read the parsed value, so everything after the ` #` never reaches the model, often
    the part that says when to use the skill ("Pair with experiments #3 and #4. Use proactively
    when ..." ends at "Pair with experiments"). The file looks right to its author.

    ## Example
    ```yaml
    description: Writes comparison pages for experiment #3. Use when asked for SEO pages.
    ```

    Use instead: quote the value, or write the number without `#`:
    ```yaml
    description: "Writes comparison pages for experiment #3. Use when asked for SEO pages."
    ```
    """
    for key in ("description", "when_to_use"):
        comment = comment_cut(skill, key)
        if comment is not None:
            shown = comment if len(comment) <= 40 else comment[:40] + "..."
            yield at_key(skill, key, f"'{key}' ends before {shown!r}: YAML reads ' #' as a comment; quote the value")


@rule("SPC036", "agent-without-fork", summary="'agent' is set without 'context: fork', where Claude Code ignores it.",
      seed="Claude Code skills documentation", scope="skill", severity="warning", targets=CLAUDE_CODE)
def agent_without_fork(skill):
    """
    ## What it does
    Under the `claude-code` target, flags an `agent` field in a skill whose `context` is not
    `fork`.

    ## Why is this bad?
    Claude Code's frontmatter reference defines `agent` as the subagent type to use when
    `context: fork` is set (https://code.claude.com/docs/en/skills#frontmatter-reference).
    Without the fork the skill runs inline in the conversation, and the subagent the author
    named is never started: its tools, model and prompt do not apply.

    ## Example
    ```yaml
    agent: Explore
    ```

    Use instead:
    ```yaml
    context: fork
    agent: Explore
    ```
    """
    fm = frontmatter(skill)
    if fm is None or fm.data.get("agent") in (None, "") or fm.data.get("context") == "fork":
        return
    yield at_key(skill, "agent", f"'agent' is {fm.data['agent']!r} but 'context' is not 'fork': Claude Code runs the "
                                 "skill inline and starts no subagent; add 'context: fork' or drop 'agent'")
