"""The tests' PostgreSQL: the throw-away server of ``handwritten_agent.course.postgres`` (Debian's
binaries, a temporary folder, a free port; run as the ``postgres`` user when the tests run as root),
what a test reads or changes straight in a service's database (``rows``, ``execute``), and the
replica apps that ``uvicorn --factory`` starts in the replica tests.

``missing()`` says in Chinese why PostgreSQL tests cannot run here (no server binaries, no psycopg),
or None.
"""

from __future__ import annotations

import os
from typing import Any

from handwritten_agent.course.postgres import PostgresServer, bin_dir, free_port, missing


def rows(target: str, sql: str, params: tuple = ()) -> list[tuple]:
    """What a test reads straight from a service's database (SQLite file or PostgreSQL URL): the
    SQL uses ``?`` placeholders.
    """
    if target.startswith("postgresql://"):
        import psycopg

        with psycopg.connect(target) as conn:
            return [tuple(row) for row in conn.execute(sql.replace("?", "%s"), params)]
    import sqlite3
    from contextlib import closing

    with closing(sqlite3.connect(target)) as db:
        return [tuple(row) for row in db.execute(sql, params)]


def execute(target: str, sql: str, params: tuple = ()) -> None:
    """A change a test makes straight in a service's database (``?`` placeholders)."""
    if target.startswith("postgresql://"):
        import psycopg

        with psycopg.connect(target) as conn:
            conn.execute(sql.replace("?", "%s"), params)
        return
    import sqlite3
    from contextlib import closing

    with closing(sqlite3.connect(target)) as db, db:
        db.execute(sql, params)


def replica_app() -> Any:
    """``uvicorn --factory pg_server:replica_app``: ``service_world``'s service on the database in
    ``HAT_TEST_DB`` — one replica of several. Its streams never poll (only a ``NOTIFY`` wakes them)
    and its lease is ``HAT_TEST_LEASE`` seconds.
    """
    from service_world import make_app

    lease = float(os.environ.get("HAT_TEST_LEASE", "30"))
    app = make_app(
        os.environ["HAT_TEST_DB"],
        max_body_bytes=64 * 1024,
        workers=int(os.environ.get("HAT_TEST_WORKERS", "2")),
        lease_seconds=lease,
        heartbeat_seconds=lease / 6,
    )
    settings = app.state.settings
    settings.sse_poll_seconds = settings.sse_keepalive_seconds = settings.sse_max_idle = 3600.0
    return app


def office_replica_app() -> Any:
    """``uvicorn --factory pg_server:office_replica_app``: the real office service (the default
    agent factory, the offline simulator, the office clock fixed) on the database in
    ``HAT_TEST_DB``, its office data in ``HAT_TEST_DATA`` — a replica on a host of its own when
    that folder is its alone.
    """
    from datetime import datetime

    from handwritten_agent.config import load_settings
    from handwritten_agent.service import ServiceSettings, create_app

    lease = float(os.environ.get("HAT_TEST_LEASE", "30"))
    return create_app(
        ServiceSettings(
            db_path=os.environ["HAT_TEST_DB"],
            data_dir=os.environ["HAT_TEST_DATA"],
            llm=load_settings({"LLM_PROVIDER": "offline"}, dotenv=False),
            clock=lambda: datetime(2026, 3, 12, 14, 30),
            workers=int(os.environ.get("HAT_TEST_WORKERS", "2")),
            lease_seconds=lease,
            heartbeat_seconds=lease / 6,
            trace=False,
        )
    )


__all__ = [
    "PostgresServer",
    "bin_dir",
    "execute",
    "free_port",
    "missing",
    "office_replica_app",
    "replica_app",
    "rows",
]
