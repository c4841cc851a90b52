"""Each API request makes one trip to the thread pool for all its database work.

Under load the run workers hold the GIL most of the time, and every hand-over between the event
loop and a pool thread waits for it. A plain ``def`` endpoint with a ``def`` dependency and a
response model takes three trips (the dependency, the endpoint, the response check); the service's
endpoints do the token lookup and their own reads and writes in one (``as_user``). Counted by
wrapping ``anyio.to_thread.run_sync``, which every ``run_in_threadpool`` goes through.
"""

from __future__ import annotations

import threading

import anyio.to_thread
import pytest
from service_world import service, wait_for  # noqa: F401  (fixtures)


@pytest.fixture
def trips(monkeypatch):
    """The number of thread-pool trips made since the fixture started (reset with ``clear()``)."""
    counted: list[str] = []
    lock = threading.Lock()
    original = anyio.to_thread.run_sync

    async def counting(func, *args, **kwargs):
        with lock:
            counted.append(getattr(func, "__qualname__", repr(func)))
        return await original(func, *args, **kwargs)

    monkeypatch.setattr(anyio.to_thread, "run_sync", counting)
    return counted


def test_each_endpoint_makes_one_trip_to_the_thread_pool(service, trips):
    alice = service["alice"]
    asks = {
        "GET /v1/me": lambda: alice.get("/v1/me"),
        "POST /v1/runs": lambda: alice.post(
            "/v1/runs", json={"session_id": "hops", "message": "你好"}
        ),
    }
    seen = {}
    for name, ask in asks.items():
        trips.clear()
        answer = ask()
        assert answer.status_code in (200, 201), (name, answer.text)
        seen[name] = len(trips)
    run_id = answer.json()["id"]
    wait_for(alice, run_id, "completed")
    for name, ask in {
        "GET /v1/runs/{id}": lambda: alice.get(f"/v1/runs/{run_id}"),
        "POST /v1/runs/{id}/cancel": lambda: alice.post(f"/v1/runs/{run_id}/cancel"),
        "GET /v1/confirmations": lambda: alice.get("/v1/confirmations"),
    }.items():
        trips.clear()
        answer = ask()
        assert answer.status_code == 200, (name, answer.text)
        seen[name] = len(trips)
    assert seen == dict.fromkeys(seen, 1), f"每个请求应该只进出线程池一次：{seen}"


def test_a_bad_token_is_refused_in_that_one_trip(service, trips):
    import httpx

    with httpx.Client(base_url=service["url"], timeout=30) as stranger:
        trips.clear()
        refused = stranger.get("/v1/me", headers={"Authorization": "Bearer hat_nobody"})
        none_trips = len(trips)
        missing = stranger.get("/v1/me")
    assert refused.status_code == 401 and refused.json()["error"]["type"] == "unauthorized"
    assert missing.status_code == 401 and "缺少令牌" in missing.json()["error"]["message"]
    assert none_trips == 1
