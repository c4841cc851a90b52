"""The service store: its time comes from its clock (leases expire and rows are stamped by it,
not by the wall clock), and its schema from numbered migrations, on SQLite and PostgreSQL.
"""

from __future__ import annotations

import pytest

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


# ----------------------------------------------------- migrations, on both stores


def test_a_new_database_gets_every_migration_step_once(store_target):
    from handwritten_agent.service.store.migrations import MIGRATIONS

    first = Store(store_target)
    try:
        steps = first.schema_version()
        assert [number for number, _ in steps] == [step.version for step in MIGRATIONS]
        second = Store(store_target)  # a second process starting on the same database
        try:
            assert second.migrate() == [] and second.schema_version() == steps
        finally:
            second.close()
    finally:
        first.close()


def test_a_file_from_before_numbered_migrations_is_brought_up_to_date_keeping_its_rows(tmp_path):
    """A service file written before ``schema_version`` existed: no lease columns, no removed
    users, no unique-name index. Opening it adds what it lacks and keeps every row.
    """
    import sqlite3
    from contextlib import closing

    db = tmp_path / "old.sqlite3"
    with closing(sqlite3.connect(db)) as old, old:
        old.executescript(
            """
            CREATE TABLE users (id TEXT PRIMARY KEY, name TEXT NOT NULL, role TEXT NOT NULL,
                token_hash TEXT NOT NULL UNIQUE, created_at REAL NOT NULL);
            CREATE TABLE runs (id TEXT PRIMARY KEY, user_id TEXT NOT NULL REFERENCES users(id),
                session_id TEXT NOT NULL, message TEXT NOT NULL, status TEXT NOT NULL,
                stop_reason TEXT, answer TEXT, error TEXT, pending TEXT NOT NULL DEFAULT '[]',
                state TEXT, cancel_requested INTEGER NOT NULL DEFAULT 0,
                created_at REAL NOT NULL, updated_at REAL NOT NULL);
            INSERT INTO users VALUES ('u_old', '老王', '行政助理', 'x', 1.0);
            INSERT INTO runs (id, user_id, session_id, message, status, answer, created_at,
                updated_at) VALUES ('run_old', 'u_old', 's', '你好', 'completed', '好', 1.0, 1.0);
            """
        )
    store = Store(f"sqlite:///{db}")
    assert [number for number, _ in store.schema_version()][-1] >= 4
    run = store.get_run("run_old")
    assert run is not None and run["answer"] == "好" and run["worker"] is None
    assert store.user("u_old").name == "老王"
    with pytest.raises(ValueError):
        store.add_user("老王", "行政助理")  # the unique-name rule came with step 3
    store.close()


def test_marks_change_when_another_store_on_the_database_writes_to_a_run(store_target):
    """``Store.marks`` is what the event streams' poller compares: a write through a second store
    (another process) changes the run's mark, and only that run's."""
    here, there = Store(store_target), Store(store_target)
    try:
        user, _ = here.add_user("张明", "行政助理")
        first, _ = here.create_run(user, "s1", "查一下会议室")
        second, _ = here.create_run(user, "s2", "读一下邮件")
        before = here.marks([first["id"], second["id"], "run_missing"])
        assert set(before) == {first["id"], second["id"]}  # a run that does not exist has none
        there.add_events(first["id"], [("run_start", {"resumed": False})])
        after = here.marks([first["id"], second["id"]])
        assert after[first["id"]] != before[first["id"]]
        assert after[second["id"]] == before[second["id"]]
        assert here.marks([]) == {}
    finally:
        there.close()
        here.close()
