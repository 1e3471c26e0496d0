"""Folders no walk enters: version-control data, dependencies, virtualenvs and caches."""

from __future__ import annotations

import os

SKIP_DIRS = frozenset(
    {".git", ".hg", ".svn", "node_modules", "__pycache__", ".venv", "venv", ".tox", ".nox",
     ".mypy_cache", ".pytest_cache", ".ruff_cache", ".hypothesis", "site-packages", ".eggs"}
)


def skip_dir(entry: os.DirEntry) -> bool:
    """Whether a walk should not enter the folder *entry* (by name, or a virtualenv by its pyvenv.cfg)."""
    if entry.name in SKIP_DIRS:
        return True
    return os.path.exists(os.path.join(entry.path, "pyvenv.cfg"))
