"""Resource rules: references/, assets/ and the paths SKILL.md cites (seed 000 §1, §9)."""

from __future__ import annotations

import fnmatch
import functools
import itertools
import os
import re
from pathlib import Path, PurePosixPath

from skillsmith.model import citations
from skillsmith.model.skill import TEMPLATE_DIRS
from skillsmith.model.skillpath import skill_path
from skillsmith.model.sourcefile import TEXT_SUFFIXES
from skillsmith.rules.finding import Hit
from skillsmith.rules.registry import rule
from skillsmith.rules.security import is_test_module

SEED = "000 §1"
TOC_AFTER_LINES = 300
ASSET_MAX_BYTES = 500 * 1024
HUMAN_DOCS = re.compile(r"^(README|CHANGELOG|CHANGES|HISTORY|INSTALL|INSTALLATION)(\.[A-Za-z0-9]+)?$", re.I)
#: a variant in capitals, as people write them: ``README_DELIVERY.md``, ``README-zh.md``, a translation
#: ``README.zh-CN.md`` (not an agent's ``references/readme-template.md``)
HUMAN_DOC_VARIANTS = re.compile(r"^(?:README|CHANGELOG|INSTALL|INSTALLATION)(?:[_-][\w-]{1,30}|\.[a-z]{2,3}(?:[_-][A-Za-z]{2,4})?)"
                                r"\.(?:md|markdown|txt|rst)$")
#: the suffixes of documents (a script named ``install.sh`` or ``changes.py`` is a program, not one)
DOC_SUFFIXES = frozenset({"", ".md", ".markdown", ".txt", ".rst", ".org", ".adoc", ".asciidoc", ".html", ".htm"})
MARKDOWN = (".md", ".markdown")
#: files that only keep an empty folder in git
PLACEHOLDERS = frozenset({".gitkeep", ".keep", ".placeholder", ".empty"})
#: where a skill names its files besides its Markdown: Codex's interface file
NAMING_FILES = ("agents/openai.yaml",)
TEST_FOLDERS = frozenset({"tests", "test", "__tests__", "fixtures", "testdata", "evals"})
_NAME_TOKEN = re.compile(r"[\w@+%*][\w./@+%*-]*")
_TOC = re.compile(r"^\s*#{1,6}\s*(table of contents|contents|toc\b|\ubaa9\ucc28|\u76ee\u5f55|\u76ee\u9304|\u76ee\u6b21|inhalt|sommaire|\u00edndice|indice)", re.I)  # 목차 目录 目錄 目次
_ANCHOR_LINK = re.compile(r"\]\(#[^)]+\)")


def is_human_doc(rel: str) -> bool:
    """Whether *rel* is a README, CHANGELOG, INSTALL ... document (a program of that name is not)."""
    name = PurePosixPath(rel)
    return bool(HUMAN_DOCS.match(name.name) or HUMAN_DOC_VARIANTS.match(name.name)) and name.suffix.lower() in DOC_SUFFIXES


#: where a skill keeps the documents its agent reads
REFERENCE_FOLDERS = frozenset({"references", "reference"})
#: the folders of a host's command templates (``prompts/plan-review.md``)
COMMAND_FOLDERS = frozenset({"prompts", "commands", "command"})
#: the argument placeholders of a host's command template: ``$ARGUMENTS``, ``$1``
_COMMAND_ARGUMENTS = re.compile(r"(?<!`)\$ARGUMENTS\b(?!`)")  # used, not named in code: "`$ARGUMENTS` substitution"
_NUMBERED_ARGUMENT = re.compile(r"\$[1-9]\b")


def for_people(rel: str) -> bool:
    """Whether *rel* is a document for people (:func:`is_human_doc`), not the index of the agent's
    references (``references/README.md``)."""
    return is_human_doc(rel) and PurePosixPath(rel).parts[0] not in REFERENCE_FOLDERS


def is_command_template(f) -> bool:
    """Whether the Markdown file *f* is a prompt a host runs as a command: in a ``prompts/`` or
    ``commands/`` folder, one that takes ``$1`` or ``$ARGUMENTS`` (``prompts/plan-review.md``); elsewhere,
    one that uses ``$ARGUMENTS`` (not a document that names it in code). The user invokes it:
    SKILL.md need not cite it, and it is no document for people."""
    text = f.text
    if not text or "$" not in text:
        return False
    if not COMMAND_FOLDERS.isdisjoint(f.rel.split("/")[:-1]):
        return bool(_NUMBERED_ARGUMENT.search(text) or "$ARGUMENTS" in text)
    return bool(_COMMAND_ARGUMENTS.search(text))


def is_test_data(rel: str) -> bool:
    """Whether *rel* lies in a test folder (``tests/``, ``fixtures/``, an eval harness's ``evals/``) or a hidden one (``.github/``),
    or is named as a fixture (``scripts/fixture_sample.jsonl``): data for the skill's tests or its
    repository's tools, not for the agent."""
    parts = rel.split("/")
    stem = parts[-1].split(".", 1)[0].lower()
    return (any(part in TEST_FOLDERS or part.startswith(".") for part in parts[:-1])
            or stem.startswith(("fixture_", "fixture-")) or stem.endswith(("_fixture", "_fixtures")))


def file_names_in(skill) -> dict[str, frozenset[str]]:
    """For each Markdown file of *skill* (and ``agents/openai.yaml``): the file names and paths its text names.

    A token ``references/tld-selection.md`` gives both the path and its last part, so a file
    named by its bare name (``- `tld-selection.md` — when ...``) counts as named. A path through
    the skill's installed folder (``.github/skills/NAME/corpus/``) names what follows NAME.
    """
    owner = "/" + PurePosixPath(os.fspath(skill.root)).name + "/"
    found = {}
    for rel, f in skill.files.items():
        if (rel.endswith(MARKDOWN) or rel in NAMING_FILES) and f.text is not None:
            names = names_in(f.text)
            owned = {name.rsplit(owner, 1)[1] for name in names if owner in name}
            found[rel] = names | owned if owned else names
    return found


#: the programs of a skill whose string literals may name the files they load
PROGRAM_SUFFIXES = (".py", ".sh", ".bash", ".js", ".mjs", ".cjs", ".ts")
#: a string literal that is a file name or a path: `"scaffold.md"`, `'prompts/review.md'`
_PATH_LITERAL = re.compile(r"""(?<![\w\\])["']([\w@+%.-][\w@+%./-]{0,200})["']""")
#: code right before a literal that makes it a path the program opens: joined onto a folder
#: (`PROMPTS_DIR / "scaffold.md"`, `os.path.join(SCRIPT_DIR, "x.md")`) or opened (`open("x.md")`)
_LOADS_LITERAL = re.compile(r"/\s{0,4}$|\bjoin\([^()\n]{0,160}$|\b(?:open|Path|readFileSync|readFile)\(\s{0,4}$")
#: a line that writes what it names: an output folder (`output_dir / "full_document.md"`), a save
_WRITES = re.compile(r"\bout(?:put)?\w*|\bwrit\w*|\bsav(?:e|es|ed|ing)\b|\bdump", re.I)
#: a program that tests the skill, wherever it lies: ``test_x.py``, ``x_test.py``, ``x.test.mjs``, ``x.spec.ts``
_TEST_PROGRAM = re.compile(r"(?:^test_.*|.*_test|.*\.(?:test|spec))\.\w+$|^conftest\.py$")


def names_in_scripts(skill) -> frozenset[str]:
    """The file names and paths the skill's programs (not its tests) load: a string literal joined
    onto a folder or opened (``PROMPTS_DIR / "scaffold.md"``, ``os.path.join(SCRIPT_DIR, "x.md")``), on a
    line that writes nothing (``output_dir / "full_document.md"`` names what the program makes); or
    the value of a module's constant that is (``SCHEMA_FILE = "corpus.schema.json"``, then
    ``base / SCHEMA_FILE``)."""
    found = set()
    for rel, f in skill.files.items():
        if not rel.endswith(PROGRAM_SUFFIXES) or f.text is None or f.is_binary:
            continue
        if is_test_data(rel) or _TEST_PROGRAM.match(rel.rsplit("/", 1)[-1]):
            continue  # a test reads the references to check them, not to use them
        text = f.text
        for m in _PATH_LITERAL.finditer(text):
            if _loaded_at(text, m.start(), m.end()):
                token = m.group(1)
                found.add(token[2:] if token.startswith("./") else token)
        for m in itertools.islice(_PATH_CONSTANT.finditer(text), 50):
            uses = re.finditer(rf"(?<![\w.]){re.escape(m.group(1))}\b", text)
            if any(u.start() != m.start(1) and _loaded_at(text, u.start(), u.end()) for u in itertools.islice(uses, 50)):
                token = m.group(2)
                found.add(token[2:] if token.startswith("./") else token)
    return frozenset(found)


#: a module's constant that holds a path: ``CORPUS_SCHEMA_FILE = "gas-rule-corpus.schema.json"``
_PATH_CONSTANT = re.compile(r"""^([A-Z][A-Z0-9_]{1,60})\s*=\s*["']([\w@+%.-][\w@+%./-]{0,200})["'][ \t]*$""", re.M)


def _loaded_at(text: str, start: int, end: int) -> bool:
    """Whether the name at *start*:*end* of *text* is loaded: joined onto a folder or opened, on a
    line that writes nothing."""
    line_start = text.rfind("\n", max(0, start - 200), start) + 1
    line_end = text.find("\n", end, end + 200)
    line = text[max(line_start, start - 200):line_end if line_end != -1 else end + 200]
    return bool(_LOADS_LITERAL.search(text, max(line_start, start - 200), start)) and not _WRITES.search(line)


@functools.lru_cache(maxsize=64)
def names_in(text: str) -> frozenset[str]:
    """The file names and paths *text* names: each path token, and its last part.

    Remembered for the last texts: the rules of one check ask again, and so does the check
    after a fix for the Markdown files it did not change.
    """
    tokens = {token.rstrip(".-") for token in set(_NAME_TOKEN.findall(text))}
    tokens = {token[2:] if token.startswith("./") else token for token in tokens}
    return frozenset(tokens | {token.rsplit("/", 1)[-1] for token in tokens})


#: a path in code that holds a placeholder segment: `{lang}/claude-api/README.md`, `assets/<document-type>.md`
_PLACEHOLDER_PATH = re.compile(r"`([\w./<>-]*(?:\{[\w-]{1,40}\}|<[\w-]{1,40}>)[\w./{}<>-]{0,200})`")
_PLACEHOLDER = r"\{[\w-]*\}|<[\w-]*>"
#: a leading placeholder for the skill's own folder: `<this-skill>/`, `{skill-dir}/`
_SKILL_FOLDER = re.compile(r"^(?:<[\w-]*skill[\w-]*>|\{[\w-]*skill[\w-]*\})/", re.I)


def placeholder_paths(skill) -> list[re.Pattern[str]]:
    """Patterns for the paths SKILL.md names with ``{placeholder}`` or ``<placeholder>`` segments
    (a leading ``<this-skill>/`` is the skill's folder). A placeholder in a file
    name stands for one segment; a placeholder folder (``{category}/``) for one folder or more:
    ``references/{category}/README.md`` names ``references/rest-api/issues/README.md``."""
    doc = skill.doc
    if doc is None or doc.file.text is None:
        return []
    found = []
    for m in _PLACEHOLDER_PATH.finditer(doc.file.text):
        parts = re.split(_PLACEHOLDER, _SKILL_FOLDER.sub("", m.group(1).lstrip("./")))
        if "<" in m.group(1) and "/" not in parts[0]:
            continue  # `<file>.md` is an argument; `assets/<document-type>.template.md` names a folder's files
        pattern = re.escape(parts[0])
        for part in parts[1:]:
            pattern += ("[^/]+(?:/[^/]+)*" if part.startswith("/") else "[^/]+") + re.escape(part)
        found.append(re.compile(pattern))
    return found


#: a file's opening lines that say the agent is not to load it: "Not loaded into agent context."
_NOT_FOR_THE_AGENT = re.compile(r"\bnot\s+(?:to\s+be\s+|be\s+)?loaded\s+into\s+(?:the\s+)?(?:agent|model|llm)(?:'s)?\s+context\b", re.I)


def named_elsewhere(rel: str, names: dict[str, frozenset[str]]) -> bool:
    """Whether a file other than *rel* names it: by its path, its file name, or a folder that
    holds it written as a folder (``themes/``), from the skill's root or from the naming file's
    own folder (``docs/README.md`` naming ``pages/`` names ``docs/pages/x.md``)."""
    parts = rel.split("/")
    wanted = {rel, parts[-1], *("/".join(parts[:i]) + "/" for i in range(1, len(parts)))}
    for other, got in names.items():
        if other == rel:
            continue
        if not wanted.isdisjoint(got):
            return True
        here = other.rsplit("/", 1)[0] + "/" if "/" in other else ""
        if here and rel.startswith(here):  # named relative to the file that names it: docs/README.md's `pages/`
            local = rel[len(here):].split("/")
            if not {"/".join(local), *("/".join(local[:i]) + "/" for i in range(1, len(local)))}.isdisjoint(got):
                return True
        if any("*" in g and "." in g and names_by_pattern(g, rel) for g in got):
            return True  # a pattern: `reference/web-cache-deception*.md`
    return False


#: a file name written as a placeholder: ``0X-xxx.md`` (stage 01 to 08), ``report-YYYY-MM-DD.md``, ``foo.sh``
_NAME_PLACEHOLDER = re.compile(r"(?<![A-Za-z])(?:x{3,}|X{3,}|YYYY|\d[XN])(?![A-Za-z])|^(?:foo|bar|baz|qux)(?:\.\w+)?$")
#: a digit placeholder in a pattern: the ``X`` of ``reference/llm0X-*.md`` (not a letter of a word)
_DIGIT_PLACEHOLDER = re.compile(r"(?<![A-Za-z])[XN]+(?![A-Za-z])")


def names_by_pattern(pattern: str, rel: str) -> bool:
    """Whether the glob *pattern* names *rel* (by path or file name); a run of ``X`` or ``N``
    outside a word stands for digits: ``reference/llm0X-*.md`` names ``reference/llm08-x.md``."""
    pattern = _DIGIT_PLACEHOLDER.sub(lambda m: "[0-9]" * len(m.group()), pattern)
    return fnmatch.fnmatchcase(rel, pattern) or fnmatch.fnmatchcase(rel.rsplit("/", 1)[-1], pattern)


@rule("RES001", "resource-not-cited", summary="A file of the skill (references/, assets/, any Markdown) is never named.", seed=SEED, scope="skill", severity="warning")
def resource_not_cited(skill):
    """
    ## What it does
    Flags files under `references/` and `assets/`, and Markdown files anywhere in the skill,
    that nothing names: not `SKILL.md` (by path, or by a folder that holds them), not another
    Markdown file of the skill or Codex's `agents/openai.yaml` (by path, by bare file name, or
    by a folder that holds them written as one: `themes/`, or by a pattern:
    `reference/attack-*.md`), nor a program of the skill loads (a string literal of its path or
    file name joined onto a folder or opened, outside tests and lines that write: `run.py` loads
    `PROMPTS_DIR / "scaffold.md"` to send a model; that is the program's data; or a constant
    holding it, `SCHEMA_FILE = "corpus.schema.json"` then `base / SCHEMA_FILE`; or a subfolder
    that holds it: `install.py` copies out `skill_root / "assets" / "repo-template"`).
    Placeholders (`.gitkeep`, `.keep`), people's documents (README, CHANGELOG: RES006), a
    file whose opening lines say it is not for the agent ("Skill Metadata ... Not loaded into
    agent context.") and a host's command template (`prompts/plan-review.md` with `$1`, a
    prompt with `$ARGUMENTS`: the user runs it) are not flagged.

    ## Why is this bad?
    The agent only loads what `SKILL.md` points to. An unreferenced resource is dead weight
    that the router never finds (Skill Resource Protocol §1).

    ## Example
    `references/api.md` exists but SKILL.md never names it.

    Use instead: cite it with when to load it:
    ```markdown
    Read [references/api.md](references/api.md) when the user asks about pagination.
    ```

    ## Severity
    Warning: a file nothing names is dead weight the agent never finds (Skill Resource Protocol
    §1); nothing breaks.
    """
    if skill.doc is None:
        return
    names = loaded = None
    for rel, f in skill.files.items():
        if PurePosixPath(rel).name in ("SKILL.md", *PLACEHOLDERS) or for_people(rel):
            continue
        if not (rel.startswith(("references/", "assets/")) or rel.endswith(MARKDOWN) and "/" in rel and not is_test_data(rel)):
            continue
        if skill.cited(rel):
            continue
        names = file_names_in(skill) if names is None else names
        if named_elsewhere(rel, names):
            continue
        if f.text is not None and _NOT_FOR_THE_AGENT.search("\n".join(f.lines[:5])):
            continue  # "Skill Metadata ... Not loaded into agent context.": it says it is not the agent's to load
        if rel.endswith(MARKDOWN) and is_command_template(f):
            continue  # `prompts/plan-review.md` with `$1`: a command the user runs, not a reference to cite
        loaded = names_in_scripts(skill) if loaded is None else loaded
        parts = rel.split("/")
        if any("/".join(parts[i:]) in loaded for i in range(len(parts))):
            continue  # a script loads it: run.py's `PROMPTS_DIR / "scaffold.md"` (what it sends a model, not the agent's to read)
        if any("/".join(parts[:j]) in loaded or {parts[j - 2], parts[j - 1]} <= loaded for j in range(2, len(parts))):
            continue  # a script loads a folder holding it: `skill_root / "assets" / "repo-template"`, a template it copies out
        yield Hit(f.path, f"{rel} is not cited from SKILL.md; say when the agent should load it")


@rule("RES002", "cited-path-missing", summary="A relative path or link in SKILL.md does not exist in the skill.", seed=SEED, scope="skill")
def cited_path_missing(skill):
    """
    ## What it does
    Checks that every relative link and every `scripts/`, `references/` or `assets/` path
    that `SKILL.md` cites exists inside the skill. A file named in prose (`see FORMS.md`) is
    flagged when only its case differs from the file that exists, unless `SKILL.md` names that
    file too (the workspace's `SOUL.md`, then "add the block from `soul.md`": two files).

    ## Why is this bad?
    The agent follows the path and fails mid-task, or invents the missing content.

    ## Example
    ```markdown
    Run `python scripts/convert.py in.csv` (but the file is scripts/csv_convert.py).
    ```

    Use instead: cite the file that exists.

    Not flagged: paths the text gives as examples ("**Examples**: `references/finance.md` for
    financial schemas", a list under "Example: when building a `pdf-editor` skill ..."), files
    the skill makes in the user's project ("Generate `scripts/lint.sh` from the template", "create
    `scripts/dev-start.sh` and `scripts/dev-stop.sh`", a code block whose first comment names the
    file it shows: `# scripts/rollback.sh`, a file a drawn tree of the project holds: `project/`
    over `├── scripts/` and `│   └── init.sh`), or at run time wherever it names them ("Append to
    `references/domains/_pending.json` (create if it doesn't exist)", then "Load
    `references/domains/_pending.json`"; "Store the plan in the target skill folder as:" a list
    holding `references/plan.md`), places in a code base (`scripts/eval.ts:8`), files another
    skill holds ("the `neon-functions` skill's `references/ai-sdk.md`", "`/core:agent-loop`'s
    `references/dispatch-discipline.md`", `<path-to-skill-creator>/scripts/quick_validate.py`), files of the project the agent works
    in ("Verify using project scripts first: ..., `scripts/go-in-docker.sh make test`"), files of a
    folder that holds the skill, up to its repository's root (a skill the project keeps in
    `.agents/skills/` citing `scripts/check.py` of the project's root; a skill in a repository's
    `skills/` running the repository's `scripts/lib/linter.mjs`; a `SKILL.md` nested in another
    skill's `references/` citing that skill's `scripts/stitch.py`), files the skill's code tests the project for
    (`if [[ -f scripts/check-patches.sh ]]` anywhere in SKILL.md, `ls Makefile scripts/dev.sh 2>/dev/null`),
    files of a sibling skill named
    right before the path ("see `editframe-api` `references/files.md`") or as the sentence's
    subject a line or two above ("Invoke the `wix-headless` skill (... which routes a new-site run
    to `references/managed/CREATE.md`)"), and placeholders:
    patterns (`references/*.md`, `{lang}/x.md`) and file names written as one
    (`references/prompts/0X-xxx.md` for the stages 01 to 08, `report-YYYY-MM-DD.md`,
    `scripts/foo.sh`, a `[link](...)`).
    """
    doc = skill.doc
    if doc is None:
        return
    fenced = made = configs = cloned = project = probed = None
    for c in doc.citations:
        if fenced is None:
            fenced = citations.fenced_lines(doc.file.lines)
        target = skill_path(c.target).rel
        if not c.target or target is None or c.kind == "installed":
            continue  # a path in the installed copy may be one the user creates (an API key's .env)
        if any(ch in target for ch in "*?[{<$") or _NAME_PLACEHOLDER.search(target.rsplit("/", 1)[-1]) or not target.strip(".\u2026"):
            continue  # a pattern or placeholder, not a path: `references/*.md`, `scripts/foo.sh`, `[link](...)`
        if skill.exists(target):
            continue
        if (in_another_skill(doc.file.lines, c, fenced) or names_sibling_skill(skill, c) or is_illustrative(doc.file.lines, c)
                or another_skills_folder(c.raw)):
            continue
        if _THE_PROJECTS.search(_just_before(c)):
            continue  # "Verify using project scripts first: ..., `scripts/go-in-docker.sh make test`": the user's repository
        if cloned is None:
            cloned = entered_clone(doc.file.lines)
        if cloned and c.line > cloned and c.line in fenced:
            continue  # a script of the repository the skill clones and enters (`git clone .../openpi.git`, `cd openpi`)
        if configs is None:
            configs = citations.config_lines(doc.file.lines)
        if c.line in configs:
            continue  # a path in a project's config (a CI workflow's `run: ./scripts/deploy.sh`): the project's file
        if made is None:
            made = made_by_skill(doc.file.lines, doc.citations)
        if target in made or shows_the_file(doc.file.lines, c, fenced):
            continue  # a file the skill makes in the user's project: "Generate `scripts/lint.sh` from ..."
        if project is None:
            project = project_tree_paths(doc.file.lines)
        if target in project:
            continue  # a file a drawn tree of the user's `project/` holds
        if in_the_project(skill, target):
            continue  # `uv run scripts/check_contract.py` in a project's `.agents/skills/x/`: the project's file, or the repository's

        if _LINE_NUMBER.match(c.text, c.end):
            continue  # a place in a code base (`scripts/eval.ts:8`): the user's project, not a file of the skill
        if c.line in fenced and asks_the_project(_just_before(c)):
            continue  # code that asks whether the project has it: `[[ -f scripts/x.sh ]]`, `git log -- scripts/x.sh`
        if probed is None:
            probed = tested_paths(doc.file.lines, fenced)
        if target in probed:
            continue  # the skill's code tests whether the project has it (`if [[ -f scripts/x.sh ]]`): the project's file
        actual = skill.resolve_case(target)
        if actual is not None and any(o.target == actual for o in doc.citations):
            continue  # both spellings named: the workspace's `SOUL.md` and the skill's `soul.md` are two files
        if actual is not None:
            yield Hit(doc.file.path, f"{c.raw} does not exist; the file is {actual} (case differs, which breaks on case-sensitive file systems)", c.line, c.column)
        elif ("." in PurePosixPath(target).name or c.raw.endswith("/")) and c.kind != "mention" or (
            c.kind == "link" and "/" in target
        ):
            # an extensionless token ("scripts/CI", a "(url)" placeholder) is as likely prose as a path
            yield Hit(doc.file.path, f"{c.raw} does not exist in the skill", c.line, c.column)


#: how many folders above a skill a path it cites may be a file of (``REPO/plugin/skills/x`` -> ``REPO``),
#: when no folder on the way holds ``.git``
ENCLOSING_DEPTH = 4


def in_the_project(skill, target: str) -> bool:
    """Whether *target*, missing from the skill, is a file of a folder that holds the skill: the
    project that keeps it (``PROJECT/.agents/skills/maintain-skills/`` running ``PROJECT/scripts/x.py``
    from the project's root), the repository whose root ``scripts/`` its commands run, or the
    skill a ``SKILL.md`` nested in ``references/`` belongs to. The folders looked in are those above
    the skill up to the repository's root (the nearest holding ``.git``), at most
    :data:`ENCLOSING_DEPTH`; only whether the path exists there is looked at."""
    folder = own = Path(os.path.abspath(skill.root))
    for _ in range(ENCLOSING_DEPTH):
        if (folder / ".git").exists() or folder.parent == folder:
            return False  # the skill's repository ends here
        folder = folder.parent
        where = os.path.normpath(folder / target)
        if (where.startswith(str(folder) + os.sep) and os.path.lexists(where)
                and not (folder == own.parent and where.startswith(str(own) + os.sep))):
            return True  # not the skill's own file named from the folder above (`tushare/references/x.md`): a broken link
    return False


#: words before a path on its line that make it a file of the project the agent works in
_THE_PROJECTS = re.compile(r"\b(?:project|repo|repository|codebase)(?:'s|\u2019s)?\s+(?:own\s+)?(?:scripts?|tooling|build files)\b", re.I)
#: a name in backticks right before a path: "see `editframe-api` `references/files.md`"
_NAME_BEFORE = re.compile(r"`([\w][\w.-]{0,63})`\s+[`*_\"']*$")


def names_sibling_skill(skill, c) -> bool:
    """Whether the name in backticks right before citation *c* is a skill beside this one, which holds the file
    ("See `references/events.md` and `editframe-api` `references/files.md`")."""
    m = _NAME_BEFORE.search(_just_before(c))
    if m is not None and _sibling_holds(skill, m.group(1), c.target):
        return True
    # a sibling skill named as the sentence's subject a line or two above ("Invoke the `wix-headless` skill
    # (... it starts at its own `SKILL.md`, which ... routes a new-site run to `references/managed/CREATE.md`)")
    lines = skill.doc.file.lines
    before = " ".join(lines[max(0, c.line - 3):c.line - 1]) + " " + _just_before(c)
    return any(_sibling_holds(skill, name, c.target) for name in set(_SKILL_NAMED.findall(before)))


#: a skill named in a sentence: "the `wix-headless` skill", "Invoke `wix-headless`"
_SKILL_NAMED = re.compile(r"`([a-z0-9][a-z0-9-]{1,63})`\s+skill\b")


def _sibling_holds(skill, name: str, target: str) -> bool:
    """Whether *name* is a skill beside this one that holds the file *target*."""
    if name in (".", "..") or "/" in name:
        return False
    sibling = Path(os.path.abspath(skill.root)).parent / name
    return (sibling / "SKILL.md").is_file() and os.path.lexists(sibling / skill_path(target).rel)


#: the words right before a path that make it another skill's: "see the `neon-functions` skill's `references/x.md`"
#: or a named skill or command owns it: "See `/core:agent-loop`'s `references/dispatch-discipline.md`"
_OTHER_SKILLS = re.compile(r"(?:\bskill|`/?[\w-]+(?::[\w-]+)?`)(?:'s|\u2019s)\s*[`*_\"']*$", re.I)
#: a line before a code block that runs it from another skill's folder: "From the `x` skill directory, ..."
_OTHER_SKILL_FOLDER = re.compile(r"\b(?:from|in|inside|within)\s+(?:the\s+)?[`*_\"']*[\w.-]+[`*_\"']*\s+skill(?:'s)?\s+"
                                 r"(?:directory|folder|root)\b", re.I)


#: a placeholder for a skill's folder, and the word after "skill" in it
_SKILL_PLACEHOLDER = re.compile(r"^<[^<>\n]{0,40}?skill[-_]([a-z][\w-]{0,40})>", re.I)
_OWN_FOLDER_WORDS = frozenset({"dir", "directory", "path", "root", "folder", "home", "base", "name", "location"})


def another_skills_folder(raw: str) -> bool:
    """Whether *raw* goes through a placeholder for another skill's folder (``<path-to-skill-creator>/scripts/x.py``),
    not this one's (``<skill-dir>/scripts/x.py``, ``<this-skill>/``)."""
    m = _SKILL_PLACEHOLDER.match(raw)
    return m is not None and m.group(1).lower().split("-")[0].split("_")[0] not in _OWN_FOLDER_WORDS


def in_another_skill(lines: list[str], c, fenced: set[int]) -> bool:
    """Whether citation *c* names a file of another skill: the sentence says so right before it
    ("the `neon-functions` skill's `references/ai-sdk.md`"), or its code block follows a line that
    runs it from another skill's folder ("From the `scientific-schematics` skill directory:")."""
    if _OTHER_SKILLS.search(_just_before(c)):
        return True
    if c.line not in fenced:
        return False
    number = c.line
    while number in fenced:
        number -= 1  # the fence line
    for before in range(number - 1, 0, -1):
        text = lines[before - 1].strip()
        if text:
            return bool(_OTHER_SKILL_FOLDER.search(text))
    return False


#: a file test right before a path (``[[ -f ``, ``test -d "``)
_TEST_FLAG = r"(?<![\w-])-[efdLhrsxw]\s+[\"']?"
_FILE_TEST = re.compile(_TEST_FLAG + "$")
#: where a command starts in a line of shell, and the words before a command
_COMMAND_START = re.compile(r"[|;&(`]|\$\(")
_SHELL_KEYWORDS = re.compile(r"^\s*(?:(?:if|elif|then|else|while|until|do|!)\s+)*")


#: a file test and the path it tests: ``[[ -f scripts/check.sh ]]``, ``test -x "bin/run"``
_TESTED_PATH = re.compile(_TEST_FLAG + r"([\w.][\w./-]{0,200})")


def tested_paths(lines: list[str], fenced: set[int]) -> frozenset[str]:
    """The relative paths the code blocks of a document test for (``if [[ -f scripts/x.sh ]]``):
    files that may or may not be there, in the project the code runs in."""
    return frozenset(m.group(1).removeprefix("./") for number in fenced if "-" in lines[number - 1]
                     for m in _TESTED_PATH.finditer(lines[number - 1]))


def asks_the_project(before: str) -> bool:
    """Whether code whose text before a path is *before* asks about the project's copy of that
    path: a file test (``[[ -f scripts/x.sh ]]``), a listing (``ls Makefile scripts/dev.sh``), or an
    argument of git (``git log -1 -- scripts/x.sh``, ``git show HEAD:scripts/x.sh``), which reads the
    repository the agent works in."""
    if _FILE_TEST.search(before):
        return True
    command = _SHELL_KEYWORDS.sub("", _COMMAND_START.split(before)[-1])
    return command.startswith(("git ", "ls "))  # `ls Makefile *.mk scripts/dev.sh 2>/dev/null`: what the project has
#: a clone of a repository: ``git clone [--flags] URL [folder]``
_GIT_CLONE = re.compile(r"\bgit\s+clone\s+(?:-\S+\s+)*(?P<url>\S+?)(?:\.git)?/?(?:\s+(?P<folder>[\w.-]+))?\s*(?:$|&&|;)")
_CD = re.compile(r"(?:^|&&|;)\s*cd\s+(?P<folder>[\w.-]+)/?\s*(?:$|&&|;)")


def entered_clone(lines: list[str]) -> int:
    """The line on which SKILL.md enters a repository it clones (``git clone .../openpi.git`` then
    ``cd openpi``), or 0: the paths its code cites after that are the clone's."""
    clones: set[str] = set()
    for number, text in enumerate(lines, 1):
        if "clone" in text:
            for m in _GIT_CLONE.finditer(text):
                clones.add(m.group("folder") or m.group("url").rstrip("/").rsplit("/", 1)[-1])
        if clones and "cd " in text:
            for m in _CD.finditer(text.strip().lstrip("$ ")):
                if m.group("folder") in clones:
                    return number
    return 0


#: words right before a path that make it an example of a kind of file, not a file of the skill
_EXAMPLE_LEAD = re.compile(r"(?:\be\.g\.|\bfor (?:example|instance)\b|\bsuch as\b|\bexamples?\W{0,4}[:\uff1a]"
                           r"|\u4f8b\u5982|\u6bd4\u5982|[\uff08(]\u5982)", re.I)  # "範例（Examples）：", 例如, 比如, （如 ("e.g.")
#: a paragraph that introduces a worked example: "Example: When building a `pdf-editor` skill ..."
_EXAMPLE_PARAGRAPH = re.compile(r"^\W{0,4}(?:for )?example\b", re.I)


#: how far before a citation its sentence is read (a line of 40,000 links stays linear)
_LEAD_WINDOW = 160


def _just_before(c) -> str:
    """The text right before citation *c* on its line, at most ``_LEAD_WINDOW`` characters."""
    end = max(0, c.column - 1)
    return c.text[max(0, end - _LEAD_WINDOW):end]


def is_illustrative(lines: list[str], c) -> bool:
    """Whether citation *c* is an example of a kind of file: the line gives it as one ("**Examples**:
    `references/finance.md` for ...", "e.g. `assets/logo.png`"), or it sits in the list of a paragraph
    that starts with "Example:"."""
    if _EXAMPLE_LEAD.search(_just_before(c)):
        return True
    lead = citations.list_lead(lines, c.line, reach=8)
    return lead is not None and bool(_EXAMPLE_PARAGRAPH.match(lead.strip()))


#: a verb that makes the path that follows it ("Generate `scripts/lint.sh`", "Generates ... (`x`)")
_MAKES = re.compile(r"\b(?:generat|creat|writ|produc|scaffold|emit|builds)\w*\b(?P<between>[^`|\[\]]{0,40})[`*_(\s\"']*$", re.I)
#: a copy or save into the path: "Copy `template.sh` to `scripts/lint.sh`"
_INTO = re.compile(r"\b(?:cop(?:y|ies)|sav\w*|mov\w*|writ\w*|output\w*|append\w*)\b.{0,80}\b(?:to|into|as)\s*[`*_\"']*$", re.I)
#: words between the verb and the path that make the path the tool, not the thing made ("create it with `x`")
_TOOL_WORDS = re.compile(r"\b(?:with|using|via|by|run\w*|from|see|in)\b|[.:;!?]\s", re.I)


#: right after a path, that the skill makes it when it is not there: "`x.json` (create if it doesn't exist)"
_CREATED_IF_MISSING = re.compile(
    r"^[`*_\"')]{0,4}\s{0,4}[(,\u2014-]{0,2}\s{0,4}(?:and\s+|or\s+)?(?:create[sd]?|make|made|initiali[sz]ed?)\s+(?:it\s+|one\s+)?"
    r"(?:if|when)\s+(?:it\s+)?(?:does\s*n[o']t\s+(?:yet\s+)?exist|doesn\u2019t\s+(?:yet\s+)?exist|is\s+missing|missing|absent"
    r"|(?:is\s+)?not\s+(?:yet\s+)?(?:exist|there|present|found))", re.I)


#: what joins a path to the one before it in a list: "create `scripts/dev-start.sh` and `scripts/dev-stop.sh`"
_JOINED = re.compile(r"^[`*_\"')]{0,3}\s{0,3}(?:,|and|or|&|/|\u3001|\u548c|\u53ca)\s{0,3}[`*_\"'(]{0,3}$")
#: a list lead that stores what its items name: "Store the resulting plan artifact in the target skill folder as:"
_STORED_AS = re.compile(r"\b(?:stor(?:e|es|ed|ing)|sav(?:e|es|ed|ing)|writ\w*)\b.{0,120}\b(?:to|into|as|in)\s*[*_]{0,2}[:\uff1a]\s*$", re.I)


def made_by_skill(lines: list[str], cited) -> set[str]:
    """The paths SKILL.md says the skill makes: generated, created or written by it, copied or appended
    to, or created when missing ("Append to `references/domains/_pending.json` (create if it doesn't exist)");
    the next of a list joined to one ("create `scripts/dev-start.sh` and `scripts/dev-stop.sh`"), and the
    items of a list whose lead stores them ("Store the plan in the target skill folder as:")."""
    made = set()
    previous = None
    for c in cited:
        before = _just_before(c)
        m = _MAKES.search(before)
        joined = (previous is not None and previous.line == c.line and previous.end <= c.column - 1
                  and skill_path(previous.target).rel in made and _JOINED.match(c.text[previous.end:c.column - 1]))
        lead = citations.list_lead(lines, c.line, reach=6) if citations.LIST_ITEM.match(c.text) else None
        if (m and not _TOOL_WORDS.search(m.group("between")) or _INTO.search(before) or joined
                or _CREATED_IF_MISSING.match(c.text[c.end:c.end + _LEAD_WINDOW])
                or lead is not None and _STORED_AS.search(lead[-_LEAD_WINDOW:])):
            rel = skill_path(c.target).rel
            if rel:
                made.add(rel)
        previous = c
    return made


#: the top of a drawn tree that is the user's project, not the skill: ``project/``, ``project-root/``,
#: ``<repo>/``, ``Local project/``, ``my-app/``
_PROJECT_ROOT = re.compile(r"^(?:<[\w -]{1,40}>|[\w .-]{0,40}\b(?:project|repo|repository|app|monorepo|workspace)(?:[-_]\w+)?)/?$", re.I)
#: one entry of a drawn tree: ``├── scripts/``, ``│   └── init.sh    ← Standard location``
_TREE_ENTRY = re.compile(r"[\u251c\u2514](?:\u2500\u2500|--)\s*([^\s#\u2190<(]+)")


def project_tree_paths(lines: list[str]) -> set[str]:
    """The paths of the files a drawn tree of the user's project shows (under a root ``project/``):
    ``project/`` over ``├── scripts/`` and ``│   └── init.sh`` holds ``scripts/init.sh``, a file the
    project has (or the skill has the agent make there), not one the skill ships."""
    paths: set[str] = set()
    stack: list[tuple[int, str]] = []
    in_project = False
    for text in lines:
        m = _TREE_ENTRY.search(text) if ("\u251c" in text or "\u2514" in text) else None
        if m is None:
            in_project = bool(_PROJECT_ROOT.match(text.strip().strip("`*")))
            stack = []
            continue
        if not in_project:
            continue
        while stack and stack[-1][0] >= m.start():
            stack.pop()
        stack.append((m.start(), m.group(1).strip("/")))
        paths.add("/".join(name for _, name in stack))
    return paths


#: a code block's first line that names the file it shows: ``# scripts/rollback.sh``, ``// scripts/x.ts``
_NAMES_ITS_BLOCK = re.compile(r"^\s*(?:#|//|--|;|/\*|<!--)\s*[`'\"]?$")
_SHEBANG_OR_BLANK = re.compile(r"^\s*(?:#!.*)?$")


def shows_the_file(lines: list[str], c, fenced: set[int]) -> bool:
    """Whether citation *c* is the comment atop a code block that names the file the block shows
    (``#!/bin/bash`` then ``# scripts/rollback.sh``): the block is that file's text, which whoever
    follows it makes, in their project."""
    if c.line not in fenced or not _NAMES_ITS_BLOCK.match(c.text[:c.column - 1]) \
            or c.text[c.end:].strip(" `'\"*/->") != "":
        return False
    above = c.line - 1
    while above in fenced:
        if not _SHEBANG_OR_BLANK.match(lines[above - 1]) or c.line - above > 2:
            return False
        above -= 1
    return True


#: right after a path, a line number: ``scripts/eval.ts:8`` is a place in a code base's source
_LINE_NUMBER = re.compile(r":\d+\b")


@rule("RES003", "path-escapes-skill", summary="SKILL.md cites an absolute, '~' or '..' path outside the skill.", seed="001 (paths)", scope="skill")
def path_escapes_skill(skill):
    """
    ## What it does
    Flags links in `SKILL.md` that are absolute, start with `~`, use a drive letter, or climb
    out of the skill with `..`. A link to a plugin's command or skill by name
    (`[agents](/uipath:uipath-agents)`) is not a path, nor is link syntax shown as code (in a
    code span or block: `` `![Alt](/images/{slug}/a.png)` `` is Markdown the skill has the agent
    write), and a link to another skill of the same
    Claude Code plugin (`../working-with-vercel-ai-sdk/SKILL.md` beside it in the plugin's
    `skills/`, or both listed in the `skills` of one plugin of a marketplace, like
    `"skills": ["./06-post-training/miles", "./06-post-training/slime"]`) resolves wherever the
    plugin is installed, since it installs its skills together.

    ## Why is this bad?
    Skills are installed somewhere else than where they were written; such paths break on
    every other machine, and hosts reject them (StablEdge refuses them outright).

    ## Example
    ```markdown
    See [the guide](../shared/guide.md).
    ```

    Use instead: copy what the skill needs into `references/` and cite it relative to the skill.
    """
    doc = skill.doc
    if doc is None:
        return
    fenced = None
    for c in doc.citations:
        why = skill_path(c.target).why if c.kind == "link" and not _COMMAND_LINK.match(c.target) else None
        if not why or in_same_plugin(skill, c.target):
            continue
        fenced = citations.fenced_lines(doc.file.lines) if fenced is None else fenced
        if c.line in fenced or c.text[:c.column - 1].count("`") % 2:
            continue  # Markdown shown as code (`![Alt](/images/{slug}/a.png)` for a blog post): no link of the skill
        yield Hit(doc.file.path, f"{c.raw} {why}; cite paths relative to the skill", c.line, c.column)


def in_same_plugin(skill, target: str) -> bool:
    """Whether the relative link *target* (``../working-with-vercel-ai-sdk/SKILL.md``) goes to another
    skill of the same Claude Code plugin (a folder with its own SKILL.md beside this skill in the
    plugin's ``skills/``): the plugin installs its skills together, so the link resolves."""
    from skillsmith.targets.claude_code import PLUGIN_MANIFEST, listed_with

    if not target.startswith("../") or target.startswith("../../"):
        return False
    root = Path(os.path.abspath(skill.root))
    sibling = target[3:].split("/", 1)[0]
    if not sibling or sibling in (".", "..") or not (root.parent / sibling / "SKILL.md").is_file():
        return False
    if root.parent.name == "skills" and (root.parent.parent / PLUGIN_MANIFEST).is_file():
        return True
    return str(root.parent / sibling) in listed_with(root)  # both in one marketplace plugin's "skills"


#: a link to a plugin's command or skill by name, ``/uipath:uipath-agents``: not a path
_COMMAND_LINK = re.compile(r"^/[\w.-]+:[\w.-]+$")


#: a license or the notices of bundled third-party code: ``LICENSE.md``, ``THIRD-PARTY-NOTICES.md``, ``NOTICE.md``
_LEGAL_NOTICE = re.compile(r"^(?:licen[cs]es?|copying|notices?|third[-_ ]?party[-_ ]?(?:notices?|licen[cs]es?))(?:[-_.].*)?\.(?:md|markdown)$", re.I)


@rule("RES004", "reference-without-toc", summary="A reference over 300 lines has no table of contents.", seed=SEED, scope="skill", severity="warning")
def reference_without_toc(skill):
    """
    ## What it does
    Flags Markdown files of the skill (besides `SKILL.md`, whose length SPC016 judges, and
    people's documents, and a license or third-party notices file) longer than 300 lines without a table of contents (a "Contents"
    heading, or a list of in-page links) in their first 60 lines.

    ## Why is this bad?
    Agents read long files in slices; a table of contents lets them jump to the part they
    need instead of reading everything.

    ## Example
    A 700-line `references/api.md` that starts straight with the first endpoint.

    Use instead:
    ```markdown
    # API
    ## Contents
    - [Authentication](#authentication)
    - [Pagination](#pagination)
    ```
    """
    for rel, f in skill.files.items():
        if rel == "SKILL.md" or not rel.endswith(MARKDOWN) or is_human_doc(rel) or is_test_data(rel) or f.text is None \
                or _LEGAL_NOTICE.match(rel.rsplit("/", 1)[-1]):
            continue  # (a license or third-party notices file is read whole by lawyers, not in slices by the agent)
        lines = f.lines
        if len(lines) <= TOC_AFTER_LINES:
            continue
        head = lines[:60]
        if any(_TOC.match(ln) for ln in head) or sum(bool(_ANCHOR_LINK.search(ln)) for ln in head) >= 3:
            continue
        yield Hit(f.path, f"{rel} has {len(lines)} lines and no table of contents near the top")


@rule("RES005", "asset-too-large", summary="A binary asset is 500 KB or larger.", seed="000 §9", scope="skill", severity="warning")
def asset_too_large(skill):
    """
    ## What it does
    Flags binary files under `assets/` of 500 KB or more.

    ## Why is this bad?
    Every copy and install of the skill carries them, and agents cannot read binaries anyway.

    ## Example
    A 4 MB screenshot in `assets/`.

    Use instead: shrink it, or link to where it is published.
    """
    for rel, f in skill.files.items():
        if rel.startswith("assets/") and f.size >= ASSET_MAX_BYTES:
            # a file too large to read is binary unless its name says text (a JSON schema the script validates with)
            binary = f.suffix not in TEXT_SUFFIXES if f.too_large else f.is_binary or f.text is None
            if binary:
                yield Hit(f.path, f"{rel} is {f.size // 1024} KB; keep binary assets under {ASSET_MAX_BYTES // 1024} KB")


#: folders that hold third-party code a skill bundles as it came
VENDORED = frozenset({"vendor", "vendored", "third_party", "third-party", "node_modules", "site-packages"})


@rule("RES006", "human-docs-in-skill", summary="README, CHANGELOG or INSTALL documents inside a skill.", seed="001 (layout)", scope="skill", severity="warning",
      targets=("agentskills", "kvist", "sucoder", "claude-code", "codex"))  # stabledge: STE015
def human_docs_in_skill(skill):
    """
    ## What it does
    Flags README, CHANGELOG, CHANGES, HISTORY and INSTALL documents (Markdown, text, no
    suffix; `README_DELIVERY.md`, `README-zh.md` too) inside a skill that SKILL.md does not cite (a cited one is written for the agent;
    one in a subfolder that SKILL.md names by its bare name, `CHANGELOG.md` for `references/CHANGELOG.md`, is cited when no
    other file of the skill has that name, and so is one another Markdown file of the skill names by its path:
    `connector-overrides/README.md`, the index of a folder of references, and so is the README of
    a folder SKILL.md names by its path, `` `examples/global-temperature/` ``). A README in
    `references/` is the index of the agent's references (RES001 asks that SKILL.md cite it), and
    one that is a host's command template (`$ARGUMENTS`) is a prompt, not a document for people.
    Files under `assets/` and `templates/` are skipped: a README template, or the README of a
    project template the skill copies out, may be a legitimate asset; so are test data
    (`tests/`, `fixtures/`) and the files of third-party packages the skill bundles
    (`vendor/matplotlib/.../README.txt`, which its author cannot move); programs
    of those names (`install.sh`, `changes.py`) are not documents.

    ## Why is this bad?
    They are written for people, not agents: hosts list them as resources, the agent may read
    them, and they cost tokens while duplicating SKILL.md.

    ## Example
    `my-skill/README.md` next to `SKILL.md`.

    Use instead: put what the agent needs in SKILL.md or `references/`, and keep the README
    in the repository that holds the skills, outside the skill folder.
    """
    patterns = names = None
    for rel, f in skill.files.items():
        if PurePosixPath(rel).parts[0] in TEMPLATE_DIRS:
            continue  # part of what the skill copies out (assets/, templates/worker/README.md)
        if is_test_data(rel) or not VENDORED.isdisjoint(rel.split("/")[:-1]):
            continue  # a test's data, or a file of a third-party package the skill bundles (vendor/numpy/ma/README.rst)
        if for_people(rel) and not skill.cited(rel) and not is_command_template(f):
            patterns = placeholder_paths(skill) if patterns is None else patterns
            if any(p.fullmatch(rel) for p in patterns):
                continue  # SKILL.md reads it through a placeholder: `{lang}/claude-api/README.md`
            if "/" in rel and _named_alone(skill, rel):
                continue  # `| Changelog | CHANGELOG.md |` in SKILL.md's table of its references/
            if "/" in rel and _index_of_named_folder(skill, rel):
                continue  # `examples/global-temperature/` in SKILL.md: its README is what the agent opens there
            names = file_names_in(skill) if names is None else names
            if "/" in rel and _named_by_path(rel, names):
                continue  # `connector-overrides/README.md` in references/integration-service/connections.md: the agent's index
            yield Hit(f.path, f"{rel} is a document for people; hosts bundle it with the skill")


def _named_by_path(rel: str, names: dict[str, frozenset[str]]) -> bool:
    """Whether another Markdown file of the skill names the subfolder file *rel* by a path (from the skill's
    root, or from its own folder: ``connector-overrides/README.md`` in ``references/integration-service/``),
    not by a bare file name, which may be any project's README."""
    for other, got in names.items():
        if other == rel:
            continue
        here = other.rsplit("/", 1)[0] + "/" if "/" in other else ""
        local = rel[len(here):] if here and rel.startswith(here) else None
        if rel in got or local and "/" in local and local in got:
            return True
    return False


def _index_of_named_folder(skill, rel: str) -> bool:
    """Whether *rel* is the README of a folder SKILL.md names by its path (`` `examples/global-temperature/` ``,
    ``cd examples/global-temperature && ...``): the index of what the agent is sent to."""
    folder, _, name = rel.rpartition("/")
    text = skill.doc.file.text if skill.doc is not None else None
    if not text or not name.lower().startswith("readme") or folder not in text:
        return False
    return re.search(rf"(?<![\w/.-])(?:\./)?{re.escape(folder)}/?(?![\w./-])", text) is not None  # not `docs/x.md`


def _named_alone(skill, rel: str) -> bool:
    """Whether SKILL.md names the file *rel* of a subfolder by its bare name as code, and no other file of the
    skill has that name (a bare `README.md` at the top may be the user's; `CHANGELOG.md` beside
    `references/CHANGELOG.md` alone is that file)."""
    name = rel.rsplit("/", 1)[-1]
    text = skill.doc.file.text if skill.doc is not None else None
    if not text or f"`{name}`" not in text:
        return False  # written as a file name (`CHANGELOG.md`), not "fetch README.md" of another project
    return sum(1 for other in skill.files if other.rsplit("/", 1)[-1] == name) == 1


@rule("RES007", "symlink-leaves-skill", summary="A symbolic link inside the skill points outside it (or nowhere).", seed="001 (paths)", scope="skill")
def symlink_leaves_skill(skill):
    """
    ## What it does
    Flags symbolic links inside a skill whose target is absolute, climbs out of the skill
    folder, or does not exist.

    ## Why is this bad?
    Hosts skip symlinks or reject paths that leave the skill; a link that escapes can also
    expose files outside the skill to an agent. skillsmith never follows them.

    ## Example
    `references/shared.md -> ../../docs/shared.md`

    Use instead: copy the file into the skill.
    """
    root = os.path.realpath(skill.root)
    for rel, target in skill.symlinks.items():
        link = skill.root / rel
        if rel == "SKILL.md":
            continue  # SPC001 reports it
        if os.path.isabs(target):
            yield Hit(link, f"{rel} is a symlink to the absolute path {target}")
            continue
        joined = os.path.normpath(os.path.join(os.path.dirname(os.path.join(root, rel)), target))
        if joined != root and not joined.startswith(root + os.sep):
            yield Hit(link, f"{rel} is a symlink that leaves the skill ({target})")
        elif not os.path.lexists(joined):
            yield Hit(link, f"{rel} is a broken symlink ({target})")


#: a line that sets a home path against its portable form: "/Users/alex/... instead of ~/...", "not /Users/x, but $HOME"
_CONTRASTED = re.compile(r"\b(?:instead of|rather than|not|vs\.?|versus)\b[^\n]{0,60}?(?:(?<![\w/])~/|\$\{?HOME\b)"
                         r"|(?:(?<![\w/])~/|\$\{?HOME\b)[^\n]{0,60}?\b(?:instead of|rather than|not|vs\.?|versus)\b")
_HOME_PATH = re.compile(r"(?<![\w.~$/:-])(/Users/)([A-Za-z0-9._-]*[A-Za-z0-9_-])(?=/)")
#: user names that stand for "any user" in examples and on CI machines
EXAMPLE_USERS = frozenset({
    "user", "username", "user-name", "user_name", "you", "yourname", "your-name", "your_name", "yourusername",
    "your-username", "your_username", "me", "name", "someone", "somebody", "example", "foo", "bar", "jdoe", "john",
    "johndoe", "jane", "janedoe", "alice", "bob", "dev", "developer", "runner", "ubuntu", "node", "vscode", "admin",
    "test", "tester", "demo", "USER", "USERNAME", "x", "xxx", "myuser", "my-user", "shared", "public", "default",
    "myname", "myusername", "youruser",
    # a kind of person, not a person: a sample summary's /Users/researcher/projects/..., a forensics image's suspect
    "researcher", "student", "analyst", "scientist", "suspect", "victim",
})


#: a line of a program's error output: ``Error: git init failed in ...``, ``fatal: ...``, ``FileNotFoundError: ...``
_ERROR_OUTPUT = re.compile(r"\s{0,8}(?:[A-Z][A-Za-z]{0,40}(?:Error|Exception)|Error|ERROR|error|fatal|FATAL|panic)(?:\[\w{1,20}\])?:\s")


#: a name masked out in a vendor's sample (``/Users/xxxx/xxx.text``)
_MASKED_USER = re.compile(r"[xX]+|[._-]+|(?:my|your)[-_][\w.-]+", re.I)  # and `/Users/my-project/` in a sample


@rule("RES008", "hard-coded-home-path", summary="A path into one person's home folder on a Mac (/Users/<name>/).",
      seed="001 (paths)", scope="file", severity="warning")
def hard_coded_home_path(subject):
    """
    ## What it does
    Flags paths into a named user's home folder on macOS (`/Users/jsmith/...`) in the skill's
    Markdown and scripts. Names that stand for any user in examples (`/Users/you/`,
    `/Users/username/`, a masked `/Users/xxxx/`, `/Users/my-project/`, a kind of person: a sample
    summary's `/Users/researcher/projects/minimum_wage_study`), a line that sets the path
    against its portable form ("Shows /Users/alex/... instead of ~/..."), a program's error quoted
    in a code block ("Error: git init failed in /Users/jesse/project/..."), test data, test
    modules wherever they lie (`tools/test_whisperx_transcriber.py`, `src/analyzer.test.ts`) and a copied
    theme's demo site (`exampleSite/`) are not flagged, nor Linux's `/home/<name>/` and
    Windows' `C:\\Users\\<name>\\` (or `C:/Users/<name>/`): those are as often a container's or a service's user, or the
    sample data of a forensics guide (`C:\\Users\\victim\\`), as a person's folder.

    ## Why is this bad?
    The path exists on the author's machine only: the agent's command fails everywhere else,
    and the skill tells everyone the author's user name and folder layout.

    ## Example
    ```bash
    python /Users/jsmith/code/skills/pdf/scripts/fill.py form.pdf
    ```

    Use instead: a path relative to the skill (`scripts/fill.py`), or `~`/`$HOME`.
    """
    _unit, f = subject
    text = f.text
    if not text or "/Users/" not in text or is_test_data(f.rel) or "exampleSite" in f.rel.split("/"):
        return  # (a theme's demo site: its sample posts quote someone's logs)
    if f.is_binary or f.suffix in (".json", ".lock", ".svg", ".csv") or f.rel.startswith("assets/"):
        return
    if is_test_module(f.rel, text):
        return  # tools/test_whisperx_transcriber.py: the skill's tests, wherever they lie, are not the agent's commands
    fenced = None
    for m in _HOME_PATH.finditer(text):
        if m.group(2).lower() in EXAMPLE_USERS or _MASKED_USER.fullmatch(m.group(2)):
            continue
        line, col = f.line_col(m.start())
        if _CONTRASTED.search(f.lines[line - 1]):
            continue  # "Shows /Users/alex/... instead of ~/...": the line teaches the portable form
        if f.suffix in MARKDOWN and _ERROR_OUTPUT.match(f.lines[line - 1]):
            fenced = citations.fenced_lines(f.lines) if fenced is None else fenced
            if line in fenced:
                continue  # a quoted error in a code block ("Error: git init failed in /Users/jesse/..."): output, not a path to use
        yield Hit(f.path, f"{m.group(1)}{m.group(2)} is one machine's home folder; use a path relative to the skill, ~ or $HOME",
                  line, col)


def is_pointer(c) -> bool:
    """Whether citation *c* points the reader at a file: a link, or a path (``reference/x.md`` too), not a
    bare file name in passing (``scan README.md``, which may be the user's; ``covered by review_base.md``)."""
    return c.kind in ("link", "path") or c.kind == "mention" and "/" in c.raw


def directly_cited(skill) -> tuple[set[str], set[str], list[str]]:
    """What SKILL.md cites itself: the files it links or gives the path of, the files it names in any way
    (a bare ``FORMS.md`` too), and the folders it cites (``references/``); files as they exist in the skill."""
    linked, named, folders = set(), set(), []
    for c in skill.doc.citations:
        rel = skill_path(c.target).rel
        if not rel:
            continue
        found = skill.resolve_case(rel)
        if found is not None:
            named.add(found)
            if is_pointer(c):
                linked.add(found)
        elif rel.rstrip("/") in skill.dirs:
            folders.append(rel.rstrip("/") + "/")
    for m in _FOLDER_IN_CODE.finditer(skill.doc.file.text or ""):
        rel = m.group(1).removeprefix("./").rstrip("/")
        if rel in skill.dirs and rel + "/" not in folders:
            folders.append(rel + "/")  # `reference/functions/` — INDEX, by-theme, by-name
    return linked, named, folders


#: a subfolder written as code in SKILL.md: `reference/functions/` (under any folder; a top folder
#: alone, "paths (`references/`) are relative to this skill", says where paths start, not what to read)
_FOLDER_IN_CODE = re.compile(r"`((?:\./)?[\w.-]{1,100}(?:/[\w.-]{1,100}){1,8}/)`")


#: the lines of a preview of a nested reference ("commands like `head -100`", Claude's best practices)
PREVIEW_LINES = 100


@rule("RES009", "reference-chain", summary="A reference SKILL.md cites links to a document SKILL.md does not cite.",
      seed="Agent Skills spec", scope="skill", severity="warning")
def reference_chain(skill):
    """
    ## What it does
    Follows each Markdown document `SKILL.md` links or gives the path of
    (`references/guide.md`; not a bare file name in passing, `scan README.md`, which may be
    the user's) and flags its links (`[text](details.md)`, or a path such as
    `references/details.md`, outside code blocks) to another Markdown document of the skill
    that `SKILL.md` does not cite itself (by link or path), name (by its file name, a path
    pattern: `wiki/guides/*.md`, or a path with a placeholder: `{lang}/guide.md`, `assets/<document-type>.template.md`), nor cite a
    folder of (`references/`, or a subfolder written as code: `` `reference/functions/` ``): a chain
    two levels deep. Each intermediate document is reported once, at its first such link,
    with how many documents it leads to.

    ## Why is this bad?
    The Agent Skills specification: "Keep file references one level deep from `SKILL.md`.
    Avoid deeply nested reference chains." (https://agentskills.io/specification, File
    references). Claude's skill authoring best practices say why: "Claude may partially read
    files when they're referenced from other referenced files. When encountering nested
    references, Claude might use commands like `head -100` to preview content rather than
    reading entire files, resulting in incomplete information." and "Keep references one
    level deep from SKILL.md. All reference files should link directly from SKILL.md to
    ensure Claude reads complete files when needed."
    (https://platform.claude.com/docs/en/agents-and-tools/agent-skills/best-practices)

    ## Example
    `SKILL.md` says "See [advanced.md](references/advanced.md)", and `advanced.md` says
    "See [details.md](details.md)": the agent reaches `details.md` only through
    `advanced.md`, and may only preview it.

    Use instead: cite `references/details.md` from `SKILL.md` too, saying when to read it.

    A linked document of at most 100 lines is not flagged: the preview the best practices
    describe (`head -100`) reads it whole.
    """
    doc = skill.doc
    if doc is None:
        return
    linked, cited, folders = directly_cited(skill)
    fences: dict[str, set[int]] = {}
    chains: dict[str, tuple] = {}  # intermediate -> (its file, first citation, the documents it leads to)
    names = patterns = None
    for f, c in skill.linked_citations:
        if f is doc.file or f.rel not in linked or f.rel.rsplit("/", 1)[-1] == "SKILL.md" or not is_pointer(c):
            continue  # (a nested SKILL.md is a skill of its own, not a reference)
        rel = skill_path(c.target).rel
        target = skill.resolve_case(rel) if rel else None
        if (target is None or target in cited or target == f.rel or target == "SKILL.md"
                or not target.endswith(MARKDOWN) or target.startswith(tuple(folders))):
            continue
        if target in skill.files and len(skill.files[target].lines) <= PREVIEW_LINES:
            continue  # `head -100` shows it whole: the preview is the document
        if names is None:
            names, patterns = names_in(doc.file.text), placeholder_paths(skill)
            # a bare name SKILL.md also gives the path of names that file, not another of the same name
            names = names - {rel.rsplit("/", 1)[-1] for rel in linked}
        if (target.rsplit("/", 1)[-1] in names or any(p.fullmatch(target) for p in patterns)
                or any("/" in g and "*" in g and names_by_pattern(g, target) for g in names)):
            continue  # SKILL.md names it (`streaming.md` in a list of the files of `{lang}/`, `wiki/guides/*.md`)
        if f.rel not in fences:
            fences[f.rel] = citations.fenced_lines(f.lines)
        if c.line in fences[f.rel]:
            continue  # code, not a reference to read
        leads_to = chains.setdefault(f.rel, (f, c, []))[2]
        if target not in leads_to:
            leads_to.append(target)
    for rel, (f, c, targets) in chains.items():
        more = f" and {len(targets) - 1} more" if len(targets) > 1 else ""
        yield Hit(f.path, f"{rel} links {targets[0]}{more}, which SKILL.md does not cite: the agent reaches "
                          f"{'them' if more else 'it'} two levels deep and may only preview {'them' if more else 'it'}; "
                          "cite from SKILL.md what it should read whole", c.line, c.column)
