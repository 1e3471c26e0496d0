"""The skill model: a ``Skill`` with its files, parsed ``SKILL.md`` and scripts.

Everything is read once and parsed lazily, at most once; rules read the model and never
re-read files.
"""

from __future__ import annotations

import ast
import posixpath
import re
from dataclasses import dataclass, field, replace
from functools import cached_property
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING

from skillsmith.lang import header, python, shell
from skillsmith.lang.interpreter import (
    SCRIPT_SUFFIXES,
    interpreter_language,
    is_other_language,
    shebang_interpreter,
)
from skillsmith.model import citations, frontmatter
from skillsmith.model.sourcefile import SourceFile

if TYPE_CHECKING:
    from skillsmith.config import ConfigProblem

LIBRARY_DIRS = {"lib", "_lib"}
#: folders of test modules: never entry scripts
TEST_DIRS = {"tests", "test"}
#: folders of files that are copied or rendered, not run: never entry scripts
TEMPLATE_DIRS = {"assets", "templates", "template"}
#: what a script is (:attr:`Script.role`); only "entry" scripts get the script contract
ROLES = ("entry", "library", "test", "template")
#: folders whose SKILL.md files are data (templates, examples, test cases), not skills
DATA_FOLDERS = frozenset({"assets", "templates", "template", "examples", "example", "tests", "test", "fixtures"})


def is_own_skill(rel: str) -> bool:
    """Whether the folder *rel* below a skill (``extras/helper``), which holds a ``SKILL.md``, is a skill of
    its own (checked as its own unit, its files not the outer skill's) rather than the outer skill's data:
    no folder on the way is a template, example or test folder (:data:`DATA_FOLDERS`)."""
    return DATA_FOLDERS.isdisjoint(rel.split("/"))


class BashSyntaxMixin:
    """What a unit knows across its scripts: ``bash -n`` over all shell scripts (one process
    when they are clean), and which modules its Python scripts import."""

    def release(self) -> None:
        """Drop the derived facts (scripts and their parse trees, the parsed ``SKILL.md``).

        Each ``Script`` points back at its unit, so a unit holding its scripts is a reference
        cycle that only a full garbage collection frees; once the rules are done with a unit,
        this breaks the cycle and its parse trees are freed at once. The files stay.
        """
        for name in ("scripts", "doc", "linked_citations", "linked_docs", "bash_errors"):
            self.__dict__.pop(name, None)

    @cached_property
    def bash_errors(self) -> dict:
        """rel -> (line, message) of a shell script's syntax error, or the ``bashcheck.NotChecked`` it could not check."""
        from skillsmith.lang import bashcheck

        return bashcheck.syntax_errors([s for s in self.scripts if s.language == "shell" and s.other_interpreter is None])

    @cached_property
    def python_imports(self) -> dict[str, set[tuple[str, ...]]]:
        """rel of each Python script -> the dotted module names it imports, as tuples of parts.

        ``from . import x`` and ``from .x import y`` count as ``("x",)``; ``from a.b import c``
        as both ``("a", "b")`` and ``("a", "b", "c")`` (``c`` may be a module).
        """
        found: dict[str, set[tuple[str, ...]]] = {}
        for script in self.scripts:
            facts = script.py_facts if script.language == "python" else None
            if facts is None:
                continue
            names: set[tuple[str, ...]] = set()
            for node in (*facts.by_type.get(ast.Import, ()), *facts.by_type.get(ast.ImportFrom, ())):
                if isinstance(node, ast.Import):
                    names.update(tuple(a.name.split(".")) for a in node.names)
                elif isinstance(node, ast.ImportFrom):
                    base = tuple(node.module.split(".")) if node.module else ()
                    if base:
                        names.add(base)
                    names.update(base + (a.name,) for a in node.names if a.name != "*")
            found[script.rel] = names
        return found


@dataclass
class SkillDoc:
    """A parsed SKILL.md."""

    file: SourceFile
    frontmatter: frontmatter.Frontmatter
    body_lines: list[str]
    body_start: int  # 1-based line of the first body line
    citations: list[citations.Citation]


#: what a ``Script`` knows from ``SKILL.md`` and the Markdown it cites alone (its path and language
#: besides), not from its own text: :meth:`Skill.revised` keeps them
TOLD_FACTS = ("invocations", "imported_by_skill_md")

#: files past the read limit whose names a unit keeps (the rest are counted)
MAX_UNREAD_LISTED = 50_000


@dataclass
class Unread:
    """What of a unit's folder was seen but not read, so no rule mistakes it for absent.

    *special*: FIFOs, sockets and devices (rel -> kind), never opened; *unlisted*: folders
    that could not be listed (rel -> why); *files*: regular files past the read limit (the
    first :data:`MAX_UNREAD_LISTED` of *count*). *config*: the configuration file inside the
    checked tree that could not be used (the unit was checked with the defaults).
    """

    special: dict[str, str] = field(default_factory=dict)
    unlisted: dict[str, str] = field(default_factory=dict)
    files: list[str] = field(default_factory=list)
    count: int = 0
    config: ConfigProblem | None = None

    def add_file(self, rel: str) -> None:
        self.count += 1
        if len(self.files) < MAX_UNREAD_LISTED:
            self.files.append(rel)

    def may_hold(self, rel: str) -> bool:
        """Whether *rel* may exist although the unit's files do not show it."""
        if rel in self.special or any(rel == d or rel.startswith(d + "/") for d in self.unlisted):
            return True
        return self.count > 0 and (rel in self.files or self.count > len(self.files))


@dataclass
class Skill(BashSyntaxMixin):
    root: Path
    files: dict[str, SourceFile]  # POSIX path relative to root -> file
    symlinks: dict[str, str] = field(default_factory=dict)  # rel -> link target as stored
    dirs: list[str] = field(default_factory=list)
    target: str = "agentskills"
    unread: Unread = field(default_factory=Unread)
    #: folders below that are skills of their own (:func:`is_own_skill`): units of their own, their files not listed here
    nested: list[str] = field(default_factory=list)
    #: the target was named (``--target``, the config's ``target``), not read from the skill's files
    target_named: bool = False

    @property
    def name(self) -> str:
        return self.root.name

    def with_files(self, files: dict[str, SourceFile]) -> "Skill":
        """The same skill holding *files* instead (parses and other derived facts start afresh)."""
        return Skill(self.root, files, self.symlinks, self.dirs, self.target, self.unread, self.nested, self.target_named)

    def revised(self, files: dict[str, SourceFile]) -> "Skill":
        """:meth:`with_files` for new versions of some of the same files, keeping what ``SKILL.md``
        says when neither it nor a Markdown file it cites is among them: its parse, its
        citations and, for each script still of the same language, the facts read from them
        (:data:`TOLD_FACTS`). A fix rewrites scripts; what SKILL.md shows of them is the same text."""
        new = self.with_files(files)
        if not self._docs_kept(files):
            return new
        for name in ("doc", "linked_docs", "linked_citations"):
            if name in self.__dict__:
                new.__dict__[name] = self.__dict__[name]
        told = {s.rel: s for s in self.__dict__.get("scripts", ())}
        for script in new.scripts:
            old = told.get(script.rel)
            if old is not None and old.language == script.language:
                script.__dict__.update((n, old.__dict__[n]) for n in TOLD_FACTS if n in old.__dict__)
        return new

    def _docs_kept(self, files: dict[str, SourceFile]) -> bool:
        """Whether *files* (the same paths) hold this skill's ``SKILL.md`` and every Markdown file it
        cites as the same objects: all that its parse and :attr:`linked_citations` read."""
        if files.keys() != self.files.keys() or files.get("SKILL.md") is not self.skill_md:
            return False
        doc = self.doc
        for c in doc.citations if doc is not None else ():
            rel = self.resolve_case(c.target)
            if rel and self.files[rel].suffix in (".md", ".markdown") and files[rel] is not self.files[rel]:
                return False
        return True

    @property
    def skill_md(self) -> SourceFile | None:
        return self.files.get("SKILL.md")

    @cached_property
    def doc(self) -> SkillDoc | None:
        """The parsed SKILL.md, or None when it is missing or not readable text."""
        md = self.skill_md
        if md is None or md.text is None:
            return None
        fm = frontmatter.parse(md.text)
        lines = md.lines
        start = fm.body_start if fm.error is None or fm.error.kind not in ("missing",) else 1
        if fm.error is not None and fm.error.kind == "missing":
            start = 1
        body = lines[start - 1:]
        return SkillDoc(md, fm, body, start, citations.extract(body, start, self.root.name))

    @cached_property
    def scripts(self) -> list["Script"]:
        found = []
        for rel, f in self.files.items():
            if rel.startswith("scripts/"):
                lang = script_language(f)
                if lang:
                    found.append(Script(f, lang, self, self))
        return found

    @cached_property
    def linked_citations(self) -> list[tuple[SourceFile, citations.Citation]]:
        """Citations in SKILL.md and in the Markdown files it cites (one level deep).

        Progressive disclosure: SKILL.md may point to ``forms.md``, which shows how to run a
        script; the script is then reachable from SKILL.md.
        """
        doc = self.doc
        if doc is None:
            return []
        found = [(doc.file, c) for c in doc.citations]
        for f in self.linked_docs:
            base = str(PurePosixPath(f.rel).parent)
            for inner in citations.extract(f.lines, 1, self.root.name):
                target = inner.target
                if base not in (".", "") and not target.startswith(("scripts/", "references/", "assets/")):
                    target = posixpath.normpath(posixpath.join(base, target))  # ../scripts/x.py from references/
                    if target.startswith("../"):
                        continue  # out of the skill
                found.append((f, replace(inner, target=target)))
        return found

    @cached_property
    def linked_docs(self) -> list[SourceFile]:
        """The Markdown files SKILL.md cites (one level deep), in the order it cites them."""
        doc = self.doc
        found: dict[str, SourceFile] = {}
        for c in doc.citations if doc is not None else ():
            rel = self.resolve_case(c.target) or self._own_from_above(c.target)
            f = self.files.get(rel) if rel else None
            if f is not None and rel != "SKILL.md" and rel not in found and f.suffix in (".md", ".markdown") and f.text is not None:
                found[rel] = f
        return list(found.values())

    def _own_from_above(self, target: str) -> str | None:
        """The skill's own file that *target* names from a folder above the skill, through the skill's
        folder name (``skills/brainstorming/visual-companion.md`` in brainstorming's SKILL.md), or None."""
        lead = self.root.name + "/"
        at = target.rfind(lead)
        if at < 0 or at and target[at - 1] != "/" or target.startswith(("/", "../", "~")):
            return None
        rel = target[at + len(lead):]
        return rel if rel in self.files else None

    def resolve_case(self, rel: str) -> str | None:
        """*rel* itself when it exists, else the one file whose path matches it ignoring case."""
        if rel in self.files:
            return rel
        lowered = rel.lower()
        matches = [r for r in self.files if r.lower() == lowered]
        return matches[0] if len(matches) == 1 else None

    def invocations_of(self, rel: str) -> list[str]:
        """The worked invocations of script *rel* in SKILL.md and the Markdown it links, in order."""
        return _commands_of(rel, self.linked_citations)

    def prompt_invocations_of(self, rel: str) -> list[str]:
        """The worked invocations of script *rel* in the skill's prompt and plain-text files
        (``prompts/tasks/reflow.prompt``: ``python3 {skill_dir}/scripts/reflow_sentences.py <file>``),
        which subagents are given to read as the Markdown is."""
        name = PurePosixPath(rel).name
        files = [f for f in self.files.values() if f.suffix in PROMPT_SUFFIXES and not f.rel.startswith("scripts/")
                 and not f.too_large and f.text is not None and name in f.text]
        return _commands_of(rel, [(f, c) for f in files for c in citations.extract(f.lines, 1, self.root.name)])

    def calls_through(self, rel: str) -> list[str]:
        """The worked invocations of another script of the skill that run script *rel* for it: a runner
        given the script's name as its first argument (``python3 scripts/run.py pagespeed_check <url>``)."""
        path = PurePosixPath(rel)
        names = {rel, path.name, path.stem, str(path.relative_to("scripts")) if rel.startswith("scripts/") else rel}
        found: list[str] = []
        for other in self.scripts:
            if other.rel == rel:
                continue
            for command in self.invocations_of(other.rel):
                words = command.split()
                at = next((i for i, w in enumerate(words) if w.strip("\"'").endswith(other.rel)), None)
                if at is not None and at + 1 < len(words) and words[at + 1].strip("\"'") in names:
                    found.append(command)
        return found

    def file(self, rel: str) -> SourceFile | None:
        return self.files.get(rel)

    def exists(self, rel: str) -> bool:
        """Whether *rel* is in the skill, or may be (in a folder that could not be listed, past the limit),
        or is in a skill nested in it (which is checked as a unit of its own)."""
        rel = rel.rstrip("/")
        return (
            rel in self.files
            or rel in self.symlinks
            or rel in self.dirs
            or rel == ""
            or self.unread.may_hold(rel)
            or any(rel.startswith(n + "/") for n in self.nested)
        )

    def cited(self, rel: str) -> bool:
        """Whether SKILL.md cites *rel* itself or a folder that holds it; also through the skill's own
        folder name (``tushare/references/x.md`` in tushare's SKILL.md: a path from the folder above,
        which RES002 reports as broken; the file is cited all the same)."""
        doc = self.doc
        if doc is None:
            return False
        owner = Path(self.root).name + "/"
        for _f, c in self.linked_citations:
            t = c.target.rstrip("/")
            if t.startswith(owner) and not self.exists(t.split("/", 1)[0]):
                t = t[len(owner):]
            if t == rel or (t and rel.startswith(t + "/")) or t.lower() == rel.lower():
                return True
        return False


@dataclass
class Loose(BashSyntaxMixin):
    """Scripts given without their skill (a ``scripts/`` folder or single files)."""

    root: Path
    files: dict[str, SourceFile]
    target: str = "agentskills"
    unread: Unread = field(default_factory=Unread)

    def with_files(self, files: dict[str, SourceFile]) -> "Loose":
        """The same scripts holding *files* instead (parses start afresh)."""
        return Loose(self.root, files, self.target, self.unread)

    def revised(self, files: dict[str, SourceFile]) -> "Loose":
        """:meth:`with_files`: loose scripts have no ``SKILL.md`` whose facts could be kept."""
        return self.with_files(files)

    @cached_property
    def scripts(self) -> list["Script"]:
        found = []
        for f in self.files.values():
            lang = script_language(f)
            if lang:
                found.append(Script(f, lang, None, self))
        return found


#: text files a skill gives its agents to read besides Markdown: prompts for subagents, plain-text notes
PROMPT_SUFFIXES = (".prompt", ".txt")


def _commands_of(rel: str, cited) -> list[str]:
    """The worked invocations of script *rel* among the (file, citation) pairs *cited*, in order, once each."""
    found: list[str] = []
    fences: dict[str, set[int]] = {}
    for f, c in cited:
        if c.target != rel or f.text is None:
            continue
        if f.rel not in fences:
            fences[f.rel] = citations.fenced_lines(f.lines)
        command = citations.invocation(f.lines, c, c.line in fences[f.rel])
        if command and command not in found:
            found.append(command)
    return found


#: a comment that marks a ``__main__`` block as a module's self-test or demo, not its command line
_DEMO_COMMENT = re.compile(r"\s*#\s*(?:(?:(?:quick|simple|basic|self|smoke|example|sample)[- ]?)?(?:tests?|testing|examples?|demo|demonstration)\b"
                           r"(?:\s+[\w-]+){0,3}|(?:\u6d4b\u8bd5|\u793a\u4f8b|\u6f14\u793a)\w{0,6})\s*[:\uff1a]?\s*$", re.IGNORECASE)  # 测试 示例 演示


def _is_main_if(node: ast.stmt) -> bool:
    """Whether *node* is the module's ``if __name__ == "__main__":`` block."""
    return isinstance(node, ast.If) and python.is_main_guard(node.test)


#: a symbolic link stored as a file (a checkout with ``core.symlinks`` off): its whole text is the relative
#: path it points to, with no newline (``../../../scripts/test-hook.sh``)
_LINK_STUB = re.compile(rb"(?:\.\.?/)+[\w@+.,/-]{1,240}")


def is_link_stub(f: SourceFile) -> bool:
    """Whether *f* is a symbolic link checked out as a file holding its target's path: no script."""
    return f.size <= 256 and f.data is not None and _LINK_STUB.fullmatch(f.data) is not None  # the pattern bounds the length


def script_language(f: SourceFile) -> str | None:
    """``python`` or ``shell`` for files the script contract covers (not a link stored as a file), else None."""
    lang = SCRIPT_SUFFIXES.get(f.suffix)
    if lang:
        return None if is_link_stub(f) else lang
    if f.suffix == "" and f.data is not None:
        return interpreter_language(shebang_interpreter(f.shebang))
    return None


@dataclass
class Script:
    file: SourceFile
    language: str  # "python" | "shell"
    skill: Skill | None
    unit: "Skill | Loose | None" = None  # what the script was found in (the skill, or loose scripts)

    @property
    def path(self) -> Path:
        return self.file.path

    @property
    def rel(self) -> str:
        return self.file.rel

    # -- parses ------------------------------------------------------------------------------

    @property
    def py(self) -> tuple[ast.Module | None, python.SyntaxProblem | None]:
        return self.file.python_parse

    @cached_property
    def py_facts(self) -> python.PythonFacts | None:
        module = self.py[0]
        return python.facts(module) if module is not None else None

    @cached_property
    def other_interpreter(self) -> str | None:
        """The interpreter of another language a shell-named file's shebang runs it with
        (``python3`` for a ``find_sessions.sh`` that starts ``#!/usr/bin/env python3``), else None.

        Such a file is no shell script: the shell rules leave it to CON002 (the mismatch).
        """
        if self.language != "shell":
            return None
        interp = shebang_interpreter(self.file.shebang)
        if interp is not None and (interpreter_language(interp) == "python" or is_other_language(interp)):
            return interp
        return None

    @cached_property
    def sh_tree(self):
        if self.file.data is None or self.file.text is None or self.other_interpreter is not None:
            return None
        return shell.parse(self.file.data)

    @cached_property
    def sh_nodes(self) -> list:
        """Every node of the shell parse tree, walked once and shared by the rules."""
        tree = self.sh_tree
        return list(shell.walk(tree.root_node)) if tree is not None else []

    # -- facts -------------------------------------------------------------------------------

    @cached_property
    def role(self) -> str:
        """What the script is, one of :data:`ROLES`; check and fix treat only "entry" as a script to run.

        Not entry scripts, whatever their mode: files under ``lib/``, test modules (``tests/``,
        ``test_*.py``, ``*_test.py``, ``x.test.sh``, ``test_x.sh``), files under ``assets/`` or ``templates/`` or named as
        templates (``x.tmpl``, ``hitl-loop.template.sh``), Python modules
        a sibling script, the code of SKILL.md or of the Markdown it links, or the module's own
        docstring imports (unless SKILL.md shows them run, or a ``__main__`` guard that reads
        arguments in a file with a shebang makes them a command too; not one a comment marks as the
        module's demo, ``# Example usage``), modules whose ``__main__`` is marked as their self-test
        (``# Test validation``) and reads no arguments, unless SKILL.md shows them run, shell files a sibling
        sources, and files with no entry point (only definitions).
        """
        parts = PurePosixPath(self.rel).parts
        folders = {p.lower() for p in parts[:-1]}
        name = parts[-1]
        if folders & LIBRARY_DIRS:
            return "library"
        if folders & TEMPLATE_DIRS or name.endswith((".tmpl", ".template", ".jinja", ".j2")) \
                or ".template." in name or ".tmpl." in name:  # hitl-loop.template.sh: copied, edited, then run
            return "template"
        if self.language == "python":
            return self._python_role(folders, name)
        if folders & TEST_DIRS or name.endswith((".test.sh", "_test.sh", ".bats")) \
                or name.startswith("test_") and name.endswith(".sh"):
            return "test"  # tests/, cs-liste.test.sh, test_x.sh: a test of the skill's scripts
        tree = self.sh_tree
        if tree is None:
            return "entry"
        if self.sourced_by_sibling and not self.invoked or self.sourced_as_told:
            return "library"
        if shell.top_level_is_library(tree.root_node, self.file.data):
            return "library"
        if not self.invoked and shell.returns_outside_functions(tree.root_node, self.file.data, self.sh_nodes):
            return "library"  # `|| return 1` at top level: made to be sourced
        return "entry"

    def _python_role(self, folders: set[str], name: str) -> str:
        if name == "__init__.py":
            return "library"
        module = self.py[0]
        if folders & TEST_DIRS or name == "conftest.py":
            return "test"
        if module is None:
            return "entry"
        facts = self.py_facts
        if name.startswith("test_") or name.endswith("_test.py"):
            tests = any(alias.split(".")[0] in ("pytest", "unittest") for alias in facts.aliases.values()) or any(
                isinstance(n, (ast.FunctionDef, ast.ClassDef)) and n.name.lower().startswith("test") for n in module.body)
            unnamed = name.startswith("test_") and not (self.skill is not None and self.skill.cited(self.rel))
            if (tests or self._tests_a_sibling(name) or unnamed) and not self.invoked:
                return "test"  # (a test_x.py the skill never names is one too: test_contract.py's fixture checks)
        # a __main__ that reads arguments, with a shebang, makes an imported module a command too; one
        # that reads none is its self-test or demo ("# Quick test", "CLI entry point for testing"), and
        # without a shebang the module is the import the skill shows (challenging's challenger.py)
        reads_arguments = facts.reads_argv or facts.uses_argparse
        command = facts.has_main_guard and reads_arguments
        if self.imported_by_sibling and not self.invoked and not (command and self.file.shebang is not None):
            return "library"
        # for a module the skill's Markdown imports, a __main__ marked as its demo ("# Example usage") is
        # no command either, even where it reads arguments (job-analyzer's cv_matcher.py)
        demo = facts.has_main_guard and self._main_is_demo(module)
        if (self.imported_by_skill_md or self.says_it_is_imported) and not (self.invoked or self.run_through_variable) \
                and not (command and not demo and self.file.shebang is not None):
            return "library"
        if demo and not reads_arguments and not self.invoked:
            return "library"  # a __main__ self-test ("# Test validation") that takes nothing, and no one is told to run
        entry_point = facts.has_main_guard or not python.only_definitions(module)
        if not entry_point:
            return "library"
        if self.file.shebang is None and not facts.has_main_guard and self.file.path.with_name("__init__.py").is_file():
            return "library"  # a module of a package, imported rather than run
        if not self.invoked and any(isinstance(n, ast.ImportFrom) and n.level for n in module.body):
            return "library"  # `from . import _engine`: run as a file it fails; `python -m pkg.cli` runs it
        return "entry"

    def _main_is_demo(self, module: ast.Module) -> bool:
        """Whether the module's ``__main__`` block is marked as its self-test or demo: a comment right above
        it, or its first line, says so (``# Example usage``, ``# Test validation``, ``# Quick test``, ``# Demo``,
        ``# 测试代码``) or it only calls test functions (``test_scenario_1()``), and its docstring does not
        show it run by its file name."""
        lines = self.file.lines
        guard = next((n for n in module.body if _is_main_if(n)), None)
        if guard is None or not guard.body or PurePosixPath(self.rel).name in (ast.get_docstring(module) or ""):
            return False  # "Usage: python notebook_management.py": its docstring shows it run
        if all(isinstance(n, ast.Expr) and isinstance(n.value, ast.Call) and isinstance(n.value.func, ast.Name)
               and n.value.func.id.startswith("test") for n in guard.body):
            return True  # `test_scenario_1()` and nothing else: the module's self-test
        at = guard.lineno - 1  # the guard's line, 0-based
        above = next((lines[i] for i in range(at - 1, max(-1, at - 3), -1) if i < len(lines) and lines[i].strip()), "")
        opening = lines[at + 1] if at + 1 < len(lines) else ""  # a comment before its first statement
        return any(_DEMO_COMMENT.match(ln) for ln in (above, opening) if ln)

    def _tests_a_sibling(self, name: str) -> bool:
        """Whether ``test_streaming_mock.py`` tests a script beside it whose name its own name holds
        (``streaming.py``) and whose module its code names (``import streaming as s``)."""
        unit = self.unit or self.skill
        tested = name.removeprefix("test_").removesuffix(".py").removesuffix("_test")
        text = self.file.text or ""
        return unit is not None and any(
            other is not self and other.language == "python" and len(stem := PurePosixPath(other.rel).stem) >= 3
            and stem in tested and re.search(rf"\b{re.escape(stem)}\b", text) is not None
            for other in unit.scripts)

    @property
    def is_library(self) -> bool:
        """Not an entry script (:attr:`role`): only the rules that fit a library, a test or a template run."""
        return self.role != "entry"

    @property
    def invoked(self) -> bool:
        """Whether SKILL.md (or the Markdown it links) shows the script run."""
        return bool(self.invocations)

    @cached_property
    def imported_by_sibling(self) -> bool:
        """Whether another Python script of the unit imports this module (by its name and folders)."""
        unit = self.unit or self.skill
        if unit is None or self.language != "python":
            return False
        parts = PurePosixPath(self.rel).with_suffix("").parts
        for rel, names in unit.python_imports.items():
            if rel == self.rel:
                continue
            for name in names:
                if len(name) <= len(parts) and parts[len(parts) - len(name):] == name:
                    return True
        return False

    @cached_property
    def run_through_variable(self) -> bool:
        """Whether SKILL.md puts the script's path in a shell variable (``SCRIPT="$SKILL_DIR/scripts/x.py"``)
        and shows that variable run with an argument (``python3 "$SCRIPT" --all``)."""
        text = self.skill.doc.file.text if self.skill is not None and self.skill.doc is not None else None
        if not text or "=" not in text:
            return False
        assign = re.compile(r"(?<![\w$])([A-Za-z_]\w{0,60})=[\"']?[^\s\"'=]{0,200}" + re.escape(self.rel) + r"[\"']?(?![\w/.-])")
        for m in assign.finditer(text):
            name = re.escape(m.group(1))
            if re.search(rf"\$(?:{name}\b|\{{{name}\}})\"?[ \t]+[^\s|;&#`>)]", text):
                return True
        return False

    @cached_property
    def imported_by_skill_md(self) -> bool:
        """Whether the code of SKILL.md, or of the Markdown it links, imports this module (``from
        opening_prs import open_pr``, by its name or its dotted path: ``from scripts.opening_prs import ...``)."""
        if self.skill is None or self.skill.doc is None or self.language != "python":
            return False
        return any(self._imported_in(f.text or "") for f in (self.skill.doc.file, *self.skill.linked_docs))

    @cached_property
    def says_it_is_imported(self) -> bool:
        """Whether the module's docstring shows it imported (``Usage: from storage_utils import resolve``)."""
        module = self.py[0] if self.language == "python" else None
        docstring = ast.get_docstring(module, clean=False) if module is not None else None
        return bool(docstring) and self._imported_in(docstring)

    def _imported_in(self, text: str) -> bool:
        parts = PurePosixPath(self.rel).with_suffix("").parts
        if not text or parts[-1] not in text:
            return False
        names = {".".join(parts[i:]) for i in range(len(parts))}
        return any(re.search(rf"^\s*(?:from\s+{re.escape(n)}\s+import|import\s+{re.escape(n)})\b", text, re.M) for n in names)

    @cached_property
    def sourced_by_sibling(self) -> bool:
        return bool(self.sourced_by)

    @cached_property
    def sourced_as_told(self) -> bool:
        """Whether the script says it is sourced, not run: its header's usage (``# Usage: source
        /path/to/x.sh``) or SKILL.md (``source "<SKILL_DIR>/scripts/x.sh"``) sources it into the caller's shell."""
        name = re.escape(PurePosixPath(self.rel).name)
        told = re.compile(rf"(?:^|[\s`;&|(])(?:source|\.)\s+[\"']?(?:[^\s\"'`]*/)?{name}(?![\w.-])", re.MULTILINE)
        head = "\n".join(ln for ln in self.file.lines[:25] if ln.lstrip().startswith("#"))
        doc = self.skill.doc if self.skill is not None else None
        return bool(told.search(head) or doc is not None and told.search(doc.file.text or ""))

    @cached_property
    def sourced_by(self) -> tuple[str, ...]:
        """The unit's shell scripts that source this one (``source "$DIR/lib.sh"``), by path."""
        unit = self.unit or self.skill
        if unit is None:
            return ()
        name = PurePosixPath(self.rel).name
        found = []
        for other in unit.scripts:
            if other is self or other.language != "shell" or other.sh_tree is None:
                continue
            for p in shell.sourced_paths(other.sh_tree.root_node, other.file.data, other.sh_nodes):
                if p.rstrip("\"'").endswith("/" + name) or p == name:
                    found.append(other.rel)
                    break
        return tuple(found)

    @cached_property
    def header(self) -> header.Header | None:
        if self.language == "python":
            module = self.py[0]
            if module is not None:
                doc, line = python.module_docstring(module)
                return header.python_header(doc, line)
            return None
        return header.shell_header(self.file.lines)

    @cached_property
    def invocations(self) -> tuple[str, ...]:
        """How SKILL.md (and the Markdown it links) runs this script: ``bash scripts/x.sh --json a.log``."""
        return tuple(self.skill.invocations_of(self.rel)) if self.skill is not None else ()

    @cached_property
    def py_evidence(self):
        """What the script and its skill say about it (``skillsmith.lang.python_evidence.ScriptFacts``), or None."""
        from skillsmith.lang.python_evidence import script_facts

        module = self.py[0] if self.language == "python" else None
        if module is None or self.file.text is None:
            return None
        return script_facts(self.file.text, str(self.file.path), module, self.invocations)

    @cached_property
    def sh_layout(self):
        """Where shell fixes may edit (``skillsmith.lang.shell_layout.Layout``), or None."""
        from skillsmith.lang.shell_layout import Layout

        return Layout(self.file.data, self.sh_tree) if self.language == "shell" and self.sh_tree is not None else None

    @cached_property
    def sh_evidence(self):
        """What the script and its skill say about it (``skillsmith.lang.shell_evidence.ShellEvidence``), or None."""
        from skillsmith.lang.shell_evidence import ShellEvidence

        layout = self.sh_layout
        return ShellEvidence(layout, self.file.path.name, self.invocations) if layout is not None else None

    @cached_property
    def exit_codes(self) -> list[tuple[int, int, int]]:
        """(code, line, column) of each exit whose code is known statically."""
        if self.language == "python":
            facts = self.py_facts
            return facts.exit_codes if facts else []
        tree = self.sh_tree
        return shell.exit_codes(tree.root_node, self.file.data, self.sh_nodes) if tree is not None else []
