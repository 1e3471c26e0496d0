"""Keys from file metadata, so an unchanged tree (or unit) is answered without reading a file.

A metadata key holds, for every entry, its path, type, mode, inode and device, and for files
their size, modification time and change time (``ctime``, which no program can set back:
``touch -r`` and ``os.utime`` move it forward). A copy of a tree with the same shape and fixed
timestamps (reproducible archives, ``touch -r``) gets new change times, even when the file
system hands it the old tree's inode numbers.

Racy entries (git's racy-clean rule): a timestamp within the file system's granularity of the
moment the key is made may be followed by a rewrite that keeps it, so a key is not made from
such an entry (:func:`racy`); its unit falls back to the key by content. Granularity is judged
from the timestamp: one on a whole second (FAT, HFS+, ext3, many network mounts) is taken as
coarse (:data:`COARSE_NS`), any other as fine (:data:`FINE_NS`, above the kernel's clock tick).

:func:`tree_key` is the whole-run key. It covers everything a check of the given paths reads:
every entry below them (as every listing is hashed, an added, removed or renamed file changes
it), the config and git files upward from each path and from the current directory (whose
configuration is the user's own and whose repository decides what is ignored), and the
current directory itself. The paths are resolved first, so a path given as a link to a folder
is keyed by what it points to now. The walk is the check's own
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
import time

from skillsmith.discovery.walk import SKIP_DIRS, walk_tree

#: beyond this many entries the walk stops and no key is made (the per-unit cache still works)
MAX_ENTRIES = 200_000
#: the window of a timestamp on a whole second: FAT keeps 2 s
COARSE_NS = 2_000_000_000
#: the window of a finer timestamp: well above the kernel's clock tick (1-10 ms)
FINE_NS = 100_000_000
#: the files above a checked path that change what is found: the configuration, the ignore
#: files, and a Claude Code plugin's manifest or marketplace (which make its skills claude-code's)
_UPWARD = ("skillsmith.toml", "pyproject.toml", ".gitignore", ".git/info/exclude", ".git/index", ".git/HEAD",
           ".claude-plugin/plugin.json", ".claude-plugin/marketplace.json")


def racy(st: os.stat_result | None = None, now_ns: int = 0, *, mtime_ns: int = 0, ctime_ns: int = 0) -> bool:
    """Whether an entry's modification or change time is too close to *now_ns* to key on (or later)."""
    if st is not None:
        mtime_ns, ctime_ns = st.st_mtime_ns, st.st_ctime_ns
    for stamp in (mtime_ns, ctime_ns):
        if stamp >= now_ns - (COARSE_NS if stamp % 1_000_000_000 == 0 else FINE_NS):
            return True
    return False


def tree_key(paths: list[str], salt: bytes) -> str | None:
    """A key for checking *paths*, or None when the tree is too large or too fresh to key on."""
    state = tree_state(paths, salt)
    return state.key if state is not None else None


class TreeState:
    """One walk of the tree a check reads: the whole-run key, and what :func:`unit_digests` keys units by.

    *key* is None when an entry is too fresh (:func:`racy`); *lines* holds ``(path, line, racy,
    is_file)`` for every entry below the given paths, in walk order; *context* is the digest of
    all else the key holds (the salt, the current directory, the config and git files upward).
    """

    def __init__(self, key: str | None, context: str, lines: list[tuple[str, str, bool, bool]]) -> None:
        self.key, self.context, self.lines = key, context, lines


def tree_state(paths: list[str], salt: bytes) -> TreeState | None:
    """The walk of *paths* (see :func:`tree_key`), or None when the tree is too large to key on."""
    from skillsmith.rules.cache import cache_dir

    now = time.time_ns()
    own_cache = os.path.abspath(cache_dir())  # our own writes must not change the key
    h = hashlib.blake2b(digest_size=20)
    h.update(salt)
    cwd = os.path.realpath(os.getcwd())
    h.update(b"\0C" + os.fsencode(cwd))
    for folder in _ancestors(cwd):
        for name in _UPWARD:
            h.update(_stat_line(os.path.join(folder, name), name))
    count = 0
    fresh = False
    walked: list[tuple[str, str, bool, bool]] = []
    coarse = now - COARSE_NS  # an older stamp is never racy: racy() is asked only above it
    tops: list[list[str]] = []
    for given in paths:
        top = _resolved(given)
        h.update(b"\0P" + os.fsencode(os.path.abspath(given)) + b"\0" + os.fsencode(top))
        for folder in _ancestors(top):
            for name in _UPWARD:
                h.update(_stat_line(os.path.join(folder, name), name))
        h.update(_stat_line(top, "", folder_mtime=False))
        if os.path.basename(top) == "SKILL.md" and not os.path.isdir(top):
            top = os.path.dirname(top)  # a skill named by its SKILL.md is checked whole
        if not os.path.isdir(top):
            continue
        lines: list[str] = []
        add, entry = lines.append, walked.append
        for kind, _rel, path, st, _error in walk_tree(top, limit=None, skip=lambda e: e.name in SKIP_DIRS or e.path == own_cache):
            count += 1
            if count > MAX_ENTRIES:
                return None
            if kind in ("dir", "skipped", "unlisted"):
                # a folder's own mtime is left out: its listing is hashed instead, and our
                # cache folder appearing inside a checked tree must not change the key
                if path != own_cache:
                    line = f"{kind[0]}{path}|{st.st_mode}|{st.st_ino}|{st.st_dev}"
                    add(line)
                    entry((path, line, False, False))
            else:
                mtime, ctime = st.st_mtime_ns, st.st_ctime_ns
                line = f"{path}|{st.st_mode}|{st.st_size}|{mtime}|{ctime}|{st.st_ino}|{st.st_dev}"
                add(line)
                young = (mtime >= coarse or ctime >= coarse) and racy(st, now)
                fresh = fresh or young
                entry((path, line, young, True))
        tops.append(lines)
    context = h.hexdigest()
    for lines in tops:
        h.update(b"\0T")
        _hash_lines(h, lines)
    return TreeState(None if fresh else h.hexdigest(), context, walked)


#: the files whose content changes which folders a walk with an ignorer leaves out (git reads them)
_SHAPE_READ = frozenset({".gitignore"})
_SHAPE_ENDS = tuple(_SHAPE_READ)


def layout_key(state: TreeState) -> str | None:
    """A key for what the walk found below the paths regardless of what the files hold: the
    folders and the names, types and modes of their entries, the content of the ignore files
    among them (:data:`_SHAPE_READ`), and the context. None when it cannot be trusted (an ignore
    file too fresh to key on; a virtualenv marker that is a link, whose target may come and go).

    Which folders are skills (``discovery.discover.find_skills``) is a function of these: an edit
    of a file's content leaves the key as it is; adding, removing or renaming an entry, or
    changing an ignore file or the context, changes it.
    """
    parts = [state.context]
    add = parts.append
    for path, line, fresh, is_file in state.lines:
        if not is_file:
            add(line)
            continue
        if path.endswith(_SHAPE_ENDS) and os.path.basename(path) in _SHAPE_READ:
            if fresh:
                return None
            add(line)
        else:
            shape = line[:line.index("|", len(path) + 1)]  # path|mode
            if path.endswith("pyvenv.cfg") and os.path.basename(path) == "pyvenv.cfg" \
                    and stat.S_ISLNK(int(shape[len(path) + 1:])):
                return None
            add(shape)
    h = hashlib.blake2b(b"layout", digest_size=20)
    _hash_lines(h, parts)
    return h.hexdigest()


#: the files outside all skills whose content a unit's check reads: the configuration, the
#: ignore files (which files a unit holds), a plugin's manifest or marketplace (its target)
_READ_OUTSIDE = frozenset({"skillsmith.toml", "pyproject.toml", ".gitignore", "plugin.json", "marketplace.json",
                           "pyvenv.cfg"})


def unit_digests(state: TreeState, roots: list[str]) -> dict[str, str]:
    """A digest for each of *roots* (folders below the walked paths) that changes when anything
    the walk saw below it changes, or anything outside all of them, or the context; a root with
    an entry too fresh to key on, or with nothing walked below it, has none.

    The walk is a superset of what a unit's own load sees, so an unchanged digest means unchanged
    files; the entries outside the roots count for all: their names and types, and the content
    stamps of the files that can change a unit's findings (:data:`_READ_OUTSIDE`: config, ignore
    files, a plugin's manifest). An edit of any other file outside the skills (a plugin's own
    ``scripts/x.py``, a README) leaves the skills' digests as they are.
    Roots nested in one another (a skill inside a skill) are one cluster: each of them is keyed
    by everything below the outermost (a nested skill reads its outer skill's config, the outer
    one lists the nested folder), so a change anywhere in the cluster changes all their digests.
    """
    wanted = set(roots)
    owners: dict[str, str | None] = {}

    def owner(folder: str) -> str | None:
        found = owners.get(folder, False)
        if found is False:
            parent = os.path.dirname(folder)
            found = folder if folder in wanted else (owner(parent) if parent != folder else None)
            owners[folder] = found
        return found

    outermost: dict[str, str] = {}  # each root nested in another, and each around one: the outermost root
    for root in wanted:
        top, outer = root, owner(os.path.dirname(root))
        while outer is not None:
            top, outer = outer, owner(os.path.dirname(outer))
        if top != root:
            outermost[root] = outermost[top] = top
    clusters: dict[str, list[str]] = {}
    for root, top in outermost.items():
        clusters.setdefault(top, []).append(root)
    groups: dict[str | None, list[str]] = {}
    young: set[str | None] = set()
    current, inside = None, "\0"  # a root's entries come one after another: the last root seen
    for path, line, fresh, is_file in state.lines:
        if path.startswith(inside):
            root = current
        else:
            root = path if path in wanted else owner(os.path.dirname(path))
            if root is not None:
                current, inside = root, root + "/"
        if root is None and is_file and os.path.basename(path) not in _READ_OUTSIDE:
            line, fresh = line[:line.index("|", len(path) + 1)], False  # path|mode: its content is no unit's
        groups.setdefault(root, []).append(line)
        if fresh:
            young.add(root)
    if None in young:
        return {}
    rest = hashlib.blake2b(digest_size=20)
    _hash_lines(rest, groups.get(None, []))
    rest.update(state.context.encode())
    digests = {}
    for root in roots:
        top = outermost.get(root)
        members = [root] if top is None else sorted(clusters[top])
        if any(m in young for m in members) or (top or root) not in groups:
            continue
        h = rest.copy()
        for member in members:  # a cluster's entries are spread over its members' groups (whichever root the walk was in)
            h.update(b"\0U" + os.fsencode(member) + b"\0" + "\0".join(groups.get(member, ())).encode("utf-8", "surrogateescape"))
        digests[root] = h.hexdigest()
    return digests


#: lines hashed per piece: the text of a whole tree's walk is never built at once
_LINES_AT_ONCE = 4096


def _hash_lines(h, lines: list[str]) -> None:
    """``h.update("\\0".join(lines).encode("utf-8", "surrogateescape"))``, the same bytes, a piece at a time."""
    for start in range(0, len(lines), _LINES_AT_ONCE):
        if start:
            h.update(b"\0")
        h.update("\0".join(lines[start:start + _LINES_AT_ONCE]).encode("utf-8", "surrogateescape"))


def _resolved(given: str) -> str:
    """*given* with every link in its folders resolved (a file's own name is kept: ``SKILL.md`` may be a link)."""
    absolute = os.path.abspath(given)
    if os.path.isdir(absolute):
        return os.path.realpath(absolute)
    return os.path.join(os.path.realpath(os.path.dirname(absolute)), os.path.basename(absolute))


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
        return f"\0{name}|{st.st_mode}|{st.st_ino}|{st.st_dev}".encode()
    return f"\0{name}|{st.st_mode}|{st.st_size}|{st.st_mtime_ns}|{st.st_ctime_ns}|{st.st_ino}|{st.st_dev}".encode()
