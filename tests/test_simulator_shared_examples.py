"""A parameter with no examples borrows those of the same parameter of another offered tool."""

from __future__ import annotations

from datetime import datetime

from handwritten_agent.course.offline.simulator.planner import plan_turn
from handwritten_agent.course.offline.simulator.shared_examples import share_examples
from tests.test_simulator_generated import fn, s

NOW = datetime(2026, 3, 12, 14, 30)
RESERVE = fn(
    "reserve_venue",
    "预留运动场地",
    {"venue": s("场地名称，例如 篮球场、羽毛球馆"), "date": s("日期 YYYY-MM-DD")},
    ["venue", "date"],
)
CHECK = fn(
    "check_open",
    "查询场馆某天是否开放",
    {"venue": s("场地名称"), "date": s("日期 YYYY-MM-DD")},
    ["venue", "date"],
)


def _venue(tools):
    return tools[1]["function"]["parameters"]["properties"]["venue"]


def test_a_namesake_with_the_same_description_lends_its_examples():
    shared = share_examples([RESERVE, CHECK])
    assert _venue(shared)["examples"] == ["篮球场", "羽毛球馆"]
    assert "examples" not in _venue([RESERVE, CHECK])  # the caller's tools are not changed
    plan = plan_turn("篮球场周六开放吗？", [RESERVE, CHECK], [], now=NOW)
    assert [(c.name, c.arguments) for c in plan.calls] == [
        ("check_open", {"venue": "篮球场", "date": "2026-03-14"})
    ]


def test_a_namesake_that_means_something_else_lends_nothing():
    other = fn("check_open", "查询某天的天气", {"venue": s("城市名称")}, ["venue"])
    assert share_examples([RESERVE, other]) == [RESERVE, other]
    enum = fn(
        "check_open",
        "查询场馆某天是否开放",
        {"venue": {"type": "string", "description": "场地名称", "enum": ["A", "B"]}},
        ["venue"],
    )
    assert (
        "examples"
        not in share_examples([RESERVE, enum])[1]["function"]["parameters"]["properties"]["venue"]
    )
