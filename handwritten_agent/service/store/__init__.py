"""Everything the service keeps — users, runs, their events, idempotency keys, decisions,
sessions — in one SQLite file or in one PostgreSQL database (``Store("postgresql://…")``, see
``postgres``): the same methods, the same SQL text, chosen by the target's form (``sqlite:///path``,
a bare path, or ``postgresql://…``). The schema comes from numbered steps (``migrations``) run at
start.

One connection per thread, kept open, WAL mode so readers never wait for the writer, and ``BEGIN
IMMEDIATE`` around every read-then-write so two requests cannot both claim the same idempotency key
or decide the same confirmation. A write is committed before the call returns: a process that dies
right after (even ``kill -9``) loses nothing it reported as done. Commits are not flushed to the
disk one by one (``synchronous=NORMAL``, WAL's usual setting): with one ``fsync`` per event, a run's
ten events cost 200 ms on an ordinary disk, and every run waits on every other's; a power cut may
lose the last commits, never half of one. (The permission audit log keeps ``synchronous=FULL``: a
decision is on the disk before its tool runs.) A write that is one statement (a run's next events,
``add_events``; a claim; a new run without an idempotency key) is its own transaction on SQLite,
with no ``BEGIN``/``COMMIT`` around it: the process's write lock is then held for one call into
SQLite, which matters when dozens of threads want the interpreter.

Several uvicorn workers on one host can share the file (WAL allows one writer and many readers).
Past one host the same methods run on PostgreSQL, where several replicas share the database: a
read-then-write takes an advisory lock (the same one writer at a time as SQLite's lock), while the
hot paths — an event appended, a lease renewed, a run claimed — lock only the rows they touch, and
orphaned runs are taken with ``FOR UPDATE SKIP LOCKED``. Nothing outside this package speaks SQL.

A session's history only grows by whole exchanges: a run that completes *appends* its own messages
(the user's message to the final answer) to what the session holds at that moment, so two runs of
one session that overlap, or a paused run that completes after the user kept talking, both stay in
it.

A removed user (``remove_user``) keeps their row — runs, decisions and the audit log name them — but
their token stops working at once, and what they had waiting is cancelled.

Left out: steps down in the migrations, and pruning old runs and events.
"""

from __future__ import annotations

import hashlib
import json
import secrets
import sqlite3
import threading
import time
import unicodedata
import uuid
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from ...permissions.decisions import User
from ...storage import open_sqlite, table_columns
from .migrations import MIGRATIONS, VERSION_TABLE, Migration

TERMINAL = ("completed", "failed", "cancelled")
STATUSES = ("queued", "running", "requires_action", *TERMINAL)


def hash_token(token: str) -> str:
    """Tokens are 256 random bits, so one sha256 is enough: what is stored cannot be used to log
    in.
    """
    return hashlib.sha256(token.encode()).hexdigest()


def body_fingerprint(body: Any) -> str:
    """The hash an idempotency key is bound to: the request body as canonical JSON."""
    return hashlib.sha256(
        json.dumps(body, sort_keys=True, ensure_ascii=False, separators=(",", ":")).encode()
    ).hexdigest()


INVISIBLE_RANGES = (
    (0x00AD, 0x00AD),
    (0x034F, 0x034F),
    (0x061C, 0x061C),
    (0x115F, 0x1160),
    (0x17B4, 0x17B5),
    (0x180B, 0x180F),
    (0x200B, 0x200F),
    (0x202A, 0x202E),
    (0x2060, 0x206F),
    (0x3164, 0x3164),
    (0xFE00, 0xFE0F),
    (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0),
    (0xFFF0, 0xFFF8),
    (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A),
    (0xE0000, 0xE0FFF),
)
"""Unicode's default-ignorable code points: drawn as nothing (zero-width and bidi marks, fillers,
selectors).
"""


def _invisible(char: str) -> bool:
    code = ord(char)
    return unicodedata.category(char) in ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp") or any(
        low <= code <= high for low, high in INVISIBLE_RANGES
    )


def clean_name(text: str, what: str = "用户名") -> str:
    """A user or role name as stored: NFKC-normalised (full-width letters become ordinary ones),
    runs of spaces made one, trimmed. Raises ``ValueError`` (in Chinese) when it is empty or holds
    an invisible character.
    """
    normal = " ".join(part for part in unicodedata.normalize("NFKC", str(text)).split(" ") if part)
    hidden = sorted({f"U+{ord(c):04X}" for c in normal if _invisible(c)})
    if hidden:
        raise ValueError(
            f"{what}里有看不见的字符（{'、'.join(hidden)}，例如零宽字符或文字方向标记）：请只用看得"
            f"见的字符。"
        )
    if not normal:
        raise ValueError("用户名和角色都不能为空。")
    return normal


def name_key(name: str) -> str:
    """What two names are compared by: normalised, case ignored (``Alice`` and ``ａｌｉｃｅ`` are
    one name).
    """
    try:
        return clean_name(name).casefold()
    except ValueError:
        return unicodedata.normalize("NFKC", name).casefold()


class IdempotencyConflict(Exception):
    """The key was used before with a different request body."""


def is_postgres_url(target: str | Path) -> bool:
    return str(target).startswith(("postgresql://", "postgres://"))


def sqlite_path(target: str | Path) -> str:
    """``sqlite:///relative.db``, ``sqlite:////abs/path.db`` or a bare path → the file's path."""
    text = str(target)
    return text[len("sqlite:///") :] if text.startswith("sqlite:///") else text


class Store:
    """The service's SQLite file. Safe to share between threads (each thread uses its own
    connection). ``Store("postgresql://…")`` gives the PostgreSQL store instead (``postgres``).
    """

    dialect = "sqlite"
    SKIP_LOCKED = ""
    """What ends a ``SELECT`` of rows to take over: nothing on SQLite (its one writer is alone)."""
    INTEGRITY_ERRORS: tuple[type[Exception], ...] = (sqlite3.IntegrityError,)

    def __new__(cls, target: str | Path, **options: Any) -> Store:
        if cls is Store and is_postgres_url(target):
            from .postgres import PostgresStore

            return super().__new__(PostgresStore)
        return super().__new__(cls)

    def __init__(self, path: str | Path, *, clock: Callable[[], float] = time.time):
        """``clock`` gives the time stamps (seconds since the epoch) of everything stored: leases,
        events, decisions.
        """
        self.path, self.clock = sqlite_path(path), clock
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        self._write_lock = (
            threading.Lock()
        )  # one writer per process; other processes wait on SQLite's lock
        self._local = (
            threading.local()
        )  # this thread's connection, and the runs its current write touched
        self._watchers: list[Callable[[str], None]] = []
        with self._connect() as db:
            db.execute("PRAGMA journal_mode=WAL")
        self.migrate()

    # ----------------------------------------------------------------------- schema

    def migrate(self) -> list[int]:
        """Apply the migration steps this database lacks, in one transaction; returns their
        numbers.
        """
        applied = []
        with self._write() as db:
            self._lock_schema(db)
            db.execute(self._sql(VERSION_TABLE))
            done = db.execute("SELECT COALESCE(MAX(version), 0) FROM schema_version").fetchone()[0]
            for step in MIGRATIONS:
                if step.version > done:
                    self._apply(db, step)
                    db.execute(
                        "INSERT INTO schema_version VALUES (?, ?, ?)",
                        (step.version, step.summary, self.clock()),
                    )
                    applied.append(step.version)
        return applied

    def schema_version(self) -> list[tuple[int, str]]:
        """The steps this database has: ``(number, summary)``, oldest first."""
        with self._connect() as db:
            rows = db.execute("SELECT version, summary FROM schema_version ORDER BY version")
            return [(row[0], row[1]) for row in rows]

    def _apply(self, db: Any, step: Migration) -> None:
        for statement in step.statements:
            db.execute(self._sql(statement))
        for table, column, kind in step.columns:
            if column not in self._columns(db, table):
                db.execute(self._sql(f"ALTER TABLE {table} ADD COLUMN {column} {kind}"))

    def _sql(self, statement: str) -> str:
        """A schema statement in this database's words (SQLite's are the ones written)."""
        return statement

    def _lock_schema(self, db: Any) -> None:
        """Nothing on SQLite: ``BEGIN IMMEDIATE`` already keeps a second process out."""

    _columns = staticmethod(table_columns)

    def _lock_run(self, db: Any, run_id: str) -> None:
        """Nothing on SQLite (one writer at a time); PostgreSQL locks the run's row."""

    def close(self) -> None:
        """Close this thread's connection (the others close with their threads)."""
        db = getattr(self._local, "db", None)
        if db is not None:
            db.close()
            self._local.db = None

    @contextmanager
    def _connect(self) -> Iterator[sqlite3.Connection]:
        """This thread's connection, opened on first use and kept: closing the last connection to a
        WAL database checkpoints it and syncs the file (about 17 ms here), which one connection per
        operation paid every time.
        """
        db = getattr(self._local, "db", None)
        if db is None:
            db = open_sqlite(
                self.path, autocommit=True, durable=False
            )  # a commit survives the process dying; a power cut may lose the last ones
            self._local.db = db
        yield db

    @contextmanager
    def _write(self, serial: bool = True) -> Iterator[sqlite3.Connection]:
        """A write transaction, committed when the block ends (rolled back if it raises); then the
        watchers hear of the runs it touched. ``serial=False`` says the block reads nothing it then
        relies on beyond the rows it updates (SQLite serialises every write all the same).
        """
        self._local.touched = set()
        with self._write_lock, self._connect() as db:
            db.execute("BEGIN IMMEDIATE")
            try:
                yield db
            except BaseException:
                db.execute("ROLLBACK")
                raise
            db.execute("COMMIT")
        for run_id in self._local.touched:
            for watcher in list(self._watchers):
                watcher(run_id)

    def _write_one(self, run_id: str | None, sql: str, params: Any) -> int:
        """One write statement, committed on its own; returns its row count, then wakes the
        watchers of ``run_id``. On SQLite the statement is its own transaction (no ``BEGIN`` and
        ``COMMIT`` around it): the write lock is held for one call into SQLite instead of three,
        which matters when many threads want the interpreter. Elsewhere it is ``_write``'s
        transaction.
        """
        if self.dialect != "sqlite":
            with self._write(serial=False) as db:
                if run_id is not None:
                    self._touch(run_id)
                return db.execute(sql, params).rowcount
        with self._write_lock, self._connect() as db:
            count = db.execute(sql, params).rowcount
        if run_id is not None:
            for watcher in list(self._watchers):
                watcher(run_id)
        return count

    def _touch(self, run_id: str) -> None:
        self._local.touched.add(run_id)

    def watch(self, watcher: Callable[[str], None]) -> None:
        """Call ``watcher(run_id)`` after every committed write that changed that run or added an
        event to it — in this process (another process's writes are seen by reading the file again).
        The event streams wait on it.
        """
        self._watchers.append(watcher)

    # ----------------------------------------------------------------------- users

    def add_user(self, name: str, role: str) -> tuple[User, str]:
        """Create a user; returns it with its bearer token, which is shown this once and stored only
        hashed.

        The name and the role are normalised first (``clean_name``: NFKC, invisible characters
        refused), and a name must differ from every current user's after normalising and ignoring
        case, so a look-alike (full-width letters, a zero-width space, a right-to-left mark) cannot
        sit beside the original.
        """
        name, role = clean_name(name, "用户名"), clean_name(role, "角色")
        token = "hat_" + secrets.token_urlsafe(32)
        user = User(f"u_{uuid.uuid4().hex[:12]}", role=role, name=name)
        try:
            with self._write() as db:
                for (other,) in db.execute("SELECT name FROM users WHERE removed_at IS NULL"):
                    if name_key(other) == name_key(name):
                        raise ValueError(
                            f"已经有名为 {other!r} 的用户了，{name!r} 规范化后与它相同："
                            "换一个名字。"
                        )
                db.execute(
                    "INSERT INTO users (id, name, role, token_hash, created_at) VALUES (?, ?, ?,"
                    " ?, ?)",
                    (user.id, user.name, user.role, hash_token(token), self.clock()),
                )
        except self.INTEGRITY_ERRORS as exc:
            raise ValueError(f"已经有名为 {name!r} 的用户了：换一个名字。") from exc
        return user, token

    def user_for_token(self, token: str) -> User | None:
        """The current user with this token (never a removed one), or None."""
        with self._connect() as db:
            row = db.execute(
                "SELECT id, name, role FROM users WHERE token_hash = ? AND removed_at IS NULL",
                (hash_token(token),),
            ).fetchone()
        return User(row["id"], role=row["role"], name=row["name"]) if row else None

    def user(self, user_id: str) -> User | None:
        """The user with this id — also a removed one: their runs and decisions still say whose they
        were.
        """
        with self._connect() as db:
            row = db.execute("SELECT id, name, role FROM users WHERE id = ?", (user_id,)).fetchone()
        return User(row["id"], role=row["role"], name=row["name"]) if row else None

    def users(self) -> list[User]:
        """The current users (removed ones are left out)."""
        with self._connect() as db:
            return [
                User(r["id"], role=r["role"], name=r["name"])
                for r in db.execute(
                    "SELECT id, name, role FROM users WHERE removed_at IS NULL ORDER BY created_at"
                )
            ]

    def remove_user(
        self, name: str, *, reason: str = "用户已被删除，运行已取消。"
    ) -> tuple[User, list[str], list[str]]:
        """Remove the current user called ``name``: the token stops working, their queued and paused
        runs are cancelled, their running runs are asked to stop (at their next event); runs,
        decisions and the audit stay.

        Returns ``(user, cancelled run ids, run ids asked to stop)``; raises ``ValueError`` if there
        is no such user.
        """
        now = self.clock()
        with self._write() as db:
            rows = db.execute(
                "SELECT id, name, role FROM users WHERE removed_at IS NULL"
            ).fetchall()
            row = next((r for r in rows if r["name"] == name.strip()), None) or next(
                (r for r in rows if name_key(r["name"]) == name_key(name)), None
            )
            if row is None:
                raise ValueError(
                    f"没有名为 {name!r} 的用户（python -m handwritten_agent users list "
                    "列出现有的用户）。"
                )
            user = User(row["id"], role=row["role"], name=row["name"])
            db.execute(
                "UPDATE users SET removed_at = ?, token_hash = ? WHERE id = ?",
                (now, f"removed:{user.id}", user.id),
            )  # no sha256 looks like this
            waiting = [
                r[0]
                for r in db.execute(
                    "SELECT id FROM runs WHERE user_id = ? AND status IN ('queued',"
                    " 'requires_action')",
                    (user.id,),
                )
            ]
            for run_id in waiting:
                db.execute(
                    "UPDATE runs SET status = 'cancelled', stop_reason = 'cancelled', error = ?,"
                    " pending = '[]', cancel_requested = 1, updated_at = ? WHERE id = ?",
                    (reason, now, run_id),
                )
                self._add_event(db, run_id, "stop", {"stop_reason": "cancelled", "error": reason})
            running = [
                r[0]
                for r in db.execute(
                    "SELECT id FROM runs WHERE user_id = ? AND status = 'running'", (user.id,)
                )
            ]
            db.execute(
                "UPDATE runs SET cancel_requested = 1, updated_at = ? WHERE user_id = ? AND status"
                " = 'running'",
                (now, user.id),
            )
        return user, waiting, running

    # ----------------------------------------------------------------------- runs

    def create_run(
        self,
        user: User,
        session_id: str,
        message: str,
        *,
        idempotency_key: str | None = None,
        body_hash: str = "",
        ttl: float = 86400.0,
        worker: str | None = None,
    ) -> tuple[dict[str, Any], bool]:
        """A new queued run — or, for an idempotency key seen before with the same body, that run
        again.

        Returns ``(run, created)``. The check and the insert are one transaction, so twenty
        identical requests arriving together create one run. Raises ``IdempotencyConflict`` for a
        reused key with a different body. An expired key is forgotten and counts as new. A
        ``worker`` takes the new run's lease in the same transaction (``lease``, one commit fewer).
        """
        now = self.clock()
        run_id = f"run_{uuid.uuid4().hex[:16]}"
        insert = (
            "INSERT INTO runs (id, user_id, session_id, message, status, created_at, updated_at,"
            " worker, heartbeat) VALUES (?, ?, ?, ?, 'queued', ?, ?, ?, ?)"
        )
        values = (run_id, user.id, session_id, message, now, now, worker, now if worker else None)
        if idempotency_key is None:  # nothing to read first: one statement
            self._write_one(None, insert, values)
            created = self.get_run(run_id)
            assert created is not None
            return created, True
        with self._write() as db:
            row = db.execute(
                "SELECT body_hash, run_id, expires_at FROM idempotency_keys WHERE user_id = ?"
                " AND key = ?",
                (user.id, idempotency_key),
            ).fetchone()
            if row is not None and row["expires_at"] > now:
                if row["body_hash"] != body_hash:
                    raise IdempotencyConflict(idempotency_key)
                existing = db.execute(
                    "SELECT * FROM runs WHERE id = ?", (row["run_id"],)
                ).fetchone()
                if existing is not None:
                    return _run_row(existing), False
            db.execute(
                "DELETE FROM idempotency_keys WHERE user_id = ? AND key = ?",
                (user.id, idempotency_key),
            )
            db.execute(insert, values)
            db.execute(
                "INSERT INTO idempotency_keys VALUES (?, ?, ?, ?, ?, ?)",
                (user.id, idempotency_key, body_hash, run_id, now, now + ttl),
            )
            row = db.execute("SELECT * FROM runs WHERE id = ?", (run_id,)).fetchone()
        return _run_row(row), True

    def get_run(self, run_id: str, user: User | None = None) -> dict[str, Any] | None:
        """The run, or None — also when it belongs to another user (so ids do not leak)."""
        with self._connect() as db:
            row = db.execute("SELECT * FROM runs WHERE id = ?", (run_id,)).fetchone()
        if row is None or (user is not None and row["user_id"] != user.id):
            return None
        return _run_row(row)

    def finish(
        self,
        run_id: str,
        worker: str,
        *,
        history: tuple[User, str, list[dict[str, Any]]] | None = None,
        stop_event: dict[str, Any] | None = None,
        events: Sequence[tuple[str, dict[str, Any]]] = (),
        **fields: Any,
    ) -> bool:
        """Record how a run ended — only if ``worker`` still holds it (a run whose lease expired was
        failed meanwhile).

        ``history`` (user, session id, this run's own messages) is appended to the session's memory
        in the same transaction, so a client that sees the run completed and sends the next message
        finds it remembered. ``stop_event`` is stored as the run's ``stop`` event in that
        transaction too (when the loop did not write one), so a reader never sees the run ended
        without it. ``events`` — the run's last events, not yet stored (its own ``stop`` among
        them) — are stored first in the same transaction, whether or not ``worker`` still holds
        the run (they happened).
        """
        if "pending" in fields:
            fields["pending"] = json.dumps(fields["pending"], ensure_ascii=False)
        fields["updated_at"] = self.clock()
        names = ", ".join(f"{name} = ?" for name in fields)
        with self._write() as db:
            self._touch(run_id)
            self._add_events(db, run_id, list(events))
            changed = db.execute(
                f"UPDATE runs SET {names} WHERE id = ? AND status = 'running' AND worker = ?",
                (*fields.values(), run_id, worker),
            )
            if changed.rowcount == 1 and stop_event is not None:
                self._add_event(db, run_id, "stop", stop_event)
            if changed.rowcount == 1 and history is not None:
                user, session_id, messages = history
                self._save_history(
                    db, user, session_id, self._history(db, user, session_id) + list(messages)
                )
        return changed.rowcount == 1

    def claim(
        self,
        run_id: str,
        *,
        from_status: tuple[str, ...],
        to_status: str,
        worker: str | None = None,
    ) -> bool:
        """Move a run from one of ``from_status`` to ``to_status`` unless someone else did first
        (True when we did).

        Claiming a run for ``running`` takes its lease: ``worker`` is recorded with a fresh
        heartbeat.
        """
        now = self.clock()
        lease = (worker, now) if to_status == "running" else (None, None)
        changed = self._write_one(
            run_id,
            "UPDATE runs SET status = ?, updated_at = ?, worker = ?, heartbeat = ? WHERE id ="
            f" ? AND status IN ({', '.join('?' * len(from_status))})",
            (to_status, now, *lease, run_id, *from_status),
        )
        return changed == 1

    def lease(self, run_id: str, worker: str) -> bool:
        """``worker`` takes a queued run into its pool: it holds the run's lease until it claims it
        (or dies).
        """
        with self._write(serial=False) as db:
            return (
                db.execute(
                    "UPDATE runs SET worker = ?, heartbeat = ? WHERE id = ? AND status = 'queued'",
                    (worker, self.clock(), run_id),
                ).rowcount
                == 1
            )

    def heartbeat(self, run_ids: list[str], worker: str) -> None:
        """The worker is still executing (or holding in its queue) these runs: renew their
        leases.
        """
        if not run_ids:
            return
        with self._write(serial=False) as db:
            db.execute(
                "UPDATE runs SET heartbeat = ? WHERE worker = ? AND status IN ('queued',"
                f" 'running') AND id IN ({', '.join('?' * len(run_ids))})",
                (self.clock(), worker, *run_ids),
            )

    def adopt_queued(self, lease: float, worker: str) -> list[str]:
        """Take over the queued runs whose lease has not been renewed for ``lease`` seconds (their
        process died before running them, or nobody ever took them): ``worker`` now holds them.
        Returns their ids, oldest first.
        """
        now = self.clock()
        cutoff = now - lease
        with self._write(serial=False) as db:  # two replicas adopting at once take different runs
            orphans = [
                row[0]
                for row in db.execute(
                    "SELECT id FROM runs WHERE status = 'queued' AND COALESCE(heartbeat,"
                    f" updated_at) < ? ORDER BY created_at{self.SKIP_LOCKED}",
                    (cutoff,),
                )
            ]
            for run_id in orphans:
                db.execute(
                    "UPDATE runs SET worker = ?, heartbeat = ? WHERE id = ?", (worker, now, run_id)
                )
        return orphans

    def fail_stale(self, lease: float, error: str) -> list[str]:
        """Mark failed every running run whose worker has not renewed its lease for ``lease``
        seconds (it died); returns their ids.
        """
        cutoff = self.clock() - lease
        with self._write(serial=False) as db:
            stale = [
                row[0]
                for row in db.execute(
                    "SELECT id FROM runs WHERE status = 'running' AND COALESCE(heartbeat,"
                    f" updated_at) < ? ORDER BY created_at{self.SKIP_LOCKED}",
                    (cutoff,),
                )
            ]
            for run_id in stale:
                db.execute(
                    "UPDATE runs SET status = 'failed', stop_reason = 'error', error = ?,"
                    " updated_at = ? WHERE id = ?",
                    (error, self.clock(), run_id),
                )
                self._add_event(db, run_id, "stop", {"stop_reason": "error", "error": error})
        return stale

    def runs_with_status(self, *statuses: str) -> list[dict[str, Any]]:
        with self._connect() as db:
            rows = db.execute(
                f"SELECT * FROM runs WHERE status IN ({', '.join('?' * len(statuses))}) ORDER BY"
                " created_at",
                statuses,
            ).fetchall()
        return [_run_row(row) for row in rows]

    def cancel_waiting(self, run_id: str, error: str) -> bool:
        """Cancel a queued or paused run at once, with its ``stop`` event, in one transaction (False
        if it is not waiting).
        """
        with self._write(serial=False) as db:
            self._touch(run_id)
            changed = db.execute(
                "UPDATE runs SET status = 'cancelled', stop_reason = 'cancelled', error = ?,"
                " pending = '[]', worker = NULL, heartbeat = NULL, cancel_requested = 1, updated_at"
                " = ? WHERE id = ? AND status IN ('queued', 'requires_action')",
                (error, self.clock(), run_id),
            ).rowcount
            if changed:
                self._add_event(db, run_id, "stop", {"stop_reason": "cancelled", "error": error})
        return changed == 1

    def request_cancel(self, run_id: str) -> None:
        with self._write(serial=False) as db:
            db.execute(
                "UPDATE runs SET cancel_requested = 1, updated_at = ? WHERE id = ?",
                (self.clock(), run_id),
            )

    def cancel_requested(self, run_id: str) -> bool:
        with self._connect() as db:
            row = db.execute("SELECT cancel_requested FROM runs WHERE id = ?", (run_id,)).fetchone()
        return bool(row and row["cancel_requested"])

    # ----------------------------------------------------------------------- events

    def add_event(self, run_id: str, kind: str, data: dict[str, Any]) -> int:
        """Append one event; returns its sequence number (1, 2, …), the SSE ``id``."""
        with self._write(serial=False) as db:
            return self._add_event(db, run_id, kind, data)

    def add_events(self, run_id: str, events: list[tuple[str, dict[str, Any]]]) -> bool:
        """Append several events of one run, in order, in one transaction (one commit, not one per
        event); returns whether a cancel of the run was requested (read once they are stored).
        """
        if self.dialect == "sqlite" and events:  # one statement: numbered in it, atomic alone
            self._write_one(run_id, *_insert_events(run_id, events, self.clock()))
            return self.cancel_requested(run_id)
        with self._write(serial=False) as db:
            self._add_events(db, run_id, events)
            row = db.execute("SELECT cancel_requested FROM runs WHERE id = ?", (run_id,)).fetchone()
        return bool(row and row["cancel_requested"])

    def _add_events(self, db: Any, run_id: str, events: list[tuple[str, dict[str, Any]]]) -> None:
        if not events:
            return
        self._touch(run_id)
        self._lock_run(db, run_id)  # numbers are taken one at a time per run
        last = db.execute(
            "SELECT COALESCE(MAX(seq), 0) FROM events WHERE run_id = ?", (run_id,)
        ).fetchone()[0]
        now = self.clock()
        for seq, (kind, data) in enumerate(events, start=last + 1):
            db.execute(
                "INSERT INTO events VALUES (?, ?, ?, ?, ?)",
                (run_id, seq, kind, json.dumps(data, ensure_ascii=False, default=str), now),
            )

    def _add_event(
        self, db: sqlite3.Connection, run_id: str, kind: str, data: dict[str, Any]
    ) -> int:
        self._touch(run_id)
        self._lock_run(db, run_id)  # numbers are taken one at a time per run
        seq = db.execute(
            "SELECT COALESCE(MAX(seq), 0) + 1 FROM events WHERE run_id = ?", (run_id,)
        ).fetchone()[0]
        db.execute(
            "INSERT INTO events VALUES (?, ?, ?, ?, ?)",
            (run_id, seq, kind, json.dumps(data, ensure_ascii=False, default=str), self.clock()),
        )
        return seq

    def requests_of(self, run_id: str) -> dict[str, dict[str, Any]]:
        """Every confirmation request the run ever made (from its ``needs_confirmation`` events), by
        id — decided or not.
        """
        with self._connect() as db:
            rows = db.execute(
                "SELECT data FROM events WHERE run_id = ? AND kind = 'needs_confirmation' ORDER"
                " BY seq",
                (run_id,),
            ).fetchall()
        requests = [json.loads(row["data"]).get("request") or {} for row in rows]
        return {request["id"]: request for request in requests if "id" in request}

    def events_after(
        self, run_id: str, after: int = 0, limit: int = 500, *, raw: bool = False
    ) -> list[dict[str, Any]]:
        """The run's events after number ``after``; ``raw=True`` leaves ``data`` as the stored JSON
        text (for the SSE stream).
        """
        with self._connect() as db:
            rows = db.execute(
                "SELECT seq, kind, data, ts FROM events WHERE run_id = ? AND seq > ? ORDER BY seq"
                " LIMIT ?",
                (run_id, after, limit),
            ).fetchall()
        return [
            {
                "id": r["seq"],
                "event": r["kind"],
                "data": r["data"] if raw else json.loads(r["data"]),
                "ts": r["ts"],
            }
            for r in rows
        ]

    def marks(self, run_ids: Sequence[str]) -> dict[str, tuple[Any, ...]]:
        """For each of ``run_ids`` that exists: (status, updated_at, its last event's number) — a
        value that changes whenever any process writes to the run. One query for all of them (the
        event streams' poller asks this instead of every stream reading the store).
        """
        if not run_ids:
            return {}
        marks: dict[str, tuple[Any, ...]] = {}
        with self._connect() as db:
            for start in range(0, len(run_ids), 500):  # SQLite's limit on bound parameters
                chunk = list(run_ids[start : start + 500])
                rows = db.execute(
                    "SELECT r.id, r.status, r.updated_at,"
                    " (SELECT MAX(e.seq) FROM events e WHERE e.run_id = r.id) AS last"
                    f" FROM runs r WHERE r.id IN ({', '.join('?' for _ in chunk)})",
                    chunk,
                ).fetchall()
                marks.update({row[0]: (row[1], row[2], row[3]) for row in rows})
        return marks

    # ----------------------------------------------------------------------- decisions

    def record_decision(
        self, run_id: str, request_id: str, decision: str, reason: str, decided_by: str
    ) -> tuple[dict[str, Any], bool]:
        """Store a decision once. Returns ``(decision, new)``; deciding again returns the first
        decision unchanged.
        """
        with self._write() as db:
            row = db.execute(
                "SELECT * FROM decisions WHERE run_id = ? AND request_id = ?", (run_id, request_id)
            ).fetchone()
            if row is not None:
                return dict(row), False
            db.execute(
                "INSERT INTO decisions VALUES (?, ?, ?, ?, ?, ?)",
                (run_id, request_id, decision, reason, decided_by, self.clock()),
            )
            row = db.execute(
                "SELECT * FROM decisions WHERE run_id = ? AND request_id = ?", (run_id, request_id)
            ).fetchone()
        return dict(row), True

    def decisions(self, run_id: str) -> dict[str, dict[str, Any]]:
        with self._connect() as db:
            return {
                r["request_id"]: dict(r)
                for r in db.execute("SELECT * FROM decisions WHERE run_id = ?", (run_id,))
            }

    # ----------------------------------------------------------------------- sessions (memory
    # across runs)

    def history(self, user: User, session_id: str) -> list[dict[str, Any]]:
        with self._connect() as db:
            return self._history(db, user, session_id)

    @staticmethod
    def _history(db: sqlite3.Connection, user: User, session_id: str) -> list[dict[str, Any]]:
        row = db.execute(
            "SELECT history FROM sessions WHERE user_id = ? AND session_id = ?",
            (user.id, session_id),
        ).fetchone()
        return json.loads(row["history"]) if row else []

    def _save_history(
        self, db: sqlite3.Connection, user: User, session_id: str, history: list[dict[str, Any]]
    ) -> None:
        db.execute(
            "INSERT INTO sessions VALUES (?, ?, ?, ?) ON CONFLICT(user_id, session_id) DO UPDATE"
            " SET history = excluded.history, updated_at = excluded.updated_at",
            (
                user.id,
                session_id,
                json.dumps(history, ensure_ascii=False, default=str),
                self.clock(),
            ),
        )


def _insert_events(
    run_id: str, events: list[tuple[str, dict[str, Any]]], now: float
) -> tuple[str, dict[str, Any]]:
    """One ``INSERT`` of a run's events numbered after its last one (SQLite runs the ``SELECT``
    to the end before inserting, since it reads the table written).
    """
    last = "(SELECT COALESCE(MAX(seq), 0) AS n FROM events WHERE run_id = :run) AS last"
    rows = " UNION ALL ".join(
        f"SELECT :run, last.n + {number}, :kind{number}, :data{number}, :ts FROM {last}"
        for number in range(1, len(events) + 1)
    )
    params: dict[str, Any] = {"run": run_id, "ts": now}
    for number, (kind, data) in enumerate(events, start=1):
        params[f"kind{number}"] = kind
        params[f"data{number}"] = json.dumps(data, ensure_ascii=False, default=str)
    return f"INSERT INTO events {rows}", params


def _run_row(row: sqlite3.Row) -> dict[str, Any]:
    run = dict(row)
    run["pending"] = json.loads(run.get("pending") or "[]")
    run["cancel_requested"] = bool(run.get("cancel_requested"))
    return run


__all__ = [
    "IdempotencyConflict",
    "STATUSES",
    "Store",
    "TERMINAL",
    "User",
    "body_fingerprint",
    "hash_token",
]
