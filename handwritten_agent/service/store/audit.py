"""The permission gate's audit log in the service's PostgreSQL database: ``PostgresAuditLog(url)``,
the same methods as ``permissions.AuditLog`` (which keeps it in one SQLite file per host), on the
tables of migration step 5 (``audit``, ``audit_requests``, ``audit_settled``, ``audit_untrusted``).

Why: a cumulative limit ("at most 5 text messages per user in a window", "10 emails an hour") is
counted from the audit log. In a SQLite file under one host's data folder, replicas on two hosts
would each count only their own calls; in the database they all share, every replica counts every
call.

Counting and writing down, race-free. The gate decides in two steps: it counts what was granted
(``count_granted``, ``sum_targets``), then writes its decision (``record``; for an approval also
``settle``). Two replicas that count "4 sent, limit 5" at the same moment would both grant a batch
of 4 if nothing closed the window between the count and the row. ``exclusive(user_id, tool)`` closes
it: the gate's whole check of one call (``agents.SharedLimitGate``) runs in one transaction that
first takes a transaction-level advisory lock keyed by the user and the tool; every audit read and
write of that check, on that thread, goes through that transaction, and the commit at the end
releases the lock. A second replica checking the same user and tool waits for the commit and then
counts the first one's row. Every count the gate makes is per user and tool (the run's own total
is per run, and a run has one user), so this key covers all of them.

Why an advisory lock and not ``SELECT … FOR UPDATE`` on a counter row: a window limit is a sum over
time-stamped rows, not one number — a counter row would need resetting per window and a second
write per decision, and there is no row to lock for a user's first call. The advisory lock needs no
row, is released by the commit (or by the server when a replica dies mid-check), and a hash
collision between two keys only makes two unrelated checks wait for each other. The lock is held
only while the gate decides — never while a tool runs — so it serialises a few milliseconds per call
of one user's one tool. Rows written under it (an ``asked`` row before the run pauses, a
``rate_limited`` refusal) are committed even when the check ends by pausing the run; only an error
of the database itself rolls the check back.

Left out: the lock wait has no timeout of its own (a check holds it for milliseconds, and a replica
that dies drops its connection, which releases it), retention of old rows, and reading the log of a
SQLite service into PostgreSQL (a service moved to PostgreSQL starts its limits afresh).
"""

from __future__ import annotations

import hashlib
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from ...permissions.audit import GRANTED, AuditLog, decision_row, request_row

LIMIT_LOCK_CLASS = 7_270_010
"""The first key of the two-key advisory locks taken per user and tool (the store's own locks use
the one-key form, a separate space)."""


def limit_key(user_id: str | None, tool: str) -> int:
    """A signed 32-bit key for ``(user_id, tool)``: the second key of the advisory lock."""
    digest = hashlib.sha256(f"{user_id or ''}\x1f{tool}".encode()).digest()
    return int.from_bytes(digest[:4], "big", signed=True)


class PostgresAuditLog(AuditLog):
    """The audit log on PostgreSQL (see the module docstring). Safe to share between threads."""

    def __init__(self, url: str, *, min_size: int = 1, max_size: int = 4):
        import psycopg
        from psycopg.rows import dict_row
        from psycopg_pool import ConnectionPool

        self.path = url
        self._psycopg = psycopg
        self._local = threading.local()
        self._pool = ConnectionPool(
            url,
            min_size=min_size,
            max_size=max_size,
            kwargs={"autocommit": True, "row_factory": dict_row},
            open=True,
            name="handwritten-agent-audit",
        )
        self._pool.wait(timeout=30)
        with self._db() as db:
            present = db.execute("SELECT to_regclass('audit') AS found").fetchone()["found"]
        if present is None:
            raise RuntimeError(
                "数据库里还没有审计表（迁移第 5 步）：先用这个数据库启动一次服务（Store(url)）。"
            )

    # ------------------------------------------------------------------ connections

    @contextmanager
    def _db(self) -> Iterator[Any]:
        """The connection of this thread's ``exclusive`` block, or one from the pool (autocommit:
        every statement committed when it returns)."""
        held = getattr(self._local, "conn", None)
        if held is not None:
            yield held
            return
        with self._pool.connection() as conn:
            yield conn

    @contextmanager
    def exclusive(self, user_id: str | None, tool: str) -> Iterator[None]:
        """One transaction holding the lock of ``(user_id, tool)``: counts made in it and the rows
        written in it are one step for every replica. Nested blocks join the outer one."""
        if getattr(self._local, "conn", None) is not None:
            yield
            return
        paused: Exception | None = None
        with self._pool.connection() as conn:
            with conn.transaction():
                conn.execute(
                    "SELECT pg_advisory_xact_lock(%s, %s)",
                    (LIMIT_LOCK_CLASS, limit_key(user_id, tool)),
                )
                self._local.conn = conn
                try:
                    yield
                except self._psycopg.Error:
                    raise  # the database failed: the transaction is rolled back
                except Exception as exc:  # noqa: BLE001 - e.g. the run pauses: keep what was written
                    paused = exc
                finally:
                    self._local.conn = None
        if paused is not None:
            raise paused

    # ------------------------------------------------------------------ writing

    def record(self, decision: str, **fields: Any) -> int:
        names, values = decision_row(decision, fields)
        with self._db() as db:
            row = db.execute(
                f"INSERT INTO audit ({', '.join(names)}) VALUES"
                f" ({', '.join('%s' for _ in names)}) RETURNING id",
                values,
            ).fetchone()
        return int(row["id"])

    def issue(self, request: Any, user_id: str | None) -> None:
        with self._db() as db:
            db.execute(
                "INSERT INTO audit_requests VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s)"
                " ON CONFLICT (id) DO NOTHING",
                request_row(request, user_id),
            )

    def settle(
        self, request_id: str, verdict: str, decided_by: str | None, reason: str = ""
    ) -> bool:
        # ON CONFLICT, not a caught unique violation: an error would abort an exclusive block
        with self._db() as db:
            row = db.execute(
                "INSERT INTO audit_settled VALUES (%s, %s, %s, %s, %s)"
                " ON CONFLICT (request_id) DO NOTHING RETURNING request_id",
                (request_id, verdict, decided_by, reason, time.time()),
            ).fetchone()
        return row is not None

    def note_untrusted(self, run_id: str, tool: str, tool_call_id: str, excerpt: str) -> None:
        with self._db() as db:
            db.execute(
                "INSERT INTO audit_untrusted (run_id, tool, tool_call_id, excerpt, ts)"
                " VALUES (%s, %s, %s, %s, %s) ON CONFLICT (run_id, tool_call_id) DO NOTHING",
                (run_id, tool, tool_call_id, excerpt, time.time()),
            )

    # ------------------------------------------------------------------ reading

    def untrusted(self, run_id: str) -> list[dict[str, Any]]:
        with self._db() as db:
            rows = db.execute(
                "SELECT tool, tool_call_id, excerpt FROM audit_untrusted WHERE run_id = %s"
                " ORDER BY ts, id",
                (run_id,),
            ).fetchall()
        return [dict(row) for row in rows]

    def issued(self, request_id: str) -> dict[str, Any] | None:
        with self._db() as db:
            row = db.execute("SELECT * FROM audit_requests WHERE id = %s", (request_id,)).fetchone()
        return dict(row) if row else None

    def settled(self, request_id: str) -> dict[str, Any] | None:
        with self._db() as db:
            row = db.execute(
                "SELECT * FROM audit_settled WHERE request_id = %s", (request_id,)
            ).fetchone()
        return dict(row) if row else None

    def count_granted(self, user_id: str, tool: str, since: float) -> int:
        with self._db() as db:
            row = db.execute(
                "SELECT COUNT(*) AS n FROM audit WHERE user_id = %s AND tool = %s AND ts >= %s"
                " AND decision = ANY(%s)",
                (user_id, tool, since, list(GRANTED)),
            ).fetchone()
        return int(row["n"])

    def sum_targets(
        self,
        tool: str,
        *,
        user_id: str | None = None,
        since: float | None = None,
        run_id: str | None = None,
    ) -> int:
        conditions, params = ["tool = %s", "decision = ANY(%s)"], [tool, list(GRANTED)]
        for column, operator, value in (
            ("user_id", "=", user_id),
            ("ts", ">=", since),
            ("run_id", "=", run_id),
        ):
            if value is not None:
                conditions.append(f"{column} {operator} %s")
                params.append(value)
        with self._db() as db:
            row = db.execute(
                "SELECT COALESCE(SUM(targets), 0) AS n FROM audit WHERE"
                f" {' AND '.join(conditions)}",
                params,
            ).fetchone()
        return int(row["n"])

    def rows(self, run_id: str | None = None, user_id: str | None = None) -> list[dict[str, Any]]:
        conditions, params = [], []
        for column, value in (("run_id", run_id), ("user_id", user_id)):
            if value is not None:
                conditions.append(f"{column} = %s")
                params.append(value)
        where = f" WHERE {' AND '.join(conditions)}" if conditions else ""
        with self._db() as db:
            found = db.execute(f"SELECT * FROM audit{where} ORDER BY id", params).fetchall()
        return [dict(row) for row in found]

    def close(self) -> None:
        self._pool.close()

    def __repr__(self) -> str:
        return "PostgresAuditLog(…)"  # the URL may carry a password


__all__ = ["LIMIT_LOCK_CLASS", "PostgresAuditLog", "limit_key"]
