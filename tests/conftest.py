"""Shared fixtures: the real offline server (course simulator, fixed clock) and an SDK client for
it.

- ``offline_server``  one ``serve()`` for the whole session: the CourseSimulator on a free port with
                      the clock fixed at 2026-03-12 14:30, stopped at the end.
- ``sdk``             ``openai.OpenAI`` pointed at it, with ``max_retries=0`` so faults surface at
                      once.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime
from typing import Any

import openai
import pytest

FIXED_NOW = datetime(2026, 3, 12, 14, 30)


@pytest.fixture(scope="session")
def offline_server() -> Iterator[Any]:
    from handwritten_agent.course.offline import serve

    server = serve(
        backend="offline", now=FIXED_NOW
    )  # "offline" = the CourseSimulator, imported lazily
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def sdk(offline_server) -> openai.OpenAI:
    return openai.OpenAI(base_url=offline_server.base_url, api_key="test", max_retries=0)


# ------------------------------------------------ PostgreSQL (the service's second store)


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[Any]:
    """One throw-away PostgreSQL server for the session (``pg_server``); skips, in Chinese, where
    there is none.
    """
    from pg_server import PostgresServer, missing

    reason = missing()
    if reason is not None:
        pytest.skip(reason)
    server = PostgresServer().start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def postgres_url(postgres_server) -> str:
    """A fresh database on the session's server, the service's schema already in it."""
    return postgres_server.create_database(migrated=True)


@pytest.fixture(params=["sqlite", "postgresql"])
def store_target(request, tmp_path) -> str:
    """Where a test's service keeps its data: a SQLite file, then a PostgreSQL database."""
    if request.param == "sqlite":
        return str(tmp_path / "service.sqlite3")
    return request.getfixturevalue("postgres_url")


@pytest.fixture
def service(store_target) -> Iterator[dict[str, Any]]:
    """``service_world``'s service (users alice, bob and root, an httpx client each) on both stores;
    a module that imports ``service`` from ``service_world`` runs on SQLite only.
    """
    import httpx
    from service_world import make_app

    from handwritten_agent.course.background import BackgroundServer

    app = make_app(store_target)
    store = app.state.store
    _, alice_token = store.add_user("alice", "行政助理")
    _, bob_token = store.add_user("bob", "行政助理")
    _, admin_token = store.add_user("root", "管理员")
    try:
        with BackgroundServer(app) as server:
            clients = {
                name: httpx.Client(
                    base_url=server.url, headers={"Authorization": f"Bearer {token}"}, timeout=10
                )
                for name, token in (
                    ("alice", alice_token),
                    ("bob", bob_token),
                    ("admin", admin_token),
                )
            }
            yield {"url": server.url, "app": app, "db": store_target, **clients}
            for client in clients.values():
                client.close()
            app.state.manager.shutdown(wait=True)
    finally:
        store.close()
