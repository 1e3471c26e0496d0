"""Results cached by content hash and rule-set version, so an unchanged tree re-checks fast.

One store per cache folder: the SQLite file ``results.sqlite3`` under ``$SKILLSMITH_CACHE_DIR``
(default ``$XDG_CACHE_HOME/skillsmith`` or ``~/.cache/skillsmith``), key -> JSON document.
Each process reads it as it goes and keeps what it stores in memory until :func:`flush`,
which writes it in one transaction (the engine flushes once per batch of units and once per
run), so a run costs a few writes instead of files per unit. A damaged store or entry is a
miss, and a store that cannot be written only makes the next run slower. The entries beyond
the newest :data:`MAX_ENTRIES` are dropped as new ones come in.

Each unit is stored under two keys (see ``skillsmith.rules.engine``): one from its files'
metadata, which answers an untouched unit without reading it, and one from its files'
content and its path relative to the checked folder, which a copy of the tree elsewhere
(a CI checkout) hits too.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

STORE = "results.sqlite3"
#: entries kept: the oldest go first
MAX_ENTRIES = 200_000

_connection = None  # (pid, sqlite3.Connection) or (pid, None) when the store cannot be used
_inherited: list = []  # a parent's connection seen after a fork: kept, never used or closed here
_pending: dict[str, str] = {}
_pending_pid = os.getpid()


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


def _store():
    """This process's connection to the store, or None when there is none (no sqlite3, unwritable, damaged)."""
    global _connection
    pid = os.getpid()
    if _connection is not None and _connection[0] == pid:
        return _connection[1]
    if _connection is not None and _connection[1] is not None:
        _inherited.append(_connection[1])  # a forked child must not close its parent's handle
    conn = None
    try:
        import sqlite3
    except ImportError:  # a Python built without it: no cache
        _connection = (pid, None)
        return None
    folder = cache_dir()
    for attempt in range(2):
        try:
            folder.mkdir(parents=True, exist_ok=True)
            conn = sqlite3.connect(folder / STORE, timeout=10, isolation_level=None, check_same_thread=False)
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=NORMAL")
            conn.execute("CREATE TABLE IF NOT EXISTS entries (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
            break
        except sqlite3.DatabaseError as exc:  # not a database (damaged): start a new store, once
            if conn is not None:
                conn.close()
            conn = None
            if attempt or isinstance(exc, sqlite3.OperationalError):
                break
            for suffix in ("", "-wal", "-shm"):
                try:
                    os.unlink(folder / (STORE + suffix))
                except OSError:
                    pass
        except (OSError, sqlite3.Error):
            conn = None
            break
    _connection = (pid, conn)
    return conn


def _store_errors() -> tuple:
    import sqlite3

    return (OSError, sqlite3.Error)


def _own_pending() -> dict[str, str]:
    """What this process stored and has not written (a forked child starts with nothing)."""
    global _pending_pid
    if _pending_pid != os.getpid():
        _pending.clear()
        _pending_pid = os.getpid()
    return _pending


def get(key: str) -> dict | None:
    pending = _own_pending()
    raw = pending.get(key)
    if raw is None:
        conn = _store()
        if conn is None:
            return None
        try:
            row = conn.execute("SELECT value FROM entries WHERE key = ?", (key,)).fetchone()
        except _store_errors():
            return None
        if row is None:
            return None
        raw = row[0]
    try:
        return json.loads(raw)
    except (TypeError, ValueError):
        return None


#: keys per query of :func:`get_many` (SQLite's oldest limit on a statement's parameters is 999)
KEYS_PER_QUERY = 500


def get_many(keys: list[str]) -> dict[str, dict]:
    """The entries of *keys* that are stored (and readable), in a query per :data:`KEYS_PER_QUERY` keys."""
    pending = _own_pending()
    raws = {k: pending[k] for k in keys if k in pending}
    wanted = [k for k in dict.fromkeys(keys) if k not in raws]
    conn = _store() if wanted else None
    if conn is not None:
        try:
            for i in range(0, len(wanted), KEYS_PER_QUERY):
                chunk = wanted[i:i + KEYS_PER_QUERY]
                marks = ",".join("?" * len(chunk))
                raws.update(conn.execute(f"SELECT key, value FROM entries WHERE key IN ({marks})", chunk).fetchall())
        except _store_errors():
            pass
    found = {}
    for key, raw in raws.items():
        try:
            found[key] = json.loads(raw)
        except (TypeError, ValueError):
            continue
    return found


def put(key: str, value: dict) -> None:
    """Store *value* under *key*: kept in memory until :func:`flush` writes it."""
    _own_pending()[key] = json.dumps(value)


def flush() -> None:
    """Write what this process stored, in one transaction; a store that cannot be written is only slower."""
    pending = _own_pending()
    if not pending:
        return
    items = list(pending.items())
    pending.clear()
    conn = _store()
    if conn is None:
        return
    try:
        conn.execute("BEGIN IMMEDIATE")
        try:
            conn.executemany("INSERT OR REPLACE INTO entries (key, value) VALUES (?, ?)", items)
            conn.execute("DELETE FROM entries WHERE rowid <= (SELECT max(rowid) FROM entries) - ?", (MAX_ENTRIES,))
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise
    except _store_errors():
        pass
