"""The event stream of a run (Server-Sent Events), and the wake-ups that let it answer at once.

``stream_events`` yields ``retry:``, then the run's stored events (``id`` = the event's number), a
keep-alive comment when idle, and ``end`` once the run has finished or waits for a decision. Every
store read runs in a worker thread (``run_in_threadpool``): the event loop never waits on SQLite, so
another process holding the write lock cannot freeze the server. A write in this process wakes the
stream at once (``Wakeups``, called by ``Store.watch``); on PostgreSQL a write by any replica wakes
it at once too (the store turns the database's ``NOTIFY`` into the same call). Writes no wake-up
reported — another process on the same SQLite file, a notification lost while the listener
reconnects — are found by one poller per process: every ``sse_poll_seconds`` it asks the store for
the marks of all the runs being streamed in one query (``Store.marks``) and wakes the streams whose
run changed, so 50 idle streams cost one query, not 100 reads, per interval. The events table stays
the truth: a wake-up only says "read again", so ``Last-Event-ID`` resumes on any replica.

Left out: a message broker (PostgreSQL's ``NOTIFY`` is the fan-out between replicas).
"""

from __future__ import annotations

import asyncio
import json
import logging
import threading
import time
from collections.abc import AsyncIterator, Callable
from typing import Any

from fastapi import Request
from fastapi.concurrency import run_in_threadpool

from .settings import ServiceSettings
from .store import TERMINAL, Store

log = logging.getLogger("handwritten_agent.service")


class Wakeups:
    """Wakes the event streams waiting on a run when this process wrote to it (``Store.watch`` calls
    it from any thread) — and, with ``marks`` (``Store.marks``), when anything else did: a poller
    thread, alive while streams wait, compares the runs' marks every ``every`` seconds.
    """

    def __init__(
        self,
        marks: Callable[[list[str]], dict[str, tuple[Any, ...]]] | None = None,
        every: float = 0.5,
    ) -> None:
        self._lock = threading.Lock()
        self._waiting: dict[str, set[tuple[asyncio.AbstractEventLoop, asyncio.Event]]] = {}
        self._marks, self._every = marks, every
        self._poller: threading.Thread | None = None
        self.polls = 0  # how many times the poller has asked the store (tests wait on it)

    def __call__(self, run_id: str) -> None:
        with self._lock:
            waiting = list(self._waiting.get(run_id, ()))
        for loop, event in waiting:
            if event.is_set():  # not yet cleared by its stream: it will read this write anyway
                continue
            try:
                loop.call_soon_threadsafe(event.set)
            except RuntimeError:  # that loop has closed: its stream is gone
                pass

    def register(self, run_id: str) -> tuple[asyncio.AbstractEventLoop, asyncio.Event]:
        ticket = (asyncio.get_running_loop(), asyncio.Event())
        with self._lock:
            self._waiting.setdefault(run_id, set()).add(ticket)
            if self._marks is not None and (self._poller is None or not self._poller.is_alive()):
                self._poller = threading.Thread(target=self._poll, name="sse-poller", daemon=True)
                self._poller.start()
        return ticket

    def _poll(self) -> None:
        """Until no stream waits: every ``every`` seconds, the marks of the runs being streamed;
        wake the streams of each run whose mark changed or that this poll sees for the first time
        (a write just before it started watching the run must not go unseen).
        """
        assert self._marks is not None
        seen: dict[str, tuple[Any, ...] | None] = {}
        while True:  # ends when no stream waits (checked under the lock register takes)
            time.sleep(self._every)
            with self._lock:
                runs = list(self._waiting)
                if not runs:
                    self._poller = None
                    return
            try:
                marks = self._marks(runs)
            except Exception:  # a busy or unreachable database: the next poll tries again
                log.warning("事件流的轮询读不了存储，下一轮再试", exc_info=True)
                continue
            self.polls += 1
            for run_id in runs:
                mark = marks.get(run_id)
                if run_id not in seen or seen[run_id] != mark:
                    self(run_id)
            seen = {run_id: marks.get(run_id) for run_id in runs}

    def unregister(
        self, run_id: str, ticket: tuple[asyncio.AbstractEventLoop, asyncio.Event]
    ) -> None:
        with self._lock:
            waiting = self._waiting.get(run_id, set())
            waiting.discard(ticket)
            if not waiting:
                self._waiting.pop(run_id, None)


async def stream_events(
    store: Store,
    settings: ServiceSettings,
    wakeups: Wakeups,
    request: Request,
    run_id: str,
    after: int,
) -> AsyncIterator[str]:
    """The SSE text of a run's events after ``after``, then ``end`` (see the module docstring)."""
    ticket = wakeups.register(run_id)
    try:
        async for text in _events(store, settings, request, run_id, after, ticket[1]):
            yield text
    finally:
        wakeups.unregister(run_id, ticket)


ENDS = (*TERMINAL, "requires_action")
"""A stream ends when its run has one of these statuses and no event is left to send."""


EVENTS_PER_LOOK = 500
"""How many events one look reads at most; a longer backlog is read by the next look at once."""


def _look(
    store: Store, run_id: str, seen: int
) -> tuple[list[dict[str, Any]], dict[str, Any] | None]:
    """One look at the store, in one worker thread (never on the loop): the run (None when it is
    gone), then its events after ``seen``. The run is read first: a run read as finished has
    written all its events before its final status, so they are all in this batch.
    """
    run = store.get_run(run_id)
    if run is None:
        return [], None
    return store.events_after(run_id, seen, EVENTS_PER_LOOK, raw=True), run


async def _events(
    store: Store,
    settings: ServiceSettings,
    request: Request,
    run_id: str,
    after: int,
    changed: asyncio.Event,
) -> AsyncIterator[str]:
    yield f"retry: {settings.sse_retry_ms}\n\n"
    seen = after
    idle_since = quiet_since = time.monotonic()
    while (
        time.monotonic() - idle_since < settings.sse_max_idle
    ):  # bounded: a stream with nothing new ends
        if await request.is_disconnected():
            return
        changed.clear()  # before reading: a write committed from here on wakes the wait below
        batch, run = await run_in_threadpool(_look, store, run_id, seen)
        for item in batch:  # the stored JSON text is one line already (json.dumps escapes newlines)
            seen = item["id"]
            yield f"id: {item['id']}\nevent: {item['event']}\ndata: {item['data']}\n\n"
        more = len(batch) == EVENTS_PER_LOOK  # a backlog longer than one look: read on at once
        if (run is None or run["status"] in ENDS) and not more:
            end = {
                "status": run["status"] if run else None,
                "stop_reason": run["stop_reason"] if run else None,
            }
            yield f"event: end\ndata: {json.dumps(end, ensure_ascii=False)}\n\n"
            return
        if batch:
            idle_since = quiet_since = time.monotonic()
        if more:
            continue
        if time.monotonic() - quiet_since >= settings.sse_keepalive_seconds:
            quiet_since = time.monotonic()
            yield ": keep-alive\n\n"
        # woken by a write in this process, or by the poller for anyone else's (``Wakeups``)
        try:
            await asyncio.wait_for(changed.wait(), settings.sse_keepalive_seconds)
        except asyncio.TimeoutError:
            pass
    yield ": 很久没有新事件，连接先关闭；带上 Last-Event-ID 重新连接即可继续。\n\n"


__all__ = ["Wakeups", "stream_events"]
