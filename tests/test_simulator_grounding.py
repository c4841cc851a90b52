"""Grounding on tools the simulator has never seen: ids looked up before they are used, names
resolved from results.

A hotel-like tool set stands in for any "look up, then act" pair: ``search_rooms`` (read-only,
returns room numbers and display names) and ``reserve_room`` (needs a room number like ``R1001``).
The user never says ``R1001``.
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from handwritten_agent.course.offline.backend import ChatRequest
from handwritten_agent.course.offline.simulator import CourseSimulator
from handwritten_agent.course.offline.simulator.planner import PlannedCall, plan_turn

NOW = datetime(2026, 3, 12, 14, 30)


def fn(
    name: str, description: str, properties: dict[str, Any], required: list[str]
) -> dict[str, Any]:
    return {
        "name": name,
        "description": description,
        "parameters": {"type": "object", "properties": properties, "required": required},
    }


SEARCH = fn(
    "search_rooms",
    "查询某天可入住的客房，返回房间号、房型名称和床位数。",
    {
        "check_in": {
            "type": "string",
            "description": "入住日期，格式 YYYY-MM-DD，例如：2026-03-20",
        },
        "min_beds": {"type": "integer", "description": "至少几张床，例如：2", "default": 1},
    },
    ["check_in"],
)
RESERVE = fn(
    "reserve_room",
    "预订一间客房，返回订单号。",
    {
        "room_no": {"type": "string", "description": "房间号，例如：R1001"},
        "check_in": {
            "type": "string",
            "description": "入住日期，格式 YYYY-MM-DD，例如：2026-03-20",
        },
        "guests": {"type": "integer", "description": "入住人数，例如：2"},
    },
    ["room_no", "check_in", "guests"],
)
TOOLS = [SEARCH, RESERVE]
ROOMS = {
    "rooms": [
        {"room_no": "R1001", "name": "T12", "beds": 1},
        {"room_no": "R1002", "name": "K20", "beds": 2},
        {"room_no": "R1003", "name": "F30", "beds": 3},
    ]
}


def plan(text: str, results: list[tuple[PlannedCall, str]] = (), **options: Any):
    return plan_turn(text, TOOLS, list(results), now=NOW, **options)


def test_a_display_name_is_looked_up_first_then_its_id_is_used():
    first = plan("帮我订 3 月 20 日的 K20，2 个人")
    assert [c.name for c in first.calls] == ["search_rooms"] and first.calls[0].arguments == {
        "check_in": "2026-03-20"
    }
    second = plan("帮我订 3 月 20 日的 K20，2 个人", [(first.calls[0], json.dumps(ROOMS))])
    assert second.calls == [
        PlannedCall("reserve_room", {"room_no": "R1002", "check_in": "2026-03-20", "guests": 2})
    ]


def test_a_description_is_looked_up_with_its_constraint():
    first = plan("3 月 20 日帮我订一间至少 3 张床的客房，3 个人")
    assert first.calls[0].name == "search_rooms" and first.calls[0].arguments.get("min_beds") == 3
    second = plan(
        "3 月 20 日帮我订一间至少 3 张床的客房，3 个人", [(first.calls[0], json.dumps(ROOMS))]
    )
    assert second.calls == [
        PlannedCall("reserve_room", {"room_no": "R1003", "check_in": "2026-03-20", "guests": 3})
    ]


def test_a_name_the_results_do_not_hold_is_not_replaced_by_another_room():
    first = plan("帮我订 3 月 20 日的 Z99，2 个人")
    final = plan("帮我订 3 月 20 日的 Z99，2 个人", [(first.calls[0], json.dumps(ROOMS))])
    assert (
        not final.calls
        and "没有" in final.answer
        and "预订" in final.answer
        and "？" not in final.answer
    )


def test_an_id_the_user_gives_needs_no_lookup():
    assert plan("订 R1003，3 月 20 日入住，2 个人").calls == [
        PlannedCall("reserve_room", {"room_no": "R1003", "check_in": "2026-03-20", "guests": 2})
    ]


def test_a_name_from_an_earlier_round_is_resolved_from_what_that_round_returned():
    messages = [
        {"role": "user", "content": "3 月 20 日有哪些客房？"},
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {
                    "id": "c1",
                    "type": "function",
                    "function": {"name": "search_rooms", "arguments": '{"check_in": "2026-03-20"}'},
                }
            ],
        },
        {"role": "tool", "tool_call_id": "c1", "content": json.dumps(ROOMS)},
        {"role": "assistant", "content": "有 T12、K20 和 F30。"},
        {"role": "user", "content": "那就订 F30 吧，2 个人"},
    ]
    completion = CourseSimulator(now=NOW).complete(
        ChatRequest(model="course-sim", messages=messages, tools=TOOLS)
    )
    calls = [
        (c["function"]["name"], json.loads(c["function"]["arguments"]))
        for c in completion.tool_calls
    ]
    assert calls == [("reserve_room", {"room_no": "R1003", "check_in": "2026-03-20", "guests": 2})]


def test_asking_whether_one_named_thing_is_free_checks_that_thing():
    first = plan("3 月 20 日 K20 还有空房吗？")
    assert first.calls and first.calls[0].name == "search_rooms"
    yes = plan("3 月 20 日 K20 还有空房吗？", [(first.calls[0], json.dumps(ROOMS))])
    assert yes.answer.startswith("是的") and "K20" in yes.answer
    gone = {"rooms": [r for r in ROOMS["rooms"] if r["name"] != "K20"]}
    no = plan("3 月 20 日 K20 还有空房吗？", [(first.calls[0], json.dumps(gone))])
    assert no.answer.startswith("不") and "K20" in no.answer and "T12" in no.answer


CHINESE_ROOMS = {
    "rooms": [
        {"room_no": "R1001", "name": "听雨轩", "beds": 1},
        {"room_no": "R1002", "name": "观澜阁", "beds": 2},
        {"room_no": "R1003", "name": "揽月楼", "beds": 3},
    ]
}


def test_a_chinese_name_is_a_name_once_the_results_show_it_is_one():
    request = "3 月 20 日帮我订观澜阁这间客房，2 个人"
    first = plan(request)
    assert [c.name for c in first.calls] == ["search_rooms"]
    second = plan(request, [(first.calls[0], json.dumps(CHINESE_ROOMS))])
    assert second.calls == [
        PlannedCall("reserve_room", {"room_no": "R1002", "check_in": "2026-03-20", "guests": 2})
    ]
    question = "3 月 20 日揽月楼还有空房吗？"
    asked = plan(question)
    yes = plan(question, [(asked.calls[0], json.dumps(CHINESE_ROOMS))])
    assert yes.answer.startswith("是的") and "揽月楼" in yes.answer


def test_a_bare_number_names_the_room_with_that_number_or_none():
    request = "3 月 20 日帮我订 1003，3 个人"
    first = plan(request)
    second = plan(request, [(first.calls[0], json.dumps(ROOMS))])
    assert second.calls == [
        PlannedCall("reserve_room", {"room_no": "R1003", "check_in": "2026-03-20", "guests": 3})
    ]
    missing = plan("3 月 20 日帮我订 1009，3 个人", [(first.calls[0], json.dumps(ROOMS))])
    assert not missing.calls and "1009" in missing.answer


def test_a_name_only_the_condition_says_is_the_one_booked():
    request = "如果 3 月 20 日 K20 有空，就帮我订下来，2 个人"
    first = plan(request)
    second = plan(request, [(first.calls[0], json.dumps(ROOMS))])
    assert second.calls == [
        PlannedCall("reserve_room", {"room_no": "R1002", "check_in": "2026-03-20", "guests": 2})
    ]
    gone = {"rooms": [r for r in ROOMS["rooms"] if r["name"] != "K20"]}
    final = plan(request, [(first.calls[0], json.dumps(gone))])
    assert not final.calls
