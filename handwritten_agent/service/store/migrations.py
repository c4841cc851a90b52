"""The service's schema as numbered steps, the same on SQLite and PostgreSQL, applied at start.

A database remembers the steps it has in ``schema_version`` (one row per step: number, summary,
when). ``Store`` runs, in one write transaction, every step newer than the highest row, so a second
process starting at the same moment waits and then finds nothing left to do (SQLite: ``BEGIN
IMMEDIATE``; PostgreSQL: an advisory lock, and DDL there is transactional too). A file written
before steps were numbered has no ``schema_version``: step 1 is ``CREATE TABLE IF NOT EXISTS`` and
step 2 adds only the columns it lacks, so such a file is brought up to date without losing a row.

The SQL is written once, in SQLite's words; ``for_postgres`` turns ``REAL`` (a 4-byte float on
PostgreSQL, too coarse for time stamps) into ``DOUBLE PRECISION`` and ``INTEGER PRIMARY KEY
AUTOINCREMENT`` into an identity column.

Step 5 holds the permission gate's audit log (``audit``, ``audit_requests``, ``audit_settled``,
``audit_untrusted``: the tables of ``permissions.audit``). A service on PostgreSQL writes its audit
there (``store.audit.PostgresAuditLog``), so every replica on every host counts the same cumulative
limits. The step creates the same tables on SQLite too, where they stay empty: one schema and one
numbering for both stores, and nothing the SQLite default does changes — a service on SQLite keeps
its audit in its own file under the data folder (``synchronous=FULL``, a decision on the disk
before its tool runs, which the service file's ``synchronous=NORMAL`` does not promise).

Left out: steps down (a step is never undone; a new step corrects an old one), and data migrations
that rewrite rows.
"""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class Migration:
    version: int
    summary: str
    statements: tuple[str, ...] = ()
    columns: tuple[tuple[str, str, str], ...] = ()
    """``(table, column, type)`` added when the table lacks the column."""


MIGRATIONS: tuple[Migration, ...] = (
    Migration(
        1,
        "users, runs, events, idempotency keys, decisions, sessions",
        (
            """CREATE TABLE IF NOT EXISTS users (
                id          TEXT PRIMARY KEY,
                name        TEXT NOT NULL,
                role        TEXT NOT NULL,
                token_hash  TEXT NOT NULL UNIQUE,
                created_at  REAL NOT NULL
            )""",
            """CREATE TABLE IF NOT EXISTS runs (
                id           TEXT PRIMARY KEY,
                user_id      TEXT NOT NULL REFERENCES users(id),
                session_id   TEXT NOT NULL,
                message      TEXT NOT NULL,
                status       TEXT NOT NULL,
                stop_reason  TEXT,
                answer       TEXT,
                error        TEXT,
                pending      TEXT NOT NULL DEFAULT '[]',
                state        TEXT,
                cancel_requested INTEGER NOT NULL DEFAULT 0,
                created_at   REAL NOT NULL,
                updated_at   REAL NOT NULL
            )""",
            "CREATE INDEX IF NOT EXISTS runs_by_session ON runs(user_id, session_id, created_at)",
            """CREATE TABLE IF NOT EXISTS events (
                run_id  TEXT NOT NULL REFERENCES runs(id),
                seq     INTEGER NOT NULL,
                kind    TEXT NOT NULL,
                data    TEXT NOT NULL,
                ts      REAL NOT NULL,
                PRIMARY KEY (run_id, seq)
            )""",
            """CREATE TABLE IF NOT EXISTS idempotency_keys (
                user_id     TEXT NOT NULL,
                key         TEXT NOT NULL,
                body_hash   TEXT NOT NULL,
                run_id      TEXT NOT NULL,
                created_at  REAL NOT NULL,
                expires_at  REAL NOT NULL,
                PRIMARY KEY (user_id, key)
            )""",
            """CREATE TABLE IF NOT EXISTS decisions (
                run_id      TEXT NOT NULL,
                request_id  TEXT NOT NULL,
                decision    TEXT NOT NULL,
                reason      TEXT NOT NULL DEFAULT '',
                decided_by  TEXT NOT NULL,
                decided_at  REAL NOT NULL,
                PRIMARY KEY (run_id, request_id)
            )""",
            """CREATE TABLE IF NOT EXISTS sessions (
                user_id     TEXT NOT NULL,
                session_id  TEXT NOT NULL,
                history     TEXT NOT NULL DEFAULT '[]',
                updated_at  REAL NOT NULL,
                PRIMARY KEY (user_id, session_id)
            )""",
        ),
    ),
    Migration(
        2,
        "leases (worker, heartbeat), where a paused run's own messages start, removed users",
        columns=(
            ("runs", "worker", "TEXT"),
            ("runs", "heartbeat", "REAL"),
            ("runs", "history_len", "INTEGER"),
            ("users", "removed_at", "REAL"),
        ),
    ),
    Migration(
        3,
        "a name belongs to one current user (a removed user's name may be given to someone new)",
        (
            "CREATE UNIQUE INDEX IF NOT EXISTS users_current_name ON users(name)"
            " WHERE removed_at IS NULL",
        ),
    ),
    Migration(
        4,
        "queued runs found by status and lease without reading the whole table",
        ("CREATE INDEX IF NOT EXISTS runs_by_status ON runs(status, heartbeat)",),
    ),
    Migration(
        5,
        "the permission gate's audit log (decisions, issued and settled requests, untrusted"
        " results) in the service's database, so cumulative limits hold across hosts",
        (
            """CREATE TABLE IF NOT EXISTS audit (
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
            )""",
            "CREATE INDEX IF NOT EXISTS audit_user_tool ON audit(user_id, tool, ts)",
            "CREATE INDEX IF NOT EXISTS audit_run ON audit(run_id)",
            """CREATE TABLE IF NOT EXISTS audit_requests (
                id TEXT PRIMARY KEY,
                run_id TEXT NOT NULL, tool_call_id TEXT NOT NULL, tool TEXT NOT NULL,
                arguments_sha256 TEXT NOT NULL,
                level TEXT NOT NULL, approver_role TEXT, user_id TEXT, created REAL NOT NULL
            )""",
            """CREATE TABLE IF NOT EXISTS audit_settled (
                request_id TEXT PRIMARY KEY,
                verdict TEXT NOT NULL, decided_by TEXT, reason TEXT, ts REAL NOT NULL
            )""",
            """CREATE TABLE IF NOT EXISTS audit_untrusted (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                run_id TEXT NOT NULL, tool TEXT NOT NULL, tool_call_id TEXT NOT NULL,
                excerpt TEXT NOT NULL, ts REAL NOT NULL,
                UNIQUE (run_id, tool_call_id)
            )""",
        ),
    ),
)

VERSION_TABLE = """CREATE TABLE IF NOT EXISTS schema_version (
    version     INTEGER PRIMARY KEY,
    summary     TEXT NOT NULL,
    applied_at  REAL NOT NULL
)"""


def for_postgres(sql: str) -> str:
    """The same statement in PostgreSQL's words: ``REAL`` time stamps become ``DOUBLE
    PRECISION``, and a counted key (``INTEGER PRIMARY KEY AUTOINCREMENT``) an identity column.
    """
    sql = re.sub(
        r"\bINTEGER PRIMARY KEY AUTOINCREMENT\b",
        "BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY",
        sql,
    )
    return re.sub(r"\bREAL\b", "DOUBLE PRECISION", sql)


def latest() -> int:
    return MIGRATIONS[-1].version


__all__ = ["MIGRATIONS", "Migration", "VERSION_TABLE", "for_postgres", "latest"]
