"""A skill's own test suites: which it has, and running them (``skillsmith test``).

The suites a skill can carry, by kind (a target says which kinds its skills carry,
:attr:`skillsmith.targets.Target.suites`):

- ``run.sh``: ``tests/run.sh`` (seed 000 §10), run with bash;
- ``unittest``: ``tests/test_*.py`` under ``python -m unittest discover`` (kvist, seed 003);
- ``contract``: each ``tests/contract.json`` sample called through the skill's ``execute``
  with nothing of kvist present (:mod:`skillsmith.contract_calls`; a call that needs a
  capability is skipped, not failed).

Each suite runs through :mod:`skillsmith.sandbox`, exactly as ``check --run`` runs a script:
stdin closed, a trimmed environment, a temporary HOME and working folder, the skill
read-only, no network, a timeout, and nothing left running afterwards (bubblewrap, or with
*unsandboxed* the reaper). Suites run in parallel, at most *jobs* at a time; results keep the
order of the skills and, within a skill, of :data:`KINDS`.
"""

from __future__ import annotations

import shutil
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

#: the kinds of suite, in the order they run and are reported
KINDS = ("run.sh", "unittest", "contract")
#: how many lines of a failing suite's output the report shows
TAIL_LINES = 20
#: the default number of suites run at once
DEFAULT_JOBS = 4


@dataclass(frozen=True)
class Suite:
    """One suite of one skill: what it is and the command that runs it."""

    skill: Path
    kind: str
    path: str  # what the suite is, relative to the skill (tests/run.sh, tests/, tests/contract.json)
    argv: tuple[str, ...]


@dataclass
class SuiteResult:
    """What running a suite gave. *status*: ``passed``, ``failed``, ``timeout`` or ``error`` (could not start)."""

    skill: Path
    kind: str
    path: str
    status: str
    code: int | None = None
    seconds: float = 0.0
    stdout: str = ""
    stderr: str = ""
    error: str | None = None

    @property
    def ok(self) -> bool:
        return self.status == "passed"

    def tail(self, lines: int = TAIL_LINES) -> list[str]:
        """The last *lines* lines of its output (stdout, then stderr), with the reason it did not start."""
        text = (self.stdout.rstrip("\n") + "\n" + self.stderr.rstrip("\n")).strip("\n")
        out = text.splitlines()[-lines:] if text else []
        if self.error:
            out.append(f"could not run: {self.error}")
        return out

    def to_json(self) -> dict:
        return {
            "skill": str(self.skill), "suite": self.kind, "path": self.path, "status": self.status,
            "exit_code": self.code, "seconds": round(self.seconds, 3),
            "stdout": self.stdout, "stderr": self.stderr, "error": self.error,
        }


@dataclass
class TestRun:
    """Every skill looked at, with its suites' results; *without*: the skills that have no suite."""

    results: list[SuiteResult] = field(default_factory=list)
    without: list[Path] = field(default_factory=list)

    @property
    def failed(self) -> list[SuiteResult]:
        return [r for r in self.results if not r.ok]

    def summary(self) -> str:
        """``N passed, M failed``, then the timeouts and the skills without a suite, when there are any."""
        failed = self.failed
        line = f"{len(self.results) - len(failed)} passed, {len(failed)} failed"
        timeouts = sum(r.status == "timeout" for r in failed)
        if timeouts:
            line += f" ({timeouts} timed out)"
        if self.without:
            line += f"; {len(self.without)} skill{'s' if len(self.without) != 1 else ''} without a suite"
        return line


def suites_of(skill, kinds: tuple[str, ...]) -> list[Suite]:
    """The suites of *skill* (a loaded :class:`~skillsmith.model.skill.Skill`) among *kinds*.

    Only regular files the skill's walk listed count (never a link, nothing ignored).
    """
    files = skill.files
    found = []
    if "run.sh" in kinds and "tests/run.sh" in files:
        bash = shutil.which("bash") or "bash"
        found.append(Suite(skill.root, "run.sh", "tests/run.sh", (bash, str(skill.root / "tests" / "run.sh"))))
    if "unittest" in kinds and any(rel.startswith("tests/test_") and rel.endswith(".py") and rel.count("/") == 1
                                   for rel in files):
        found.append(Suite(skill.root, "unittest", "tests/", (
            sys.executable, "-m", "unittest", "discover", "-s", str(skill.root / "tests"), "-p", "test_*.py")))
    if "contract" in kinds and "tests/contract.json" in files:
        from skillsmith import contract_calls

        # given as -c text, so the sandbox shows nothing of skillsmith's own folder
        source = Path(contract_calls.__file__).read_text(encoding="utf-8")
        found.append(Suite(skill.root, "contract", "tests/contract.json",
                           (sys.executable, "-I", "-c", source, str(skill.root))))
    return found


def find(paths: list[str]) -> tuple[list[Suite], list[Path]]:
    """The suites of every skill below *paths*, and the skills without one.

    A missing path raises :class:`~skillsmith.errors.NotFoundError` (exit 3). A skill's
    target (its config's ``target``, else detected) decides which kinds it carries.
    """
    from skillsmith import targets
    from skillsmith.discovery.discover import discover, load_skill
    from skillsmith.model.sourcefile import MAX_BYTES

    found: list[Suite] = []
    without: list[Path] = []
    for unit in discover(paths):
        if unit.kind != "skill":
            continue
        skill = load_skill(unit.root, unit.config, MAX_BYTES, unit.ignorer)
        target = targets.get(unit.config.target) if unit.config.target else targets.detect(skill)
        suites = suites_of(skill, target.suites)
        found.extend(suites)
        if not suites:
            without.append(unit.root)
    return found, without


def run_suite(suite: Suite, timeout: float, sandboxed: bool) -> SuiteResult:
    """Run one suite in the sandbox (the skill readable, nothing else of the user's) and say how it went."""
    from skillsmith import sandbox

    start = time.monotonic()
    outcome = sandbox.run(list(suite.argv), readable=[suite.skill], timeout=timeout, sandboxed=sandboxed)
    seconds = time.monotonic() - start
    if outcome.timed_out:
        status = "timeout"
    elif outcome.error is not None:
        status = "error"
    else:
        status = "passed" if outcome.code == 0 else "failed"
    return SuiteResult(suite.skill, suite.kind, suite.path, status, outcome.code, seconds,
                       outcome.stdout, outcome.stderr, outcome.error)


def run_suites(suites: list[Suite], *, timeout: float, sandboxed: bool = True, jobs: int = DEFAULT_JOBS,
               done=None) -> list[SuiteResult]:
    """Run *suites*, at most *jobs* at once; results in the order of *suites*.

    *done* ``(result)`` is called as each finishes (in the order they finish).
    """
    def one(suite: Suite) -> SuiteResult:
        result = run_suite(suite, timeout, sandboxed)
        if done is not None:
            done(result)
        return result

    if not suites:
        return []
    with ThreadPoolExecutor(max_workers=max(1, min(jobs, len(suites)))) as pool:
        return list(pool.map(one, suites))
