"""Who may decide, stated once, and approvals that no longer fit: the gate and the service agree.

- A requester who holds the approver role cannot approve their own L3 request (the gate refuses in
  the package; the service answers 403 and leaves the request out of their queue); they may withdraw
  it.
- A cumulative bulk limit cannot be bypassed by asking twice before either call runs: when an
  approval is applied the policy is asked again, and a call that has become L3 goes to the approver
  as a new request.
"""

from __future__ import annotations

import logging
import sqlite3

import pytest
from test_service_office import Service, office_rows, wait_for

from handwritten_agent.agent import Agent
from handwritten_agent.confirmation import may_decide, who_decides
from handwritten_agent.permissions import (
    Policy,
    PolicyGate,
    RoleRules,
    User,
    approve,
)
from handwritten_agent.scripted import ScriptedClient, call, calls, reply
from handwritten_agent.tools import ToolRegistry, tool

SENT: list[list[str]] = []
BOSS, OTHER_BOSS, CLERK = (
    User("b1", "主管", "李丽"),
    User("b2", "主管", "赵敏"),
    User("c1", "助理", "张明"),
)


@tool(level="L2")
def sms(customer_ids: list[str], content: str) -> str:
    """给客户发短信。

    Args:
        customer_ids: 客户编号，例如：["C001"]
        content: 短信内容，例如：你好
    """
    SENT.append(list(customer_ids))
    return f"已发送 {len(customer_ids)} 条"


def policy(limit: int = 5) -> Policy:
    return Policy(
        {"主管": RoleRules(), "助理": RoleRules()}, approver_role="主管", bulk_limits={"sms": limit}
    )


def six() -> list[str]:
    return [f"C00{i}" for i in range(1, 7)]


@pytest.mark.parametrize(
    "decider, approving, level, role, allowed",
    [
        (
            BOSS,
            True,
            "L3",
            "主管",
            False,
        ),  # the requester holds the role: still not their own approval
        (BOSS, False, "L3", "主管", True),  # … they may withdraw it
        (OTHER_BOSS, True, "L3", "主管", True),  # another person with the role approves
        (CLERK, True, "L3", "主管", False),  # someone without the role does not
        (BOSS, True, "L2", None, True),  # an L2 request: the requester confirms
        (OTHER_BOSS, True, "L2", None, False),  # … and nobody else
        (OTHER_BOSS, True, "L3", None, False),  # an L3 approval with no role named: nobody
    ],
)
def test_one_rule_says_who_decides(decider, approving, level, role, allowed):
    assert (
        may_decide(decider, approve=approving, level=level, approver_role=role, requester_id="b1")
        is allowed
    )


def test_the_gate_refuses_a_requester_who_holds_the_approver_role_approving_their_own_l3_call():
    SENT.clear()
    pol = policy()
    agent = Agent(
        ScriptedClient(
            [
                calls(call("sms", {"customer_ids": six(), "content": "通知"}, id="s1")),
                reply("好"),
                reply("好"),
            ]
        ),
        ToolRegistry([sms]),
        hooks=[PolicyGate(pol, BOSS)],
    )
    paused = agent.run("给六位客户发短信")
    request = paused.pending[0]
    assert request.level == "L3" and request.approver_role == "主管"
    assert not request.may_decide(BOSS, approve=True) and request.who_decides == who_decides("主管")
    still = agent.resume(paused, {request.id: approve(by=BOSS)})
    assert SENT == [] and still.pending and still.pending[0].id == request.id
    assert [row["decision"] for row in pol.audit.rows()][-1] == "not_authorized"
    done = agent.resume(still, {request.id: approve(by=OTHER_BOSS)})
    assert SENT == [six()] and not done.pending


def test_two_l2_batches_that_together_pass_the_limit_do_not_both_run_on_their_confirmations():
    SENT.clear()
    pol = policy()
    first = Agent(
        ScriptedClient(
            [
                calls(call("sms", {"customer_ids": six()[:4], "content": "通知"}, id="a")),
                reply("好"),
            ]
        ),
        ToolRegistry([sms]),
        hooks=[PolicyGate(pol, CLERK)],
    )
    second = Agent(
        ScriptedClient(
            [
                calls(call("sms", {"customer_ids": six()[2:], "content": "通知"}, id="b")),
                reply("好"),
                reply("好"),
            ]
        ),
        ToolRegistry([sms]),
        hooks=[PolicyGate(pol, CLERK)],
    )
    one, two = first.run("发"), second.run("发")
    assert [one.pending[0].level, two.pending[0].level] == [
        "L2",
        "L2",
    ]  # each fits the limit on its own
    first.resume(one, {one.pending[0].id: approve(by=CLERK)})
    again = second.resume(two, {two.pending[0].id: approve(by=CLERK)})
    assert SENT == [six()[:4]], "第二批的 L2 确认不能在累计超限后照样执行"
    assert (
        len(again.pending) == 1
        and again.pending[0].level == "L3"
        and again.pending[0].id != two.pending[0].id
    )
    assert "超过批量上限 5" in again.pending[0].reason
    assert "escalated" in [row["decision"] for row in pol.audit.rows()]
    second.resume(again, {again.pending[0].id: approve(by=BOSS)})
    assert SENT == [six()[:4], six()[2:]]


# -------------------------------------------------------------------------------------- the service


def sms_message(ids: list[str]) -> str:
    return f"给客户 {'、'.join(ids)} 发短信，内容是：本周五停车场维修"


@pytest.fixture
def service(tmp_path):
    running = Service(tmp_path)
    yield running, tmp_path
    running.stop()


def test_an_approver_cannot_approve_their_own_l3_request_over_http(service):
    running, folder = service
    store = running.app.state.store
    _, boss_token = store.add_user("李丽", "行政主管")
    _, other_token = store.add_user("周洁", "行政主管")
    with running.client(boss_token) as boss, running.client(other_token) as other:
        run = boss.post("/v1/runs", json={"session_id": "s", "message": sms_message(six())}).json()
        pending = wait_for(boss, run["id"], "requires_action")["pending"]
        assert [(p["tool"], p["level"], p["approver_role"]) for p in pending] == [
            ("send_sms_to_customers", "L3", "行政主管")
        ]
        assert boss.get("/v1/confirmations").json()["data"] == []  # not approvable by its requester
        assert [
            item["request"]["id"] for item in other.get("/v1/confirmations").json()["data"]
        ] == [pending[0]["id"]]
        denied = boss.post(
            f"/v1/runs/{run['id']}/confirmations/{pending[0]['id']}", json={"decision": "approve"}
        )
        assert (
            denied.status_code == 403
            and "不能批准自己的 L3 请求" in denied.json()["error"]["message"]
        )
        assert office_rows(folder, "SELECT COUNT(*) FROM sms_outbox") == [(0,)]
        assert (
            other.post(
                f"/v1/runs/{run['id']}/confirmations/{pending[0]['id']}",
                json={"decision": "approve"},
            ).status_code
            == 200
        )
        wait_for(boss, run["id"], "completed")
    assert office_rows(folder, "SELECT COUNT(*) FROM sms_outbox") == [(6,)]


def test_two_pending_sms_batches_cannot_send_more_than_the_limit_over_http(service):
    running, folder = service
    store = running.app.state.store
    _, clerk_token = store.add_user("张明", "行政助理")
    _, boss_token = store.add_user("李丽", "行政主管")
    ids = [f"C00{i}" for i in range(1, 9)]
    with running.client(clerk_token) as clerk, running.client(boss_token) as boss:
        runs = [
            clerk.post(
                "/v1/runs", json={"session_id": f"s{n}", "message": sms_message(batch)}
            ).json()
            for n, batch in enumerate((ids[:4], ids[4:]))
        ]
        waiting = [wait_for(clerk, run["id"], "requires_action")["pending"][0] for run in runs]
        assert [p["level"] for p in waiting] == ["L2", "L2"]
        for run, request in zip(runs, waiting):
            answer = clerk.post(
                f"/v1/runs/{run['id']}/confirmations/{request['id']}", json={"decision": "approve"}
            )
            assert answer.status_code == 200
        # Both resumed runs race for the limit: whichever the workers take first sends its
        # four, and the other must go back to the approver, not run.
        ends = [
            wait_for(clerk, run["id"], "requires_action", "completed", "failed") for run in runs
        ]
        assert sorted(end["status"] for end in ends) == ["completed", "requires_action"], ends
        again = next(end for end in ends if end["status"] == "requires_action")
        assert office_rows(folder, "SELECT COUNT(*) FROM sms_outbox") == [(4,)]
        assert [(p["level"], p["approver_role"]) for p in again["pending"]] == [("L3", "行政主管")]
        queue = boss.get("/v1/confirmations").json()["data"]
        assert [item["request"]["id"] for item in queue] == [again["pending"][0]["id"]]


# ----------------------------------------------------------------------------------------- failures

BOOK = "帮我订明天上午 10 点到 11 点的 room_301 会议室，5 个人开会"


def test_a_full_disk_mid_run_fails_the_run_with_the_reason_and_logs_it(tmp_path, caplog):
    running = Service(tmp_path, heartbeat_seconds=0.2, lease_seconds=3)
    store = running.app.state.store
    _, token = store.add_user("张明", "行政助理")
    real = store.add_events  # a run's events are stored a few at a time

    def full_disk(run_id, events):
        if any(kind in ("tool_call", "tool_result", "stop") for kind, _ in events):
            raise sqlite3.OperationalError("database or disk is full")
        return real(run_id, events)

    store.add_events = full_disk
    caplog.set_level(logging.WARNING, logger="handwritten_agent.service")
    try:
        with running.client(token) as zhang:
            run = zhang.post(
                "/v1/runs",
                json={
                    "session_id": "s",
                    "message": "查一下明天上午 10 点到 11 点 room_301 有没有空",
                },
            ).json()
            failed = wait_for(zhang, run["id"], "failed", "completed", "requires_action")
    finally:
        running.stop()
    assert failed["status"] == "failed" and "database or disk is full" in failed["error"], failed
    assert "重启" not in failed["error"]
    assert any(
        "database or disk is full" in record.getMessage() or "disk is full" in str(record.exc_info)
        for record in caplog.records
        if record.name == "handwritten_agent.service"
    )


def test_a_decision_whose_resume_failed_to_start_is_resumed_not_left_waiting(tmp_path):
    running = Service(tmp_path, heartbeat_seconds=0.2, lease_seconds=3)
    store, manager = running.app.state.store, running.app.state.manager
    _, token = store.add_user("张明", "行政助理")
    real, calls_made = manager.decide, []

    def broken_once(run, request_id):
        if request_id:  # the decide endpoint's call; the heartbeat's recovery passes no request id
            calls_made.append(request_id)
        if request_id and len(calls_made) == 1:
            raise sqlite3.OperationalError("database is locked")
        return real(run, request_id)

    manager.decide = broken_once
    try:
        with running.client(token) as zhang:
            run = zhang.post("/v1/runs", json={"session_id": "s", "message": BOOK}).json()
            request = wait_for(zhang, run["id"], "requires_action")["pending"][0]
            first = zhang.post(
                f"/v1/runs/{run['id']}/confirmations/{request['id']}", json={"decision": "approve"}
            )
            assert first.status_code == 500  # the decision was stored, starting the resume failed
            retry = zhang.post(
                f"/v1/runs/{run['id']}/confirmations/{request['id']}", json={"decision": "approve"}
            )
            assert retry.status_code == 200 and retry.json()["replayed"] is True
            done = wait_for(zhang, run["id"], "completed", "failed")
    finally:
        running.stop()
    assert done["status"] == "completed" and calls_made[:1] == [request["id"]], done
