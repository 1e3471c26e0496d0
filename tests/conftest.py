"""Shared test helpers: run the CLI as a real process, write small skills to disk."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = Path(__file__).resolve().parent / "fixtures"
EXAMPLE = ROOT / "docs" / "examples" / "table-formatter"

#: fixture skills carry their own tests (kvist's tests/test_plugin.py); they are data here
collect_ignore = ["fixtures"]


def _no_sandbox() -> str | None:
    from skillsmith import sandbox

    return sandbox.unavailable()


#: why ``check --run`` cannot make its bubblewrap sandbox on this machine (None: it can)
NO_SANDBOX = _no_sandbox()
#: what tests of the RUN rules' verdicts pass to ``check --run``: the sandbox where there is one
RUN_FLAGS = ["--unsandboxed"] if NO_SANDBOX else []
needs_sandbox = pytest.mark.skipif(NO_SANDBOX is not None, reason=f"no sandbox here: {NO_SANDBOX}")


@dataclass
class Run:
    code: int
    stdout: str
    stderr: str

    def json(self):
        return json.loads(self.stdout)


#: the rules that run by default and CON014, which is opt-in: for tests of what `fix` writes for literal exit codes
WITH_CON014 = ("--select", "ALL,CON014")


def run_cli(*args: str, cwd: Path | str | None = None, env: dict | None = None, input: str | None = None,
            timeout: float = 120) -> Run:
    """Run ``python -m skillsmith ARGS`` in a subprocess; stdout and stderr kept apart."""
    full_env = dict(os.environ)
    full_env.setdefault("SKILLSMITH_CACHE_DIR", str(Path(os.environ.get("PYTEST_CACHE_ROOT", "/tmp")) / "skillsmith-test-cache"))
    full_env.pop("NO_COLOR", None)
    if env:
        full_env.update(env)
    proc = subprocess.run(
        [sys.executable, "-m", "skillsmith", *args],
        cwd=cwd, env=full_env, capture_output=True, text=True, timeout=timeout,
        input=input, stdin=None if input is not None else subprocess.DEVNULL,
    )
    return Run(proc.returncode, proc.stdout, proc.stderr)


def write_tree(root: Path, files: dict[str, str | bytes]) -> Path:
    """Write *files* (relative path -> text or bytes) below *root*; ``.sh``/``.py`` under scripts/ get +x."""
    for rel, content in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(textwrap.dedent(content).lstrip("\n") if content.startswith("\n") else content)
        if rel.startswith("scripts/") and path.suffix in (".py", ".sh", ".bash"):
            path.chmod(0o755)
    return root


def without_dac_override() -> list[str]:
    """A command prefix that takes root's power to read and write any folder away (empty for other users).

    Tests of unreadable or read-only folders run the CLI under it; as root without ``setpriv``
    they are skipped, since every folder is readable and writable then.
    """
    if os.geteuid() != 0:
        return []
    import shutil

    if shutil.which("setpriv") is None:
        pytest.skip("running as root without setpriv: every folder is readable and writable")
    return ["setpriv", "--bounding-set", "-dac_override,-dac_read_search", "--"]


@pytest.fixture
def cli():
    return run_cli


@pytest.fixture(autouse=True)
def _isolated_cache(tmp_path_factory, monkeypatch):
    monkeypatch.setenv("SKILLSMITH_CACHE_DIR", str(tmp_path_factory.getbasetemp() / "cache"))


# -- the wheel, built and installed once per session (tests/test_wheel.py, tests/test_scaffold_wheel.py)

WHEEL_SOURCES = ("pyproject.toml", "README.md", "LICENSE", "skillsmith", "codemods", "templates")


def run_ok(*cmd, **kw) -> subprocess.CompletedProcess:
    """Run *cmd*; fail the test with its output unless it exits 0."""
    proc = subprocess.run([str(c) for c in cmd], capture_output=True, text=True, stdin=subprocess.DEVNULL,
                          timeout=300, **kw)
    assert proc.returncode == 0, f"{' '.join(map(str, cmd))} -> {proc.returncode}\n{proc.stdout}\n{proc.stderr}"
    return proc


def copy_sources(names: tuple[str, ...], dest: Path) -> None:
    """Copy the work tree's *names* (files or folders, without caches) into the folder *dest*."""
    import shutil

    dest.mkdir(parents=True, exist_ok=True)
    for name in names:
        path = ROOT / name
        if path.is_dir():
            shutil.copytree(path, dest / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        elif path.exists():
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(path, dest / name)


@pytest.fixture(scope="session")
def built_wheel(tmp_path_factory) -> Path:
    """The wheel, built from a copy of the source so the work tree gets no build/ or egg-info."""
    base = tmp_path_factory.mktemp("wheel")
    src = base / "src"
    copy_sources(WHEEL_SOURCES, src)
    # --no-isolation: the build backend comes from the test environment, no download needed
    run_ok(sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir", base / "dist", src)
    [built] = (base / "dist").glob("skillsmith-*.whl")
    return built


@pytest.fixture(scope="session")
def wheel_venv(built_wheel, tmp_path_factory) -> Path:
    """A fresh venv with the wheel installed; its dependencies come from this environment."""
    import sysconfig
    import venv

    env_dir = tmp_path_factory.mktemp("venv") / "env"
    venv.EnvBuilder(with_pip=False).create(env_dir)
    python = env_dir / "bin" / "python"
    site = Path(run_ok(python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])").stdout.strip())
    # the dependencies (copier, libcst, ...) are already here: reuse them rather than download them,
    # after the venv's own site-packages, so the wheel's skillsmith is the one imported
    (site / "zz_test_dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    run_ok(sys.executable, "-m", "pip", "--python", python, "install", "--no-deps", "--no-index", "--quiet", built_wheel)
    return env_dir


# -- the project as a hook or action repository (tests/test_precommit.py, tests/test_action.py)

#: what a repository that hosts the hooks and the action must hold, beside the wheel's sources
REPO_SOURCES = WHEEL_SOURCES + (".pre-commit-hooks.yaml", "action.yml", ".github/action")

#: git without the user's or the system's configuration (a global core.hooksPath, signing, ...)
GIT_ENV = {
    "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": os.devnull,
    "GIT_AUTHOR_NAME": "Test", "GIT_AUTHOR_EMAIL": "test@example.invalid",
    "GIT_COMMITTER_NAME": "Test", "GIT_COMMITTER_EMAIL": "test@example.invalid",
}


@pytest.fixture(scope="session")
def source_repo(tmp_path_factory) -> tuple[Path, str]:
    """(a git repository made of this work tree's sources, its commit): what pre-commit clones."""
    repo = tmp_path_factory.mktemp("source") / "skillsmith"
    copy_sources(REPO_SOURCES, repo)
    env = dict(os.environ, **GIT_ENV)
    run_ok("git", "init", "-q", repo, env=env)
    run_ok("git", "-C", repo, "add", "-A", env=env)
    run_ok("git", "-C", repo, "commit", "-q", "-m", "skillsmith", env=env)
    sha = run_ok("git", "-C", repo, "rev-parse", "HEAD", env=env).stdout.strip()
    return repo, sha


def offline_install_env(base: Path) -> dict[str, str]:
    """The environment for a program that pip-installs skillsmith from source, without a network.

    pip reaches no index (``PIP_NO_INDEX``; every proxy is a closed local port, so a stray
    download fails at once) and takes skillsmith's dependencies, and the build backend, from
    this test environment through ``PYTHONPATH``, as ``wheel_venv`` does with a ``.pth``:
    ``PIP_NO_BUILD_ISOLATION=0`` turns build isolation *off* (pip reads the negated option's
    variable as the value of ``build_isolation``).
    """
    import sysconfig

    paths = sysconfig.get_paths()
    env = {k: v for k, v in os.environ.items() if not k.lower().endswith("_proxy")}
    env.update(GIT_ENV)
    closed = "http://127.0.0.1:9"
    env.update({
        "PIP_NO_INDEX": "1", "PIP_NO_BUILD_ISOLATION": "0", "PIP_RETRIES": "0",
        "PYTHONPATH": os.pathsep.join(dict.fromkeys([paths["purelib"], paths["platlib"]])),
        "http_proxy": closed, "https_proxy": closed, "HTTP_PROXY": closed, "HTTPS_PROXY": closed,
        "SKILLSMITH_CACHE_DIR": str(base / "skillsmith-cache"),
    })
    return env


def survivors(marker: str) -> list[int]:
    """Processes whose command line holds *marker* (zombies do not count), from ``/proc``."""
    found = []
    for name in os.listdir("/proc"):
        try:
            with open(f"/proc/{name}/cmdline", "rb") as fh:
                cmdline = fh.read()
            with open(f"/proc/{name}/stat") as fh:
                state = fh.read().rsplit(")", 1)[1].split()[0]
        except (OSError, IndexError):
            continue
        if marker.encode() in cmdline and state != "Z":
            found.append(int(name))
    return found
