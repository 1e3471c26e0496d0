"""Running git safely on a folder someone else may control: the one way skillsmith runs git.

Every call passes list arguments (never a shell) and ``-c`` options that keep a repository's
own configuration from running programs: no hooks, no fsmonitor, no pager, no external diff
or text conversion, no signing prompts. Every filter, diff and merge driver any config file
defines (the repository's own ``.git/config`` above all) is switched off by name
(:meth:`Git.driver_options`), and no global attributes file is read, so no ``clean`` filter
can stand between the files and what git reports about them. Blobs are read with
``cat-file`` (no filters). The environment is cleaned too (:func:`safe_env`): no
``GIT_DIR``/``GIT_WORK_TREE`` from the caller, no prompts, no optional locks, and the same
configuration as ``GIT_CONFIG_*`` variables, so a program that runs git itself (Copier, in
``skillsmith update``) gets the same protection.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
from pathlib import Path

from skillsmith.errors import (
    InvalidInputError,
    MissingDependencyError,
    NotFoundError,
    SkillsmithError,
)

SAFE_CONFIG = (
    "core.hooksPath=/dev/null", "core.fsmonitor=false", "core.pager=cat", "core.editor=true",
    "core.quotePath=false", "diff.external=", "commit.gpgSign=false", "tag.gpgSign=false",
    "gc.auto=0", "maintenance.auto=false", "advice.detachedHead=false", "init.defaultBranch=main",
)


#: what switches a driver off, by kind (see :meth:`Git.driver_options`)
DRIVER_KEYS = {
    "filter": ("clean=", "smudge=", "process=", "required=false"),
    "diff": ("textconv=", "command="),
    "merge": ("driver=",),
}


def safe_options() -> list[str]:
    """``-c`` arguments that keep a repository's own config from running programs."""
    return [arg for option in SAFE_CONFIG for arg in ("-c", option)]


def safe_env(extra: dict[str, str] | None = None) -> dict[str, str]:
    """The process environment for git: :data:`SAFE_CONFIG` as ``GIT_CONFIG_*`` variables and no inherited repository.

    The configuration is appended after any ``GIT_CONFIG_COUNT`` entries the caller already
    has, so it wins over them and over every config file (git 2.31 and later read these
    variables; older ones still get the ``-c`` options of :meth:`Git.run`). *extra* is added last.
    """
    env = dict(os.environ, GIT_OPTIONAL_LOCKS="0", GIT_TERMINAL_PROMPT="0", LC_ALL="C")
    for name in ("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_COMMON_DIR", "GIT_OBJECT_DIRECTORY"):
        env.pop(name, None)
    try:
        count = int(env.get("GIT_CONFIG_COUNT", "0"))
    except ValueError:
        count = 0
    for option in SAFE_CONFIG:
        key, value = option.split("=", 1)
        env[f"GIT_CONFIG_KEY_{count}"], env[f"GIT_CONFIG_VALUE_{count}"] = key, value
        count += 1
    env["GIT_CONFIG_COUNT"] = str(count)
    env.update(extra or {})
    return env


def blob_id(data: bytes, object_format: str = "sha1") -> str:
    """The object id git gives a blob of *data* (what ``git hash-object`` prints, without any filter)."""
    h = hashlib.new(object_format)
    h.update(b"blob %d\0" % len(data))
    h.update(data)
    return h.hexdigest()


def missing_git(needed_by: str) -> MissingDependencyError:
    return MissingDependencyError(f"git is not installed (or not on PATH); {needed_by} needs it", {"dependency": "git"})


_BATCH_HEADER = re.compile(rb"^(blob|tree|commit|tag) (\d+)$")
#: the longest git may take for one call
TIMEOUT = 120


class Git:
    """git for one folder (``git -C root``), with the safe options and environment.

    *needed_by* names what needs git in the error when it is missing (exit 5); *env* adds
    variables (a fixed identity, say) to :func:`safe_env`.
    """

    def __init__(self, root: Path, *, needed_by: str = "skillsmith", env: dict[str, str] | None = None) -> None:
        self.needed_by = needed_by
        if shutil.which("git") is None:
            raise missing_git(needed_by)
        self.root = root
        self.env = safe_env(env)
        self._drivers: list[str] | None = None

    def driver_options(self) -> list[str]:
        """``-c`` options that switch off every filter, diff and merge driver the configuration defines.

        Found by name in every config file git reads for :attr:`root` (with its includes), so a
        driver the attributes name runs nothing: ``filter.<name>.clean``, ``.smudge`` and
        ``.process`` empty (``required`` false), ``diff.<name>.textconv`` and ``.command``
        empty, ``merge.<name>.driver`` empty. No global attributes file is read either.
        """
        if self._drivers is None:
            proc = self._git("config", ["config", "--null", "--name-only", "--get-regexp", r"^(filter|diff|merge)\..+\."])
            names = proc.stdout.decode("utf-8", "surrogateescape").split("\0") if proc.returncode == 0 else []
            sections = sorted({name.rpartition(".")[0] for name in names if name.count(".") >= 2})
            options = ["-c", "core.attributesFile=/dev/null"]
            for section in sections:
                kind = section.split(".", 1)[0]
                for key in DRIVER_KEYS[kind]:
                    options += ["-c", f"{section}.{key}"]
            self._drivers = options
        return self._drivers

    def run(self, *args: str, check: bool = True, input: bytes | None = None) -> subprocess.CompletedProcess:
        """Run ``git -C root <safe options> <driver options> *args``; a failure with *check* is a :class:`SkillsmithError`."""
        proc = self._git(args[0], [*self.driver_options(), *args], input)
        if check and proc.returncode != 0:
            message = proc.stderr.decode("utf-8", "replace").strip().splitlines()
            raise SkillsmithError(f"git {args[0]} failed: {message[-1] if message else proc.returncode}",
                                  {"command": list(args), "stderr": "\n".join(message)})
        return proc

    def _git(self, name: str, args: list[str], input: bytes | None = None) -> subprocess.CompletedProcess:
        """``git -C root <safe options> *args``, whatever its exit status; *name* names the command in errors."""
        command = ["git", "-C", str(self.root), *safe_options(), *args]
        try:
            return subprocess.run(command, capture_output=True, env=self.env, timeout=TIMEOUT, input=input,
                                  stdin=subprocess.DEVNULL if input is None else None, check=False)
        except FileNotFoundError:
            raise missing_git(self.needed_by)
        except subprocess.TimeoutExpired:
            raise SkillsmithError(f"git {name} took longer than {TIMEOUT} s", {"command": name})

    def out(self, *args: str) -> str:
        return self.run(*args).stdout.decode("utf-8", "surrogateescape")

    def top(self) -> Path | None:
        """The top of the work tree holding :attr:`root`, or None when it is not in one."""
        proc = self.run("rev-parse", "--show-toplevel", check=False)
        if proc.returncode != 0:
            err = proc.stderr.decode("utf-8", "replace")
            if "dubious ownership" in err or "safe.directory" in err:
                raise InvalidInputError(
                    f"git refuses to read {self.root}: it belongs to another user. If you trust it, run "
                    f"'git config --global --add safe.directory {self.root}'", {"path": str(self.root)})
            return None
        return Path(proc.stdout.decode("utf-8", "surrogateescape").strip())

    def commit_id(self, ref: str) -> str | None:
        """The commit *ref* names, or None."""
        proc = self.run("rev-parse", "--verify", "--quiet", "--end-of-options", f"{ref}^{{commit}}", check=False)
        return proc.stdout.decode().strip() or None if proc.returncode == 0 else None

    def require_commit(self, ref: str) -> str:
        found = self.commit_id(ref)
        if found is None:
            raise NotFoundError(f"{ref}: no such commit in {self.root}", {"ref": ref})
        return found

    def is_ancestor(self, older: str, newer: str) -> bool:
        return self.run("merge-base", "--is-ancestor", older, newer, check=False).returncode == 0

    def blobs(self, commit: str, rels: list[str], limit: int) -> dict[str, bytes]:
        """The bytes of each of *rels* at *commit* that exists there and is at most *limit* bytes."""
        if not rels:
            return {}
        names = [f"{commit}:{rel}" for rel in rels]
        if any("\n" in n for n in names):
            raise InvalidInputError("a file name holds a newline; the audit cannot review it", {"commit": commit})
        out = self.run("cat-file", "--batch=%(objecttype) %(objectsize)",
                       input="".join(n + "\n" for n in names).encode()).stdout
        found: dict[str, bytes] = {}
        pos = 0
        for rel in rels:
            end = out.index(b"\n", pos)
            header = _BATCH_HEADER.match(out[pos:end])
            pos = end + 1
            if header is None:  # "<name> missing" or "<name> ambiguous": no content follows
                continue
            size = int(header.group(2))
            if header.group(1) == b"blob" and size <= limit:
                found[rel] = out[pos:pos + size]
            pos += size + 1
        return found

    def tree(self, commit: str) -> dict[str, tuple[str, str, int | None]]:
        """Every entry of *commit*'s tree, recursively: rel -> (mode, object id, size; None for a submodule)."""
        found = {}
        for record in self.out("ls-tree", "-r", "-l", "-z", "--full-tree", commit).split("\0"):
            if not record:
                continue
            meta, _, rel = record.partition("\t")
            mode, _kind, oid, size = meta.split()
            found[rel] = (mode, oid, int(size) if size.isdigit() else None)
        return found

    def object_format(self) -> str:
        """``sha1`` or ``sha256``: how the repository names its objects."""
        proc = self.run("rev-parse", "--show-object-format", check=False)
        return proc.stdout.decode().strip() or "sha1" if proc.returncode == 0 else "sha1"

    def paths(self, *args: str) -> list[str]:
        """NUL-separated paths printed by a git command."""
        return [p for p in self.out(*args).split("\0") if p]

    def dirty(self) -> bool:
        return bool(self.out("status", "--porcelain", "-z", "--untracked-files=all").strip("\0"))

    def identity(self) -> list[str]:
        """``-c`` options naming a committer when the user has none configured."""
        if self.run("config", "user.email", check=False).stdout.strip():
            return []
        return ["-c", "user.name=skillsmith audit", "-c", "user.email=skillsmith-audit@localhost"]

    def commit_all(self, message: str) -> bool:
        """Stage everything and commit it; False when there was nothing to commit."""
        self.run("add", "--all", "--", ".")
        if self.run("diff", "--cached", "--quiet", check=False).returncode == 0 and self.commit_id("HEAD"):
            return False
        self.run(*self.identity(), "commit", "--quiet", "--no-verify", "--allow-empty", "-m", message)
        return True
