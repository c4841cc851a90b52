"""How much an event stream asks of the store: one look (the run, then its events) per wake-up,
a backlog longer than one look read on at once, and no wake-up sent to a stream already woken.
"""

from __future__ import annotations

import asyncio
from typing import Any

from handwritten_agent.service import sse
from handwritten_agent.service.settings import ServiceSettings


class CountingStore:
    """A finished run with ``count`` stored events; counts every read."""

    def __init__(self, count: int, status: str = "completed"):
        self.events = [
            {"id": n, "event": "tool_call", "data": f'{{"n": {n}}}'} for n in range(1, count + 1)
        ]
        self.status = status
        self.reads: list[str] = []

    def get_run(self, run_id: str) -> dict[str, Any]:
        self.reads.append("run")
        return {"id": run_id, "status": self.status, "stop_reason": "final"}

    def events_after(
        self, run_id: str, after: int = 0, limit: int = 500, *, raw: bool = False
    ) -> list[dict[str, Any]]:
        self.reads.append("events")
        return [event for event in self.events if event["id"] > after][:limit]


class Connected:
    async def is_disconnected(self) -> bool:
        return False


def _stream(store: CountingStore, after: int = 0) -> list[str]:
    async def collect() -> list[str]:
        wakeups = sse.Wakeups()
        settings = ServiceSettings()
        texts = sse.stream_events(store, settings, wakeups, Connected(), "run_1", after)
        return [text async for text in texts]

    return asyncio.run(collect())


def test_a_finished_run_is_streamed_from_one_look():
    store = CountingStore(3)
    texts = _stream(store)
    assert [text.split("\n")[0] for text in texts[1:4]] == ["id: 1", "id: 2", "id: 3"]
    assert texts[-1].startswith("event: end\n") and '"status": "completed"' in texts[-1]
    # the run first, then its events: a finished run has written all of them, so nothing is left
    assert store.reads == ["run", "events"], store.reads


def test_a_backlog_longer_than_one_look_is_read_on_before_the_end(monkeypatch):
    monkeypatch.setattr(sse, "EVENTS_PER_LOOK", 4)
    store = CountingStore(10)
    texts = _stream(store, after=0)
    ids = [int(text.split("\n")[0][4:]) for text in texts if text.startswith("id: ")]
    assert ids == list(range(1, 11))  # none lost at a look's edge, none sent twice
    assert texts[-1].startswith("event: end\n")
    assert store.reads.count("events") == 3  # 4 + 4 + 2


def test_a_stream_already_woken_is_not_woken_again():
    wakeups = sse.Wakeups()

    async def scenario() -> int:
        loop = asyncio.get_running_loop()
        sent: list[object] = []
        original = loop.call_soon_threadsafe

        def counting(callback: Any, *args: Any) -> Any:
            sent.append(callback)
            return original(callback, *args)

        loop.call_soon_threadsafe = counting  # type: ignore[method-assign]
        ticket = wakeups.register("run_1")
        for _ in range(5):  # five writes before the stream reads again: one wake-up
            await asyncio.to_thread(wakeups, "run_1")
        assert ticket[1].is_set()
        ticket[1].clear()  # the stream reads again; the next write wakes it anew
        await asyncio.to_thread(wakeups, "run_1")
        assert ticket[1].is_set()
        wakeups.unregister("run_1", ticket)
        return sum(1 for callback in sent if getattr(callback, "__self__", None) is ticket[1])

    assert asyncio.run(scenario()) == 2
