"""``skillsmith init``: adopt skillsmith in a collection of skills that exists already.

1. The config: ``[tool.skillsmith]`` in the collection's ``pyproject.toml``, or a
   ``skillsmith.toml`` when there is none (:func:`skillsmith.config.init_file`), naming the
   target the skills are written for when every one of them is detected as the same (a mixed
   collection keeps detection per skill, so no finding changes). The file is edited with tomlkit
   (:func:`skillsmith.config.edited_config`): the user's comments and layout stay byte for byte.
2. With a baseline, every finding ``check`` reports today is recorded, so ``check`` passes in
   CI at once and the list can be burnt down: an inline ignore with a reason where a comment
   provably changes nothing (:mod:`skillsmith.fix.baseline`), the rest as ``per-file-ignores``
   in that config (a comment names the rules). Security findings (``SEC``, the rules only the
   user's own config may switch off: :data:`skillsmith.config.PROTECTED`) are left out and
   named unless asked for, since a team must look at each before it silences one; asked for,
   they go to the config only (an inline ignore of them counts only where the user's config
   sets ``allow-security-ignores``).
3. ``check`` runs again; what it still reports is the result (``remaining``).

Nothing the user wrote is removed or changed: only comments and config entries are added, and
a second run finds nothing to add.
"""

from __future__ import annotations

import os
from collections import Counter
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

from skillsmith import config as configuration
from skillsmith.errors import InvalidInputError, NotFoundError, UsageError
from skillsmith.rules.finding import Finding

@dataclass
class Adopted:
    """What ``init`` found and wrote."""

    root: Path
    config: Path  # the config file it wrote (or would have, when nothing was new)
    target: str | None  # the target the config names now (None: detected per skill)
    detected: dict[str, int] = field(default_factory=dict)  # target -> skills detected as written for it
    written: list[Path] = field(default_factory=list)  # files changed
    findings: int = 0  # what check reported before
    inline: int = 0  # findings given an inline ignore
    configured: int = 0  # findings given a per-file-ignores entry
    left_out: list[Finding] = field(default_factory=list)  # security findings not recorded
    unrecordable: list[Finding] = field(default_factory=list)  # findings no ignore can name here
    remaining: list[Finding] = field(default_factory=list)  # what check reports after
    notes: list[str] = field(default_factory=list)

    def to_json(self) -> dict:
        return {
            "root": str(self.root), "config": str(self.config), "target": self.target, "detected": self.detected,
            "written": [str(p) for p in self.written], "findings": self.findings, "inline": self.inline,
            "per_file_ignores": self.configured, "left_out": [f.to_json() for f in self.left_out],
            "remaining": [f.to_json() for f in self.remaining],
        }


def detected_targets(root: Path) -> Counter:
    """How many units below *root* each target is detected for (as ``check`` detects them)."""
    from skillsmith import targets
    from skillsmith.discovery.discover import discover
    from skillsmith.rules.engine import Options, load_model

    options = Options()
    return Counter(targets.detect(load_model(unit, options)).name for unit in discover([root]))


def current_findings(root: Path) -> list[Finding]:
    from skillsmith.api import check_result
    from skillsmith.rules.engine import Options

    configuration.forget_loaded()
    return check_result([root], Options()).findings


def adopt(root: str | Path = ".", *, target: str | None = None, baseline: bool = False, inline: bool = True,
          security: bool = False) -> Adopted:
    """Write skillsmith's config for the collection at *root*; with *baseline*, record its findings.

    *target* overrides the detected target; *inline* puts ignores in the files where that is
    proved harmless (else everything goes to ``per-file-ignores``); *security* records ``SEC``
    findings too. Raises :class:`NotFoundError` for a missing *root*, :class:`UsageError` for
    an unknown target, :class:`~skillsmith.errors.InvalidInputError` for a config file that
    cannot be read or written.
    """
    from skillsmith import targets

    given = Path(root)
    if not given.is_dir():
        raise NotFoundError(f"{root}: no such folder", {"path": str(root)})
    root = given.resolve()
    if target is not None:
        try:
            targets.get(target)
        except LookupError as exc:
            raise UsageError(str(exc)) from None
    configuration.forget_loaded()
    path = configuration.init_file(root)
    if path.is_file():
        configuration.load(path)  # the file init edits is the user's own: a broken one is exit 4, wherever init runs
    before = current_findings(root)
    detected = detected_targets(root)
    chosen = target
    if chosen is None and len(detected) == 1:
        chosen = next(iter(detected))
    out = Adopted(root=root, config=path, target=None, detected=dict(detected), findings=len(before))
    if chosen is None and len(detected) > 1:
        kinds = ", ".join(f"{name}: {n}" for name, n in detected.most_common())
        out.notes.append(f"the skills are written for several targets ({kinds}); "
                         "no target is written, so each is detected as before")
    write_config(out, target=chosen)
    if baseline:
        record_baseline(out, before, inline=inline, security=security)
    configuration.forget_loaded()
    out.target = configuration.load(out.config).target if out.config.is_file() else None
    out.remaining = current_findings(root) if baseline or out.written else before
    return out


# -- the config ------------------------------------------------------------------------------


def write_config(out: Adopted, *, target: str | None = None, per_file_ignores: dict[str, list[str]] | None = None,
                 reason=None) -> None:
    """Add *target* and *per_file_ignores* to the config file; record it in *out* when it changed."""
    from skillsmith.scaffold.render import read_source, write_bytes, write_text

    path = out.config
    existing = read_source(path) if path.exists() else None
    text = existing.edit_text if existing is not None else ""
    try:
        new = configuration.edited_config(
            text, path.name == "pyproject.toml", target=target, per_file_ignores=per_file_ignores, reason=reason,
            table_comment=f"baseline of {date.today().isoformat()} (skillsmith init --baseline): the findings the "
                          "collection had; fix them and remove their entries",
        )
    except InvalidInputError as exc:
        raise InvalidInputError(f"{path}: {exc.message}", {"path": str(path)}) from None
    if new == text:
        return
    if existing is not None:
        write_text(existing, new)
    else:
        write_bytes(path, new.encode("utf-8"))
    configuration.forget_loaded()
    if path not in out.written:
        out.written.append(path)


# -- the baseline ----------------------------------------------------------------------------


def recordable(rule: str) -> bool:
    """Whether an ignore can name *rule* (a finding's code that is no rule's selector cannot be)."""
    from skillsmith.rules import registry

    return registry.unknown_selector([rule]) is None


def record_baseline(out: Adopted, findings: list[Finding], *, inline: bool, security: bool) -> None:
    """Record *findings*: inline ignores where proved harmless, then ``per-file-ignores`` for the rest."""
    chosen = []
    for f in findings:
        if configuration.is_protected(f.rule) and not security:
            out.left_out.append(f)
        elif not recordable(f.rule):
            out.unrecordable.append(f)
        else:
            chosen.append(f)
    # an inline ignore of a security rule silences nothing unless the user's own config allows
    # the tree's ignores (allow-security-ignores): those are recorded in the config only
    inline_ones = [f for f in chosen if not configuration.is_protected(f.rule)]
    if inline and inline_ones:
        out.inline = write_inline_ignores(out, inline_ones)
        # what the comments did not silence (or what they caused): the config records it
        chosen = [f for f in current_findings(out.root)
                  if (security or not configuration.is_protected(f.rule)) and recordable(f.rule)]
    if chosen:
        out.configured = write_per_file_ignores(out, chosen)


def baseline_reason(ids: list[str]) -> str:
    """The reason a baseline's ignore gives: ``baseline: exit-code-literal, unquoted-expansion``."""
    from skillsmith.rules.registry import get_rule

    def name(rule_id: str) -> str:
        found = get_rule(rule_id)
        return found.name if found is not None and found.id == rule_id else rule_id

    return "baseline: " + ", ".join(name(i) for i in ids)


def write_inline_ignores(out: Adopted, findings: list[Finding]) -> int:
    """Give each finding that can carry one an inline ignore; return how many got one."""
    from skillsmith.fix.baseline import inline_ignores
    from skillsmith.model.sourcefile import SourceFile
    from skillsmith.scaffold.render import write_text

    by_path: dict[str, list[Finding]] = {}
    for f in findings:
        by_path.setdefault(f.path, []).append(f)
    placed = 0
    for name, group in sorted(by_path.items()):
        path = Path(name)
        if not path.is_file() or path.is_symlink() or not is_below(path, out.root):
            continue
        try:
            source = SourceFile.from_path(path, path.name)
        except OSError:
            continue
        result = inline_ignores(source, group, baseline_reason)
        if result.text is None:
            continue
        try:
            write_text(source, result.text)
        except InvalidInputError as exc:  # the encoding cannot hold the comment: the config will
            out.notes.append(exc.message)
            continue
        out.written.append(path)
        placed += len(result.placed)
    return placed


def is_below(path: Path, root: Path) -> bool:
    real = os.path.realpath(path.parent)
    return os.path.commonpath([real, str(root)]) == str(root)


def glob_for(rel: str) -> str:
    """A ``per-file-ignores`` glob that matches the file *rel* (POSIX, relative to the config) only."""
    escaped = "".join(f"[{ch}]" if ch in "*?[" else ch for ch in rel)
    return escaped if "/" in escaped else "/" + escaped


def write_per_file_ignores(out: Adopted, findings: list[Finding]) -> int:
    """Record *findings* as ``per-file-ignores`` in the config that applies to each; return how many."""
    by_config: dict[Path, dict[str, set[str]]] = {}
    recorded = 0
    for f in findings:
        path = Path(f.path)
        # the config that applies to the file: the one init wrote, unless one nearer holds the settings
        source = (configuration.find_config_file(path.parent.resolve()) if path.parent.is_dir() else None) or out.config
        rel = os.path.relpath(path, source.parent.resolve())
        if rel == ".." or rel.startswith(".." + os.sep):
            out.unrecordable.append(f)
            continue
        by_config.setdefault(source, {}).setdefault(glob_for(Path(rel).as_posix()), set()).add(f.rule)
        recorded += 1
    for source, entries in by_config.items():
        ignores = {glob: sorted(ids) for glob, ids in sorted(entries.items())}
        target = Adopted(root=out.root, config=source, target=None)
        write_config(target, per_file_ignores=ignores, reason=baseline_reason)
        out.written.extend(p for p in target.written if p not in out.written)
    return recorded
