"""A throw-away PostgreSQL server for the tests: Debian's binaries, ``initdb`` into a temporary
folder, ``pg_ctl start`` on a free port with its socket in that folder, stopped (and the folder
removed) at the end.

``initdb`` and ``pg_ctl`` refuse to run as root: as root, the folder belongs to the ``postgres``
user and both run through ``runuser -u postgres``. The server trusts local connections (no
password), keeps nothing on the disk for long (``fsync=off``: a test database is never needed
after a crash), and every test gets its own database (``create_database``: a copy of
``template0``, a few tens of milliseconds).

``missing()`` says in Chinese why PostgreSQL tests cannot run here (no server binaries, no psycopg),
or None.
"""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile
import uuid
from pathlib import Path
from typing import Any


def bin_dir() -> Path | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    if found:
        return Path(found[-1]).parent
    initdb = shutil.which("initdb")
    return Path(initdb).parent if initdb else None


def missing() -> str | None:
    if bin_dir() is None:
        return (
            "没有安装 PostgreSQL 服务器（apt-get install postgresql），跳过 PostgreSQL 上的测试。"
        )
    try:
        import psycopg  # noqa: F401
        import psycopg_pool  # noqa: F401
    except ImportError:
        return "没有安装 psycopg（pip install -e '.[postgres]'），跳过 PostgreSQL 上的测试。"
    if os.geteuid() == 0 and shutil.which("runuser") is None:
        return "以 root 运行却没有 runuser，无法以 postgres 用户启动 PostgreSQL，跳过。"
    return None


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class PostgresServer:
    def __init__(self) -> None:
        folder = bin_dir()
        assert folder is not None, missing()
        self.bin = folder
        self.root = Path(tempfile.mkdtemp(prefix="hat-pg-"))
        self.data, self.socket_dir = self.root / "data", self.root
        self.port = free_port()
        self.as_root = os.geteuid() == 0
        if self.as_root:
            shutil.chown(self.root, "postgres", "postgres")
            os.chmod(self.root, 0o755)

    def _run(self, *args: str, timeout: float = 60) -> None:
        prefix = ["runuser", "-u", "postgres", "--"] if self.as_root else []
        subprocess.run(
            [*prefix, *args], check=True, capture_output=True, timeout=timeout, cwd=self.root
        )

    def start(self) -> PostgresServer:
        self._run(
            str(self.bin / "initdb"),
            "-D",
            str(self.data),
            "-U",
            "postgres",
            "--auth=trust",
            "-E",
            "UTF8",
            "--locale=C",
        )
        options = (
            f"-p {self.port} -k {self.socket_dir} -c listen_addresses='' -c fsync=off"
            " -c synchronous_commit=off -c full_page_writes=off -c max_connections=200"
        )
        self._run(
            str(self.bin / "pg_ctl"),
            "-D",
            str(self.data),
            "-o",
            options,
            "-l",
            str(self.root / "server.log"),
            "-w",
            "-t",
            "60",
            "start",
            timeout=90,
        )
        return self

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://postgres@/{database}?host={self.socket_dir}&port={self.port}"

    def create_database(self, *, migrated: bool = False) -> str:
        """A new database, empty or (``migrated=True``) with the service's schema already in it (a
        copy of a template migrated once per session); returns its URL.
        """
        import psycopg

        template = self._migrated_template() if migrated else "template0"
        name = f"t_{uuid.uuid4().hex[:12]}"
        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {name} TEMPLATE {template}")
        return self.url(name)

    def _migrated_template(self) -> str:
        if not getattr(self, "_template", None):
            from handwritten_agent.service.store import Store

            url = self.create_database()
            Store(url).close()  # runs every migration step; a template takes no connections
            self._template = url.split("@/", 1)[1].split("?", 1)[0]
        return self._template

    def stop(self) -> None:
        try:
            self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "stop")
        finally:
            shutil.rmtree(self.root, ignore_errors=True)


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


__all__ = ["PostgresServer", "execute", "missing", "office_replica_app", "replica_app", "rows"]
