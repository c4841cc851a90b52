"""The same ``Store`` on PostgreSQL: ``Store("postgresql://user@host/db")`` — for two or more
replicas of the service behind one database.

What differs from SQLite, and only here:

- connections come from a ``psycopg_pool.ConnectionPool`` (autocommit; a write is one
  ``conn.transaction()``), and ``?`` in the shared SQL becomes psycopg's ``%s``;
- a write that reads and then relies on what it read (an idempotency key, a user name, a decision, a
  session's history) first takes one transaction-level advisory lock, so those are serialised like
  SQLite's single writer; an event, a lease, a claim or a cancel locks only its run's row, and
  orphaned runs are selected ``FOR UPDATE SKIP LOCKED`` so two replicas never take the same one;
- every write that touched a run sends ``NOTIFY`` on ``hat_runs`` with the run id (delivered when it
  commits, to every replica), and a listener thread per store wakes the local watchers (the SSE
  streams): a run created or decided on one replica streams live from another. The events table
  stays the truth; a notification only says "look again";
- migrations hold an advisory lock, so replicas starting together apply each step once.

Left out: TLS and passwords beyond what the URL says (psycopg reads ``PGPASSWORD`` and
``~/.pgpass``), read replicas, and partitioning the events table.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from . import Store
from .migrations import for_postgres

log = logging.getLogger("handwritten_agent.service")

CHANNEL = "hat_runs"
WRITE_LOCK = 7_270_001
"""The advisory lock a serial write holds (any number no other code uses)."""
SCHEMA_LOCK = 7_270_002


class Row:
    """A row read by name (``row["id"]``) or by position (``row[0]``), iterated as its values and
    turned into a dict by ``dict(row)`` — like ``sqlite3.Row``.
    """

    __slots__ = ("_names", "_values")

    def __init__(self, names: Sequence[str], values: Sequence[Any]):
        self._names, self._values = names, tuple(values)

    def keys(self) -> list[str]:
        return list(self._names)

    def __getitem__(self, key: Any) -> Any:
        if isinstance(key, int):
            return self._values[key]
        return self._values[self._names.index(key)]

    def __iter__(self) -> Iterator[Any]:
        return iter(self._values)

    def __len__(self) -> int:
        return len(self._values)


def _rows(cursor: Any) -> Callable[[Sequence[Any]], Row]:
    names = [column.name for column in cursor.description or ()]
    return lambda values: Row(names, values)


class _Connection:
    """A psycopg connection that takes the shared SQL (``?`` placeholders)."""

    def __init__(self, conn: Any):
        self.conn = conn

    def execute(self, sql: str, params: Sequence[Any] = ()) -> Any:
        return self.conn.execute(sql.replace("?", "%s"), tuple(params))


class PostgresStore(Store):
    """The service's PostgreSQL database (see the module docstring). Safe to share between
    threads.
    """

    dialect = "postgresql"
    SKIP_LOCKED = " FOR UPDATE SKIP LOCKED"

    def __init__(
        self,
        url: str,
        *,
        clock: Callable[[], float] = time.time,
        min_size: int = 1,
        max_size: int = 10,
        listen: bool = True,
    ):
        import psycopg
        from psycopg_pool import ConnectionPool

        self.path, self.url, self.clock = url, url, clock
        self.INTEGRITY_ERRORS = (psycopg.IntegrityError,)
        self._psycopg = psycopg
        self._local = threading.local()
        self._watchers: list[Callable[[str], None]] = []
        self._closed = threading.Event()
        self._pool = ConnectionPool(
            url,
            min_size=min_size,
            max_size=max_size,
            kwargs={"autocommit": True, "row_factory": _rows},
            open=True,
            name="handwritten-agent-service",
        )
        self._pool.wait(timeout=30)
        self.migrate()
        self._listener: threading.Thread | None = None
        if listen:
            self._listener = threading.Thread(target=self._listen, name="store-listen", daemon=True)
            self._listener.start()

    # ----------------------------------------------------------------------- connections

    @contextmanager
    def _connect(self) -> Iterator[Any]:
        with self._pool.connection() as conn:
            yield _Connection(conn)

    @contextmanager
    def _write(self, serial: bool = True) -> Iterator[Any]:
        self._local.touched = set()
        with self._pool.connection() as conn, conn.transaction():
            db = _Connection(conn)
            if serial:
                conn.execute("SELECT pg_advisory_xact_lock(%s)", (WRITE_LOCK,))
            yield db
            for run_id in sorted(self._local.touched):
                conn.execute("SELECT pg_notify(%s, %s)", (CHANNEL, run_id))
        for run_id in self._local.touched:  # this replica's streams at once; the others by NOTIFY
            self._wake(run_id)

    def _wake(self, run_id: str) -> None:
        for watcher in list(self._watchers):
            watcher(run_id)

    def _sql(self, statement: str) -> str:
        return for_postgres(statement)

    def _lock_schema(self, db: Any) -> None:
        db.execute("SELECT pg_advisory_xact_lock(?)", (SCHEMA_LOCK,))

    @staticmethod
    def _columns(db: Any, table: str) -> set[str]:
        rows = db.execute(
            "SELECT column_name FROM information_schema.columns WHERE table_schema ="
            " current_schema() AND table_name = ?",
            (table,),
        )
        return {row[0] for row in rows}

    def _lock_run(self, db: Any, run_id: str) -> None:
        db.execute("SELECT 1 FROM runs WHERE id = ? FOR UPDATE", (run_id,))

    # ----------------------------------------------------------------------- notifications

    def watch(self, watcher: Callable[[str], None]) -> None:
        """Call ``watcher(run_id)`` after every committed write that changed that run or added an
        event to it — on any replica (``LISTEN``/``NOTIFY``).
        """
        self._watchers.append(watcher)

    def _listen(self) -> None:
        """Hear every replica's writes; reconnect after a lost connection (waking every watcher
        then, since notifications sent meanwhile are lost), until ``close``.
        """
        while not self._closed.is_set():  # bounded by close()
            try:
                with self._psycopg.connect(self.url, autocommit=True) as conn:
                    conn.execute(f"LISTEN {CHANNEL}")
                    while not self._closed.is_set():
                        for note in conn.notifies(timeout=0.5):
                            self._wake(note.payload)
            except Exception:  # noqa: BLE001 - the database went away: streams fall back to polling
                if self._closed.is_set():
                    return
                log.warning("LISTEN %s lost its connection; reconnecting", CHANNEL, exc_info=True)
                self._closed.wait(1.0)

    def close(self) -> None:
        self._closed.set()
        if self._listener is not None:
            self._listener.join(timeout=5)
        self._pool.close()


__all__ = ["CHANNEL", "PostgresStore"]
