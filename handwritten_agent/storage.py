"""SQLite, opened one way: the package's demo data, audit log, long-term memory and service store
all use ``connect``.

Every connection gets rows that read like dicts (``sqlite3.Row``), foreign keys enforced, and a
30-second wait when another connection holds the lock (instead of failing at once with "database is
locked"). The options say what differs between the uses:

- ``read_only``: opened with ``mode=ro`` — a query tool cannot write, whatever SQL it is given;
- ``autocommit``: no implicit transactions; the caller writes ``BEGIN IMMEDIATE … COMMIT`` around
  every read-then-write, so two processes cannot both read "free" and both book;
- ``shared``: one connection used from several threads (the caller holds a lock around each use);
- ``wal``: write-ahead logging, so readers go on while one process writes (the setting stays in the
  file);
- ``durable``: ``True`` is ``synchronous=FULL`` — a committed row survives a power loss, not only a
  killed process (the audit log's promise: a decision is on disk before the tool runs); ``False`` is
  ``synchronous=NORMAL`` — with WAL a commit survives a killed process, and a power cut may lose the
  last ones (the service store's events: much faster); ``None`` leaves SQLite's default.

Left out: connection pools and any database but SQLite (past one host, implement the same methods on
PostgreSQL).
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

BUSY_TIMEOUT_SECONDS = 30


def connect(
    path: str | os.PathLike[str],
    *,
    read_only: bool = False,
    autocommit: bool = False,
    shared: bool = False,
    wal: bool = False,
    durable: bool | None = None,
) -> sqlite3.Connection:
    """Open the SQLite database at ``path`` (``":memory:"`` for a private in-memory one) as the
    docstring above says.
    """
    target: str = str(path)
    if read_only:
        target = f"{Path(path).resolve().as_uri()}?mode=ro"
    db = sqlite3.connect(
        target,
        uri=read_only,
        timeout=BUSY_TIMEOUT_SECONDS,
        check_same_thread=not shared,
        isolation_level=None if autocommit else "",
    )
    db.row_factory = sqlite3.Row
    db.execute("PRAGMA foreign_keys=ON")
    if wal and not read_only:
        db.execute("PRAGMA journal_mode=WAL")
    if durable is not None:
        db.execute(f"PRAGMA synchronous={'FULL' if durable else 'NORMAL'}")
    return db


__all__ = ["BUSY_TIMEOUT_SECONDS", "connect"]
