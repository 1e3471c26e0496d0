"""A whole-run cache key from file metadata, so an unchanged tree is answered at once.

The key covers everything a check of the given paths reads: every entry below them (path,
type, mode, inode, and for files their size and modification time; as every listing is
hashed, an added, removed or renamed file changes it), the config files upward from each
path, and the git files that decide what is ignored. It is built with ``os.scandir`` alone: no file is opened. Any change falls back to
the per-unit keys in ``skillsmith.checker``, which still avoid re-checking unchanged skills.
"""

from __future__ import annotations

import hashlib
import os
import stat

from skillsmith.discovery.walk import SKIP_DIRS

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
        if not os.path.isdir(top) or os.path.islink(top):
            continue
        stack = [top]
        lines: list[str] = []
        add = lines.append
        while stack:
            folder = stack.pop()
            try:
                entries = list(os.scandir(folder))  # an unchanged folder lists in the same order
            except OSError as exc:
                add(f"E{folder}:{exc.errno}")
                continue
            count += len(entries)
            if count > MAX_ENTRIES:
                return None
            for e in entries:
                if e.path == own_cache:
                    continue
                try:
                    st = e.stat(follow_symlinks=False)
                except OSError:
                    continue
                if stat.S_ISDIR(st.st_mode):
                    # a folder's own mtime is left out: its listing is hashed instead, and our
                    # cache folder appearing inside a checked tree must not change the key
                    add(f"{e.path}|{st.st_mode}|{st.st_ino}")
                    if e.name not in SKIP_DIRS:
                        stack.append(e.path)
                else:
                    add(f"{e.path}|{st.st_mode}|{st.st_size}|{st.st_mtime_ns}|{st.st_ino}")
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
