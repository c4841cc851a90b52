"""A throw-away PostgreSQL server: Debian's binaries (``apt-get install postgresql``), ``initdb``
into a temporary folder, ``pg_ctl start`` on a free port with its socket in that folder, stopped
(and the folder removed) by ``stop()`` or at the end of a ``with`` block. The tests start one per
session; the appendix notebook ``appendix_after_launch.ipynb`` (上线之后) starts one to show the
service's second store for real.

``initdb`` and ``pg_ctl`` refuse to run as root: as root, the folder belongs to the ``postgres``
user and both run through ``runuser -u postgres``. The server trusts local connections (no
password), keeps nothing on the disk for long (``fsync=off``: a throw-away database is never needed
after a crash), and ``create_database`` gives a new database (a copy of ``template0``, or of one
migrated once to the service's schema).

``missing()`` says in Chinese why PostgreSQL cannot run here (no server binaries, no psycopg), or
None.

Left out: anything a real deployment needs (passwords, TLS, backups, tuning).
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
            "没有安装 PostgreSQL 服务器（apt-get install postgresql），"
            "跳过用到 PostgreSQL 的测试和演示。"
        )
    try:
        import psycopg  # noqa: F401
        import psycopg_pool  # noqa: F401
    except ImportError:
        return (
            "没有安装 psycopg（pip install -e '.[postgres]'），跳过用到 PostgreSQL 的测试和演示。"
        )
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

    def __enter__(self) -> PostgresServer:
        return self.start()

    def __exit__(self, *exc: Any) -> None:
        self.stop()

    def stop(self) -> None:
        try:
            self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "stop")
        finally:
            shutil.rmtree(self.root, ignore_errors=True)


__all__ = ["PostgresServer", "bin_dir", "free_port", "missing"]
