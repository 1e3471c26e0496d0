"""Atomic writes: a temp file in the same folder, fsync, ``os.replace``; what the file system gave
the file is kept.

A crash at any point leaves either the old file or the new one, never half of either. A write
that fails removes its temp file; a process killed between creating its temp file and the rename
leaves it behind, under a name only this module makes (:data:`TEMP_NAME`), and
:func:`remove_stale_temps` removes those on a later run. A symbolic link is never written
through (the link, not its target, would be replaced), and a file outside *root* is refused.

The new file keeps the old one's permission bits (unless *mode* says otherwise), owner and group
(where the running user may set them: a root-run write hands no one's file to root; a write that
cannot keep them is refused) and extended attributes where the platform has them (ACLs are
``system.posix_acl_*`` attributes on Linux). A file with more than one hard link cannot be
replaced without splitting its names; callers that must keep links refuse such files first
(see ``skillsmith.fix.engine.unwritable``).
"""

from __future__ import annotations

import errno
import os
import re
import stat
import tempfile
from pathlib import Path

#: the name of a temp file: ``.<name>.skillsmith-<8 random characters>.tmp`` (``tempfile``'s alphabet)
TEMP_NAME = re.compile(r"^\.(?P<name>.+)\.skillsmith-[a-z0-9_]{8}\.tmp$", re.DOTALL)


def atomic_write(path: str | Path, data: bytes, mode: int | None = None, root: str | Path | None = None) -> None:
    """Replace *path* with *data*. *mode* defaults to the existing file's permission bits.

    Raises OSError (nothing changed) when *path* is a symbolic link, lies outside *root*
    (after resolving links in its folder), its owner or group cannot be kept, or the write fails.
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
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.skillsmith-", suffix=".tmp", dir=folder)
    try:
        try:
            view = memoryview(data)
            while view:
                written = os.write(fd, view)
                view = view[written:]
            if st is not None:
                keep_owner(fd, st)
                copy_xattrs(path, fd)
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


def keep_owner(fd: int, st: os.stat_result) -> None:
    """Give the open temp file *fd* the owner and group of *st*; OSError when that is not permitted."""
    now = os.fstat(fd)
    if (now.st_uid, now.st_gid) == (st.st_uid, st.st_gid):
        return
    try:
        os.fchown(fd, st.st_uid, st.st_gid)
    except OSError as exc:
        raise OSError(exc.errno, f"cannot keep its owner and group ({st.st_uid}:{st.st_gid})") from None


def copy_xattrs(source: Path, fd: int) -> None:
    """Copy the extended attributes of *source* onto *fd*; nothing where the platform or file system has none."""
    if not hasattr(os, "listxattr"):
        return
    try:
        names = os.listxattr(source, follow_symlinks=False)
    except OSError as exc:
        if exc.errno in (errno.ENOTSUP, errno.EOPNOTSUPP, errno.ENOSYS):
            return
        raise
    for name in names:
        try:
            os.setxattr(fd, name, os.getxattr(source, name, follow_symlinks=False))
        except OSError as exc:
            if exc.errno in (errno.ENOTSUP, errno.EOPNOTSUPP, errno.ENOSYS):
                continue
            raise OSError(exc.errno, f"cannot keep its extended attribute {name}") from None


def remove_stale_temps(folders, before: float) -> list[Path]:
    """Remove temp files of :func:`atomic_write` left in *folders* by a killed run; the removed paths.

    Only regular files (not links) whose name is :data:`TEMP_NAME` and that were last changed
    before *before* (a time stamp: the start of this run) are removed, so a concurrent run's
    temp file is left alone.
    """
    removed = []
    for folder in folders:
        try:
            entries = list(os.scandir(folder))
        except OSError:
            continue
        for entry in entries:
            if not TEMP_NAME.match(entry.name):
                continue
            try:
                st = entry.stat(follow_symlinks=False)
                if not stat.S_ISREG(st.st_mode) or st.st_mtime >= before:
                    continue
                os.unlink(entry.path)
            except OSError:
                continue
            removed.append(Path(entry.path))
    return removed


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
