"""The event streams' poller (``service.sse.Wakeups`` with ``marks``): one query per interval for
all the runs being streamed, a wake-up only for a run whose mark changed (or that it sees for the
first time), and no thread left once no stream waits.
"""

from __future__ import annotations

import asyncio
import threading
import time
from typing import Any

from handwritten_agent.service.sse import Wakeups

PATIENCE = 60.0  # a deadline for hangs on a loaded machine, never a measure of speed


class FakeMarks:
    """``Store.marks`` over a dict the test changes; counts the queries."""

    def __init__(self, runs: list[str]):
        self.values: dict[str, tuple[Any, ...]] = {run: ("queued", 1.0, None) for run in runs}
        self.queries: list[list[str]] = []
        self.lock = threading.Lock()

    def __call__(self, run_ids: list[str]) -> dict[str, tuple[Any, ...]]:
        with self.lock:
            self.queries.append(sorted(run_ids))
            return {run: self.values[run] for run in run_ids if run in self.values}


async def until(condition: Any) -> None:
    deadline = time.monotonic() + PATIENCE
    while not condition():
        assert time.monotonic() < deadline, "等了很久，状态一直没有到"
        await asyncio.sleep(0.005)


def test_one_query_per_poll_for_all_streams_and_a_wake_only_when_a_run_changed():
    runs = [f"run_{n}" for n in range(50)]
    marks = FakeMarks(runs)
    wakeups = Wakeups(marks, every=0.01)

    async def scenario() -> None:
        tickets = {run: wakeups.register(run) for run in runs}
        # the first poll wakes every stream once: a write just before it began is not lost
        await until(lambda: all(event.is_set() for _, event in tickets.values()))
        # On a loaded machine the poller's first query may come before the last stream registered
        # (it starts with the first one); every query after all were woken covers all of them.
        with marks.lock:
            woken_by = len(marks.queries)
        for _, event in tickets.values():
            event.clear()
        polls = wakeups.polls
        await until(lambda: wakeups.polls >= polls + 3)
        assert not any(event.is_set() for _, event in tickets.values())  # nothing changed
        with marks.lock:  # the poller counts a poll just after its query returns
            queries = list(marks.queries)
            polls = wakeups.polls
        assert polls in (len(queries) - 1, len(queries))  # one query per poll, however many streams
        assert len(queries) >= woken_by + 3
        assert all(query == sorted(runs) for query in queries[woken_by:])

        with marks.lock:  # another process writes to one run
            marks.values["run_7"] = ("running", 2.0, 1)
        await until(lambda: tickets["run_7"][1].is_set())
        polls = wakeups.polls
        await until(lambda: wakeups.polls >= polls + 2)
        assert [run for run, (_, event) in tickets.items() if event.is_set()] == ["run_7"]

        for run, ticket in tickets.items():
            wakeups.unregister(run, ticket)

    asyncio.run(scenario())
    poller = wakeups._poller
    if poller is not None:  # it notices at its next poll that no stream waits
        poller.join(PATIENCE)
        assert not poller.is_alive()


def test_a_failing_query_is_retried_and_a_stream_registered_later_restarts_the_poller():
    calls = {"n": 0}

    def flaky(run_ids: list[str]) -> dict[str, tuple[Any, ...]]:
        calls["n"] += 1
        if calls["n"] == 1:
            raise RuntimeError("database is locked")
        return {run: ("running", 1.0, calls["n"]) for run in run_ids}  # changes every time

    wakeups = Wakeups(flaky, every=0.01)

    async def one_stream(run: str) -> None:
        ticket = wakeups.register(run)
        await until(lambda: ticket[1].is_set())
        wakeups.unregister(run, ticket)

    asyncio.run(one_stream("run_a"))
    first = wakeups._poller
    if first is not None:
        first.join(PATIENCE)
        assert not first.is_alive()
    asyncio.run(one_stream("run_b"))  # a new poller for the new stream
    assert calls["n"] >= 3


def test_without_marks_there_is_no_poller():
    wakeups = Wakeups()

    async def scenario() -> None:
        ticket = wakeups.register("run_x")
        assert wakeups._poller is None
        wakeups("run_x")  # a write in this process still wakes it
        await until(lambda: ticket[1].is_set())

    asyncio.run(scenario())
