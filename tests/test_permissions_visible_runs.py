"""One gate serving several runs keeps each run's visible tools apart (``PolicyGate`` keys them by
run id).
"""

from __future__ import annotations

from handwritten_agent.hooks import HookContext
from handwritten_agent.messages import ToolCall
from handwritten_agent.permissions import Policy, PolicyGate, RoleRules, User
from handwritten_agent.tools import tool


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
    gate.visible_tools([look_up_order], HookContext("run_a", 1))
    gate.visible_tools(
        [read_weather], HookContext("run_b", 1)
    )  # another run of the same gate, seen last
    answer = gate.check_call(
        ToolCall("x1", "refund_order", "{}"), HookContext("run_a", 1, tool=None)
    )
    assert answer is not None and not answer.success
    assert "look_up_order" in answer.error and "read_weather" not in answer.error, answer.error
    other = gate.check_call(
        ToolCall("x2", "refund_order", "{}"), HookContext("run_b", 1, tool=None)
    )
    assert "read_weather" in other.error and "look_up_order" not in other.error, other.error
