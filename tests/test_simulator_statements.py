"""A statement is acknowledged; a request is never "noted" as if it were taken care of.

"好的，知道了：你要把明天的会改到周五" to a request no tool can carry out reads as done. The
simulator tells the two apart by the sentence's form, whatever its words: an order ("把…", "帮我…一
下"), a verb that changes things said of the future ("我想取消…", "会议推迟到周五"), or a
colloquial order by its count ("来两杯拿铁") is a request — done with a tool, asked about,
or answered with why it cannot be done; a sentence about the speaker or what is ("我不吃辣",
"同行的是张伟和李娜") is acknowledged and nothing is run. "请记住：…" asks only that it be kept.

Each case runs with no tools, with tools that do not fit, and (for the orders) with a tool that
does, with and without an earlier system message (the simulator reads earlier rounds only when
there are some).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

import pytest

from handwritten_agent.course.offline.backend import ChatRequest
from handwritten_agent.course.offline.simulator import CourseSimulator
from tests.test_simulator_generated import fn, i, s

SIMULATOR = CourseSimulator(now=datetime(2026, 3, 12, 14, 30))

WEATHER = [fn("get_weather", "查询城市天气", {"city": s("城市")}, ["city"])]
CAFE = [
    fn(
        "order_drink",
        "Order drinks from the cafe",
        {
            "item": s("drink name, e.g. latte"),
            "quantity": i("how many cups"),
            "size": s("small/medium/large"),
        },
        ["item", "quantity"],
    ),
    fn("list_menu", "List the drinks on the menu with prices (read only)", {}, []),
]
TOOLSETS: dict[str, list[dict[str, Any]]] = {"none": [], "weather": WEATHER, "cafe": CAFE}

ACKNOWLEDGED = ("知道了", "noted", "Got it")

# requests no offered tool carries out (the cafe has no meetings, the weather no orders)
ORDERS = [
    "我要把明天的会改到周五",
    "把周会挪到下午三点",
    "将季度报告发给王经理",
    "我想取消明天下午的会议",
    "会议推迟到下周一",
    "帮我把报销单弄一下",
    "明天的例会改期到周四",
]
# orders by count to a tool described in English
COUNT_ORDERS = ["来两杯拿铁", "给我点三杯大杯美式", "再来一杯拿铁"]
STATEMENTS = [
    ("我不吃辣。", "不吃辣"),
    ("我的预算上限是 5000 元。", "5000"),
    ("同行的同事是张伟和李娜。", None),
    ("请记住：我需要在周五前提交季度报告。", "周五"),
]


def reply(text: str, tools: list[dict[str, Any]], *, earlier: bool) -> tuple[list[Any], str]:
    messages: list[dict[str, Any]] = [{"role": "user", "content": text}]
    if earlier:
        messages.insert(0, {"role": "system", "content": "你是办公助手。"})
    completion = SIMULATOR.complete(
        ChatRequest(model="course-sim", messages=messages, tools=tools or None)
    )
    return list(completion.tool_calls or []), completion.content or ""


@pytest.mark.parametrize("earlier", [False, True])
@pytest.mark.parametrize("toolset", ["none", "weather", "cafe"])
@pytest.mark.parametrize("text", ORDERS)
def test_a_request_no_tool_fits_is_never_acknowledged_as_noted(text, toolset, earlier):
    calls, answer = reply(text, TOOLSETS[toolset], earlier=earlier)
    assert calls == [], f"{text!r} on {toolset}: no offered tool does this, yet {calls}"
    assert not any(word in answer for word in ACKNOWLEDGED), f"{text!r} on {toolset}: {answer}"
    assert "做不了" in answer or "没看懂" in answer or "什么也没做" in answer, answer


@pytest.mark.parametrize("earlier", [False, True])
@pytest.mark.parametrize("text", COUNT_ORDERS)
def test_an_order_by_its_count_reaches_the_order_tool_or_asks(text, earlier):
    calls, answer = reply(text, CAFE, earlier=earlier)
    names = [call["function"]["name"] for call in calls]
    assert set(names) <= {"order_drink"}, f"{text!r}: {names}"
    if not calls:  # what it does not know it asks about, by the field's name
        assert "order_drink" in answer and "item" in answer, answer
    assert not any(word in answer for word in ACKNOWLEDGED), answer


@pytest.mark.parametrize("text", COUNT_ORDERS)
def test_an_order_by_its_count_with_no_order_tool_is_not_noted(text):
    calls, answer = reply(text, WEATHER, earlier=False)
    assert calls == [] and not any(word in answer for word in ACKNOWLEDGED), answer


@pytest.mark.parametrize("earlier", [False, True])
@pytest.mark.parametrize("toolset", ["none", "weather", "cafe"])
@pytest.mark.parametrize(("text", "kept"), STATEMENTS)
def test_a_statement_is_acknowledged_and_nothing_is_run(text, kept, toolset, earlier):
    calls, answer = reply(text, TOOLSETS[toolset], earlier=earlier)
    assert calls == [], f"{text!r} on {toolset}: a statement asks for no tool, yet {calls}"
    assert any(word in answer for word in ACKNOWLEDGED), f"{text!r} on {toolset}: {answer}"
    if earlier and kept:  # with the conversation read, the acknowledgement says what was heard
        assert kept.replace(" ", "") in answer.replace(" ", ""), answer


@pytest.mark.parametrize("toolset", ["none", "weather"])
def test_small_talk_ending_in_a_particle_is_no_order(toolset):
    calls, answer = reply("那好吧", TOOLSETS[toolset], earlier=False)
    assert calls == []
    assert "没有提供工具" not in answer and "做不了" not in answer, answer


ROOMS = [
    fn(
        "book_meeting_room",
        "预订会议室",
        {
            "room_id": s("会议室编号，例如 room_302"),
            "start_time": s("开始时间 YYYY-MM-DD HH:MM"),
            "end_time": s("结束时间 YYYY-MM-DD HH:MM"),
            "attendee_count": i("参会人数"),
        },
        ["room_id", "start_time", "end_time", "attendee_count"],
    )
]


@pytest.mark.parametrize(
    "text",
    [
        "帮我预订 2026-03-13 10:00 到 11:00 的会议室 room_302，4 个人",
        "预订 room_302，2026-03-13 15:00 到 16:00，6 个人",
        "明天 10 点到 11 点帮我订 room_302，参会 10 人",
        "帮我订 room_302，明天下午 3 点到 4 点，5 个人",
    ],
)
def test_a_part_whose_value_went_into_the_call_is_not_called_unclear(text):
    messages: list[dict[str, Any]] = [{"role": "user", "content": text}]
    for _ in range(3):
        completion = SIMULATOR.complete(
            ChatRequest(model="course-sim", messages=messages, tools=ROOMS)
        )
        if not completion.tool_calls:
            break
        messages.append({"role": "assistant", "content": None, "tool_calls": completion.tool_calls})
        for call in completion.tool_calls:
            content = '{"success": true, "data": {"booking_id": "BK0002"}, "error": null}'
            messages.append({"role": "tool", "tool_call_id": call["id"], "content": content})
    calls = [m for m in messages if m["role"] == "assistant"]
    assert len(calls) == 1, messages
    answer = completion.content or ""
    assert "BK0002" in answer and "没看懂" not in answer, answer


MEMORY = [
    fn(
        "remember_fact",
        "把用户明确要你记住的一条信息存进长期记忆，以后的对话还能用上",
        {"fact": s("要记住的内容，用用户的原话")},
        ["fact"],
    )
]


@pytest.mark.parametrize("earlier", [False, True])
@pytest.mark.parametrize("text", ["请记住：我的工号是 A1024", "帮我记一下：我对花生过敏"])
def test_asked_to_remember_with_a_memory_tool_it_is_called(text, earlier):
    calls, answer = reply(text, MEMORY, earlier=earlier)
    assert [call["function"]["name"] for call in calls] == ["remember_fact"], answer


CANCEL = [
    fn(
        "cancel_booking",
        "取消预订，例如 预订号 GB3012",
        {"booking_id": s("预订号")},
        ["booking_id"],
    )
]


@pytest.mark.parametrize(
    "text",
    [
        "GB3012 取消没",
        "GB3012 删除没有",
        "GB3012是否已经被撤销了",
        "GB3012是否已正式撤销？",
        "GB3012 能否确认已经作废",
    ],
)
def test_a_question_whether_it_happened_never_makes_it_happen(text):
    calls, answer = reply(text, CANCEL, earlier=False)
    assert calls == [], f"{text!r} asks whether, yet {calls}"
    assert "已取消" not in answer, answer
