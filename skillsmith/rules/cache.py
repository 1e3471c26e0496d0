"""Results cached by content hash and rule-set version, so an unchanged tree re-checks fast.

One small JSON file per key under ``$SKILLSMITH_CACHE_DIR`` (default
``$XDG_CACHE_HOME/skillsmith`` or ``~/.cache/skillsmith``). A damaged entry is a miss. Each
unit is stored under two keys (see ``checker``): one from its files' metadata, which answers
an untouched unit without reading it, and one from its files' content.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from pathlib import Path


def cache_dir() -> Path:
    explicit = os.environ.get("SKILLSMITH_CACHE_DIR")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "skillsmith"


def unit_key(parts: list[bytes]) -> str:
    h = hashlib.blake2b(digest_size=20)
    for part in parts:
        h.update(len(part).to_bytes(8, "little"))
        h.update(part)
    return h.hexdigest()


def get(key: str) -> dict | None:
    path = cache_dir() / key[:2] / f"{key}.json"
    try:
        with open(path, "rb") as fh:
            return json.loads(fh.read())
    except (OSError, ValueError):
        return None


def put(key: str, value: dict) -> None:
    folder = cache_dir() / key[:2]
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=".tmp-")
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            json.dump(value, fh)
        os.replace(tmp, folder / f"{key}.json")
    except OSError:
        pass  # a cache that cannot be written is only slower
