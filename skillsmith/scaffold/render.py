"""``new``: render a template with Copier (explicit answers file and settings; Copier imported only here)."""

from __future__ import annotations

import subprocess
import warnings
from pathlib import Path

from skillsmith import targets
from skillsmith.errors import (
    InvalidInputError,
    SkillsmithError,
    UsageError,
)
from skillsmith.model.sourcefile import EncodeError, SourceFile
from skillsmith.scaffold.answers import (
    ANSWERS_FILE,
    DEFAULT_KIND,
    DEFAULT_SCRIPTS,
    Answers,
    Created,
    validate,
)


def copier_settings():
    """Explicit Copier settings: the user's Copier configuration does not apply.

    They trust skillsmith's own templates, by the sources ``new``, ``add script`` and ``update``
    give Copier, and nothing else: the templates load a Jinja extension
    (:mod:`skillsmith.scaffold.template_globals`), which Copier runs only for trusted templates.
    """
    try:
        from copier import Settings
    except ImportError:  # older Copier releases keep it in copier.settings
        from copier.settings import Settings

    from skillsmith.scaffold import history

    folders = {str(config.parent) for config in history.templates_root().glob("*/copier.yml")}
    clones = {history.source_name(name) for name in history.HISTORY_TEMPLATES}
    return Settings(trust=folders | clones)


def template_available(template: str) -> bool:
    """Whether the installed templates include *template* (``templates/<template>/copier.yml``)."""
    from skillsmith.scaffold.history import templates_root

    folder = templates_root() / template
    return (folder / "copier.yml").is_file() or (folder / "copier.yaml").is_file()


def render(template: str, dest: Path, data: dict, *, overwrite: bool = False) -> str | None:
    """Render template *template* into *dest*; return the template version (None without history).

    The packaged folder is rendered directly (no git needed). For a template with history, the
    answers file then gets the ``_src_path`` and ``_commit`` that ``update`` needs.
    """
    from copier import run_copy

    from skillsmith.scaffold import history

    dest = dest.resolve()
    source = history.templates_root() / template
    with copier_errors(dest), warnings.catch_warnings():
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

    file = read_source(answers_file)
    data = yaml.safe_load(file.edit_text)
    if not isinstance(data, dict):
        raise InvalidInputError(f"{answers_file}: the rendered answers are not a mapping")
    head = [line for line in file.edit_text.splitlines() if line.startswith("#")]
    answers = dict(data, _commit=tag, _src_path=source)
    # as the templates' own `to_nice_yaml` writes it, so an update does not re-indent the file
    body = yaml.safe_dump(answers, indent=4, allow_unicode=True, default_flow_style=False)
    write_text(file, "\n".join(head) + "\n" + body)


class copier_errors:
    """Turn Copier's and git's errors into :class:`SkillsmithError` with a clear message.

    *dest* is the folder being written: a write error that names no file (a full disk) names it.
    """

    def __init__(self, dest: Path | None = None) -> None:
        self.dest = dest

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
        if isinstance(error, OSError):
            raise write_error(error.filename or self.dest or "", error) from None
        return False


def write_error(path: str | Path, error: OSError) -> InvalidInputError:
    """The error (exit 4, with the path) for a file or folder that could not be written."""
    why = error.strerror or str(error)
    return InvalidInputError(f"cannot write {path}: {why}", {"path": str(path), "reason": why})


def dest_problem(parent: Path) -> str | None:
    """Why the folder *parent* cannot hold a new skill, or None: it, or a folder above it, is a file."""
    for folder in (parent, *parent.parents):
        if folder.is_dir():
            return None
        if folder.exists() or folder.is_symlink():
            if folder == parent:
                return f"--dest {parent} is not a folder"
            return f"--dest {parent}: {folder} is a file, not a folder"
    return None


def make_folder(root: Path) -> list[Path]:
    """Create *root* and the missing folders above it; return those created, shallowest first."""
    made: list[Path] = []
    for folder in reversed([root, *root.parents]):
        if folder.is_dir():
            continue
        try:
            folder.mkdir()
        except FileExistsError:
            continue
        except OSError as exc:
            remove_folders(made)
            raise write_error(folder, exc) from None
        made.append(folder)
    return made


def remove_folders(made: list[Path]) -> None:
    """Undo :func:`make_folder` after a failed render: the folders it made and what is in them."""
    import shutil

    if made:
        shutil.rmtree(made[0], ignore_errors=True)


def files_below(root: Path) -> list[str]:
    """The files of a rendered skill, as :func:`~skillsmith.discovery.walk.walk_files` sees them."""
    from skillsmith.discovery.walk import walk_files

    return sorted(rel for rel, _path, _st in walk_files(root))


def new(
    name: str,
    dest: str | Path = ".",
    *,
    target: str = targets.DEFAULT,
    description: str | None = None,
    scripts: list[str] | None = None,
    license: str = "",
    author: str = "",
    examples: bool = True,
    json: bool = True,
    verifier: bool = False,
    kind: str = DEFAULT_KIND,
    force: bool = False,
) -> Created:
    """Create the skill folder ``dest/name`` from the templates and return what was written.

    Raises :class:`UsageError` for invalid answers, a *dest* that cannot be a folder or a
    non-empty folder without *force*, and :class:`InvalidInputError` (exit 4, naming the path)
    for a folder or file that cannot be written; a failed render removes the folders it made.
    Copier renders with the process's working directory set to the template cache while it
    runs (see :mod:`skillsmith.scaffold.history`).
    """
    answers = Answers(
        name=name, description=description,
        target=target, license=license, author=author,
        scripts=list(scripts) if scripts else list(DEFAULT_SCRIPTS), examples=examples, json=json,
        verifier=verifier, kind=kind,
    )
    validate(answers)
    template = targets.get(target).new.template
    if not template_available(template):
        raise UsageError(f"the {target} target is not available in this installation (no {template} template)")
    parent = Path(dest)
    problem = dest_problem(parent)
    if problem:
        raise UsageError(problem)
    root = parent / name
    if root.is_symlink() or (root.exists() and not root.is_dir()):
        raise UsageError(f"{root} exists and is not a folder")
    if root.is_dir() and any(root.iterdir()) and not force:
        raise UsageError(f"{root} exists and is not empty; pass --force to render into it")
    created = make_folder(root)
    try:
        version = render(template, root, answers.data(), overwrite=force)  # a template uses the answers it asks
    except BaseException:
        remove_folders(created)  # a failed render leaves nothing behind that it made
        raise
    return Created(root=root, files=files_below(root), version=version)


# -- careful writes ---------------------------------------------------------------------


def read_source(path: Path) -> SourceFile:
    """*path* read once for an edit (never through a symbolic link); edit its ``edit_text``.

    Raises InvalidInputError when it cannot be read or is not text.
    """
    try:
        file = SourceFile.from_path(path, path.name)
    except OSError as exc:
        raise InvalidInputError(f"{path}: cannot read: {exc.strerror or exc}") from None
    if file.edit_text is None:
        raise InvalidInputError(f"{path}: cannot read: {file.read_error or f'not {file.encoding} text'}")
    return file


def write_text(file: SourceFile, text: str) -> None:
    """Write *text* (``\\n`` newlines) back as *file* was encoded (:meth:`SourceFile.encode`), mode kept."""
    try:
        data = file.encode(text)
    except EncodeError as exc:
        raise InvalidInputError(f"{file.path}: {exc}; not edited") from None
    write_bytes(file.path, data)


def write_bytes(path: Path, data: bytes, mode: int | None = None) -> None:
    """Atomic write (see :mod:`skillsmith.fix.atomic`); never through a symbolic link."""
    from skillsmith.fix.atomic import atomic_write

    try:
        atomic_write(path, data, mode=mode)
    except OSError as exc:
        raise write_error(path, exc) from None
