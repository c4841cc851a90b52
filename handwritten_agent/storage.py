"""SQLite, opened one way: the package's demo data, audit log, long-term memory and service store
all use ``open_sqlite`` (``llm.connect`` is the other ``connect``: to a model).

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

``add_missing_columns`` is the one schema step the SQLite files share: a file written by an older
version gains the columns a newer one writes (``ALTER TABLE … ADD COLUMN``), nothing is dropped.

Left out: connection pools and any database but SQLite (past one host, implement the same methods on
PostgreSQL).
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Mapping
from pathlib import Path

BUSY_TIMEOUT_SECONDS = 30


def open_sqlite(
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


def table_columns(db: sqlite3.Connection, table: str) -> set[str]:
    """The names of ``table``'s columns (empty when there is no such table)."""
    return {row[1] for row in db.execute(f"PRAGMA table_info({table})")}


def add_missing_columns(
    db: sqlite3.Connection, table: str, columns: Mapping[str, str]
) -> list[str]:
    """Add each column of ``columns`` (name → SQL type) that ``table`` does not have yet; the
    names added, in order. Table and column names come from the package, never from input.
    """
    present = table_columns(db, table)
    added = [name for name in columns if name not in present]
    for name in added:
        db.execute(f"ALTER TABLE {table} ADD COLUMN {name} {columns[name]}")
    return added


__all__ = ["BUSY_TIMEOUT_SECONDS", "add_missing_columns", "open_sqlite", "table_columns"]
