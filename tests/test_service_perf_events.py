"""A run's events are committed a few at a time, not one commit per event — without losing what
matters: a ``tool_call`` is stored before its tool runs (so a crash inside the tool leaves it), the
events held with it come along in order, and the run's last events are stored with its end. On
SQLite and PostgreSQL.
"""

from __future__ import annotations

import threading
from typing import Any

from handwritten_agent.agent import Agent
from handwritten_agent.scripted import FunctionClient, call, calls
from handwritten_agent.service import Store
from handwritten_agent.service.runner import RunManager
from handwritten_agent.tools import ToolRegistry, tool


def test_a_batch_of_events_is_numbered_after_the_last_one_and_reports_a_cancel(store_target):
    store = Store(store_target)
    try:
        user, _ = store.add_user("alice", "行政助理")
        run, _ = store.create_run(user, "s", "你好")
        other, _ = store.create_run(user, "s2", "你好")
        store.add_event(run["id"], "run_start", {"n": 0})
        store.add_event(other["id"], "run_start", {"n": 0})
        asked = store.add_events(
            run["id"], [("model_call", {"n": 1}), ("tool_call", {"n": 2}), ("x", {"n": 3})]
        )
        assert asked is False
        events = store.events_after(run["id"])
        assert [(e["id"], e["event"], e["data"]["n"]) for e in events] == [
            (1, "run_start", 0),
            (2, "model_call", 1),
            (3, "tool_call", 2),
            (4, "x", 3),
        ]
        assert [e["id"] for e in store.events_after(other["id"])] == [1]  # its own numbers
        store.request_cancel(run["id"])
        assert store.add_events(run["id"], [("tool_result", {"n": 4})]) is True
        assert store.events_after(run["id"], 4)[0]["id"] == 5
    finally:
        store.close()


def test_a_run_is_created_holding_its_lease_when_a_worker_is_named(store_target):
    store = Store(store_target)
    try:
        user, _ = store.add_user("alice", "行政助理")
        run, created = store.create_run(user, "s", "你好", worker="w_test")
        keyed, _ = store.create_run(user, "s", "你好", idempotency_key="k1", worker="w_test")
        assert created and run["worker"] == "w_test" and run["heartbeat"] is not None
        assert keyed["worker"] == "w_test" and keyed["status"] == "queued"
        plain, _ = store.create_run(user, "s", "你好")
        assert plain["worker"] is None
    finally:
        store.close()


def test_a_tool_call_is_stored_before_its_tool_runs_with_the_model_call_before_it(store_target):
    store = Store(store_target)
    seen_by_tool: list[list[str]] = []
    tool_ran = threading.Event()

    def model(messages: list[dict], tools: Any) -> Any:
        if messages[-1]["role"] == "tool":
            return "查好了"
        return calls(call("probe", {}, id="call_probe"))

    @tool
    def probe() -> str:
        """看一眼存储里这个运行已经有的事件。"""
        seen_by_tool.append([e["event"] for e in store.events_after(run["id"])])
        tool_ran.set()
        return "ok"

    def make_agent(user, session_id, on_event, run_id):
        return Agent(FunctionClient(model), ToolRegistry([probe]), on_event=on_event)

    manager = RunManager(store, make_agent, lambda row, decider: None, workers=1)
    try:
        user, _ = store.add_user("alice", "行政助理")
        run, _ = store.create_run(user, "s", "看一眼", worker=manager.worker)
        manager.submit(run["id"], leased=True)
        manager.wait(run["id"], timeout=60)
        assert tool_ran.is_set()
        # the model's reply and the call were committed before the tool ran; nothing after them
        assert seen_by_tool == [["run_start", "model_call", "tool_call"]]
        done = store.get_run(run["id"])
        assert done is not None and (done["status"], done["answer"]) == ("completed", "查好了")
        kinds = [e["event"] for e in store.events_after(run["id"])]
        assert kinds == [
            "run_start",
            "model_call",
            "tool_call",
            "tool_result",
            "model_call",
            "final",
            "stop",
        ]
        assert [e["id"] for e in store.events_after(run["id"])] == list(range(1, len(kinds) + 1))
    finally:
        manager.shutdown(wait=True)
        store.close()


def test_a_cancel_made_in_this_process_stops_the_run_at_its_next_event(store_target):
    """The cancel is asked while the tool runs; the run stops at the ``tool_result`` that follows,
    before the second model call, and ends ``cancelled`` with one ``stop`` event.
    """
    store = Store(store_target)
    started, release = threading.Event(), threading.Event()
    replies: list[str] = []

    def model(messages: list[dict], tools: Any) -> Any:
        if messages[-1]["role"] == "tool":
            replies.append("answer")
            return "好了"
        return calls(call("hold", {}, id="call_hold"))

    @tool
    def hold() -> str:
        """等到测试放行。"""
        started.set()
        release.wait(30)
        return "ok"

    def make_agent(user, session_id, on_event, run_id):
        return Agent(FunctionClient(model), ToolRegistry([hold]), on_event=on_event)

    manager = RunManager(store, make_agent, lambda row, decider: None, workers=1)
    try:
        user, _ = store.add_user("alice", "行政助理")
        run, _ = store.create_run(user, "s", "等着", worker=manager.worker)
        manager.submit(run["id"], leased=True)
        assert started.wait(30)
        manager.cancel(store.get_run(run["id"]) or run)
        release.set()
        manager.wait(run["id"], timeout=60)
        done = store.get_run(run["id"])
        assert done is not None and (done["status"], done["stop_reason"]) == (
            "cancelled",
            "cancelled",
        )
        assert replies == []  # the model was not asked again
        kinds = [e["event"] for e in store.events_after(run["id"])]
        assert kinds.count("stop") == 1 and kinds[-1] == "stop", kinds
    finally:
        release.set()
        manager.shutdown(wait=True)
        store.close()
