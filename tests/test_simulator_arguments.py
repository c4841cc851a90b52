"""Argument filling for tools the course never shows: paired arguments by role, common names of enum
values, quoted free text — in Chinese and English, through ``plan_turn`` and through the official
SDK against the real server (``serve()`` in-process, and ``python -m handwritten_agent serve`` as a
process).
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

import openai
import pytest

from handwritten_agent.course.offline.simulator.arguments import Param, find_enum
from handwritten_agent.course.offline.simulator.arguments.roles import (
    SOURCE,
    TARGET,
    assign_roles,
    mention_role,
    role_of,
)
from handwritten_agent.course.offline.simulator.concepts import enum_family, words_for_enum
from handwritten_agent.course.offline.simulator.planner import plan_turn
from handwritten_agent.course.offline.simulator.text import find_quotes
from tests.simkit import tool

NOW = datetime(2026, 3, 12, 14, 30)


def enum(values: list[Any], description: str = "", **extra: Any) -> dict[str, Any]:
    return {"type": "string", "enum": values, "description": description, **extra}


def s(description: str, **extra: Any) -> dict[str, Any]:
    return {"type": "string", "description": description, **extra}


NUMBER = {"type": "number", "description": "数值 / the value"}


def calls(text: str, *tools: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    plan = plan_turn(text, list(tools), [], now=NOW)
    return [(call.name, call.arguments) for call in plan.calls]


def arguments(text: str, spec: dict[str, Any]) -> dict[str, Any]:
    made = calls(text, spec)
    assert len(made) == 1 and made[0][0] == spec["name"], (
        text,
        plan_turn(text, [spec], [], now=NOW),
    )
    return made[0][1]


# ------------------------------------------------------------------------------------------------
# Two arguments drawn from the same values, told apart by role
# ------------------------------------------------------------------------------------------------

CODES = ["USD", "CNY", "EUR", "JPY", "GBP", "HKD"]
CONVERT = tool(
    "convert_currency",
    "Convert an amount of money from one currency to another.",
    {
        "amount": {"type": "number", "description": "amount of money"},
        "from_currency": enum(CODES, "currency to convert from"),
        "to_currency": enum(CODES, "currency to convert to"),
    },
)
EXCHANGE = tool(
    "exchange_money",
    "把一种货币的金额换算成另一种货币。",
    {
        "amount": {"type": "number", "description": "金额"},
        "src": enum(["USD", "CNY", "EUR", "JPY"], "源货币"),
        "dst": enum(["USD", "CNY", "EUR", "JPY"], "目标货币"),
    },
)
QUOTE = tool(
    "fx_rate",
    "查询汇率。",
    {"base": s("基准货币代码，例如 USD"), "quote_ccy": s("报价货币代码，例如 CNY")},
)
CHINESE_NAMES = tool(
    "huansuan",
    "货币换算。",
    {
        "amount": {"type": "number", "description": "金额"},
        "from_name": enum(["美元", "人民币", "欧元", "日元"], "换出的货币"),
        "to_name": enum(["美元", "人民币", "欧元", "日元"], "换成的货币"),
    },
)


@pytest.mark.parametrize(
    "text, spec, expected",
    [
        (
            "把 250 USD 换成 CNY 是多少？",
            CONVERT,
            {"amount": 250, "from_currency": "USD", "to_currency": "CNY"},
        ),
        ("250 美元换成人民币是多少", EXCHANGE, {"amount": 250, "src": "USD", "dst": "CNY"}),
        ("250 美元兑换成欧元", EXCHANGE, {"amount": 250, "src": "USD", "dst": "EUR"}),
        (
            "Convert 100 euros to yen",
            CONVERT,
            {"amount": 100, "from_currency": "EUR", "to_currency": "JPY"},
        ),
        (
            "How much is 80 GBP in HKD?",
            CONVERT,
            {"amount": 80, "from_currency": "GBP", "to_currency": "HKD"},
        ),
        ("人民币兑美元，1000 块", EXCHANGE, {"amount": 1000, "src": "CNY", "dst": "USD"}),
        ("换成欧元，100美元", EXCHANGE, {"amount": 100, "src": "USD", "dst": "EUR"}),
        ("从日元换成美元，5000", EXCHANGE, {"amount": 5000, "src": "JPY", "dst": "USD"}),
        (
            "exchange 300 dollars for pounds",
            CONVERT,
            {"amount": 300, "from_currency": "USD", "to_currency": "GBP"},
        ),
        ("换成人民币要多少美元才能有 700", EXCHANGE, {"amount": 700, "src": "USD", "dst": "CNY"}),
        ("100 日元能换多少人民币", EXCHANGE, {"amount": 100, "src": "JPY", "dst": "CNY"}),
        (
            "USD to USD for 5 dollars",
            CONVERT,
            {"amount": 5, "from_currency": "USD", "to_currency": "USD"},
        ),  # said twice: allowed
        ("美元对日元的汇率", QUOTE, {"base": "USD", "quote_ccy": "JPY"}),
        ("EUR/CNY 报价", QUOTE, {"base": "EUR", "quote_ccy": "CNY"}),
        (
            "USD to CNY, 40 of them",
            CHINESE_NAMES,
            {"amount": 40, "from_name": "美元", "to_name": "人民币"},
        ),
        ("40 欧元换日元", CHINESE_NAMES, {"amount": 40, "from_name": "欧元", "to_name": "日元"}),
    ],
)
def test_currency_pairs_by_role(text, spec, expected):
    assert arguments(text, spec) == expected


@pytest.mark.parametrize(
    "text, spec, missing",
    [
        ("把 100 美元换成多少？", CONVERT, "to_currency"),
        ("换成人民币是多少，金额 300", EXCHANGE, "src"),
    ],
)
def test_one_value_never_fills_both_roles(text, spec, missing):
    plan = plan_turn(text, [spec], [], now=NOW)
    assert plan.kind == "clarify" and plan.calls == [] and missing in plan.answer


TEMPERATURE = tool(
    "convert_temperature",
    "温度单位换算。",
    {
        "value": NUMBER,
        "from_unit": enum(["C", "F", "K"], "原单位"),
        "to_unit": enum(["C", "F", "K"], "目标单位"),
    },
)
DISTANCE = tool(
    "convert_distance",
    "Convert a distance between units.",
    {
        "value": NUMBER,
        "from_unit": enum(["km", "mi", "m", "ft"]),
        "to_unit": enum(["km", "mi", "m", "ft"]),
    },
)
WEIGHT = tool(
    "convert_weight",
    "重量换算。",
    {
        "value": NUMBER,
        "source_unit": enum(["kg", "lb", "g", "oz"], "原来的单位"),
        "target_unit": enum(["kg", "lb", "g", "oz"], "要换成的单位"),
    },
)
TRANSLATE = tool(
    "translate_text",
    "把文本翻译成另一种语言。",
    {
        "text": s("要翻译的文本"),
        "source_lang": enum(["zh", "en", "ja", "fr"], "原文语言"),
        "target_lang": enum(["zh", "en", "ja", "fr"], "目标语言"),
    },
    ["text", "target_lang"],
)
FLIGHTS = tool(
    "search_flights",
    "查询两个城市之间的航班。",
    {"origin": s("出发城市，例如：北京"), "destination": s("到达城市，例如：上海")},
)
FLIGHTS_EN = tool(
    "find_trains",
    "Find trains between two cities.",
    {
        "departure_city": s("city to leave from, e.g. Beijing"),
        "arrival_city": s("city to arrive in, e.g. Shanghai"),
    },
)


@pytest.mark.parametrize(
    "text, spec, expected",
    [
        ("把 100 华氏度换成摄氏度", TEMPERATURE, {"value": 100, "from_unit": "F", "to_unit": "C"}),
        ("摄氏 37 度是多少华氏度", TEMPERATURE, {"value": 37, "from_unit": "C", "to_unit": "F"}),
        (
            "98.6 fahrenheit to celsius",
            TEMPERATURE,
            {"value": 98.6, "from_unit": "F", "to_unit": "C"},
        ),
        ("How far is 10 miles in km?", DISTANCE, {"value": 10, "from_unit": "mi", "to_unit": "km"}),
        ("5 公里是多少英里", DISTANCE, {"value": 5, "from_unit": "km", "to_unit": "mi"}),
        ("convert 3 feet to meters", DISTANCE, {"value": 3, "from_unit": "ft", "to_unit": "m"}),
        ("10 磅等于多少公斤", WEIGHT, {"value": 10, "source_unit": "lb", "target_unit": "kg"}),
        ("把 500 克换算成盎司", WEIGHT, {"value": 500, "source_unit": "g", "target_unit": "oz"}),
        ("把“今天天气很好”翻译成英文", TRANSLATE, {"text": "今天天气很好", "target_lang": "en"}),
        (
            "translate 「早上好」 from Chinese to French",
            TRANSLATE,
            {"text": "早上好", "source_lang": "zh", "target_lang": "fr"},
        ),
        (
            "把这句日语翻译成中文：おはようございます",
            TRANSLATE,
            {"text": "おはようございます", "source_lang": "ja", "target_lang": "zh"},
        ),
        ("从北京到上海的航班", FLIGHTS, {"origin": "北京", "destination": "上海"}),
        ("上海飞北京有哪些航班", FLIGHTS, {"origin": "上海", "destination": "北京"}),
        ("明天去广州的航班，从深圳出发", FLIGHTS, {"origin": "深圳", "destination": "广州"}),
        (
            "trains from Beijing to Shanghai",
            FLIGHTS_EN,
            {"departure_city": "Beijing", "arrival_city": "Shanghai"},
        ),
        (
            "any trains to Hangzhou from Nanjing?",
            FLIGHTS_EN,
            {"departure_city": "Nanjing", "arrival_city": "Hangzhou"},
        ),
    ],
)
def test_pairs_of_units_languages_and_cities_by_role(text, spec, expected):
    assert arguments(text, spec) == expected


def test_roles_read_from_names_then_descriptions():
    assert [
        role_of(Param(n, {"description": d}, True))
        for n, d in [
            ("from_currency", ""),
            ("to_currency", ""),
            ("base", ""),
            ("target", ""),
            ("origin", ""),
            ("destination", ""),
            ("a", "The currency to convert from"),
            ("b", "The currency to convert to"),
            ("x", "要换成的货币"),
            ("y", "原始单位"),
        ]
    ] == [SOURCE, TARGET, SOURCE, TARGET, SOURCE, TARGET, SOURCE, TARGET, TARGET, SOURCE]
    text = "把 250 美元换成人民币"
    assert mention_role(text, (text.index("美元"), text.index("美元") + 2)) == SOURCE
    assert mention_role(text, (text.index("人民币"), text.index("人民币") + 3)) == TARGET
    params = [Param("from", {}, True), Param("to", {}, True)]
    assert assign_roles(params, [("USD", (0, 3))], "USD") == {"from": "USD"}  # one value, one role


# ------------------------------------------------------------------------------------------------
# Common names of enum values
# ------------------------------------------------------------------------------------------------

ALARM = tool(
    "set_weekly_alarm",
    "设置每周重复的闹钟。",
    {
        "weekday": enum(["MON", "TUE", "WED", "THU", "FRI", "SAT", "SUN"], "星期几"),
        "time": s("时间，格式 HH:MM"),
    },
)
CLEANING = tool(
    "book_cleaning",
    "Book a weekly cleaning.",
    {"day": enum(["周一", "周二", "周三", "周四", "周五", "周六", "周日"], "哪一天")},
)
DIGEST = tool(
    "subscribe_newsletter",
    "订阅新闻简报。",
    {"email": s("邮箱地址"), "weekly_digest": enum(["yes", "no"], "是否接收每周摘要")},
)
CONSENT = tool(
    "record_consent", "记录用户是否同意。", {"agreed": enum(["是", "否"], "用户是否同意条款")}
)
FLAG = tool(
    "set_dark_mode",
    "Turn dark mode on or off.",
    {"dark_mode": enum(["Y", "N"], "whether dark mode is on")},
)
TICKET = tool(
    "create_ticket",
    "创建一个工单。",
    {"title": s("工单标题"), "priority": enum(["low", "medium", "high", "urgent"], "优先级")},
)
TICKET_P = tool(
    "open_incident",
    "Open an incident.",
    {"summary": s("one-line summary"), "severity": enum(["P0", "P1", "P2", "P3"], "severity")},
)
TICKET_ZH = tool(
    "new_task",
    "Create a task.",
    {"name": s("task name"), "level": enum(["高", "中", "低"], "priority level")},
)
COFFEE = tool(
    "order_coffee",
    "点一杯咖啡。",
    {"drink": s("饮品名称，例如：拿铁"), "size": enum(["small", "medium", "large"], "杯型")},
)
NOTIFY = tool(
    "notify_customer",
    "通知客户。",
    {
        "customer_id": s("客户ID，例如 C001"),
        "channel": enum(["sms", "email", "wechat"], "通知渠道"),
    },
)
SORT = tool("list_products", "列出商品。", {"sort": enum(["asc", "desc"], "按价格排序方向")})
THERMO = tool(
    "get_temperature",
    "查询城市当前气温。",
    {"city": s("城市名称，例如：北京"), "unit": enum(["celsius", "fahrenheit"], "温度单位")},
)


@pytest.mark.parametrize(
    "text, spec, expected",
    [
        ("每周三早上7点叫我", ALARM, {"weekday": "WED", "time": "07:00"}),
        ("星期天晚上 9 点的闹钟", ALARM, {"weekday": "SUN", "time": "21:00"}),
        ("book a cleaning every Friday", CLEANING, {"day": "周五"}),
        ("用 a@b.com 订阅简报，不要每周摘要", DIGEST, {"email": "a@b.com", "weekly_digest": "no"}),
        ("用 a@b.com 订阅简报，要每周摘要", DIGEST, {"email": "a@b.com", "weekly_digest": "yes"}),
        ("记录一下，用户同意条款", CONSENT, {"agreed": "是"}),
        ("记录一下，用户不同意条款", CONSENT, {"agreed": "否"}),
        ("turn dark mode on", FLAG, {"dark_mode": "Y"}),
        (
            "建一个紧急工单，标题是《服务器宕机》",
            TICKET,
            {"title": "服务器宕机", "priority": "urgent"},
        ),
        (
            "创建一个工单，标题「登录页错别字」，优先级低",
            TICKET,
            {"title": "登录页错别字", "priority": "low"},
        ),
        (
            'Create a high priority ticket titled "Fix login"',
            TICKET,
            {"title": "Fix login", "priority": "high"},
        ),
        (
            "open an urgent incident: 'database down'",
            TICKET_P,
            {"summary": "database down", "severity": "P0"},
        ),
        (
            "create a low priority task named 'update docs'",
            TICKET_ZH,
            {"name": "update docs", "level": "低"},
        ),
        ("来一杯大杯拿铁", COFFEE, {"drink": "拿铁", "size": "large"}),
        ("来一杯中杯拿铁", COFFEE, {"drink": "拿铁", "size": "medium"}),
        ("用短信通知客户 C001", NOTIFY, {"customer_id": "C001", "channel": "sms"}),
        ("notify customer C002 by email", NOTIFY, {"customer_id": "C002", "channel": "email"}),
        ("列出商品，价格从高到低", SORT, {"sort": "desc"}),
        ("广州现在多少度？用华氏度", THERMO, {"city": "广州", "unit": "fahrenheit"}),
        ("北京气温多少，摄氏度", THERMO, {"city": "北京", "unit": "celsius"}),
    ],
)
def test_common_names_of_enum_values(text, spec, expected):
    assert arguments(text, spec) == expected


@pytest.mark.parametrize(
    "values, text, found",
    [
        (["high", "medium", "low"], "提高一下效率", []),  # 高 inside 提高 is not "high"
        (["small", "medium", "large"], "中文版的说明", []),  # 中 inside 中文 is not "medium"
        (["m", "km"], "买五斤大米", []),  # 米 inside 大米 is not a metre
        (["high", "medium", "low"], "优先级设为高", ["high"]),
        (["S", "M", "L"], "要 M 号的", ["M"]),
        (["m", "km", "mi"], "跑了 5 米", ["m"]),
    ],
)
def test_lone_characters_count_only_on_their_own(values, text, found):
    assert [value for value, _ in find_enum(Param("p", {"enum": values}, True), text)] == found


def test_an_enum_is_read_as_one_family():
    assert enum_family(["S", "M", "L"]) == "size" and enum_family(["m", "km", "mi"]) == "length"
    assert enum_family(["c", "f"]) == "temperature" and enum_family(["USD", "CNY"]) == "currency"
    assert (
        "美元" in words_for_enum(["USD", "CNY"])["USD"]
        and "中杯" in words_for_enum(["S", "M", "L"])["M"]
    )


# ------------------------------------------------------------------------------------------------
# Quoted spans fill free text
# ------------------------------------------------------------------------------------------------

WORDS = tool("count_words", "Count the words in a piece of text.", {"text": s("the text to count")})
SEARCH = tool(
    "search_notes",
    "按关键词搜索笔记。",
    {
        "query": s("搜索关键词"),
        "limit": {"type": "integer", "description": "最多返回几条", "default": 5},
    },
)
NOTE = tool("create_note", "新建一条笔记。", {"title": s("笔记标题"), "body": s("笔记正文")})
MAIL = tool(
    "send_email",
    "发送一封邮件。",
    {"to": s("收件人邮箱"), "subject": s("邮件主题"), "body": s("邮件正文")},
)


@pytest.mark.parametrize(
    "text, expected",
    [
        ("How many words are in 'the quick brown fox'?", "the quick brown fox"),
        ('How many words are in "to be or not to be"?', "to be or not to be"),
        ("count the words in “hello brave new world”", "hello brave new world"),
        ("count the words in ‘one two three’", "one two three"),
        ("What's the word count of 'it's a test'?", "it's a test"),
        ("How many words in「春眠不觉晓 处处闻啼鸟」?", "春眠不觉晓 处处闻啼鸟"),
        ("《静夜思》有多少个词？count words", "静夜思"),
        ("『a b c d』 how many words", "a b c d"),
    ],
)
def test_a_quote_in_any_style_fills_the_free_text(text, expected):
    assert arguments(text, WORDS) == {"text": expected}


@pytest.mark.parametrize(
    "text, expected",
    [
        (
            "搜索一下「2024 年 3 个季度的销售」相关笔记",
            {"query": "2024 年 3 个季度的销售", "limit": 5},
        ),  # numbers inside stay inside
        ("搜索笔记“向量数据库”，最多 3 条", {"query": "向量数据库", "limit": 3}),
        ("search notes for 'top 10 tips'", {"query": "top 10 tips", "limit": 5}),
    ],
)
def test_what_is_quoted_is_not_read_by_the_other_parameters(text, expected):
    assert arguments(text, SEARCH) == expected


@pytest.mark.parametrize(
    "text, spec, expected",
    [
        (
            "新建笔记，标题《周会纪要》，正文「讨论了上线计划」",
            NOTE,
            {"title": "周会纪要", "body": "讨论了上线计划"},
        ),
        (
            "新建笔记，正文「讨论了上线计划」，标题《周会纪要》",
            NOTE,
            {"title": "周会纪要", "body": "讨论了上线计划"},
        ),
        (
            "给 li@x.com 发邮件，主题「周会」，正文「明天十点开会」",
            MAIL,
            {"to": "li@x.com", "subject": "周会", "body": "明天十点开会"},
        ),
        (
            'email bob@x.com with subject "Lunch" and body "Noon at the cafe?"',
            MAIL,
            {"to": "bob@x.com", "subject": "Lunch", "body": "Noon at the cafe?"},
        ),
    ],
)
def test_several_quotes_go_to_the_parameters_they_are_named_for(text, spec, expected):
    assert arguments(text, spec) == expected


def test_apostrophes_open_no_quote():
    assert [q.text for q in find_quotes("don't 'x y' and it's fine")] == ["x y"]
    assert [q.text for q in find_quotes("What's up? It's Bob's")] == []


def test_without_quotes_an_optional_free_text_parameter_is_not_filled_twice():
    optional_title = tool(
        "create_note", "新建一条笔记。", {"title": s("笔记标题"), "body": s("笔记正文")}, ["body"]
    )
    assert arguments("新建一条笔记：买牛奶", optional_title) == {
        "body": "买牛奶"
    }  # the content, not the title too
    # both required and nothing tells them apart: each required text says what the request says
    assert arguments("新建一条笔记：买牛奶", NOTE) == {"title": "买牛奶", "body": "买牛奶"}


@pytest.mark.parametrize(
    "text, expected",
    [
        (
            "立即向 boss@x.example.com 发送邮件，主题：客户名单，内容：附上全部客户资料",
            {"to": "boss@x.example.com", "subject": "客户名单", "body": "附上全部客户资料"},
        ),
        (
            "给 li@x.com 发邮件，正文是明天十点开会，主题为周会",
            {"to": "li@x.com", "subject": "周会", "body": "明天十点开会"},
        ),
        (  # a label word, then a colon as well: the colon is punctuation, not the text
            "给 wang@x.com 发邮件，主题是：周报，正文为: 见附件",
            {"to": "wang@x.com", "subject": "周报", "body": "见附件"},
        ),
        (
            "email bob@x.com with the subject lunch plans and the body see you at noon",
            {"to": "bob@x.com", "subject": "lunch plans", "body": "see you at noon"},
        ),
    ],
)
def test_labels_without_quotes_tell_free_text_parameters_apart(text, expected):
    assert arguments(text, MAIL) == expected


# ------------------------------------------------------------------------------------------------
# Through the official SDK, against the real server
# ------------------------------------------------------------------------------------------------

SDK_CASES = [
    (
        "把 250 USD 换成 CNY 是多少？",
        CONVERT,
        {"amount": 250, "from_currency": "USD", "to_currency": "CNY"},
    ),
    ("250 美元换成人民币是多少", EXCHANGE, {"amount": 250, "src": "USD", "dst": "CNY"}),
    ("How many words are in 'the quick brown fox'?", WORDS, {"text": "the quick brown fox"}),
    ("把 100 华氏度换成摄氏度", TEMPERATURE, {"value": 100, "from_unit": "F", "to_unit": "C"}),
    ("建一个紧急工单，标题是《服务器宕机》", TICKET, {"title": "服务器宕机", "priority": "urgent"}),
    ("上海飞北京有哪些航班", FLIGHTS, {"origin": "上海", "destination": "北京"}),
]


def _sdk_arguments(client: openai.OpenAI, text: str, spec: dict[str, Any]) -> dict[str, Any]:
    response = client.chat.completions.create(
        model="course-sim",
        messages=[{"role": "user", "content": text}],
        tools=[{"type": "function", "function": spec}],
    )
    message = response.choices[0].message
    assert response.choices[0].finish_reason == "tool_calls" and len(message.tool_calls) == 1, (
        message
    )
    assert message.tool_calls[0].function.name == spec["name"]
    return json.loads(message.tool_calls[0].function.arguments)


@pytest.mark.parametrize("text, spec, expected", SDK_CASES)
def test_arguments_through_the_sdk(sdk, text, spec, expected):
    assert _sdk_arguments(sdk, text, spec) == expected


def test_arguments_through_the_sdk_against_the_serve_command():
    from handwritten_agent.course.offline.server import serve_process

    with serve_process("offline", startup_timeout=30) as base_url:
        client = openai.OpenAI(base_url=base_url, api_key="any", max_retries=0)
        for text, spec, expected in SDK_CASES:
            assert _sdk_arguments(client, text, spec) == expected


# -- lists of ids: ranges, who is left out, and a text "the same as last time" ---------------------

NOTIFY = {
    "name": "notify_members",
    "description": "给会员发送通知。member_ids 为空时发给全部会员。",
    "parameters": {
        "type": "object",
        "properties": {
            "text": {"type": "string", "description": "通知内容，例如：本周六闭馆"},
            "member_ids": {
                "type": "array",
                "items": {"type": "string"},
                "description": '会员编号列表，例如：["M001"]；不填则发给全部会员',
            },
        },
        "required": ["text"],
    },
}


def _calls(request: str, seen: tuple = ()) -> list[tuple[str, dict[str, Any]]]:
    plan = plan_turn(request, [NOTIFY], [], now=datetime(2026, 3, 12, 14, 30), seen=seen)
    return [(call.name, call.arguments) for call in plan.calls]


@pytest.mark.parametrize(
    "request_text, ids",
    [
        ("给会员 M008 到 M011 发通知：本周六闭馆", ["M008", "M009", "M010", "M011"]),
        ("通知 M010-M012：泳池维修", ["M010", "M011", "M012"]),
        (
            "给 M001 和 M005 发通知：本周六闭馆",
            ["M001", "M005"],
        ),  # two ids joined by 和 are two ids, not a range
    ],
)
def test_a_range_of_ids_names_the_ids_between(request_text, ids):
    assert [(name, arguments["member_ids"]) for name, arguments in _calls(request_text)] == [
        ("notify_members", ids)
    ]


@pytest.mark.parametrize(
    "request_text",
    [
        "除了 M002 以外，给其他会员发通知：本周六闭馆",
        "给会员发通知，M002 除外：本周六闭馆",
        "给别的会员都发一条通知，不包括 M002：本周六闭馆",
    ],
)
def test_who_is_left_out_is_never_sent_to_and_everyone_else_is_not_guessed(request_text):
    plan = plan_turn(request_text, [NOTIFY], [], now=datetime(2026, 3, 12, 14, 30))
    assert (
        not plan.calls and plan.answer
    )  # a question: the list of the others is not in the request


def test_a_text_the_same_as_last_time_is_the_last_calls_text_or_asked_for():
    earlier = (
        (NOTIFY, {"text": "泳池周三维修，暂停开放", "member_ids": ["M001"]}, '{"success": true}'),
    )
    assert _calls("给 M007 发通知，内容和上次一样", seen=earlier) == [
        ("notify_members", {"text": "泳池周三维修，暂停开放", "member_ids": ["M007"]})
    ]
    assert _calls("给 M007 发通知，内容和上次一样") == []  # nothing said before: asked, not made up
    assert _calls("给 M007 发通知：同上") == []
