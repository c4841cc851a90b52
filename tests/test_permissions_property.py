"""Property: for generated policies, roles, calls and decisions, the gate never runs a call the
policy does not allow, and every decision is in the audit log, written before the tool runs.

The test has its own small oracle (written from the rules, not from the gate's code): a call may run
only if the role has rules and sees the tool (whitelist, not L0), the arguments are valid, the rate
limit is not used up, and — when its level for the role (raised by a bulk limit or a confirmation
predicate) is L2 or L3 — an ``approve()`` for that very call was given by someone allowed to give it
(the user or the approver role for L2, the approver role for L3). A call runs at most once.
"""

from __future__ import annotations

import json
from typing import Any

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from handwritten_agent.agent import Agent
from handwritten_agent.confirmation import arguments_sha256
from handwritten_agent.messages import ToolCall
from handwritten_agent.permissions import (
    Level,
    Policy,
    PolicyGate,
    RateLimit,
    RoleRules,
    User,
    approve,
    reject,
)
from handwritten_agent.permissions.audit import GRANTED
from handwritten_agent.scripted import FunctionClient, calls
from handwritten_agent.tools import ToolRegistry, tool

RAN: list[dict[str, Any]] = []
CURRENT: dict[str, Policy] = {}


def _ran(name: str, arguments: dict[str, Any]) -> str:
    """Record a run, and what the audit log held at that moment for this exact call."""
    sha = arguments_sha256(ToolCall("", name, json.dumps(arguments)))
    rows = [row for row in CURRENT["policy"].audit.rows() if row["arguments_sha256"] == sha]
    RAN.append(
        {"name": name, "arguments": arguments, "last_row": rows[-1]["decision"] if rows else None}
    )
    return "ok"


@tool
def t_read(q: str) -> str:
    """读。

    Args:
        q: 查询，例如：a
    """
    return _ran("t_read", {"q": q})


@tool(level=Level.L2)
def t_write(a: str, n: int) -> str:
    """写。

    Args:
        a: 内容，例如：a
        n: 数量，例如：1
    """
    return _ran("t_write", {"a": a, "n": n})


@tool(level=Level.L3)
def t_send(to: list[str]) -> str:
    """发送。

    Args:
        to: 收件人，例如：["a"]
    """
    return _ran("t_send", {"to": to})


@tool(level=Level.L0)
def t_internal(x: str) -> str:
    """内部接口。

    Args:
        x: 参数，例如：a
    """
    return _ran("t_internal", {"x": x})


@tool(needs_confirmation=lambda arguments: arguments.get("amount", 0) > 100)
def t_pay(amount: int) -> str:
    """付款。

    Args:
        amount: 金额，例如：50
    """
    return _ran("t_pay", {"amount": amount})


TOOLS = [t_read, t_write, t_send, t_internal, t_pay]
NAMES = [t.name for t in TOOLS]
VALID = {
    "t_read": st.builds(lambda q: {"q": q}, st.sampled_from(["a", "b"])),
    "t_write": st.builds(
        lambda a, n: {"a": a, "n": n}, st.sampled_from(["a", "b"]), st.integers(0, 3)
    ),
    "t_send": st.builds(
        lambda to: {"to": to},
        st.lists(st.sampled_from(["x", "y", "z", "w"]), min_size=0, max_size=4),
    ),
    "t_internal": st.just({"x": "a"}),
    "t_pay": st.builds(lambda amount: {"amount": amount}, st.sampled_from([5, 100, 101, 999])),
}
INVALID = st.sampled_from(
    [
        '{"q": 1}',
        '{"a": "a"}',
        '{"to": "x"}',
        "{",
        "[1, 2]",
        '{"amount": "5"}',
        '{"extra": true, "q": "a"}',
    ]
)
LEVELS = st.sampled_from([Level.L0, Level.L1, Level.L2, Level.L3])


@st.composite
def scenarios(draw) -> dict[str, Any]:
    roles = draw(st.lists(st.sampled_from(["r0", "r1", "r2"]), min_size=1, max_size=3, unique=True))
    rules = {}
    for role in roles:
        whitelist = draw(st.none() | st.lists(st.sampled_from(NAMES), unique=True, max_size=5))
        overrides = draw(st.dictionaries(st.sampled_from(NAMES), LEVELS, max_size=3))
        rules[role] = {"tools": whitelist, "levels": overrides}
    approver = draw(st.sampled_from(roles + ["boss"]))
    bulk = draw(st.none() | st.integers(0, 2))
    rate = draw(st.sampled_from([None, 1, 1, 2, 3]))
    user_role = draw(st.sampled_from(roles + ["ghost"]))
    step = []
    for index in range(draw(st.integers(1, 4))):
        name = draw(st.sampled_from(NAMES + ["t_read", "t_unknown"]))
        if name != "t_unknown" and draw(st.integers(0, 9)) < 7:
            arguments = json.dumps(draw(VALID[name]))
        else:
            arguments = draw(INVALID) if name != "t_unknown" else "{}"
        step.append(ToolCall(f"c{index}", name, arguments))
    rounds = draw(
        st.lists(
            st.lists(
                st.sampled_from(
                    [
                        "approve_user",
                        "approve_approver",
                        "approve_stranger",
                        "reject_user",
                        "reject_approver",
                        "bogus",
                    ]
                ),
                min_size=4,
                max_size=4,
            ),
            min_size=1,
            max_size=3,
        )
    )
    return {
        "rules": rules,
        "approver": approver,
        "bulk": bulk,
        "rate": rate,
        "user_role": user_role,
        "step": step,
        "rounds": rounds,
    }


def decision_for(kind: str, user: User, approver: User, stranger: User) -> Any:
    return {
        "approve_user": approve(by=user),
        "approve_approver": approve(by=approver),
        "approve_stranger": approve(by=stranger),
        "reject_user": reject("不要", by=user),
        "reject_approver": reject("不行", by=approver),
        "bogus": "yes",
    }[kind]


def allowed_without_decision_or_needed_level(s: dict[str, Any], call: ToolCall) -> Level | None:
    """The oracle: None if the policy forbids the call outright, else the level it needs (L1 = runs
    as is).
    """
    rules = s["rules"].get(s["user_role"])
    tool_ = next((t for t in TOOLS if t.name == call.name), None)
    if rules is None or tool_ is None:
        return None
    if rules["tools"] is not None and call.name not in rules["tools"]:
        return None
    level = Level.of(rules["levels"].get(call.name, tool_.level))
    if level == Level.L0:
        return None
    try:
        arguments = json.loads(call.arguments)
    except ValueError:
        return None
    valid = {
        "t_read": lambda a: set(a) == {"q"} and isinstance(a["q"], str),
        "t_write": (
            lambda a: set(a) == {"a", "n"} and isinstance(a["a"], str) and type(a["n"]) is int
        ),
        "t_send": lambda a: set(a) == {"to"} and isinstance(a["to"], list),
        "t_internal": lambda a: set(a) == {"x"},
        "t_pay": lambda a: set(a) == {"amount"} and type(a["amount"]) is int,
    }[call.name]
    if not isinstance(arguments, dict) or not valid(arguments):
        return None
    if call.name == "t_pay" and arguments["amount"] > 100 and level < Level.L2:
        level = Level.L2
    if s["bulk"] is not None and call.name == "t_send" and len(arguments["to"]) > s["bulk"]:
        level = Level.L3
    return level


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(s=scenarios())
@example(
    s={
        "rules": {"r0": {"tools": None, "levels": {}}},
        "approver": "boss",
        "bulk": None,
        "rate": 1,
        "user_role": "r0",
        "step": [ToolCall("c0", "t_read", '{"q": "a"}')],
        "rounds": [["approve_user"] * 4],
    }
)  # the second run is over the limit
def test_the_gate_never_runs_what_the_policy_does_not_allow_and_audits_every_decision(s):
    RAN.clear()
    policy = Policy(
        {role: RoleRules(**rules) for role, rules in s["rules"].items()},
        approver_role=s["approver"],
        bulk_limits={"t_send": s["bulk"]} if s["bulk"] is not None else {},
        rate_limits={"t_read": RateLimit(s["rate"], 3600)} if s["rate"] is not None else {},
    )
    CURRENT["policy"] = policy
    user = User("u", s["user_role"])
    approver, stranger = User("a", s["approver"]), User("s", "stranger")
    step = s["step"]
    client = FunctionClient(
        lambda messages, tools: calls(*step) if messages[-1]["role"] == "user" else "完成"
    )
    events: list = []
    agent = Agent(
        client, ToolRegistry(TOOLS), hooks=[PolicyGate(policy, user)], on_event=events.append
    )

    given_decisions: dict[tuple[str, str], list[Any]] = {}
    results = []
    for attempt in (
        "run_1",
        "run_2",
    ):  # the same requests twice, so rate limits are reached across runs
        result = agent.run("做事", run_id=attempt)
        for kinds in s["rounds"]:
            if result.stop_reason != "needs_confirmation":
                break
            decisions = {}
            for request, kind in zip(result.pending, kinds * 2):
                decisions[request.id] = decision_for(kind, user, approver, stranger)
                given_decisions.setdefault((attempt, request.tool_call_id), []).append(
                    decisions[request.id]
                )
            result = agent.resume(result, decisions)
        results.append(result)

    # 1. Nothing ran that the policy does not allow, and nothing ran twice.
    ran_by_call = [
        (result.run_id, record)
        for result in results
        for step_ in result.steps
        for record in step_.calls
        if record.executed
    ]
    assert len(RAN) == len(ran_by_call)
    assert len({(run_id, record.call.id) for run_id, record in ran_by_call}) == len(ran_by_call)
    read_runs = 0
    for run_id, record in ran_by_call:
        needed = allowed_without_decision_or_needed_level(s, record.call)
        assert needed is not None, f"ran a call the policy forbids: {record.call}"
        if record.call.name == "t_read":
            read_runs += 1
        if needed >= Level.L2:
            approvals = [
                d
                for d in given_decisions.get((run_id, record.call.id), [])
                if getattr(d, "approved", False)
            ]
            if needed == Level.L3:
                ok = [d for d in approvals if d.by.role == s["approver"]]
            else:
                ok = [d for d in approvals if d.by.id == user.id or d.by.role == s["approver"]]
            assert ok, (
                f"ran {needed.value} call {record.call} without an authorized approval:"
                f" {given_decisions.get((run_id, record.call.id))}"
            )
    if s["rate"] is not None:
        assert read_runs <= s["rate"]

    # 2. Every decision is in the audit log, and a granting row was on disk before each tool ran.
    rows = policy.audit.rows()
    assert [(e.data["tool"], e.data["decision"]) for e in events if e.kind == "permission"] == [
        (r["tool"], r["decision"]) for r in rows
    ]
    checked = {
        (result.run_id, record.call.id)
        for result in results
        for step_ in result.steps
        for record in step_.calls
        if not record.repeated
    } | {(result.run_id, request.tool_call_id) for result in results for request in result.pending}
    assert checked <= {(row["run_id"], row["tool_call_id"]) for row in rows}
    assert all(run["last_row"] in GRANTED for run in RAN), RAN
    executed_ids = {(run_id, record.call.id) for run_id, record in ran_by_call}
    granted_ids = {
        (row["run_id"], row["tool_call_id"]) for row in rows if row["decision"] in GRANTED
    }
    assert executed_ids <= granted_ids
