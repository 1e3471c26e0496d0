"""Atomic writes: a temp file in the same folder, fsync, ``os.replace``; mode bits kept.

A crash at any point leaves either the old file or the new one, never half of either, and no
temp file behind. A symbolic link is never written through (the link, not its target, would
be replaced), and a file outside *root* is refused.
"""

from __future__ import annotations

import os
import stat
import tempfile
from pathlib import Path


def atomic_write(path: str | Path, data: bytes, mode: int | None = None, root: str | Path | None = None) -> None:
    """Replace *path* with *data*. *mode* defaults to the existing file's permission bits.

    Raises OSError (nothing changed) when *path* is a symbolic link, lies outside *root*
    (after resolving links in its folder), or the write fails.
    """
    path = Path(path)
    folder = path.parent
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        st = None
    if st is not None and stat.S_ISLNK(st.st_mode):
        raise OSError(f"{path}: is a symbolic link; not written through")
    if st is not None and not stat.S_ISREG(st.st_mode):
        raise OSError(f"{path}: not a regular file")
    if root is not None:
        real_root = os.path.realpath(root)
        if os.path.commonpath([os.path.realpath(folder), real_root]) != real_root:
            raise OSError(f"{path}: outside {root}; not written")
    if mode is None:
        if st is not None:
            mode = stat.S_IMODE(st.st_mode)
        else:
            umask = os.umask(0)
            os.umask(umask)
            mode = 0o666 & ~umask
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
    try:
        try:
            view = memoryview(data)
            while view:
                written = os.write(fd, view)
                view = view[written:]
            os.fchmod(fd, mode)
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    _fsync_dir(folder)


def _fsync_dir(folder: Path) -> None:
    """Make the rename durable (best effort: not every platform can open a folder)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
