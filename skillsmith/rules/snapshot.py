"""A whole-run cache key from file metadata, so an unchanged tree is answered at once.

The key covers everything a check of the given paths reads: every entry below them (path,
type, mode, inode, and for files their size and modification time; as every listing is
hashed, an added, removed or renamed file changes it), the config files upward from each
path, and the git files that decide what is ignored. The walk is the check's own
(:func:`skillsmith.discovery.walk.walk_tree`) with fewer skips: only the folders named in
``SKIP_DIRS`` (and our cache folder) are left out. A virtualenv found by its ``pyvenv.cfg``,
gitignored and excluded paths are hashed although the check skips them (telling would cost a
``stat`` per folder or a git process), so the key covers more than the check reads, never
less. It uses ``os.scandir`` and ``lstat`` alone: no file is opened. Any change falls back to the
per-unit keys in :mod:`skillsmith.rules.engine`, which still avoid re-checking unchanged skills.
"""

from __future__ import annotations

import hashlib
import os
import stat

from skillsmith.discovery.walk import SKIP_DIRS, walk_tree

#: beyond this many entries the walk stops and no key is made (the per-unit cache still works)
MAX_ENTRIES = 200_000
_UPWARD = ("skillsmith.toml", "pyproject.toml", ".gitignore", ".git/info/exclude", ".git/index", ".git/HEAD")


def tree_key(paths: list[str], salt: bytes) -> str | None:
    """A key for checking *paths*, or None when the tree is too large to snapshot."""
    from skillsmith.rules.cache import cache_dir

    own_cache = os.path.abspath(cache_dir())  # our own writes must not change the key
    h = hashlib.blake2b(digest_size=20)
    h.update(salt)
    count = 0
    for given in paths:
        top = os.path.abspath(given)
        h.update(b"\0P" + os.fsencode(top))
        for folder in _ancestors(top):
            for name in _UPWARD:
                h.update(_stat_line(os.path.join(folder, name), name))
        h.update(_stat_line(top, "", folder_mtime=False))
        if os.path.basename(top) == "SKILL.md" and not os.path.isdir(top):
            top = os.path.dirname(top)  # a skill named by its SKILL.md is checked whole
        if not os.path.isdir(top):
            continue  # a link to a folder is walked, as the check walks it
        lines: list[str] = []
        add = lines.append
        for kind, _rel, path, st in walk_tree(top, limit=None, skip=lambda e: e.name in SKIP_DIRS or e.path == own_cache):
            count += 1
            if count > MAX_ENTRIES:
                return None
            if kind in ("dir", "skipped"):
                # a folder's own mtime is left out: its listing is hashed instead, and our
                # cache folder appearing inside a checked tree must not change the key
                if path != own_cache:
                    add(f"{path}|{st.st_mode}|{st.st_ino}")
            else:
                add(f"{path}|{st.st_mode}|{st.st_size}|{st.st_mtime_ns}|{st.st_ino}")
        h.update("\0".join(lines).encode("utf-8", "surrogateescape"))
    return h.hexdigest()


def _ancestors(path: str):
    folder = path if os.path.isdir(path) else os.path.dirname(path)
    while True:
        yield folder
        parent = os.path.dirname(folder)
        if parent == folder:
            return
        folder = parent


def _stat_line(path: str, name: str, folder_mtime: bool = True) -> bytes:
    try:
        st = os.stat(path)
    except OSError:
        return b"\0-" + name.encode()
    if not folder_mtime and stat.S_ISDIR(st.st_mode):
        return f"\0{name}|{st.st_mode}|{st.st_ino}".encode()
    return f"\0{name}|{st.st_mode}|{st.st_size}|{st.st_mtime_ns}|{st.st_ino}".encode()
