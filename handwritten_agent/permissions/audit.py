"""The audit log: every permission decision, written to SQLite at the moment it is made.

Seed 003's third safeguard: who called what, when, with which arguments, what was decided and by
whom. A row is written (and committed: the connection is in autocommit mode, the journal
synchronous) *before* the tool runs, so if the process dies right after, the decision is on disk.
Arguments are stored masked.

Four tables:

- ``audit``: one row per decision — ``allowed``, ``asked`` (paused for a person), ``confirmed`` (by
  the user, L2), ``approved`` (by an approver, L3), ``rejected``, ``denied``, ``invalid_arguments``,
  ``rate_limited``, ``not_authorized`` (someone without the right role tried to decide),
  ``invalid_decision``, ``approval_mismatch`` (a decision for other arguments or another call),
  ``approval_reused`` (a second use of one approval), ``error``;
- ``requests``: every confirmation request the gate issued, so a resumed request can be checked
  against what was really asked (a request edited in the stored JSON does not match);
- ``settled``: one row per decided request, keyed by its id — the insert is what makes an approval
  single-use, even for two processes resuming the same paused run at once;
- ``untrusted``: the untrusted tool results (email, web pages, customer data) that entered each run,
  so a run resumed in another process still knows its side effects need a person.

Rate limits count ``allowed``/``confirmed``/``approved`` rows, and bulk limits add up their
``targets``, so both hold across calls, runs and processes. A row asked for after untrusted text
carries that text's origin in ``provenance`` (JSON: tool, call id, excerpt). Rows keep ids (what the
log is keyed by) and, when the gate knows them, the names of who asked and who decided
(``user_name``, ``decided_name``), which the table shows.

The service on PostgreSQL keeps the same tables in its database instead
(``service.store.audit.PostgresAuditLog``, a subclass with the same methods), so replicas on several
hosts count the same limits; its ``exclusive(user_id, tool)`` makes a check's counts and the row it
writes one step across replicas. Here ``exclusive`` does nothing. Both build their rows the same
way: ``decision_row`` for a decision, ``request_row`` for an issued request.

Left out: retention and rotation, tamper-evidence (hash chains), and shipping rows elsewhere (Day 6
writes traces; Day 7's service reads this table).
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from ..storage import add_missing_columns, open_sqlite

GRANTED = ("allowed", "confirmed", "approved")
"""Decisions after which the tool ran (or was about to): what rate limits count."""

DECISIONS_ZH: dict[str, str] = {
    "allowed": "放行",
    "asked": "等待确认",
    "confirmed": "发起人已确认",
    "approved": "审批通过",
    "rejected": "已拒绝",
    "denied": "拒绝调用",
    "invalid_arguments": "参数无效",
    "rate_limited": "超出频率限制",
    "not_authorized": "无权决定",
    "invalid_decision": "决定无效",
    "approval_mismatch": "批准与调用不符",
    "approval_reused": "批准已用过",
    "error": "检查出错",
    "escalated": "升级后重新提交",
}

_SCHEMA = """
CREATE TABLE IF NOT EXISTS audit (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    ts REAL NOT NULL,
    run_id TEXT, step INTEGER, tool_call_id TEXT,
    user_id TEXT, role TEXT,
    tool TEXT, level TEXT,
    decision TEXT NOT NULL,
    decided_by TEXT, decided_role TEXT,
    reason TEXT,
    arguments TEXT,
    arguments_sha256 TEXT,
    request_id TEXT,
    targets INTEGER,
    provenance TEXT,
    user_name TEXT,
    decided_name TEXT
);
CREATE INDEX IF NOT EXISTS audit_user_tool ON audit (user_id, tool, ts);
CREATE INDEX IF NOT EXISTS audit_run ON audit (run_id);
CREATE TABLE IF NOT EXISTS requests (
    id TEXT PRIMARY KEY,
    run_id TEXT NOT NULL, tool_call_id TEXT NOT NULL, tool TEXT NOT NULL,
    arguments_sha256 TEXT NOT NULL,
    level TEXT NOT NULL, approver_role TEXT, user_id TEXT, created REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS settled (
    request_id TEXT PRIMARY KEY,
    verdict TEXT NOT NULL, decided_by TEXT, reason TEXT, ts REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS untrusted (
    run_id TEXT NOT NULL, tool TEXT NOT NULL, tool_call_id TEXT NOT NULL, excerpt TEXT NOT NULL,
    ts REAL NOT NULL,
    PRIMARY KEY (run_id, tool_call_id)
);
"""

_COLUMNS = (
    "ts",
    "run_id",
    "step",
    "tool_call_id",
    "user_id",
    "role",
    "tool",
    "level",
    "decision",
    "decided_by",
    "decided_role",
    "reason",
    "arguments",
    "arguments_sha256",
    "request_id",
    "targets",
    "provenance",
    "user_name",
    "decided_name",
)
_ADDED = {"targets": "INTEGER", "provenance": "TEXT", "user_name": "TEXT", "decided_name": "TEXT"}
"""Columns newer than the first audit files: added to a file that lacks them."""


def request_row(request: Any, user_id: str | None) -> tuple[Any, ...]:
    """One issued confirmation request as the row both audit stores write (column order)."""
    return (
        request.id,
        request.run_id,
        request.tool_call_id,
        request.tool,
        request.arguments_sha256,
        str(request.level),
        request.approver_role,
        user_id,
        time.time(),
    )


def decision_row(decision: str, fields: dict[str, Any]) -> tuple[list[str], list[Any]]:
    """One decision as the column names and values both audit stores insert.

    Unknown fields are refused, ``ts`` defaults to now, and arguments and provenance that are not
    text are written as sorted JSON.
    """
    unknown = set(fields) - set(_COLUMNS)
    if unknown:
        raise TypeError(f"审计日志没有这些字段：{sorted(unknown)}")
    row = {"ts": time.time(), **fields, "decision": decision}
    for name in ("arguments", "provenance"):
        if not isinstance(row.get(name), (str, type(None))):
            row[name] = json.dumps(row[name], ensure_ascii=False, sort_keys=True, default=str)
    names = [name for name in _COLUMNS if name in row]
    return names, [row[name] for name in names]


class AuditLog:
    """An append-only decision log in one SQLite file (``":memory:"`` for a log that lives as long
    as the object).
    """

    def __init__(self, path: str | Path = ":memory:"):
        self.path = str(path)
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._db = open_sqlite(
            self.path, autocommit=True, shared=True, wal=self.path != ":memory:", durable=True
        )
        self._db.executescript(_SCHEMA)
        add_missing_columns(self._db, "audit", _ADDED)

    @contextmanager
    def exclusive(self, user_id: str | None, tool: str) -> Iterator[None]:
        """A block in which counting and writing down the calls of ``tool`` by ``user_id`` are one
        step for everyone sharing this log (the service's PostgreSQL log locks per user and tool).
        Here it does nothing: in one process the gate orders the approvals it applies itself, and
        several processes on one file behave as they always have.
        """
        yield

    # ------------------------------------------------------------------ writing

    def record(self, decision: str, **fields: Any) -> int:
        """Write one decision row now (committed before this returns); returns its id."""
        names, values = decision_row(decision, fields)
        with self._lock:
            cursor = self._db.execute(
                f"INSERT INTO audit ({', '.join(names)}) VALUES ({', '.join('?' for _ in names)})",
                values,
            )
        return int(cursor.lastrowid)

    def issue(self, request: Any, user_id: str | None) -> None:
        """Remember a confirmation request as issued (the same request issued again is kept as it
        was).
        """
        with self._lock:
            self._db.execute(
                "INSERT OR IGNORE INTO requests VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                request_row(request, user_id),
            )

    def settle(
        self, request_id: str, verdict: str, decided_by: str | None, reason: str = ""
    ) -> bool:
        """Mark a request decided. True the first time; False if it was already decided (by anyone,
        in any process).
        """
        try:
            with self._lock:
                self._db.execute(
                    "INSERT INTO settled VALUES (?, ?, ?, ?, ?)",
                    (request_id, verdict, decided_by, reason, time.time()),
                )
        except sqlite3.IntegrityError:
            return False
        return True

    def note_untrusted(self, run_id: str, tool: str, tool_call_id: str, excerpt: str) -> None:
        """Remember that the result of ``tool`` (call ``tool_call_id``) brought untrusted text into
        ``run_id``.
        """
        with self._lock:
            self._db.execute(
                "INSERT OR IGNORE INTO untrusted VALUES (?, ?, ?, ?, ?)",
                (run_id, tool, tool_call_id, excerpt, time.time()),
            )

    # ------------------------------------------------------------------ reading

    def untrusted(self, run_id: str) -> list[dict[str, Any]]:
        """The untrusted results that entered ``run_id``, oldest first."""
        with self._lock:
            rows = self._db.execute(
                "SELECT tool, tool_call_id, excerpt FROM untrusted WHERE run_id = ? ORDER BY ts,"
                " rowid",
                (run_id,),
            )
            return [dict(row) for row in rows.fetchall()]

    def issued(self, request_id: str) -> dict[str, Any] | None:
        with self._lock:
            row = self._db.execute("SELECT * FROM requests WHERE id = ?", (request_id,)).fetchone()
        return dict(row) if row else None

    def settled(self, request_id: str) -> dict[str, Any] | None:
        with self._lock:
            row = self._db.execute(
                "SELECT * FROM settled WHERE request_id = ?", (request_id,)
            ).fetchone()
        return dict(row) if row else None

    def count_granted(self, user_id: str, tool: str, since: float) -> int:
        """How many calls of ``tool`` by ``user_id`` were let through since ``since`` (a Unix
        time).
        """
        marks = ", ".join("?" for _ in GRANTED)
        with self._lock:
            row = self._db.execute(
                "SELECT COUNT(*) FROM audit WHERE user_id = ? AND tool = ? AND ts >= ? AND"
                f" decision IN ({marks})",
                (user_id, tool, since, *GRANTED),
            ).fetchone()
        return int(row[0])

    def sum_targets(
        self,
        tool: str,
        *,
        user_id: str | None = None,
        since: float | None = None,
        run_id: str | None = None,
    ) -> int:
        """How many targets (recipients, rows) the granted calls of ``tool`` touched: by one user
        since a time, or in one run.
        """
        conditions, params = (
            ["tool = ?", f"decision IN ({', '.join('?' for _ in GRANTED)})"],
            [
                tool,
                *GRANTED,
            ],
        )
        for column, operator, value in (
            ("user_id", "=", user_id),
            ("ts", ">=", since),
            ("run_id", "=", run_id),
        ):
            if value is not None:
                conditions.append(f"{column} {operator} ?")
                params.append(value)
        with self._lock:
            row = self._db.execute(
                f"SELECT COALESCE(SUM(targets), 0) FROM audit WHERE {' AND '.join(conditions)}",
                params,
            ).fetchone()
        return int(row[0])

    def rows(self, run_id: str | None = None, user_id: str | None = None) -> list[dict[str, Any]]:
        """Every decision row in order, optionally for one run or one user."""
        query, params = "SELECT * FROM audit", []
        conditions = []
        if run_id is not None:
            conditions.append("run_id = ?")
            params.append(run_id)
        if user_id is not None:
            conditions.append("user_id = ?")
            params.append(user_id)
        if conditions:
            query += " WHERE " + " AND ".join(conditions)
        with self._lock:
            return [
                dict(row) for row in self._db.execute(query + " ORDER BY id", params).fetchall()
            ]

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def __repr__(self) -> str:
        return f"AuditLog({self.path!r})"


def format_audit(rows: list[dict[str, Any]], *, limit: int = 60, show_time: bool = True) -> str:
    """The audit rows as a Chinese text table: time (or row number), user, tool, level, decision,
    who decided, reason, arguments.

    People are shown by name when the row has one (else by id), with their role."""
    from ..text import shorten, text_table

    table = []
    for row in rows:
        decided = row.get("decided_name") or row.get("decided_by") or ""
        if decided and row.get("decided_role"):
            decided = f"{decided}（{row['decided_role']}）"
        when = time.strftime("%H:%M:%S", time.localtime(row["ts"])) if show_time else str(row["id"])
        table.append(
            [
                when,
                f"{row.get('user_name') or row.get('user_id') or ''}（{row.get('role') or ''}）",
                row.get("tool") or "",
                row.get("level") or "",
                DECISIONS_ZH.get(row["decision"], row["decision"]),
                decided,
                shorten(row.get("reason") or "", 28),
                shorten(row.get("arguments") or "", limit),
            ]
        )
    return text_table(
        [
            "时间" if show_time else "#",
            "用户",
            "工具",
            "级别",
            "决定",
            "决定人",
            "原因",
            "参数（已脱敏）",
        ],
        table,
    )


__all__ = ["AuditLog", "DECISIONS_ZH", "GRANTED", "decision_row", "format_audit", "request_row"]
