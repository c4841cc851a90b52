"""The service store's time comes from its clock: leases expire and rows are stamped by it, not by
the wall clock.
"""

from __future__ import annotations

from handwritten_agent.service import Store


class Clock:
    def __init__(self, now: float):
        self.now = now

    def __call__(self) -> float:
        return self.now


def test_queued_runs_are_adopted_when_the_stores_clock_says_the_lease_expired(tmp_path):
    clock = Clock(1_000.0)
    store = Store(tmp_path / "s.sqlite3", clock=clock)
    user, _ = store.add_user("张明", "行政助理")
    run, _ = store.create_run(user, "s1", "你好")
    assert run["created_at"] == 1_000.0
    assert store.lease(run["id"], "w1")
    clock.now += 29  # within the 30-second lease: nobody takes it over
    assert store.adopt_queued(30, "w2") == []
    clock.now += 2  # past it, though no real time has passed
    assert store.adopt_queued(30, "w2") == [run["id"]]
    store.add_event(run["id"], "run_start", {})
    assert [event["ts"] for event in store.events_after(run["id"], raw=True)][-1] == clock.now
