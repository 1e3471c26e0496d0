"""The public Python API. The CLI uses it too, so both always agree.

>>> from skillsmith.api import check
>>> for finding in check(["skills/"], ignore=["CON013"]):
...     print(finding.path, finding.line, finding.rule, finding.message)
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Iterable

from skillsmith import targets
from skillsmith.errors import UsageError
from skillsmith.rules.engine import Options, Progress, Result, check_paths
from skillsmith.rules.finding import Finding
from skillsmith.rules.registry import selectors, validated_selectors
from skillsmith.scaffold.add import add_script
from skillsmith.scaffold.answers import Created
from skillsmith.scaffold.render import new
from skillsmith.scaffold.update import Updated, update

__all__ = [
    "check", "check_result", "fix", "Finding", "Options", "Result",
    "new", "add_script", "update", "pack", "Created", "Updated",
]


def check(
    paths: Iterable[str | Path],
    *,
    select: Iterable[str] | None = None,
    ignore: Iterable[str] | None = None,
    target: str | None = None,
) -> list[Finding]:
    """Check skills, ``scripts/`` folders or single scripts; return the findings, sorted.

    *select* and *ignore* take rule IDs or prefixes (``"SPC"``, ``"CON004"``); *target* is
    a name from :data:`skillsmith.targets.TARGETS` (default: detected).
    Raises :class:`skillsmith.errors.UsageError` for an unknown rule or target and
    :class:`skillsmith.errors.NotFoundError` for a missing path. Runs no skill code.
    """
    options = Options(select=selectors(select), ignore=selectors(ignore) or [], target=target)
    return check_result(list(paths), options).findings


def validated_target(name: str | None) -> None:
    """Raise :class:`UsageError` unless *name* is None or a target in :data:`skillsmith.targets.TARGETS`."""
    if name is None:
        return
    try:
        targets.get(name)
    except LookupError as exc:
        raise UsageError(str(exc)) from None


def check_result(paths: list[str | Path], options: Options, done: Progress | None = None) -> Result:
    """Validate *options*, then check *paths*: findings plus the counts a report needs.

    *done* ``(unit, finished, total)`` is called as each skill or set of scripts is finished.
    """
    validated_selectors(options.select)
    validated_selectors(options.ignore)
    validated_target(options.target)
    if options.jobs is not None and options.jobs < 1:
        raise UsageError("--jobs must be at least 1")
    if not math.isfinite(options.run_timeout) or options.run_timeout <= 0:
        raise UsageError("--timeout must be more than 0 seconds")
    if options.run and not options.unsandboxed:
        from skillsmith import sandbox

        sandbox.require("--run runs scripts")
    return check_paths(paths or ["."], options, done)


def fix(
    paths: Iterable[str | Path],
    *,
    select: Iterable[str] | None = None,
    unsafe: bool = False,
    write: bool = True,
    done: Progress | None = None,
):
    """Fix what can be fixed below *paths*; return a :class:`skillsmith.fix.engine.FixResult`.

    ``result.changed`` lists the files changed (written when *write*, else only computed:
    each has ``new_data``/``new_mode`` and ``diff()``), ``result.skipped`` the files left
    alone and why, ``result.remaining`` the findings that still need a person and
    ``result.not_applied`` why each fixable one was not fixed. *unsafe* also applies fixes
    that change behaviour; *done* is called as in :func:`check_result`. Raises
    :class:`UsageError` for an unknown rule.
    """
    from skillsmith.fix.engine import FixOptions, fix_paths

    chosen = validated_selectors(select)
    return fix_paths(list(paths) or ["."], FixOptions(select=chosen, unsafe=unsafe, write=write), done)


def pack(path: str | Path, output: str | Path | None = None, *, force: bool = False, target: str | None = None):
    """Check the skill at *path* and write its ``.skill`` archive; return a :class:`skillsmith.scaffold.pack.Packed`.

    *output* is the archive file or a folder for it (default ``./<skill>.skill``). A skill
    with errors raises :class:`skillsmith.errors.FindingsError` (exit 10) unless *force*;
    *target* picks the host whose rules (and limits) apply. See :mod:`skillsmith.scaffold.pack`.
    """
    from skillsmith.scaffold.pack import pack as write_archive

    validated_target(target)
    return write_archive(path, output, force=force, target=target)
