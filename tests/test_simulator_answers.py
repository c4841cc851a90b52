"""The simulator's final answers: one short sentence per question, aimed at it, from the result's
data.

Families of cases over tools the course never shows (stocks, parcels, rooms, invoices, books,
servers …), in Chinese and English, and a property test over generated tool/result shapes: no answer
quotes a tool's description, dumps ``key: value`` pairs of result fields, shows JSON, or says one
fact twice. The four answers Day 3 shows are checked end to end, through the official SDK against
the real server.
"""

from __future__ import annotations

import json
import random
import re
from datetime import datetime
from typing import Any

import pytest

from handwritten_agent.course.offline.simulator.answer import (
    AnswerItem,
    compose_answer,
    read_result,
)
from handwritten_agent.course.offline.simulator.planner import PlannedCall, plan_turn
from tests.simkit import tool

NOW = datetime(2026, 3, 12, 14, 30)  # a Thursday
CJK = re.compile(r"[\u4e00-\u9fff]")


def s(description: str, **extra: Any) -> dict[str, Any]:
    return {"type": "string", "description": description, **extra}


def envelope(data: Any = None, error: str | None = None) -> str:
    return json.dumps({"success": error is None, "data": data, "error": error}, ensure_ascii=False)


def answer(question: str, spec: dict[str, Any], result: str, **options: Any) -> str:
    """Plan the call for ``question``, hand back ``result`` for every call made, return the final
    answer.
    """
    first = plan_turn(question, [spec], [], now=NOW, **options)
    assert first.kind == "call", (question, first)
    final = plan_turn(
        question, [spec], [(call, result) for call in first.calls], now=NOW, **options
    )
    assert final.kind == "final" and not final.calls, final
    return final.answer


def sentences(text: str) -> list[str]:
    return [
        part for part in re.split(r"(?<=[。！？!?])\s*|(?<=\.)\s+", text.strip()) if part.strip()
    ]


# ------------------------------------------------------------------------------------------------
# The four answers of Day 3, end to end through the SDK
# ------------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def day3_agent(offline_server):
    from handwritten_agent.agent import Agent
    from handwritten_agent.llm import ChatClient
    from handwritten_agent.scenarios import basic_registry

    client = ChatClient(offline_server.base_url, "test", "course-sim", max_retries=0, timeout=5.0)
    return Agent(client, basic_registry(NOW), max_steps=6)


@pytest.mark.parametrize(
    "question, expected",
    [
        (
            "现在几点了？17 乘以 9 等于多少？",
            "现在是 2026 年 3 月 12 日（星期四）14:30；17 乘以 9 等于 153。",
        ),
        ("计算 1 除以 0", "1 除以 0 没有结果：除数不能为零。"),
        (
            "查询汇率后计算 100 美元能换多少人民币",
            "按 1 美元 = 7.2 元人民币（示例汇率，非实时），100 美元能换 720 元人民币。",
        ),
    ],
)
def test_day3_answers_read_like_a_careful_assistant(day3_agent, question, expected):
    result = day3_agent.run(question)
    assert result.stop_reason == "final" and result.answer == expected


def test_day3_small_talk_is_honest_and_short(day3_agent):
    result = day3_agent.run("你好，你是谁？")
    assert result.tool_calls == [] and result.stop_reason == "final"
    assert (
        "规则引擎" in result.answer
        and "不是大语言模型" in result.answer
        and ".env" in result.answer
    )
    assert len(sentences(result.answer)) <= 2 and len(result.answer) < 120


# ------------------------------------------------------------------------------------------------
# Calculations
# ------------------------------------------------------------------------------------------------

MATH = tool("evaluate_formula", "对一个算式求值。", {"formula": s("算式，例如：(3 + 5) * 2")})
MATH_EN = tool(
    "evaluate", "Evaluate an arithmetic formula.", {"formula": s("the formula, e.g. (3 + 5) * 2")}
)


@pytest.mark.parametrize(
    "question, value, expected",
    [
        ("17 乘以 9 等于多少？", 153, "17 乘以 9 等于 153。"),
        ("算一下 144 除以 12", 12, "144 除以 12 等于 12。"),
        ("3 加 4 减 5 是多少", 2, "3 加 4 减 5 是 2。"),
        ("2 的 10 次方是多少", 1024, "2 的 10 次方是 1024。"),
        ("100 的平方根是多少", 10.0, "100 的平方根是 10。"),
        ("0.1 加 0.2", 0.3, "0.1 加 0.2 等于 0.3。"),
        ("(12+34)*2 等于几", 92, "(12+34)*2 等于 92。"),
        ("3.5万乘以12", 420000, "35000 乘以 12 等于 420,000。"),
    ],
)
@pytest.mark.parametrize(
    "shape",
    [
        lambda v: envelope(v),
        lambda v: json.dumps(v),
        lambda v: json.dumps({"result": v}),
        lambda v: f"计算结果为 {v}",
    ],
)
def test_calculations_are_said_in_words(question, value, expected, shape):
    assert answer(question, MATH, shape(value)) == expected


@pytest.mark.parametrize(
    "question, value, expected",
    [
        ("What is 6 times 7?", 42, "6 times 7 is 42."),
        ("what is 2 to the power of 10", 1024, "2 to the power of 10 is 1024."),
        ("Calculate 81 divided by 9", 9, "81 divided by 9 is 9."),
        ("what's 15% of 80", 12, "15% of 80 is 12."),
    ],
)
def test_english_calculations_get_english_answers(question, value, expected):
    assert answer(question, MATH_EN, envelope(value)) == expected


def test_a_chain_of_calculations_says_each_step_once():
    question = "17 乘以 9，再乘以 2"
    first = plan_turn(question, [MATH], [], now=NOW)
    second = plan_turn(question, [MATH], [(first.calls[0], "153")], now=NOW)
    final = plan_turn(
        question, [MATH], [(first.calls[0], "153"), (second.calls[0], "306")], now=NOW
    )
    assert final.answer == "17 乘以 9 等于 153，再乘以 2 等于 306。"


# ------------------------------------------------------------------------------------------------
# Errors, confirmations, refusals
# ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "result",
    [
        envelope(error="除数不能为零：1 / 0 中出现了除以 0（或 0 的负数次幂），无法计算。"),
        "错误：除数不能为零",
        "Error: division by zero",
        envelope(error="ZeroDivisionError: division by zero"),
        json.dumps({"error": "division by zero"}),
    ],
)
def test_a_division_by_zero_is_said_once_plainly(result):
    assert answer("计算 1 除以 0", MATH, result) == "1 除以 0 没有结果：除数不能为零。"
    assert (
        answer("What is 1 divided by 0?", MATH_EN, result)
        == "1 divided by 0 has no result: division by zero."
    )


PARCEL = tool(
    "track_parcel",
    "根据运单号查询快递的物流状态。",
    {"tracking_no": s("运单号，例如：SF1234567890")},
)
ROOM = tool(
    "book_room",
    "预订会议室。",
    {"room_id": s("会议室编号，例如：A301"), "date": s("日期，格式 YYYY-MM-DD")},
)
SMS = tool(
    "send_sms",
    "给手机号发送短信。此操作需要用户确认。",
    {"phone": s("手机号"), "content": s("短信内容")},
)


@pytest.mark.parametrize(
    "result, message",
    [
        (envelope(error="没有找到运单 SF1234567890，请核对运单号。"), "没有找到运单 SF1234567890"),
        ("Error: upstream service timed out", "超时了"),
        (envelope(error="物流服务暂时不可用"), "物流服务暂时不可用"),
    ],
)
def test_lookup_errors_are_relayed_once(result, message):
    text = answer("帮我查一下 SF1234567890 这个快递到哪了", PARCEL, result)
    assert text.startswith("跟踪快递（运单号 SF1234567890）没有成功：") and message in text
    assert text.count(message) == 1 and "{" not in text


@pytest.mark.parametrize(
    "result, reason",
    [
        (
            envelope(error="用户拒绝了此操作：这个时间段已经给别的部门了"),
            "用户拒绝了此操作（这个时间段已经给别的部门了）",
        ),
        (
            json.dumps({"status": "rejected", "reason": "审批人驳回了申请"}, ensure_ascii=False),
            "审批人驳回了申请",
        ),
        (
            json.dumps({"denied": True, "message": "没有权限预订 A 区会议室"}, ensure_ascii=False),
            "没有权限预订 A 区会议室",
        ),
    ],
)
def test_refusals_are_reported_as_not_done(result, reason):
    assert (
        answer("帮我订明天的 A301 会议室", ROOM, result)
        == f"预订会议室（会议室编号 A301 2026 年 3 月 13 日）没有执行：{reason}。"
    )


@pytest.mark.parametrize(
    "result",
    [
        json.dumps(
            {"status": "need_confirmation", "message": "即将给 13800138000 发送短信"},
            ensure_ascii=False,
        ),
        json.dumps(
            {"needs_confirmation": True, "summary": "即将给 13800138000 发送短信"},
            ensure_ascii=False,
        ),
        envelope(error="需要用户确认：即将给 13800138000 发送短信"),
    ],
)
def test_a_call_waiting_for_confirmation_is_explained(result):
    text = answer("给 13800138000 发短信：明天上午十点开会", SMS, result)
    assert text.startswith("发送短信（手机号 13800138000）还没有执行，需要你确认")
    assert text.count("即将给 13800138000 发送短信") == 1


def test_a_confirmation_without_words_is_not_dumped():
    text = answer(
        "给 13800138000 发短信：明天上午十点开会",
        SMS,
        json.dumps({"status": "pending_approval", "ticket": 7}),
    )
    assert text == "发送短信（手机号 13800138000）还没有执行，需要你确认。" and "{" not in text


def test_english_refusal_and_error():
    book = tool(
        "book_desk",
        "Book a desk for a day.",
        {"desk": s("desk id, e.g. D12"), "day": {"type": "string", "enum": ["today", "tomorrow"]}},
    )
    assert (
        answer(
            "Book desk D12 for tomorrow",
            book,
            envelope(error="The user rejected this action: not needed"),
        )
        == "Book desk for D12 tomorrow was not carried out: The user rejected this action (not"
        " needed)."
    )
    assert (
        answer("Book desk D12 for tomorrow", book, "Error: desk D12 not found")
        == "Could not book desk for D12 tomorrow: desk D12 not found."
    )


# ------------------------------------------------------------------------------------------------
# Moments, several questions, dependent calculations
# ------------------------------------------------------------------------------------------------

CLOCK = tool("server_clock", "返回服务器当前的日期和时间。", {})
CLOCK_EN = tool("now", "Return the server's current date and time.", {})


@pytest.mark.parametrize(
    "question, result, expected",
    [
        (
            "现在几点了？",
            json.dumps(
                {"date": "2026-03-12", "time": "14:30:00", "weekday": "星期四"}, ensure_ascii=False
            ),
            "现在是 2026 年 3 月 12 日（星期四）14:30。",
        ),
        ("现在几点了？", "2026-03-12 14:30", "现在是 2026 年 3 月 12 日 14:30。"),
        ("现在几点了？", envelope("14:30:05"), "现在是 14:30:05。"),
        (
            "今天几号？",
            json.dumps({"date": "2026-03-12", "time": "14:30:00", "weekday": "Thursday"}),
            "今天是 2026 年 3 月 12 日（星期四）。",
        ),
        (
            "现在什么时间",
            json.dumps({"datetime": "2026-03-12T14:30:00+08:00"}),
            "现在是 2026 年 3 月 12 日 14:30（+08:00）。",
        ),
    ],
)
def test_a_moment_is_said_as_a_date_and_time(question, result, expected):
    assert answer(question, CLOCK, result) == expected


def test_english_moments():
    result = json.dumps(
        {"date": "2026-03-12", "time": "14:30:00", "weekday": "星期四"}, ensure_ascii=False
    )
    assert answer("What time is it?", CLOCK_EN, result) == "It is 14:30 on Thursday, 12 March 2026."
    assert answer("What is today's date?", CLOCK_EN, result) == "Today is Thursday, 12 March 2026."


def test_several_questions_make_one_sentence_of_clauses():
    tools = [CLOCK, MATH]
    question = "现在几点了？17 乘以 9 等于多少？"
    first = plan_turn(question, tools, [], now=NOW)
    results = [
        (
            first.calls[0],
            json.dumps(
                {"date": "2026-03-12", "time": "14:30:00", "weekday": "星期四"}, ensure_ascii=False
            ),
        ),
        (first.calls[1], envelope(153)),
    ]
    assert (
        plan_turn(question, tools, results, now=NOW).answer
        == "现在是 2026 年 3 月 12 日（星期四）14:30；17 乘以 9 等于 153。"
    )
    english = "What time is it? And what is 17 times 9?"
    first = plan_turn(english, [CLOCK_EN, MATH_EN], [], now=NOW)
    results = [(first.calls[0], "2026-03-12 14:30"), (first.calls[1], "153")]
    assert (
        plan_turn(english, [CLOCK_EN, MATH_EN], results, now=NOW).answer
        == "It is 14:30 on 12 March 2026; 17 times 9 is 153."
    )


FX = tool(
    "fx_quote",
    "查询两种货币之间的报价。",
    {"base": s("换出的货币代码，例如 USD"), "quote": s("换成的货币代码，例如 CNY")},
)
FX_EN = tool(
    "fx_quote",
    "Quote the exchange rate between two currencies.",
    {
        "base": s("currency to convert from, e.g. USD"),
        "quote": s("currency to convert to, e.g. CNY"),
    },
)


@pytest.mark.parametrize(
    "question, rate_result, expected",
    [
        (
            "查询汇率后计算 100 美元能换多少人民币",
            envelope(
                {"base": "USD", "quote": "CNY", "rate": 7.2, "note": "示例汇率，不是实时行情"}
            ),
            "按美元兑人民币的汇率为 7.2（示例汇率，非实时），100 美元能换 720 元人民币。",
        ),
        (
            "先查欧元兑人民币的汇率，再算 50 欧元能换多少人民币",
            envelope({"summary": "1 EUR = 7.8 CNY", "is_sample": True}),
            "按 1 欧元 = 7.8 元人民币（示例数据），50 欧元能换 390 元人民币。",
        ),
        (
            "1000 日元能换多少人民币？",
            json.dumps({"pair": "JPY/CNY", "price": 0.048}),
            "按日元兑人民币的价格为 0.048 元，1000 日元能换 48 元人民币。",
        ),
        (
            "200 英镑能兑换多少港币",
            "1 GBP = 9.89 HKD",
            "按 1 英镑 = 9.89 港币，200 英镑能兑换 1978 港币。",
        ),
    ],
)
def test_a_calculation_on_an_earlier_result_answers_the_question(question, rate_result, expected):
    tools = [FX, MATH]
    first = plan_turn(question, tools, [], now=NOW)
    assert [c.name for c in first.calls] == ["fx_quote"]
    second = plan_turn(question, tools, [(first.calls[0], rate_result)], now=NOW)
    assert [c.name for c in second.calls] == ["evaluate_formula"]
    expression = second.calls[0].arguments["formula"]
    left, right = (float(x) for x in expression.split(" * "))
    results = [(first.calls[0], rate_result), (second.calls[0], envelope(round(left * right, 6)))]
    assert plan_turn(question, tools, results, now=NOW).answer == expected


def test_english_dependent_calculation():
    tools = [FX_EN, MATH_EN]
    question = "How much is 100 USD in CNY?"
    first = plan_turn(question, tools, [], now=NOW)
    rate = envelope(
        {"base": "USD", "quote": "CNY", "rate": 7.2, "note": "sample rate, not real-time"}
    )
    second = plan_turn(question, tools, [(first.calls[0], rate)], now=NOW)
    final = plan_turn(question, tools, [(first.calls[0], rate), (second.calls[0], "720")], now=NOW)
    assert (
        final.answer
        == "For USD to CNY, the exchange rate is 7.2 (sample rate, not live), so 100 USD is 720"
        " CNY."
    )


# ------------------------------------------------------------------------------------------------
# Data of every shape, from tools the course never shows
# ------------------------------------------------------------------------------------------------

STOCK = tool("get_stock_price", "查询股票的最新价格。", {"symbol": s("股票代码，例如：AAPL、TSLA")})
LEAVE = tool(
    "get_leave_balance", "查询员工剩余的年假天数。", {"employee": s("员工姓名，例如：张三")}
)
WORDS = tool("count_words", "Count the words in a piece of text.", {"text": s("the text to count")})
SEARCH = tool("search_articles", "按关键词搜索知识库文章。", {"query": s("搜索关键词")})
AIR = tool("get_air_quality", "查询城市当前的空气质量。", {"city": s("城市名，例如：上海")})
FLIGHTS = tool(
    "search_flights",
    "查询两个城市之间某天的航班。",
    {
        "origin": s("出发城市，例如：北京"),
        "destination": s("到达城市，例如：上海"),
        "date": s("日期，格式 YYYY-MM-DD"),
    },
)
INVOICES = tool(
    "list_invoices",
    "列出客户的发票。",
    {
        "customer_id": s("客户ID，例如：C001"),
        "status": s("发票状态：paid 已付款，unpaid 未付款", enum=["paid", "unpaid"]),
    },
)
WORKDAY = tool("is_workday", "判断某天是否为工作日。", {"date": s("日期，格式 YYYY-MM-DD")})
METRICS = tool("get_server_metrics", "查询服务器的运行指标。", {"host": s("主机名，例如：web-01")})
BOOK = tool("lookup_book", "根据 ISBN 查询图书信息。", {"isbn": s("ISBN，例如 9787111213826")})
MUSEUM = tool(
    "get_opening_hours",
    "Get the opening hours of a museum for a day.",
    {
        "museum": s("museum name, e.g. Louvre"),
        "day": {"type": "string", "enum": ["today", "tomorrow"]},
    },
)
CITY = tool("get_city_info", "Look up facts about a city.", {"city": s("city name, e.g. Tokyo")})
DISTANCE = tool(
    "convert_distance",
    "Convert a distance between units.",
    {
        "value": {"type": "number", "description": "distance"},
        "from_unit": {"type": "string", "enum": ["km", "mi"]},
        "to_unit": {"type": "string", "enum": ["km", "mi"]},
    },
)
FREE_ROOM = tool(
    "check_room",
    "查询会议室在某天是否空闲。",
    {"room_id": s("会议室编号，例如：A301"), "date": s("日期，格式 YYYY-MM-DD")},
)
TEMPERATURE = tool(
    "get_temperature",
    "查询城市当前气温。",
    {
        "city": s("城市名称，例如：北京"),
        "unit": s("温度单位：c（摄氏度）或 f（华氏度）", enum=["c", "f"], default="c"),
    },
)

SHAPES = [
    (
        "AAPL 现在股价多少？",
        STOCK,
        envelope({"symbol": "AAPL", "price": 189.5, "currency": "USD", "change_pct": 1.2}),
        "AAPL 现在股价 189.5 美元。",
    ),
    (
        "李四还有几天年假？",
        LEAVE,
        envelope({"employee": "李四", "remaining_days": 5, "used_days": 7}),
        "李四还有 5 天年假。",
    ),
    (
        "How many words are in 'the quick brown fox'?",
        WORDS,
        envelope(4),
        "There are 4 words in 'the quick brown fox'.",
    ),
    (
        "帮我查一下 SF1234567890 这个快递到哪了",
        PARCEL,
        envelope(
            {
                "tracking_no": "SF1234567890",
                "status": "运输中",
                "location": "杭州转运中心",
                "updated": "2026-03-12 09:10",
            }
        ),
        "运单号 SF1234567890 运输中，位置为杭州转运中心。",
    ),
    (
        "搜索一下「向量数据库」相关的文章",
        SEARCH,
        envelope(
            [
                {"title": "向量数据库入门", "author": "王五", "views": 1203},
                {"title": "用 FAISS 做相似检索", "author": "赵六", "views": 877},
            ]
        ),
        (
            "关于「向量数据库」共 2 项，分别是向量数据库入门（作者王五，阅读量 1203）和用 FAISS"
            " 做相似检索（作者赵六，阅读量 877）。"
        ),
    ),
    (
        "上海现在空气质量怎么样",
        AIR,
        envelope({"city": "上海", "aqi": 68, "note": "模拟数据"}),
        "上海的空气质量指数为 68（模拟数据）。",
    ),
    (
        "北京到上海明天有哪些航班",
        FLIGHTS,
        envelope(
            {
                "flights": [
                    {"flight_no": "MU5101", "departure": "08:00", "price": 980},
                    {"flight_no": "CA1501", "departure": "09:00", "price": 1120},
                ],
                "currency": "CNY",
            }
        ),
        (
            "北京到上海 2026 年 3 月 13 日的航班共 2 项，分别是 MU5101（出发于 08:00，价格 980"
            " 元）和 CA1501（出发于 09:00，价格 1120 元）。"
        ),
    ),
    (
        "客户 C001 有哪些未付款的发票？",
        INVOICES,
        envelope([]),
        "没有找到客户ID C001 未付款的发票。",
    ),
    ("今天是不是工作日", WORKDAY, envelope(True), "是的，今天是工作日。"),
    ("今天是不是工作日", WORKDAY, envelope(False), "不，今天不是工作日。"),
    (
        "A301 会议室明天有空吗",
        FREE_ROOM,
        envelope({"room_id": "A301", "available": False, "booked_by": "市场部"}),
        "不，A301 会议室明天没有空。",
    ),
    (
        "服务器 web-01 的 CPU 使用率多少",
        METRICS,
        envelope(
            {"host": "web-01", "cpu_usage": 73.5, "memory": {"used_gb": 12.1, "total_gb": 16}}
        ),
        "服务器 web-01 的 CPU 使用率 73.5%。",
    ),
    (
        "查一下 ISBN 9787111213826 这本书",
        BOOK,
        envelope(
            {
                "isbn": "9787111213826",
                "title": "Java 编程思想",
                "author": "Bruce Eckel",
                "year": 2007,
                "in_stock": False,
            }
        ),
        "ISBN 9787111213826 缺货，标题为 Java 编程思想，作者为 Bruce Eckel，年份 2007。",
    ),
    (
        "Is the Louvre open today?",
        MUSEUM,
        envelope({"museum": "Louvre", "open": True, "hours": "09:00-18:00", "note": "sample data"}),
        "Yes, the Louvre is open today (sample data).",
    ),
    (
        "What's the population of Tokyo?",
        CITY,
        envelope({"city": "Tokyo", "country": "Japan", "population": 13960000}),
        "The population of Tokyo is 13,960,000.",
    ),
    (
        "How far is 10 miles in km?",
        DISTANCE,
        envelope({"value": 16.09, "unit": "km"}),
        "10 miles is 16.09 km.",
    ),
    (
        "广州现在多少度？用华氏度",
        TEMPERATURE,
        envelope({"city": "广州", "temperature": 77}),
        "广州现在 77 华氏度。",
    ),
]


@pytest.mark.parametrize(
    "question, spec, result, expected",
    SHAPES,
    ids=[case[1]["name"] + str(i) for i, case in enumerate(SHAPES)],
)
def test_answers_from_data_of_every_shape(question, spec, result, expected):
    assert answer(question, spec, result) == expected


MEET = tool(
    "schedule_meeting",
    "安排一个会议。",
    {
        "title": s("会议主题"),
        "start_time": s("开始时间，格式 YYYY-MM-DD HH:MM"),
        "end_time": s("结束时间，格式 YYYY-MM-DD HH:MM"),
    },
)
DESK = tool(
    "book_desk",
    "Book a desk for a day.",
    {"desk": s("desk id, e.g. D12"), "day": {"type": "string", "enum": ["today", "tomorrow"]}},
)


@pytest.mark.parametrize(
    "question, spec, result, expected",
    [
        (
            "帮我订明天的 A301 会议室",
            ROOM,
            envelope({"booking_id": "BK7", "room_id": "A301", "date": "2026-03-13"}),
            "已预订会议室（会议室编号 A301 2026 年 3 月 13 日），预订编号为 BK7。",
        ),
        (
            "给 13800138000 发短信：明天上午十点开会",
            SMS,
            envelope({"sent": True, "message_id": "m-889"}),
            "已发送短信（手机号 13800138000），消息编号为 m-889。",
        ),
        (
            "明天下午3点到4点安排一个会议，主题是「季度复盘」",
            MEET,
            envelope({"meeting_id": "MT-3", "attendees": 5}),
            "已安排会议（2026 年 3 月 13 日 15:00 到 16:00），会议编号为 MT-3，参会人数 5。",
        ),
        (
            "Book desk D12 for tomorrow",
            DESK,
            envelope({"ok": True, "reservation": "R-9"}),
            "Done — book desk for D12 tomorrow — the reservation is R-9.",
        ),
    ],
)
def test_a_tool_that_changes_something_says_it_was_done(question, spec, result, expected):
    assert answer(question, spec, result) == expected


WEATHER_LIKE = tool(
    "get_forecast",
    "查询城市某天的天气预报。",
    {
        "city": s("城市名，例如：北京"),
        "day": s("哪一天：today 今天，tomorrow 明天", enum=["today", "tomorrow"]),
    },
)
FORECAST = {
    "city": "北京",
    "day": "tomorrow",
    "condition": "多云",
    "temp_min": 4,
    "temp_max": 15,
    "wind": "南风 2 级",
    "humidity": 40,
    "unit": "celsius",
    "disclaimer": "演示数据，不是实时天气预报",
}


@pytest.mark.parametrize(
    "question, expected",
    [
        (
            "北京明天天气怎么样？",
            "北京明天多云，南风 2 级，温度 4 到 15 摄氏度，湿度 40%（演示数据，非实时）。",
        ),
        ("北京明天气温多少？", "北京明天的温度为 4 到 15 摄氏度（演示数据，非实时）。"),
        ("北京明天湿度多少", "北京明天湿度 40%（演示数据，非实时）。"),
    ],
)
def test_a_question_about_one_field_gets_that_field_with_its_unit_and_caveat(question, expected):
    assert answer(question, WEATHER_LIKE, envelope(FORECAST)) == expected


def test_fan_out_results_share_one_caveat():
    question = "北京和上海明天天气怎么样"
    first = plan_turn(question, [WEATHER_LIKE], [], now=NOW)
    assert len(first.calls) == 2
    results = [
        (call, envelope({"city": call.arguments["city"], "condition": "晴", "note": "示例数据"}))
        for call in first.calls
    ]
    assert (
        plan_turn(question, [WEATHER_LIKE], results, now=NOW).answer
        == "北京明天晴；上海明天晴（示例数据）。"
    )


@pytest.mark.parametrize(
    "question, tools, expected_words, not_words",
    [
        # asked who it is, it says what it is, and where to configure a real model
        ("你好，你是谁？", [STOCK], ("规则引擎", "不是大语言模型", ".env"), ()),
        ("介绍一下你自己", [], ("规则引擎", ".env"), ()),
        ("Hello, who are you?", [STOCK], ("rule engine", "not an LLM", ".env"), ("规则",)),
        # a greeting or a thanks is answered in kind: the disclaimer is not repeated in every reply
        ("谢谢你", [STOCK, PARCEL], ("不客气",), ("规则引擎", "模拟器", ".env")),
        ("你好", [], ("你好",), ("规则引擎", "模拟器", ".env")),
        ("thanks!", [], ("welcome",), ("rule engine", "simulator", "规则")),
        # a task nothing can do says why, without the disclaimer
        ("17 乘以 9 等于多少？", [], ("没有提供工具", "做不了"), ("规则引擎", "模拟器")),
        ("我的快递到哪了？", [STOCK], ("1 个工具", "做不了"), ("规则引擎", "模拟器")),
        ("what is 17 times 9?", [], ("offers no tools", "cannot"), ("rule engine", "规则")),
        (
            "你好，帮我查一下北京明天的天气",
            [],
            ("你好", "没有提供工具", "做不了"),
            ("有什么需要帮忙",),
        ),
        # a statement that asks for nothing is acknowledged
        ("同行的同事是张伟和李娜。", [STOCK], ("知道了",), ("规则引擎", "模拟器", "工具")),
    ],
)
def test_small_talk_is_honest_in_one_or_two_sentences(question, tools, expected_words, not_words):
    reply = plan_turn(question, tools, [], now=NOW)
    assert reply.kind == "fallback" and reply.calls == []
    assert all(word in reply.answer for word in expected_words) and not any(
        word in reply.answer for word in not_words
    ), reply.answer
    assert len(sentences(reply.answer)) <= 2


def test_tool_choice_none_says_why_nothing_was_called():
    reply = plan_turn("AAPL 现在股价多少？", [STOCK], [], now=NOW, tool_choice="none")
    assert (
        reply.kind == "fallback"
        and "tool_choice" in reply.answer
        and len(sentences(reply.answer)) <= 2
    )


# ------------------------------------------------------------------------------------------------
# Generated tools and results: what no answer may contain
# ------------------------------------------------------------------------------------------------

_VERBS = [
    "get",
    "query",
    "fetch",
    "check",
    "list",
    "lookup",
    "find",
    "compute",
    "send",
    "create",
    "update",
    "sync",
    "probe",
]
_NOUNS = [
    "widget",
    "parcel",
    "ledger",
    "sensor",
    "invoice",
    "reservation",
    "badge",
    "locker",
    "shipment",
    "quota",
    "vault",
    "stock",
    "room",
    "device",
    "ticket",
    "meter",
    "garden",
    "fleet",
]
_FIELD_WORDS = [
    "status",
    "price",
    "count",
    "temp",
    "low",
    "high",
    "owner",
    "updated",
    "note",
    "level",
    "zone",
    "score",
    "label",
    "flux",
    "amount",
    "unit",
    "currency",
    "date",
    "time",
    "weekday",
    "items",
    "name",
    "id",
    "available",
    "is",
    "in",
    "stock",
    "remaining",
    "days",
    "speed",
    "km",
    "pct",
    "detail",
    "meta",
    "colour",
    "grip",
    "tally",
]
_ZH_VALUES = [
    "运行中",
    "已完成",
    "正常",
    "北区",
    "王小明",
    "市场部",
    "蓝色",
    "一级",
    "待处理",
    "高",
]
_EN_VALUES = [
    "running",
    "done",
    "normal",
    "north wing",
    "Alice",
    "blue",
    "level one",
    "pending",
    "ok",
    "alpha",
]
_DESCRIPTIONS_ZH = [
    "查询{n}的当前情况，返回状态和数值。",
    "获取指定{n}的详细信息，包括负责人和更新时间。",
    "统计{n}的数量并给出明细。",
]
_DESCRIPTIONS_EN = [
    "Look up the current state of a {n} and return its readings.",
    "Get details about a {n}, including owner and update time.",
    "Count the {n} entries and list them.",
]
_ZH_NOUN = {
    "widget": "部件",
    "parcel": "包裹",
    "ledger": "账本",
    "sensor": "传感器",
    "invoice": "发票",
    "reservation": "预约",
    "badge": "工牌",
    "locker": "储物柜",
    "shipment": "货运单",
    "quota": "配额",
    "vault": "保险库",
    "stock": "库存",
    "room": "房间",
    "device": "设备",
    "ticket": "工单",
    "meter": "电表",
    "garden": "花园",
    "fleet": "车队",
}


def _field_name(rng: random.Random, used: set[str]) -> str:
    while True:
        words = rng.sample(_FIELD_WORDS, rng.choice([1, 1, 2, 2, 3]))
        name = (
            "_".join(words)
            if rng.random() < 0.8
            else words[0] + "".join(w.title() for w in words[1:])
        )
        if name not in used:
            used.add(name)
            return name


def _value(rng: random.Random, lang: str, depth: int) -> Any:
    kind = rng.choice(
        ["int", "float", "text", "text", "date", "time", "datetime", "bool", "none", "code"]
        + (["list", "dict", "records"] if depth < 2 else [])
    )
    if kind == "int":
        return rng.choice([0, 1, 7, 42, 153, 2048, 123456, -5])
    if kind == "float":
        return rng.choice([0.5, 3.14, 7.2, 99.95, 0.048])
    if kind == "text":
        return rng.choice(_ZH_VALUES if lang == "zh" else _EN_VALUES)
    if kind == "date":
        return rng.choice(["2026-03-11", "2025-12-31"])
    if kind == "time":
        return rng.choice(["09:10", "18:45:30"])
    if kind == "datetime":
        return rng.choice(["2026-03-12 08:00", "2026-03-12T14:30:00Z"])
    if kind == "bool":
        return rng.random() < 0.5
    if kind == "none":
        return None
    if kind == "code":
        return rng.choice(["USD", "CNY", "EUR", "km", "celsius"])
    if kind == "list":
        return [_value(rng, lang, depth + 1) for _ in range(rng.randint(0, 7))]
    if kind == "records":
        return [_data(rng, lang, depth + 1) for _ in range(rng.randint(0, 3))]
    return _data(rng, lang, depth + 1)


def _data(rng: random.Random, lang: str, depth: int = 0) -> dict[str, Any]:
    used: set[str] = set()
    return {_field_name(rng, used): _value(rng, lang, depth) for _ in range(rng.randint(1, 6))}


def _case(seed: int) -> tuple[dict[str, Any], dict[str, Any], str, str, str, Any]:
    rng = random.Random(seed)
    lang = "zh" if seed % 2 else "en"
    noun = rng.choice(_NOUNS)
    name = f"{rng.choice(_VERBS)}_{noun}_{rng.choice(['info', 'state', 'report', 'v2', 'data'])}"
    description = rng.choice(_DESCRIPTIONS_ZH if lang == "zh" else _DESCRIPTIONS_EN).format(
        n=_ZH_NOUN[noun] if lang == "zh" else noun
    )
    properties = {
        "item_id": s("编号，例如 X1001" if lang == "zh" else "the id, e.g. X1001"),
        "region": s("区域，例如：北区" if lang == "zh" else "region, e.g. north"),
    }
    spec = tool(name, description, properties, ["item_id"])
    arguments = {"item_id": "X1001", "region": "北区" if lang == "zh" else "north"}
    question = (
        f"帮我看看 X1001 这个{_ZH_NOUN[noun]}的情况？"
        if lang == "zh"
        else f"What about {noun} X1001?"
    )
    shape = rng.choice(
        [
            "dict",
            "dict",
            "dict",
            "envelope",
            "list",
            "scalar",
            "error",
            "confirm",
            "denied",
            "string",
        ]
    )
    data: Any = _data(rng, lang)
    if shape == "dict":
        raw = json.dumps(data, ensure_ascii=False)
    elif shape == "envelope":
        raw = envelope(data)
    elif shape == "list":
        data = [_data(rng, lang, 1) for _ in range(rng.randint(0, 8))]
        raw = envelope(data)
    elif shape == "scalar":
        data = _value(rng, lang, 2)
        raw = envelope(data)
    elif shape == "error":
        data = rng.choice(
            ["设备离线，无法读取", "X1001 不存在：请检查编号"]
            if lang == "zh"
            else ["Error: sensor X1001 unreachable", "timeout"]
        )
        raw = envelope(error=data)
    elif shape == "confirm":
        data = {
            "status": "need_confirmation",
            "message": "即将修改 X1001 的配置" if lang == "zh" else "about to change X1001",
        }
        raw = json.dumps(data, ensure_ascii=False)
    elif shape == "denied":
        data = "用户拒绝了此操作：不需要" if lang == "zh" else "Permission denied for X1001"
        raw = envelope(error=data)
    else:
        data = rng.choice(
            ["一切正常", "读数都在范围内。"]
            if lang == "zh"
            else ["All readings are within range.", "OK"]
        )
        raw = json.dumps(data, ensure_ascii=False)
    return spec, arguments, question, raw, lang, data


def _field_names(data: Any) -> set[str]:
    names: set[str] = set()
    if isinstance(data, dict):
        for key, value in data.items():
            names.add(key)
            names |= _field_names(value)
    elif isinstance(data, list):
        for item in data:
            names |= _field_names(item)
    return names


def _scalars(data: Any) -> list[str]:
    if isinstance(data, dict):
        return [v for value in data.values() for v in _scalars(value)]
    if isinstance(data, list):
        return [v for item in data for v in _scalars(item)]
    if isinstance(data, str):
        return [data]
    return []


@pytest.mark.parametrize("seed", range(400))
def test_generated_answers_never_dump_fields_or_quote_the_description(seed):
    spec, arguments, question, raw, lang, data = _case(seed)
    call = PlannedCall(spec["name"], arguments)
    final = plan_turn(question, [spec], [(call, raw)], now=NOW, tool_choice="none")
    text = final.answer
    assert final.kind == "final" and text and text[-1] in "。.？?！!", text
    assert (
        text == plan_turn(question, [spec], [(call, raw)], now=NOW, tool_choice="none").answer
    )  # deterministic
    description = spec["description"]
    assert description not in text and description.rstrip("。.") not in text
    first_clause = re.split(r"[，,。.]", description)[0]
    assert first_clause not in text, (first_clause, text)
    for name in _field_names(data):
        assert not re.search(rf"(?<![A-Za-z0-9_]){re.escape(name)}\s*[:：=]", text, re.I), (
            name,
            text,
        )
    assert not re.search(r"[{}\[\]]|\bNone\b|\bnull\b|\bTrue\b|\bFalse\b", text), text
    if lang == "en" and not CJK.search(raw):
        assert not CJK.search(text), text  # an English request gets English words
    if lang == "zh":
        assert CJK.search(text), text
    for value in set(_scalars(data)):  # no value said more often than the data and the call say it
        if len(value) >= 4:
            allowed = (
                _scalars(data).count(value)
                + list(arguments.values()).count(value)
                + question.count(value)
            )
            assert text.count(value) <= allowed, (value, text)


def test_generated_cases_cover_every_status():
    statuses = {read_result(_case(seed)[3]).status for seed in range(400)}
    assert statuses == {"ok", "error", "confirm", "denied"}


def test_older_entry_points_write_the_same_clauses():
    from handwritten_agent.course.offline.simulator.answer import compose_final, result_line

    line = result_line(
        STOCK, {"symbol": "AAPL"}, read_result(envelope({"price": 189.5, "currency": "USD"})), "zh"
    )
    assert line == "股票代码 AAPL 的股价为 189.5 美元"
    assert (
        compose_final([line, "17 乘以 9 等于 153", line], ["还差一步"], "zh")
        == "股票代码 AAPL 的股价为 189.5 美元；17 乘以 9 等于 153。\n还差一步。"
    )


def test_compose_answer_is_general_over_items():
    # the composer takes any tool's spec and result: nothing in it names a course tool
    spec = tool("probe_vault_v2", "探测保险库。", {"vault": s("保险库编号，例如 V7")})
    items = [
        AnswerItem(
            spec,
            {"vault": "V7"},
            read_result(envelope({"vault": "V7", "locked": True, "temp_c": 18})),
            "",
            "V7 锁上了吗",
        )
    ]
    assert compose_answer(items, [], "zh") == "保险库编号 V7 已锁定，温度 18 摄氏度。"
    items = [
        AnswerItem(
            spec,
            {"vault": "V7"},
            read_result(envelope({"vault": "V7", "locked": False})),
            "",
            "V7 锁上了吗",
        )
    ]
    assert (
        compose_answer(items, ["还有一件事没做"], "zh")
        == "保险库编号 V7 未锁定。\n还有一件事没做。"
    )
