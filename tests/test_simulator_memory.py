"""The simulator's Day 4 abilities, on tools it has never seen: summaries, references to earlier
rounds, known facts.
"""

from __future__ import annotations

import json

import pytest

from conftest import FIXED_NOW
from handwritten_agent.course.offline.backend import ChatRequest
from handwritten_agent.course.offline.simulator import CourseSimulator
from handwritten_agent.course.offline.simulator.summary import (
    extractive_summary,
    is_summary_request,
)

STOCK = {
    "type": "function",
    "function": {
        "name": "get_stock_price",
        "description": "查询一只股票的最新价格，例如“查一下 AAPL 在美股的价格”。",
        "parameters": {
            "type": "object",
            "properties": {
                "symbol": {"type": "string", "description": "股票代码，例如：AAPL"},
                "market": {
                    "type": "string",
                    "enum": ["us", "hk", "cn"],
                    "description": "市场：us（美股）、hk（港股）、cn（A股），例如：us",
                    "default": "cn",
                },
            },
            "required": ["symbol"],
        },
    },
}
ORDER = {
    "type": "function",
    "function": {
        "name": "query_order",
        "description": "根据订单号查询订单状态，例如“订单 OD20240615 到哪了”。",
        "parameters": {
            "type": "object",
            "properties": {
                "order_id": {"type": "string", "description": "订单号，例如：OD20240615"},
                "with_items": {
                    "type": "boolean",
                    "description": "是否同时列出商品明细（明细），例如：true",
                    "default": False,
                },
            },
            "required": ["order_id"],
        },
    },
}
MULTIPLY = {
    "type": "function",
    "function": {
        "name": "multiply",
        "description": "把两个数相乘，例如“12 乘以 3”。",
        "parameters": {
            "type": "object",
            "properties": {
                "a": {"type": "number", "description": "第一个数，例如：12"},
                "b": {"type": "number", "description": "第二个数，例如：3"},
            },
            "required": ["a", "b"],
        },
    },
}


@pytest.fixture
def simulator() -> CourseSimulator:
    return CourseSimulator(now=FIXED_NOW)


def complete(simulator, messages, tools=None, **options):
    return simulator.complete(
        ChatRequest(model="course-sim", messages=messages, tools=tools, **options)
    )


def finish_round(simulator, messages, tools, results: dict[str, object]) -> list[dict]:
    """Play one round: the simulator's calls, answered by ``results[name]``, until it answers in
    words.
    """
    for _ in range(5):
        reply = complete(simulator, messages, tools)
        if not reply.tool_calls:
            messages.append({"role": "assistant", "content": reply.content})
            return messages
        messages.append({"role": "assistant", "content": None, "tool_calls": reply.tool_calls})
        for call in reply.tool_calls:
            data = results[call["function"]["name"]]
            content = data(json.loads(call["function"]["arguments"])) if callable(data) else data
            messages.append(
                {
                    "role": "tool",
                    "tool_call_id": call["id"],
                    "content": json.dumps(content, ensure_ascii=False),
                }
            )
    raise AssertionError("no answer after 5 turns")


def calls_of(messages, start=0):
    return [
        (c["function"]["name"], json.loads(c["function"]["arguments"]))
        for m in messages[start:]
        for c in m.get("tool_calls") or []
    ]


def test_a_follow_up_carries_over_the_arguments_it_does_not_give(simulator):
    price = lambda args: {
        "success": True,
        "data": {"symbol": args["symbol"], "price": 101.5},
        "error": None,
    }  # noqa: E731
    messages = [
        {"role": "system", "content": "助手"},
        {"role": "user", "content": "查一下 AAPL 在美股的价格"},
    ]
    finish_round(simulator, messages, [STOCK], {"get_stock_price": price})
    assert calls_of(messages) == [("get_stock_price", {"symbol": "AAPL", "market": "us"})]
    start = len(messages)
    messages.append({"role": "user", "content": "那 TSLA 呢？"})
    finish_round(simulator, messages, [STOCK], {"get_stock_price": price})
    assert calls_of(messages, start) == [("get_stock_price", {"symbol": "TSLA", "market": "us"})], (
        "market carried, not the default cn"
    )
    assert "TSLA" in messages[-1]["content"] and "101.5" in messages[-1]["content"]


def test_a_follow_up_can_change_one_argument_and_keep_the_boolean(simulator):
    status = lambda args: {
        "success": True,
        "data": {"order_id": args["order_id"], "status": "已发货"},
        "error": None,
    }  # noqa: E731
    messages = [
        {"role": "system", "content": "助手"},
        {"role": "user", "content": "订单 OD20240615 到哪了？顺便列出商品明细"},
    ]
    finish_round(simulator, messages, [ORDER], {"query_order": status})
    first = calls_of(messages)
    start = len(messages)
    messages.append({"role": "user", "content": "那 OD20240616 呢？"})
    finish_round(simulator, messages, [ORDER], {"query_order": status})
    assert calls_of(messages, start) == [("query_order", {**first[0][1], "order_id": "OD20240616"})]


def test_a_new_full_question_is_not_a_follow_up(simulator):
    price = {"success": True, "data": {"price": 1}, "error": None}
    messages = [
        {"role": "system", "content": "助手"},
        {"role": "user", "content": "查一下 AAPL 在美股的价格"},
    ]
    finish_round(simulator, messages, [STOCK], {"get_stock_price": price})
    start = len(messages)
    messages.append({"role": "user", "content": "查一下 MSFT 的股票价格"})
    finish_round(simulator, messages, [STOCK], {"get_stock_price": price})
    assert calls_of(messages, start) == [("get_stock_price", {"symbol": "MSFT", "market": "cn"})]


def test_the_earlier_result_is_used_for_that_result(simulator):
    product = lambda args: {
        "success": True,
        "data": args["a"] * args["b"],
        "error": None,
    }  # noqa: E731
    messages = [
        {"role": "system", "content": "助手"},
        {"role": "user", "content": "12 乘以 3 等于多少？"},
    ]
    finish_round(simulator, messages, [MULTIPLY], {"multiply": product})
    start = len(messages)
    messages.append({"role": "user", "content": "刚才那个结果乘以 2"})
    finish_round(simulator, messages, [MULTIPLY], {"multiply": product})
    assert (
        calls_of(messages, start) == [("multiply", {"a": 36, "b": 2})]
        and "72" in messages[-1]["content"]
    )


def test_a_single_request_is_planned_as_before(simulator):
    reply = complete(simulator, [{"role": "user", "content": "那 TSLA 的股票价格呢？"}], [STOCK])
    assert calls_of([{"tool_calls": reply.tool_calls}]) == [
        ("get_stock_price", {"symbol": "TSLA", "market": "cn"})
    ]


def test_answers_from_a_memory_block_only_when_it_bears_on_the_question(simulator):
    block = {
        "role": "system",
        "content": "关于用户的已知信息（来自长期记忆）：\n- 我的工号是 A1024\n- 我喜欢靠窗的座位",
    }
    asked = complete(
        simulator,
        [
            {"role": "system", "content": "助手"},
            block,
            {"role": "user", "content": "我的工号是多少？"},
        ],
        [STOCK],
    )
    assert not asked.tool_calls and "A1024" in asked.content and "靠窗" not in asked.content
    unknown = complete(
        simulator,
        [
            {"role": "system", "content": "助手"},
            block,
            {"role": "user", "content": "我的生日是哪天？"},
        ],
        [STOCK],
    )
    assert "没有找到" in unknown.content
    english = complete(
        simulator,
        [
            {"role": "system", "content": "assistant"},
            {"role": "system", "content": "Known facts (memory):\n- my employee id is A1024"},
            {"role": "user", "content": "What is my employee id?"},
        ],
        [STOCK],
    )
    assert "A1024" in english.content


def test_a_memory_fills_a_missing_argument(simulator):
    block = {"role": "system", "content": "关于用户的已知信息：\n- 我常用的订单号是 OD20240615"}
    reply = complete(
        simulator,
        [
            {"role": "system", "content": "助手"},
            block,
            {"role": "user", "content": "我常用的那个订单到哪了？"},
        ],
        [ORDER],
    )
    assert calls_of([{"tool_calls": reply.tool_calls}]) == [
        ("query_order", {"order_id": "OD20240615", "with_items": False})
    ]


def test_a_statement_is_acknowledged_instead_of_calling_a_tool(simulator):
    messages = [
        {"role": "system", "content": "助手"},
        {"role": "user", "content": "我的预算上限是 5000 元。"},
    ]
    reply = complete(simulator, messages, [MULTIPLY])
    assert not reply.tool_calls and reply.content == "好的，知道了：你的预算上限是 5000 元。"


# -- summary mode ----------------------------------------------------------------------------------

TRANSCRIPT = "\n".join(
    [
        "用户：北京明天天气怎么样？",
        '助手调用工具 get_weather，参数 {"city": "北京", "date": "tomorrow"}',
        (
            '工具 get_weather 返回：{"success": true, "data": {"city": "北京", "weather": "多云"},'
            ' "error": null}'
        ),
        "助手：北京明天多云。",
        "用户：我的预算上限是 8000 元。客户联系人是王芳。",
        "用户：我喜欢靠窗的座位。",
        "用户：出发日期定在 3 月 20 日。",
        "用户：记得提醒我提交报销单。",
        "用户：今天心情不错。",
    ]
)


def test_summary_mode_keeps_each_group_the_instruction_asks_for():
    full = extractive_summary(
        "请压缩对话，保留事实和数字、人名、偏好、约束、决定、未完成的任务。", TRANSCRIPT
    )
    for expected in [
        "get_weather(city=北京, date=tomorrow) → city 北京，weather 多云",
        "用户的预算上限是 8000 元",
        "客户联系人是王芳",
        "用户喜欢靠窗的座位",
        "出发日期定在 3 月 20 日",
        "记得提醒用户提交报销单",
    ]:
        assert expected in full, expected
    assert "心情" not in full and "北京明天天气怎么样" not in full
    assert full.index("【约束】") < full.index("【决定】") < full.index("【未完成的任务】")


def test_summary_mode_loses_what_the_instruction_does_not_ask_for():
    seeds = extractive_summary("把下面的对话压缩成要点，保留关键事实和未完成的任务。", TRANSCRIPT)
    assert "提交报销单" in seeds and "8000" in seeds and "靠窗" not in seeds
    vague = extractive_summary("简单总结一下。", TRANSCRIPT)
    assert "【要点】" in vague and "靠窗" in vague and "get_weather" not in vague


def test_summary_mode_reads_json_messages_english_and_a_previous_summary_and_honours_a_length():
    messages = [
        {"role": "user", "content": "My budget is at most 300 dollars."},
        {"role": "assistant", "content": "OK."},
    ]
    english = extractive_summary(
        "Summarize the conversation; keep constraints and numbers.", json.dumps(messages)
    )
    assert "300 dollars" in english
    rolled = extractive_summary(
        "总结对话，保留约束和偏好。",
        "之前的摘要：\n【偏好】\n- 用户喜欢靠窗的座位\n\n之后的对话：\n用户：我不吃辣。",
    )
    assert "- 用户喜欢靠窗的座位" in rolled and "用户不吃辣" in rolled
    short = extractive_summary(
        "总结对话，保留所有事实、数字、人名、偏好、约束、决定和任务，不超过 80 字。", TRANSCRIPT
    )
    assert len(short) <= 80 and "8000" in short and "3 月 20 日" in short
    assert (
        "get_weather" not in short
    )  # under a tight budget what the user stated outranks a tool result


def test_summary_mode_needs_no_tools_and_a_summary_instruction(simulator):
    request = ChatRequest(
        model="course-sim",
        messages=[
            {"role": "system", "content": "请总结下面的对话，保留约束。"},
            {"role": "user", "content": "用户：我的预算上限是 8000 元。"},
        ],
    )
    assert is_summary_request(request)
    assert "8000" in simulator.complete(request).content
    with_tools = ChatRequest(model="course-sim", messages=request.messages, tools=[STOCK])
    assert not is_summary_request(with_tools)
    plain = ChatRequest(
        model="course-sim", messages=[{"role": "user", "content": "你好，你是谁？"}]
    )
    assert not is_summary_request(plain)
