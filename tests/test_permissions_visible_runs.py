"""One gate serving several runs keeps each run's visible tools apart: the loop hands each call the
names its own step showed the model (``HookContext.shown``, kept in the step for a resume).
"""

from __future__ import annotations

import json

from handwritten_agent.agent import Agent
from handwritten_agent.hooks import HookContext
from handwritten_agent.messages import ToolCall
from handwritten_agent.permissions import Policy, PolicyGate, RoleRules, User
from handwritten_agent.run import Step
from handwritten_agent.scripted import ScriptedClient, call, calls, reply
from handwritten_agent.tools import ToolRegistry, tool


@tool
def look_up_order(order_id: str) -> str:
    """查询订单。

    Args:
        order_id: 订单号，例如：OD1
    """
    return "已发货"


@tool
def read_weather(city: str) -> str:
    """查询天气。

    Args:
        city: 城市，例如：北京
    """
    return "晴"


def test_a_denial_names_the_tools_of_its_own_run_not_of_the_run_seen_last():
    gate = PolicyGate(Policy({"助理": RoleRules()}), User("c1", "助理", "张明"))
    refund = calls(call("refund_order", {}, id="x1"))
    first = Agent(
        ScriptedClient([refund, reply("好")]), ToolRegistry([look_up_order]), hooks=[gate]
    ).iter_run("退款")
    events = []
    while not events or events[-1].kind != "model_call":  # run_a has been shown its tools …
        events.append(next(first))
    other = Agent(
        ScriptedClient([refund, reply("好")]), ToolRegistry([read_weather]), hooks=[gate]
    ).run("退款")  # … then another run of the same gate is shown others, and ends
    events += list(first)  # run_a's call is checked only now
    answer = next(e.record.result for e in events if e.kind == "tool_result")
    assert not answer.success
    assert "look_up_order" in answer.error and "read_weather" not in answer.error, answer.error
    error = other.tool_calls[0].result.error
    assert "read_weather" in error and "look_up_order" not in error, error


def test_a_resumed_call_is_checked_against_the_tools_its_step_showed():
    shown = Step(1, reply("x"), 0.0, shown=["look_up_order"])
    again = Step.from_dict(json.loads(json.dumps(shown.to_dict())))
    assert again.shown == ["look_up_order"]
    gate = PolicyGate(Policy({"助理": RoleRules()}), User("c1", "助理", "张明"))
    answer = gate.check_call(
        ToolCall("x1", "refund_order", "{}"),
        HookContext("run_a", 1, tool=None, shown=tuple(again.shown)),
    )
    assert answer is not None and "look_up_order" in answer.error, answer
