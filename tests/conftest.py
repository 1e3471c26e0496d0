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


@dataclass
class Run:
    code: int
    stdout: str
    stderr: str

    def json(self):
        return json.loads(self.stdout)


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


@pytest.fixture
def cli():
    return run_cli


@pytest.fixture(autouse=True)
def _isolated_cache(tmp_path_factory, monkeypatch):
    monkeypatch.setenv("SKILLSMITH_CACHE_DIR", str(tmp_path_factory.getbasetemp() / "cache"))
