"""The course simulator's native tool mode: tool choice, argument filling, multi-step plans,
answers, faults.

Pure Python: these tests call ``plan_turn`` and ``CourseSimulator.complete`` directly (the HTTP
server has its own tests). Tool results are written by hand here, as the tools are not the
simulator's business.
"""

from __future__ import annotations

import json
import re
import time
from datetime import datetime
from typing import Any

import pytest

from handwritten_agent.course.offline.backend import BackendError, ChatRequest
from handwritten_agent.course.offline.faults import split_model_name
from handwritten_agent.course.offline.simulator import (
    RAW_ARGUMENTS_KEY,
    CourseSimulator,
    read_conversation,
)
from handwritten_agent.course.offline.simulator.arguments import (
    extract_expression,
    number_from_result,
)
from handwritten_agent.course.offline.simulator.planner import PlannedCall, plan_turn, split_intents
from handwritten_agent.course.offline.simulator.text import (
    find_numbers,
    language,
    parse_chinese_number,
    tokens,
)

NOW = datetime(2024, 6, 15, 14, 30)  # a Saturday

TIME = {
    "name": "get_current_time",
    "description": "获取当前的系统日期和时间。",
    "parameters": {"type": "object", "properties": {}, "required": []},
}
CALC = {
    "name": "calculator",
    "description": "计算数学表达式，支持加减乘除、乘方和括号。",
    "parameters": {
        "type": "object",
        "properties": {
            "expression": {"type": "string", "description": "数学表达式，例如：(3 + 5) * 2"}
        },
        "required": ["expression"],
    },
}
WEATHER = {
    "name": "get_weather",
    "description": "获取指定城市在指定日期的天气信息。",
    "parameters": {
        "type": "object",
        "properties": {
            "city": {"type": "string", "description": "城市名称，例如：北京、上海。"},
            "date": {
                "type": "string",
                "description": "日期，'today' 或 'tomorrow'。",
                "enum": ["today", "tomorrow"],
            },
        },
        "required": ["city", "date"],
    },
}
RATE = {
    "name": "get_exchange_rate",
    "description": "查询两种货币之间的汇率，例如 USD 兑 CNY。",
    "parameters": {
        "type": "object",
        "properties": {
            "from_currency": {"type": "string", "description": "源货币代码，例如 USD"},
            "to_currency": {"type": "string", "description": "目标货币代码，例如 CNY"},
        },
        "required": ["from_currency", "to_currency"],
    },
}
ORDER = {
    "name": "query_order_status",
    "description": "根据订单号查询订单的当前状态。仅用于查询，不包含退改操作。",
    "parameters": {
        "type": "object",
        "properties": {
            "order_id": {
                "type": "string",
                "description": "订单号，格式为OD后跟8位数字，例如OD20240615",
            }
        },
        "required": ["order_id"],
        "additionalProperties": False,
    },
}
ORDERS = {
    "name": "query_customer_orders",
    "description": "查询客户最近一段时间内的历史订单列表，返回订单号、金额和状态。",
    "parameters": {
        "type": "object",
        "properties": {
            "customer_id": {"type": "string", "description": "客户ID，例如C001"},
            "days": {
                "type": "integer",
                "description": "查询最近N天的订单，默认30天",
                "default": 30,
            },
        },
        "required": ["customer_id"],
    },
}
SMS = {
    "name": "send_sms",
    "description": "给客户发送短信通知。此操作需要用户确认。",
    "parameters": {
        "type": "object",
        "properties": {
            "customer_id": {"type": "string", "description": "客户ID，例如C001"},
            "content": {"type": "string", "description": "短信内容"},
        },
        "required": ["customer_id", "content"],
    },
}
ROOMS = {
    "name": "query_room_availability",
    "description": "查询指定时间段的会议室空闲情况，返回可用会议室列表。",
    "parameters": {
        "type": "object",
        "properties": {
            "start_time": {"type": "string", "description": "开始时间，格式YYYY-MM-DD HH:MM"},
            "end_time": {"type": "string", "description": "结束时间，格式YYYY-MM-DD HH:MM"},
        },
        "required": ["start_time", "end_time"],
    },
}

SEED_TOOLS = [TIME, CALC]
ALL_TOOLS = [TIME, CALC, WEATHER, RATE, ORDER, ORDERS, SMS, ROOMS]


def plan(
    text: str,
    tools: list[dict] = ALL_TOOLS,
    results: list[tuple[PlannedCall, str]] | None = None,
    **options: Any,
):
    return plan_turn(text, tools, list(results or []), now=NOW, **options)


def envelope(data: Any = None, error: str | None = None) -> str:
    return json.dumps({"success": error is None, "data": data, "error": error}, ensure_ascii=False)


# ------------------------------------------------------------------------------------------------
# Text basics
# ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, value",
    [
        ("十七", 17),
        ("两百", 200),
        ("三万五千", 35000),
        ("三点五", 3.5),
        ("一千零五", 1005),
        ("十", 10),
    ],
)
def test_chinese_numerals(text, value):
    assert parse_chinese_number(text) == value


def test_numbers_in_text_with_scales_and_without_false_ones():
    assert [n.value for n in find_numbers("3.5万元和1,000个")] == [35000, 1000]
    assert find_numbers("帮我看一下") == []  # 一下 is not the number one
    assert [n.value for n in find_numbers("十七乘以九")] == [17, 9]


def test_tokens_and_language():
    assert {"北京", "天气"} <= set(tokens("北京明天天气怎么样？"))
    assert "time" in tokens("get_currentTime") and "current" not in tokens(
        "the current"
    )  # stop words drop out
    assert language("现在几点了？") == "zh" and language("What time is it?") == "en"


@pytest.mark.parametrize(
    "words, expression",
    [
        ("17 乘以 9 等于多少", "17 * 9"),
        ("(12+34)*2", "(12 + 34) * 2"),
        ("计算 1 除以 0", "1 / 0"),
        ("2 的 10 次方", "2 ** 10"),
        ("十七乘以九", "17 * 9"),
        ("3.5万乘以12", "35000 * 12"),
        ("what is 6 times 7", "6 * 7"),
        ("100 的平方根", "sqrt(100)"),
        ("200 的 15% 是多少", "200 * 15 / 100"),
        ("（1+2）×3", "(1 + 2) * 3"),
        ("2 to the power of 10", "2 ** 10"),
        ("what's 15% of 80", "80 * 15 / 100"),
    ],
)
def test_math_expressions_from_words(words, expression):
    found = extract_expression(words)
    assert found is not None and found.text == expression


def test_number_from_a_result():
    assert number_from_result(envelope({"from": "USD", "to": "CNY", "rate": 7.1})) == 7.1
    assert number_from_result("1 USD = 7.25 CNY") == 7.25
    assert number_from_result("计算结果为 153") == 153
    assert number_from_result("2024-06-15 14:30:00") is None


def test_splitting_a_request_into_intents():
    assert [s.text for s in split_intents("现在几点了？17 乘以 9 等于多少？")] == [
        "现在几点了",
        "17 乘以 9 等于多少",
    ]
    assert [s.text for s in split_intents("查询汇率后计算 100 美元能换多少人民币")] == [
        "查询汇率",
        "计算 100 美元能换多少人民币",
    ]
    assert len(split_intents("后天北京的天气")) == 1  # 后天 is a date, not "after"
    assert len(split_intents("一共 1,000 元")) == 1  # a thousands separator is not a comma
    assert (
        len(split_intents("给客户C001发短信：您好，订单已发货，请查收")) == 1
    )  # quoted content is not split


# ------------------------------------------------------------------------------------------------
# The three verification cases of the course's source articles
# ------------------------------------------------------------------------------------------------


def test_case1_time_and_multiplication_in_parallel_then_answer():
    first = plan("现在几点了？17 乘以 9 等于多少？", SEED_TOOLS)
    assert first.kind == "call"
    assert first.calls == [
        PlannedCall("get_current_time", {}),
        PlannedCall("calculator", {"expression": "17 * 9"}),
    ]
    results = [(first.calls[0], "2024-06-15 14:30:00"), (first.calls[1], envelope(153))]
    final = plan("现在几点了？17 乘以 9 等于多少？", SEED_TOOLS, results)
    assert final.kind == "final" and not final.calls
    assert final.answer == "现在是 2024 年 6 月 15 日 14:30；17 乘以 9 等于 153。"


def test_case1_one_call_per_turn_without_parallel_calls():
    question = "现在几点了？17 乘以 9 等于多少？"
    first = plan(question, SEED_TOOLS, parallel=False)
    assert first.calls == [PlannedCall("get_current_time", {})]
    second = plan(question, SEED_TOOLS, [(first.calls[0], "14:30")], parallel=False)
    assert second.calls == [PlannedCall("calculator", {"expression": "17 * 9"})]
    third = plan(
        question, SEED_TOOLS, [(first.calls[0], "14:30"), (second.calls[0], "153")], parallel=False
    )
    assert third.kind == "final" and "14:30" in third.answer and "153" in third.answer


def test_case2_small_talk_calls_nothing_and_says_what_it_is():
    reply = plan("你好，你是谁？", SEED_TOOLS)
    assert reply.kind == "fallback" and reply.calls == []
    assert (
        "规则引擎" in reply.answer and "不是大语言模型" in reply.answer and ".env" in reply.answer
    )
    english = plan("Hello, who are you?", SEED_TOOLS)
    assert (
        english.kind == "fallback" and "not an LLM" in english.answer and ".env" in english.answer
    )


@pytest.mark.parametrize(
    "result",
    [
        envelope(error="除数不能为零"),
        "错误：除数不能为零",
        "Error: division by zero",
        envelope(error="ZeroDivisionError: division by zero"),
    ],
)
def test_case3_division_by_zero_is_reported_honestly(result):
    first = plan("计算 1 除以 0", SEED_TOOLS)
    assert first.calls == [PlannedCall("calculator", {"expression": "1 / 0"})]
    final = plan("计算 1 除以 0", SEED_TOOLS, [(first.calls[0], result)])
    assert final.kind == "final"
    assert (
        final.answer == "1 除以 0 没有结果：除数不能为零。"
    )  # said once, plainly, in the answer's language
    assert not re.search(r"等于\s*-?\d|=\s*-?\d", final.answer)  # no invented number


def test_other_errors_are_relayed_not_papered_over():
    call = PlannedCall("query_order_status", {"order_id": "OD20240615"})
    final = plan("查一下订单 OD20240615", results=[(call, envelope(error="订单不存在"))])
    assert final.answer == "查询订单状态（订单号 OD20240615）没有成功：订单不存在。"
    english = plan("Check order OD20240615", results=[(call, "Error: order not found")])
    assert english.answer == "Could not look up order status for OD20240615: order not found."


# ------------------------------------------------------------------------------------------------
# Tool choice
# ------------------------------------------------------------------------------------------------


def test_weather_city_and_enum_date_from_synonym():
    assert plan("北京明天天气怎么样？").calls == [
        PlannedCall("get_weather", {"city": "北京", "date": "tomorrow"})
    ]
    assert plan("上海今天会下雨吗").calls == [
        PlannedCall("get_weather", {"city": "上海", "date": "today"})
    ]


def test_weather_in_english_uses_the_form_the_examples_use():
    english_tool = {
        "name": "get_weather",
        "description": "Get the weather forecast for a city on a day.",
        "parameters": {
            "type": "object",
            "properties": {
                "city": {"type": "string", "description": "City name, e.g. Beijing, Shanghai"},
                "day": {"type": "string", "enum": ["today", "tomorrow"]},
            },
            "required": ["city", "day"],
        },
    }
    assert plan("What's the weather in Shanghai tomorrow?", [TIME, english_tool]).calls == [
        PlannedCall("get_weather", {"city": "Shanghai", "day": "tomorrow"})
    ]
    # the Chinese-described tool gets the Chinese city name its examples show
    assert plan("What's the weather in Shanghai tomorrow?").calls == [
        PlannedCall("get_weather", {"city": "上海", "date": "tomorrow"})
    ]


def test_one_intent_naming_two_cities_makes_two_calls():
    calls = plan("北京和上海明天天气怎么样").calls
    assert calls == [
        PlannedCall("get_weather", {"city": "北京", "date": "tomorrow"}),
        PlannedCall("get_weather", {"city": "上海", "date": "tomorrow"}),
    ]


def test_a_learners_new_tool_with_a_clear_description_is_chosen_a_vague_one_is_not():
    clear = {
        "name": "get_leave_balance",
        "description": "查询员工剩余的年假天数。",
        "parameters": {
            "type": "object",
            "properties": {"employee": {"type": "string", "description": "员工姓名，例如：张三"}},
            "required": ["employee"],
        },
    }
    vague = {
        "name": "do_task",
        "description": "处理请求。",
        "parameters": {
            "type": "object",
            "properties": {"input": {"type": "string"}},
            "required": ["input"],
        },
    }
    assert plan("李四还有几天年假？", [TIME, CALC, clear]).calls == [
        PlannedCall("get_leave_balance", {"employee": "李四"})
    ]
    assert plan("李四还有几天年假？", [TIME, CALC, vague]).kind == "fallback"


def test_openai_wrapped_tools_are_accepted():
    wrapped = [{"type": "function", "function": spec} for spec in SEED_TOOLS]
    assert plan("17 乘以 9 等于多少？", wrapped).calls == [
        PlannedCall("calculator", {"expression": "17 * 9"})
    ]


def test_english_requests():
    first = plan("What time is it now? And what is 17 times 9?", SEED_TOOLS)
    assert first.calls == [
        PlannedCall("get_current_time", {}),
        PlannedCall("calculator", {"expression": "17 * 9"}),
    ]
    final = plan(
        "What time is it now? And what is 17 times 9?",
        SEED_TOOLS,
        [(first.calls[0], "2024-06-15 14:30:00"), (first.calls[1], "153")],
    )
    assert (
        final.kind == "final" and final.answer == "It is 14:30 on 15 June 2024; 17 times 9 is 153."
    )
    assert plan("What is the exchange rate from USD to EUR?").calls == [
        PlannedCall("get_exchange_rate", {"from_currency": "USD", "to_currency": "EUR"})
    ]


def test_tool_choice_none_required_and_named():
    none = plan("现在几点了？", SEED_TOOLS, tool_choice="none")
    assert none.calls == [] and "tool_choice" in none.answer
    required = plan("你好，你是谁？", SEED_TOOLS, tool_choice="required")
    assert required.kind == "call" and len(required.calls) == 1
    named = plan(
        "现在几点了？17 乘以 9 等于多少？",
        SEED_TOOLS,
        tool_choice={"type": "function", "function": {"name": "calculator"}},
    )
    assert named.calls == [PlannedCall("calculator", {"expression": "17 * 9"})]
    forced = plan(
        "你好",
        SEED_TOOLS,
        tool_choice={"type": "function", "function": {"name": "get_current_time"}},
    )
    assert forced.calls == [PlannedCall("get_current_time", {})]


# ------------------------------------------------------------------------------------------------
# Argument filling
# ------------------------------------------------------------------------------------------------


def test_pattern_learnt_from_the_example():
    assert plan("帮我查一下订单 OD20240615 到哪了").calls == [
        PlannedCall("query_order_status", {"order_id": "OD20240615"})
    ]
    assert plan("订单od20240702的状态").calls == [
        PlannedCall("query_order_status", {"order_id": "OD20240702"})
    ]


def test_customer_id_pattern_integer_with_unit_and_default():
    assert plan("帮我看一下客户C001最近7天的订单").calls == [
        PlannedCall("query_customer_orders", {"customer_id": "C001", "days": 7})
    ]
    assert plan("客户C002的订单").calls == [
        PlannedCall("query_customer_orders", {"customer_id": "C002", "days": 30})
    ]
    assert plan("客户C002最近十五天的订单").calls[0].arguments["days"] == 15


def test_missing_required_argument_becomes_a_clarifying_question():
    reply = plan("帮我查一下订单的状态")
    assert reply.kind == "clarify" and reply.calls == []
    assert "订单号" in reply.answer and "OD20240615" in reply.answer and reply.answer.endswith("？")
    english_tool = {
        "name": "track_order",
        "description": "Track an order by its number.",
        "parameters": {
            "type": "object",
            "properties": {
                "order_number": {
                    "type": "string",
                    "description": "The order number, e.g. OD20240615",
                }
            },
            "required": ["order_number"],
        },
    }
    english = plan("Where is my order?", [TIME, english_tool])
    assert (
        english.kind == "clarify"
        and "order_number" in english.answer
        and "could you tell me" in english.answer
    )
    assert english.answer.endswith("?") and "the the" not in english.answer


def test_relative_dates_and_times_against_the_clock():
    assert plan("明天下午3点到4点有空的会议室吗").calls == [
        PlannedCall(
            "query_room_availability",
            {"start_time": "2024-06-16 15:00", "end_time": "2024-06-16 16:00"},
        )
    ]
    assert (
        plan("明天有空的会议室吗").kind == "clarify"
    )  # the format asks for a time the user did not give
    dated = {
        "name": "get_schedule",
        "description": "查询某一天的日程安排。",
        "parameters": {
            "type": "object",
            "properties": {"date": {"type": "string", "description": "日期，格式 YYYY-MM-DD"}},
            "required": ["date"],
        },
    }
    assert plan("后天有什么日程", [dated]).calls == [
        PlannedCall("get_schedule", {"date": "2024-06-17"})
    ]
    assert plan("昨天的日程", [dated]).calls == [
        PlannedCall("get_schedule", {"date": "2024-06-14"})
    ]
    assert plan("下周一的日程", [dated]).calls == [
        PlannedCall("get_schedule", {"date": "2024-06-17"})
    ]
    assert plan("What is on my schedule tomorrow?", [dated]).calls == [
        PlannedCall("get_schedule", {"date": "2024-06-16"})
    ]


def test_enum_synonyms_from_the_description():
    tool = {
        "name": "get_temperature",
        "description": "查询城市当前气温。",
        "parameters": {
            "type": "object",
            "properties": {
                "city": {"type": "string", "description": "城市名称，例如：北京"},
                "unit": {
                    "type": "string",
                    "description": "温度单位：c（摄氏度）或 f（华氏度）",
                    "enum": ["c", "f"],
                    "default": "c",
                },
            },
            "required": ["city"],
        },
    }
    assert plan("广州现在多少度？用华氏度", [tool]).calls == [
        PlannedCall("get_temperature", {"city": "广州", "unit": "f"})
    ]
    assert plan("广州现在气温多少", [tool]).calls == [
        PlannedCall("get_temperature", {"city": "广州", "unit": "c"})
    ]


def test_quoted_content_is_the_message_not_an_intent():
    assert plan("给客户C001发短信：您的订单已发货，请查收").calls == [
        PlannedCall("send_sms", {"customer_id": "C001", "content": "您的订单已发货,请查收"})
    ]


# ------------------------------------------------------------------------------------------------
# Several intents and dependent steps
# ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "rate_result, expression, total, answer",
    [
        (
            envelope({"from": "USD", "to": "CNY", "rate": 7.1}),
            "100 * 7.1",
            710,
            "按美元兑人民币的汇率为 7.1，100 美元能换 710 元人民币。",
        ),
        (
            "1 USD = 7.25 CNY",
            "100 * 7.25",
            725,
            "按 1 美元 = 7.25 元人民币，100 美元能换 725 元人民币。",
        ),
    ],
)
def test_exchange_rate_then_dependent_calculation(rate_result, expression, total, answer):
    question = "查询汇率后计算 100 美元能换多少人民币"
    tools = [TIME, CALC, RATE]
    first = plan(question, tools)
    assert first.calls == [
        PlannedCall("get_exchange_rate", {"from_currency": "USD", "to_currency": "CNY"})
    ]
    results = [(first.calls[0], rate_result)]
    second = plan(question, tools, results)
    assert second.calls == [PlannedCall("calculator", {"expression": expression})]
    results.append((second.calls[0], envelope(float(total))))
    final = plan(question, tools, results)
    assert (
        final.kind == "final" and final.answer == answer
    )  # the question answered; the rate said once, as its basis


def test_an_operator_without_its_left_side_uses_the_previous_result():
    question = "17 乘以 9，再乘以 2"
    first = plan(question, SEED_TOOLS)
    assert first.calls == [PlannedCall("calculator", {"expression": "17 * 9"})]
    second = plan(question, SEED_TOOLS, [(first.calls[0], "153")])
    assert second.calls == [PlannedCall("calculator", {"expression": "153 * 2"})]


def test_a_dependent_step_after_a_failed_step_is_not_invented():
    question = "查询汇率后计算 100 美元能换多少人民币"
    call = PlannedCall("get_exchange_rate", {"from_currency": "USD", "to_currency": "CNY"})
    final = plan(question, [CALC, RATE], [(call, envelope(error="汇率服务暂不可用"))])
    assert final.kind == "final" and final.calls == []
    assert "汇率服务暂不可用" in final.answer and "依赖上一步" in final.answer


def test_an_id_the_request_lacks_is_taken_from_the_previous_result():
    question = "查询客户C001的订单，然后查询订单状态"
    first = plan(question, [ORDERS, ORDER])
    assert first.calls == [
        PlannedCall("query_customer_orders", {"customer_id": "C001", "days": 30})
    ]
    listing = envelope([{"order_id": "OD20240702", "status": "shipping"}])
    second = plan(question, [ORDERS, ORDER], [(first.calls[0], listing)])
    assert second.calls == [PlannedCall("query_order_status", {"order_id": "OD20240702"})]


# ------------------------------------------------------------------------------------------------
# Results: confirmation, rejection, repeated calls, retries
# ------------------------------------------------------------------------------------------------


def test_need_confirmation_and_rejection_are_relayed():
    question = "给客户C001发短信：您的订单已发货"
    call = plan(question).calls[0]
    waiting = plan(
        question,
        results=[
            (
                call,
                json.dumps(
                    {"status": "need_confirmation", "message": "即将给 C001 发送短信"},
                    ensure_ascii=False,
                ),
            )
        ],
    )
    assert (
        waiting.kind == "final"
        and "确认" in waiting.answer
        and "即将给 C001 发送短信" in waiting.answer
    )
    rejected = plan(question, results=[(call, envelope(error="用户拒绝了该操作"))])
    assert "没有执行" in rejected.answer and "用户拒绝了该操作" in rejected.answer


def test_a_repeated_call_warning_makes_it_answer_from_the_earlier_result():
    first = plan("17 乘以 9 等于多少", SEED_TOOLS).calls[0]
    results = [(first, "153"), (first, "你已经用相同的参数调用过这个工具，请直接使用之前的结果。")]
    final = plan("17 乘以 9 等于多少", SEED_TOOLS, results)
    assert final.kind == "final" and final.answer == "17 乘以 9 等于 153。"


def test_a_rejected_malformed_call_is_retried_once_then_reported():
    bad = PlannedCall("calculator", {"_unparsable_arguments": '{"expression": "17 * 9"'})
    parse_error = "错误：参数不是合法的 JSON"
    retry = plan("17 乘以 9 等于多少", SEED_TOOLS, [(bad, parse_error)])
    assert retry.calls == [PlannedCall("calculator", {"expression": "17 * 9"})]
    done = plan("17 乘以 9 等于多少", SEED_TOOLS, [(bad, parse_error), (retry.calls[0], "153")])
    assert done.kind == "final" and "153" in done.answer and "JSON" not in done.answer
    gave_up = plan("17 乘以 9 等于多少", SEED_TOOLS, [(bad, parse_error), (bad, parse_error)])
    assert gave_up.kind == "final" and "JSON" in gave_up.answer


# ------------------------------------------------------------------------------------------------
# CourseSimulator.complete
# ------------------------------------------------------------------------------------------------


def request(
    messages: list[dict],
    model: str = "course-sim",
    tools: list[dict] | None = SEED_TOOLS,
    **fields: Any,
) -> ChatRequest:
    base, options = split_model_name(model)
    wire_tools = [{"type": "function", "function": t} for t in tools] if tools is not None else None
    return ChatRequest(
        model=model, messages=messages, tools=wire_tools, base_model=base, options=options, **fields
    )


def user(text: str) -> dict:
    return {"role": "user", "content": text}


def answer_calls(messages: list[dict], completion, results: dict[str, str]) -> list[dict]:
    """Append the assistant message and one tool message per call (result looked up by tool
    name).
    """
    messages = messages + [
        {"role": "assistant", "content": completion.content, "tool_calls": completion.tool_calls}
    ]
    for call in completion.tool_calls:
        name = call["function"]["name"]
        messages.append(
            {
                "role": "tool",
                "tool_call_id": call["id"],
                "content": results.get(
                    name, f"Error: tool {name!r} does not exist; valid tools: {', '.join(results)}"
                ),
            }
        )
    return messages


SEED_RESULTS = {"get_current_time": "2024-06-15 14:30:00", "calculator": "153"}


@pytest.fixture
def sim() -> CourseSimulator:
    return CourseSimulator(now=NOW, slow_seconds=0.05)


def test_backend_identity(sim):
    assert "不是 LLM" in sim.name and sim.list_models() == ["course-sim"]


def test_complete_calls_in_wire_format_with_deterministic_ids(sim):
    messages = [user("现在几点了？17 乘以 9 等于多少？")]
    completion = sim.complete(request(messages))
    assert completion.finish_reason == "tool_calls" and completion.content is None
    assert [c["function"]["name"] for c in completion.tool_calls] == [
        "get_current_time",
        "calculator",
    ]
    assert json.loads(completion.tool_calls[1]["function"]["arguments"]) == {"expression": "17 * 9"}
    ids = [c["id"] for c in completion.tool_calls]
    assert all(re.fullmatch(r"call_[0-9a-f]{24}", i) for i in ids) and len(set(ids)) == 2
    assert completion.prompt_tokens > 0 and completion.completion_tokens > 0
    assert sim.complete(request(messages)) == completion  # same request, same reply
    final = sim.complete(request(answer_calls(messages, completion, SEED_RESULTS)))
    assert final.finish_reason == "stop" and final.tool_calls == []
    assert final.content == "现在是 2024 年 6 月 15 日 14:30；17 乘以 9 等于 153。"


def test_complete_without_tools_replies_in_words(sim):
    completion = sim.complete(
        request(
            [{"role": "system", "content": "你是一个助手。"}, user("你好，你是谁？")], tools=None
        )
    )
    assert completion.finish_reason == "stop" and "规则引擎" in completion.content


def test_tool_prompt_without_tools_goes_to_prompt_mode(sim):
    system = (
        "你可以调用以下工具：\n工具名称：calculate\n描述：执行数学计算\n参数说明：\n - expression"
        " (string): 数学表达式\n\n"
        '需要调用工具时只输出 JSON：{"tool_name": "工具名称", "arguments": {}}'
    )
    completion = sim.complete(
        request([{"role": "system", "content": system}, user("计算 17 乘以 9")], tools=None)
    )
    assert (
        completion.tool_calls == []
        and "calculate" in completion.content
        and "17 * 9" in completion.content
    )


def test_request_options_parallel_and_tool_choice_are_honoured(sim):
    messages = [user("现在几点了？17 乘以 9 等于多少？")]
    assert len(sim.complete(request(messages, parallel_tool_calls=False)).tool_calls) == 1
    assert sim.complete(request(messages, tool_choice="none")).tool_calls == []
    named = sim.complete(
        request(messages, tool_choice={"type": "function", "function": {"name": "calculator"}})
    )
    assert [c["function"]["name"] for c in named.tool_calls] == ["calculator"]


def test_the_clock_can_be_a_callable():
    moments = iter([datetime(2024, 1, 1, 9, 0), datetime(2024, 12, 31, 9, 0)])
    sim = CourseSimulator(now=lambda: next(moments))
    tool = {
        "name": "get_schedule",
        "description": "查询某一天的日程安排。",
        "parameters": {
            "type": "object",
            "properties": {"date": {"type": "string", "description": "日期，格式 YYYY-MM-DD"}},
            "required": ["date"],
        },
    }
    dates = [
        json.loads(
            sim.complete(request([user("明天的日程")], tools=[tool])).tool_calls[0]["function"][
                "arguments"
            ]
        )["date"]
        for _ in range(2)
    ]
    assert dates == ["2024-01-02", "2025-01-01"]


def test_a_reply_to_a_clarifying_question_completes_the_request(sim):
    messages = [user("帮我查一下订单的状态")]
    question = sim.complete(request(messages, tools=[ORDER]))
    assert question.tool_calls == [] and "订单号" in question.content
    messages += [{"role": "assistant", "content": question.content}, user("OD20240615")]
    completion = sim.complete(request(messages, tools=[ORDER]))
    assert [json.loads(c["function"]["arguments"]) for c in completion.tool_calls] == [
        {"order_id": "OD20240615"}
    ]


def test_reading_the_conversation_pairs_results_by_id_or_order():
    messages = [
        user("old"),
        {"role": "assistant", "content": "hi"},
        user("现在几点了？"),
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {"id": "a", "type": "function", "function": {"name": "x", "arguments": '{"k": 1}'}},
                {
                    "id": "b",
                    "type": "function",
                    "function": {"name": "y", "arguments": '"{\\"k\\": 2}"'},
                },
            ],
        },
        {"role": "tool", "tool_call_id": "b", "content": "B"},
        {"role": "tool", "tool_call_id": "zzz", "content": "A"},
    ]
    text, results, earlier = read_conversation(messages)
    assert text == "现在几点了？" and earlier is None
    # a double-encoded object is not taken as the object: it must not match (and so end) the planned
    # call
    assert results == [
        (PlannedCall("y", {RAW_ARGUMENTS_KEY: '"{\\"k\\": 2}"'}), "B"),
        (PlannedCall("x", {"k": 1}), "A"),
    ]


# ------------------------------------------------------------------------------------------------
# Faults
# ------------------------------------------------------------------------------------------------


def test_unknown_model_and_unknown_option(sim):
    with pytest.raises(BackendError) as unknown_model:
        sim.complete(request([user("hi")], model="gpt-4o"))
    assert unknown_model.value.status == 404 and unknown_model.value.code == "model_not_found"
    with pytest.raises(BackendError) as unknown_option:
        sim.complete(request([user("hi")], model="course-sim:explode"))
    assert unknown_option.value.status == 404 and "explode" in unknown_option.value.message


def test_server_error_every_time(sim):
    for _ in range(2):
        with pytest.raises(BackendError) as error:
            sim.complete(request([user("现在几点了？")], model="course-sim:server_error"))
        assert error.value.status == 500 and error.value.type == "server_error"


def test_rate_limit_first_attempt_of_each_request_then_success(sim, monkeypatch):
    first = request([user("现在几点了？")], model="course-sim:rate_limit")
    with pytest.raises(BackendError) as limited:
        sim.complete(first)
    assert limited.value.status == 429
    assert limited.value.headers == {"Retry-After": "1", "retry-after-ms": "200"}
    assert sim.complete(first).tool_calls  # the retry succeeds
    with pytest.raises(BackendError):
        sim.complete(
            request([user("17 乘以 9")], model="course-sim:rate_limit")
        )  # another request: limited again
    import handwritten_agent.course.offline.simulator as simulator_module

    monkeypatch.setattr(simulator_module, "RATE_LIMIT_MEMORY", 3)
    for index in range(10):
        with pytest.raises(BackendError):
            sim.complete(request([user(f"第 {index} 个问题")], model="course-sim:rate_limit"))
    assert len(sim._rate_limited) <= 3  # the memory of request hashes is bounded


def test_slow_reply_still_answers(sim):
    started = time.monotonic()
    completion = sim.complete(request([user("现在几点了？")], model="course-sim:slow"))
    assert time.monotonic() - started >= 0.05 and completion.tool_calls


def test_empty_reply(sim):
    completion = sim.complete(request([user("现在几点了？")], model="course-sim:empty_reply"))
    assert (
        completion.content is None
        and completion.tool_calls == []
        and completion.finish_reason == "stop"
    )


def test_malformed_json_then_a_correct_call_after_the_error(sim):
    messages = [user("17 乘以 9 等于多少？")]
    broken = sim.complete(request(messages, model="course-sim:malformed_json"))
    with pytest.raises(json.JSONDecodeError):
        json.loads(broken.tool_calls[0]["function"]["arguments"])
    messages = answer_calls(
        messages, broken, {"calculator": "错误：参数不是合法的 JSON，请重新生成"}
    )
    fixed = sim.complete(request(messages, model="course-sim:malformed_json"))
    assert json.loads(fixed.tool_calls[0]["function"]["arguments"]) == {"expression": "17 * 9"}
    final = sim.complete(
        request(answer_calls(messages, fixed, SEED_RESULTS), model="course-sim:malformed_json")
    )
    assert final.finish_reason == "stop" and "153" in final.content


def test_unknown_tool_then_the_offered_name(sim):
    messages = [user("现在几点了？")]
    wrong = sim.complete(request(messages, model="course-sim:unknown_tool"))
    name = wrong.tool_calls[0]["function"]["name"]
    assert name not in {"get_current_time", "calculator"}
    messages = answer_calls(messages, wrong, SEED_RESULTS)
    right = sim.complete(request(messages, model="course-sim:unknown_tool"))
    assert right.tool_calls[0]["function"]["name"] == "get_current_time"
    final = sim.complete(
        request(answer_calls(messages, right, SEED_RESULTS), model="course-sim:unknown_tool")
    )
    assert final.content == "现在是 2024 年 6 月 15 日 14:30。" and name not in final.content


def test_string_arguments_are_encoded_twice_then_fixed_after_the_error(sim):
    messages = [user("17 乘以 9 等于多少？")]
    completion = sim.complete(request(messages, model="course-sim:string_arguments"))
    decoded = json.loads(completion.tool_calls[0]["function"]["arguments"])
    assert isinstance(decoded, str) and json.loads(decoded) == {"expression": "17 * 9"}
    messages = answer_calls(
        messages,
        completion,
        {"calculator": "Error: the arguments are a JSON string, not a JSON object"},
    )
    fixed = sim.complete(request(messages, model="course-sim:string_arguments"))
    assert json.loads(fixed.tool_calls[0]["function"]["arguments"]) == {"expression": "17 * 9"}


def test_repeat_forever_makes_the_same_call_every_turn(sim):
    messages = [user("17 乘以 9 等于多少？")]
    first = sim.complete(request(messages, model="course-sim:repeat_forever"))
    for reply in ("153", "你已经调用过这个工具，请直接使用之前的结果。"):
        messages = messages + [
            {"role": "assistant", "content": None, "tool_calls": first.tool_calls},
            {"role": "tool", "tool_call_id": first.tool_calls[0]["id"], "content": reply},
        ]
        again = sim.complete(request(messages, model="course-sim:repeat_forever"))
        assert again.finish_reason == "tool_calls"
        assert [c["function"] for c in again.tool_calls] == [
            c["function"] for c in first.tool_calls
        ]
    # without the fault the same conversation converges
    assert sim.complete(request(messages)).finish_reason == "stop"


def test_bad_tool_call_id_reuses_call_0_and_results_still_pair_in_order(sim):
    messages = [user("现在几点了？17 乘以 9 等于多少？")]
    completion = sim.complete(request(messages, model="course-sim:bad_tool_call_id"))
    assert [c["id"] for c in completion.tool_calls] == ["call_0", "call_0"]
    final = sim.complete(
        request(
            answer_calls(messages, completion, SEED_RESULTS), model="course-sim:bad_tool_call_id"
        )
    )
    assert "14:30" in final.content and "153" in final.content


def test_messiness_options_are_ignored_in_native_mode(sim):
    plain = sim.complete(request([user("17 乘以 9 等于多少？")]))
    fenced = sim.complete(request([user("17 乘以 9 等于多少？")], model="course-sim:fenced"))
    assert fenced.tool_calls == plain.tool_calls


def test_office_requests_fill_ids_times_counts_and_addresses():
    book = {
        "name": "book_meeting_room",
        "description": "预订会议室，需要指定会议室ID、时间段和参会人数。",
        "parameters": {
            "type": "object",
            "properties": {
                "room_id": {"type": "string", "description": "会议室ID，例如A301"},
                "start_time": {"type": "string", "description": "开始时间，格式YYYY-MM-DD HH:MM"},
                "end_time": {"type": "string", "description": "结束时间，格式YYYY-MM-DD HH:MM"},
                "attendee_count": {"type": "integer", "description": "参会人数"},
            },
            "required": ["room_id", "start_time", "end_time", "attendee_count"],
        },
    }
    mail = {
        "name": "send_notification_email",
        "description": "向指定邮箱发送会议通知邮件。",
        "parameters": {
            "type": "object",
            "properties": {
                "to_address": {"type": "string", "description": "收件人邮箱地址"},
                "content": {"type": "string", "description": "邮件正文内容"},
            },
            "required": ["to_address", "content"],
        },
    }
    assert plan("帮我预订明天下午2点到3点的A301会议室，5个人", [ROOMS, book, mail]).calls == [
        PlannedCall(
            "book_meeting_room",
            {
                "room_id": "A301",
                "start_time": "2024-06-16 14:00",
                "end_time": "2024-06-16 15:00",
                "attendee_count": 5,
            },
        )
    ]
    assert plan(
        "给 zhangming@example.com 发会议通知邮件：明天上午10点开周会", [ROOMS, book, mail]
    ).calls == [
        PlannedCall(
            "send_notification_email",
            {"to_address": "zhangming@example.com", "content": "明天上午10点开周会"},
        )
    ]


def test_a_part_of_the_request_no_tool_fits_is_mentioned_in_the_answer():
    question = "现在几点了？顺便帮我订一张去上海的机票"
    first = plan(question, SEED_TOOLS)
    assert first.calls == [PlannedCall("get_current_time", {})]
    final = plan(question, SEED_TOOLS, [(first.calls[0], "14:30")])
    assert (
        "14:30" in final.answer
        and "订一张去上海的机票" in final.answer
        and "没有合适的工具" in final.answer
    )


def test_an_amount_to_convert_implies_a_calculation_after_the_lookup():
    # "100 美元能换多少人民币" names no calculation, but the rate alone does not answer it
    tools = [
        {
            "name": "get_exchange_rate",
            "description": "查询汇率：1 单位 base 货币能换多少 target 货币。",
            "parameters": {
                "type": "object",
                "properties": {
                    "base": {"type": "string", "description": "要换出的货币代码，例如 USD"},
                    "target": {"type": "string", "description": "要换成的货币代码，例如 CNY"},
                },
                "required": ["base", "target"],
            },
        },
        {
            "name": "calculator",
            "description": "计算一个数学表达式。",
            "parameters": {
                "type": "object",
                "properties": {
                    "expression": {"type": "string", "description": "要计算的算式，例如 17 * 9"}
                },
                "required": ["expression"],
            },
        },
    ]
    first = plan_turn("100 美元能换多少人民币？", tools, [])
    assert [call.name for call in first.calls] == ["get_exchange_rate"]
    lookup = first.calls[0]
    second = plan_turn(
        "100 美元能换多少人民币？",
        tools,
        [(lookup, '{"success": true, "data": {"rate": 7.2}, "error": null}')],
    )
    assert second.calls == [PlannedCall("calculator", {"expression": "100 * 7.2"})]
    # a plain rate question stays one lookup
    assert [call.name for call in plan_turn("美元兑人民币的汇率是多少？", tools, []).calls] == [
        "get_exchange_rate"
    ]
