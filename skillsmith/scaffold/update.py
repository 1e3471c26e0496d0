"""``update``: bring a skill up to a newer template version with Copier's 3-way merge."""

from __future__ import annotations

import contextlib
import typing
import warnings
from dataclasses import dataclass, field
from pathlib import Path

from skillsmith import targets
from skillsmith.errors import (
    InvalidInputError,
    MissingDependencyError,
    NotFoundError,
    UsageError,
)
from skillsmith.scaffold.add import read_answers
from skillsmith.scaffold.answers import ANSWERS_FILE, Answers, validate
from skillsmith.scaffold.render import copier_errors, copier_settings

# -- update ------------------------------------------------------------------------------


@dataclass
class Updated:
    """What an update changed, relative to the skill folder *root*.

    *added* are the changed files that are new (untracked until committed), *answers* the
    answers it was given (``--data``), typed and validated.
    """

    root: Path
    old_version: str | None
    new_version: str
    changed: list[str]
    conflicts: list[str]
    diff: str = ""
    added: list[str] = field(default_factory=list)
    answers: dict = field(default_factory=dict)

    def to_json(self) -> list[dict]:
        return [
            {"path": rel, "status": "conflict" if rel in self.conflicts else "updated"} for rel in self.changed
        ]


def git_status(root: Path) -> list[str]:
    """``git status --porcelain`` lines for the paths below *root*."""
    from skillsmith.scaffold.history import git

    out = git(root).out("status", "--porcelain", "--untracked-files=all", "--", ".")
    return [line for line in out.splitlines() if line.strip()]


@contextlib.contextmanager
def copier_git_env():
    """Copier runs git in the user's repository too: give those calls :func:`~skillsmith.discovery.git.safe_env`.

    Copier runs commands through plumbum, whose environment is a copy of ``os.environ`` taken
    when plumbum is imported; its ``local.env`` context is where a change reaches Copier's git.
    """
    from plumbum import local

    from skillsmith.discovery.git import safe_env

    with local.env():
        local.env.clear()
        local.env.update(safe_env())
        yield


def template_questions(template: str) -> list[str]:
    """The questions of template *template* that an update may answer anew.

    Those its ``copier.yml`` asks (not ``when: false``), except ``name``: a skill's name is its
    folder's name.
    """
    import yaml

    from skillsmith.scaffold.history import templates_root

    spec = yaml.safe_load((templates_root() / template / "copier.yml").read_text(encoding="utf-8")) or {}
    return [key for key, question in spec.items()
            if not key.startswith("_") and key != "name"
            and not (isinstance(question, dict) and question.get("when") is False)]


def typed_answer(key: str, text: str, kind: object) -> object:
    """*text* (what ``--data KEY=TEXT`` gave) as an answer of the type :class:`Answers` gives *key*."""
    import yaml

    if kind is bool:
        value = yaml.safe_load(text) if text.strip() else None
        if not isinstance(value, bool):
            raise UsageError(f"--data {key}={text}: {key} is true or false")
        return value
    if kind == list[str]:
        try:
            value = yaml.safe_load(text)
        except yaml.YAMLError:
            value = text
        if isinstance(value, str) or value is None:
            value = [part for part in (value or "").replace(",", " ").split() if part]
        if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
            raise UsageError(f"--data {key}={text}: {key} is a list of names, like [main.py, fetch.sh] or main.py,fetch.sh")
        return value
    return text


def new_answers(template: str, recorded: dict, given: dict[str, str]) -> dict:
    """*given* (``--data`` key -> text) as typed answers, validated as ``new`` validates its answers.

    The answers the skill recorded fill in the rest; the whole set must pass
    :func:`~skillsmith.scaffold.answers.validate` for a target whose template is *template*.
    Raises :class:`UsageError` for a question the template does not ask, or an invalid answer.
    """
    if not given:
        return {}
    asked = template_questions(template)
    kinds = typing.get_type_hints(Answers)
    typed = {}
    for key, text in given.items():
        if key == "name":
            raise UsageError("--data name: a skill's name is its folder's name and cannot change in an update")
        if key not in asked:
            raise UsageError(f"--data {key}: the {template} template asks no such question (it asks: {', '.join(asked)})")
        typed[key] = typed_answer(key, text, kinds.get(key, str))
    merged = {key: value for key, value in recorded.items() if not key.startswith("_")}
    merged.update(typed)
    made_by = [t.name for t in targets.TARGETS if t.new is not None and t.new.template == template]
    target = merged.get("target", made_by[0] if made_by else targets.DEFAULT)
    if target not in made_by:
        raise UsageError(f"--data target={target}: a skill from the {template} template is for {' or '.join(made_by)}")
    answers = Answers(**{key: merged[key] for key in kinds if key in merged and key != "target"}, target=target)
    validate(answers)
    if "license" in typed:
        typed["license"] = answers.license
    return typed


def update(skill_dir: str | Path = ".", *, pretend: bool = False, data: dict[str, str] | None = None) -> Updated:
    """Bring a generated skill up to the current version of its template with Copier's 3-way merge.

    The skill must be in a clean git work tree. All or nothing: the update runs in a temporary
    clone of the repository, and only when Copier succeeded there is its change applied to the
    skill (one ``git apply``, which writes nothing unless all of it applies), so a failure
    leaves the skill and its answers file as they were. Changes are left uncommitted for
    review; conflicts are marked inline (the files hold the markers; git's index is untouched).
    With *pretend*, nothing is applied and only the diff is returned. *data* answers questions
    anew (key -> text, as ``--data key=value`` gives them), validated as ``new`` validates;
    with new answers an update runs even when the template version is current.
    """
    import tempfile

    from skillsmith.scaffold import history

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
    given = new_answers(names[template], answers, data or {})
    top = history.git(root).top()
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
    if old == tag and not given:
        return Updated(root=root, old_version=old, new_version=tag, changed=[], conflicts=[])
    with tempfile.TemporaryDirectory(prefix="skillsmith-update-") as tmp:
        copy = Path(tmp) / "repo"
        history.git(Path(tmp)).run("clone", "--quiet", "--shared", str(top), str(copy))
        sub = copy / root.relative_to(top.resolve())
        result = run_copier_update(sub, tag, old, given)
        in_copy = history.git(sub)
        result.diff = in_copy.out("diff", "--no-color", "--no-ext-diff", "--no-textconv", "--", ".")
        result.root = root
        if not pretend:
            in_copy.run("add", "--all", "--", ".")
            patch = in_copy.run("diff", "--cached", "--binary", "--full-index", "--no-color", "--no-ext-diff",
                                "--no-textconv", "--", ".").stdout
            if patch:
                history.git(top).run("apply", "--whitespace=nowarn", "-", input=patch)
        return result


def run_copier_update(root: Path, tag: str, old: str, given: dict) -> Updated:
    from copier import run_update

    from skillsmith.scaffold import history

    with copier_errors(root), warnings.catch_warnings(), copier_git_env():
        warnings.simplefilter("ignore")
        with history.in_clones_dir():
            run_update(
                root, answers_file=ANSWERS_FILE, vcs_ref=tag, settings=copier_settings(), defaults=True,
                overwrite=True, conflict="inline", quiet=True, unsafe=False, skip_answered=True, data=given,
            )
    prefix = history.git(root).out("rev-parse", "--show-prefix").strip()

    def relative(rel: str) -> str:
        return rel[len(prefix):] if rel.startswith(prefix) else rel

    status = git_status(root)
    changed = sorted(relative(line[3:]) for line in status)
    added = sorted(relative(line[3:]) for line in status if line.startswith("??"))
    conflicts = [rel for rel in changed if has_markers(root / rel)]
    return Updated(root=root, old_version=old, new_version=tag, changed=changed, conflicts=conflicts, added=added,
                   answers=given)


def has_markers(path: Path) -> bool:
    try:
        data = path.read_bytes()
    except OSError:
        return False
    return b"\n<<<<<<< " in b"\n" + data and b"\n>>>>>>> " in data
