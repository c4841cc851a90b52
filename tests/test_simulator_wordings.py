"""The simulator on wordings of kinds it was not shown, over the office tools and over a bike-repair
desk it has never met (English descriptions for some tools, pinyin names for others).

Each kind is checked by what is called and with which arguments, or by what the reply does not
claim: a stated length gives the end time; an hour that could be morning or evening is asked about;
an e-mail address ends where the ASCII ends; a label with a verb of saying introduces the content;
a request to look something up reaches the one lookup that takes its value; and a sentence shaped
like an order is never acknowledged as a statement.
"""

from __future__ import annotations

import json
import re
import tempfile
from datetime import datetime
from typing import Any

import pytest

from handwritten_agent.course.offline.backend import ChatRequest
from handwritten_agent.course.offline.simulator import CourseSimulator
from handwritten_agent.course.offline.simulator.dates import (
    ambiguous_times,
    find_duration,
    morning_by_default,
)
from handwritten_agent.course.offline.simulator.planner import plan_turn
from handwritten_agent.scenarios.office.tools import office_tools
from handwritten_agent.tools import ToolRegistry
from tests.simkit import fn, run_request

NOW = datetime(2026, 3, 12, 14, 30)  # a Thursday afternoon
OFFICE = ToolRegistry(office_tools(tempfile.mktemp(suffix=".db"), "E001")).schemas()
ACKNOWLEDGED = re.compile(r"知道了|记下了|noted", re.I)
NO_TOOL = re.compile(r"没有能做这件事|none of the \d+ tools")


def text(description: str) -> dict[str, str]:
    return {"type": "string", "description": description}


BIKE = [
    fn(
        "book_repair",
        "Book a repair bench for a time slot. Side effect: creates a booking.",
        {
            "bench": text("bench id like BN12"),
            "start": text("start time, format YYYY-MM-DD HH:MM"),
            "end": text("end time, format YYYY-MM-DD HH:MM"),
        },
    ),
    fn(
        "quxiao_weixiu", "取消一个维修单，需要维修单号", {"order_id": text("维修单号，例如 WX1024")}
    ),
    fn(
        "check_parts",
        "Check whether a spare part is in stock (read only)",
        {"part": text("part name, e.g. 内胎")},
    ),
    fn(
        "lookup_order",
        "Look up a repair order by its id, e.g. WX1024 (read only)",
        {"order_id": text("repair order id like WX1024")},
    ),
]


def plan(request: str, tools: list[dict[str, Any]]):
    return plan_turn(request, tools, [], now=NOW)


def calls(request: str, tools: list[dict[str, Any]]) -> list[tuple[str, dict[str, Any]]]:
    return [(call.name, call.arguments) for call in plan(request, tools).calls]


# -- lengths ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "said, minutes",
    [
        ("开一个小时", 60),
        ("一个半钟头", 90),
        ("半个小时", 30),
        ("两个小时", 120),
        ("大概 45 分钟", 45),
        ("1.5 小时", 90),
        ("1小时20分钟", 80),
        # an offset from now, a rate, an ordinal, two lengths: no length of the event
        ("两小时后提醒我", None),
        ("提前一个小时到", None),
        ("每小时一班", None),
        ("第一个小时", None),
        ("先开一小时，再开两小时", None),
    ],
)
def test_a_length_is_read_once_and_only_as_a_length(said, minutes):
    assert find_duration(said) == minutes


@pytest.mark.parametrize(
    "request_text, start, end",
    [
        ("BN12 明天下午三点订上，修两个钟头", "2026-03-13 15:00", "2026-03-13 17:00"),
        ("下周一上午十点半给我订 BN12，半个小时就够", "2026-03-16 10:30", "2026-03-16 11:00"),
        ("reserve BN12 tomorrow 3pm for 90 分钟", "2026-03-13 15:00", "2026-03-13 16:30"),
    ],
)
def test_a_stated_length_gives_the_end_time(request_text, start, end):
    assert calls(request_text, BIKE) == [
        ("book_repair", {"bench": "BN12", "start": start, "end": end})
    ]


def test_a_length_beside_two_times_does_not_override_them():
    made = calls("BN12 明天下午3点到4点订上，大概两个小时", BIKE)
    assert made and made[0][1]["end"] == "2026-03-13 16:00", made


# -- hours that could be morning or evening --------------------------------------------------------


def test_seven_alone_is_asked_and_nine_alone_is_morning():
    assert ambiguous_times("明天7点") and not morning_by_default("明天7点")
    assert morning_by_default("明天9点") and not ambiguous_times("明天9点")
    assert not morning_by_default("明天上午9点") and not morning_by_default("晚上9点")


@pytest.mark.parametrize(
    "request_text",
    ["BN12 明天7点订上，一个小时", "今天9点到10点订 BN12", "今天 11 点半订 BN12，修半小时"],
)
def test_an_hour_that_could_be_evening_is_asked_never_booked(request_text):
    reply = plan(request_text, BIKE)
    assert not reply.calls and reply.kind == "clarify", reply
    assert "上午还是晚上" in reply.answer, reply.answer


def test_a_bare_morning_hour_still_ahead_is_booked_in_the_morning():
    assert calls("明天9点到10点订 BN12", BIKE) == [
        ("book_repair", {"bench": "BN12", "start": "2026-03-13 09:00", "end": "2026-03-13 10:00"})
    ]


# -- a lookup before an action filters by the action's number ------------------------------------


def test_the_lookup_before_a_booking_asks_for_rooms_that_hold_the_people():
    made = calls("明天下午3点到4点帮我订个会议室，7个人开会", OFFICE)
    assert made and made[0][0] == "query_room_availability", made
    assert made[0][1]["min_capacity"] == 7, made


def test_a_capacity_the_user_states_is_kept():
    made = calls("明天下午3点到4点帮我订个能坐12人的会议室，8个人开会", OFFICE)
    assert made and made[0][1]["min_capacity"] == 12, made


# -- free text: addresses and labels ---------------------------------------------------------------


@pytest.mark.parametrize(
    "request_text, subject, content",
    [
        (
            "给zhao.min@example.com发封邮件，主题写“例会取消”，内容就说周一的例会取消了，改到周三",
            "例会取消",
            "周一的例会取消了,改到周三",
        ),
        (
            "发邮件给ann@x.org，标题写 Offsite moved，正文就写 The offsite is cancelled, see you.",
            "Offsite moved",
            "The offsite is cancelled, see you",
        ),
        ("Email ann@x.org with subject Lunch and body See you at noon", "Lunch", "See you at noon"),
    ],
)
def test_an_address_next_to_chinese_and_labels_with_a_verb_of_saying(
    request_text, subject, content
):
    made = calls(request_text, OFFICE)
    assert len(made) == 1 and made[0][0] == "send_notification_email", made
    arguments = made[0][1]
    assert re.fullmatch(r"[a-z.]+@[a-z.]+", arguments["to_address"]), arguments
    assert arguments["subject"] == subject and arguments["content"] == content, arguments


def test_say_a_word_is_not_the_content():
    made = calls("给zhao@example.com发个邮件说一下明天放假", OFFICE)
    assert made and made[0][1]["content"] == "明天放假", made


# -- a lookup is reached by what it takes ----------------------------------------------------------


@pytest.mark.parametrize(
    "request_text, tool, arguments",
    [
        ("查一下WX2001", "lookup_order", {"order_id": "WX2001"}),
        ("帮我看下 WX2001 修到哪一步了", "lookup_order", {"order_id": "WX2001"}),
        ("内胎还有货不？", "check_parts", {"part": "内胎"}),
        ("查一下内胎", "check_parts", {"part": "内胎"}),
    ],
)
def test_a_lookup_request_reaches_the_one_lookup_that_takes_its_value(
    request_text, tool, arguments
):
    assert calls(request_text, BIKE) == [(tool, arguments)]


@pytest.mark.parametrize("request_text", ["查一下刹车线", "看看 WX2001 的发票"])
def test_a_request_no_tool_fits_exactly_never_says_no_tool_fits_when_one_is_near(request_text):
    reply = plan(request_text, BIKE)
    assert not [c for c in reply.calls if c.name in ("book_repair", "quxiao_weixiu")], reply
    if not reply.calls:
        assert not ACKNOWLEDGED.search(reply.answer), reply.answer


# -- an order is never acknowledged ----------------------------------------------------------------


@pytest.mark.parametrize(
    "request_text, tools",
    [
        ("给自行车打个气", BIKE),
        ("BN12 明儿傍晚我占一下哈", BIKE),
        ("下周二上午十点，B501，开两个钟头，15个人", OFFICE),
        ("要是 WX2001 修好了就帮我通知车主", BIKE),
        ("把那台车的链条换了吧", BIKE),
    ],
)
def test_a_sentence_shaped_like_an_order_is_never_acknowledged(request_text, tools):
    reply = plan(request_text, tools)
    assert not ACKNOWLEDGED.search(reply.answer or ""), reply.answer
    assert not [c for c in reply.calls if c.name in ("book_repair", "quxiao_weixiu")], reply


@pytest.mark.parametrize("request_text", ["同行的同事是张伟和李娜。", "我叫王小明"])
def test_a_plain_statement_is_still_acknowledged(request_text):
    reply = plan(request_text, BIKE)
    assert not reply.calls and ACKNOWLEDGED.search(reply.answer), reply.answer


# -- conditions: numbers compared, yes-or-no questions, pronouns, the branch that does nothing ----

PARTS = [
    fn(
        "check_parts",
        "Check how many of a spare part are in stock (read only)",
        {"part": text("part name, e.g. 内胎")},
    ),
    fn(
        "dinggou_peijian",
        "订购配件：配件名、数量、单价",
        {
            "part": text("配件名称，例如 刹车片"),
            "qty": {"type": "integer", "description": "数量"},
            "unit_price": {"type": "number", "description": "单价（元）"},
        },
    ),
    fn(
        "tongzhi_kehu",
        "给客户发通知短信",
        {
            "customer_ids": {
                "type": "array",
                "items": {"type": "string"},
                "description": "客户编号列表，例如 K001",
            },
            "content": text("短信内容"),
        },
    ),
    fn(
        "find_customer",
        "Find a customer by id, e.g. K001: name, tier and loyalty points (read only)",
        {"customer_id": text("customer id like K001")},
    ),
]


def run(request: str, results: dict[str, Any]) -> tuple[list[tuple[str, dict[str, Any]]], str]:
    """The whole simulator over ``PARTS``; each tool answers with ``results[name]``."""

    def result_of(name: str, _arguments: dict[str, Any]) -> str:
        return json.dumps({"success": True, "data": results.get(name, {}), "error": None})

    return run_request(SIMULATOR, PARTS, request, result_of, turns=5)


SIMULATOR = CourseSimulator(now=NOW)
EFFECTS = ("dinggou_peijian", "tongzhi_kehu")


@pytest.mark.parametrize(
    "request_text, stock, acts",
    [
        ("如果内胎的库存少于 5 个，就订购内胎 10 个，单价 25", 2, True),
        ("如果内胎的库存少于 5 个，就订购内胎 10 个，单价 25", 8, False),
        ("看下内胎库存够不够 5 个？不够就算了，够就订购内胎 10 个，单价 25", 3, False),
    ],
)
def test_a_number_the_condition_compares_decides_it(request_text, stock, acts):
    made, answer = run(request_text, {"check_parts": {"part": "内胎", "stock": stock}})
    assert made and made[0][0] == "check_parts", made
    ordered = [args for name, args in made if name == "dinggou_peijian"]
    assert bool(ordered) == acts, (made, answer)
    if not acts:
        assert "不成立" in answer and "没有合适的工具" not in answer, answer


@pytest.mark.parametrize(
    "request_text, points, acts",
    [
        (
            "查下 K007 积分有没有超过 5000，超过了就给他发短信说可以兑换礼品，没超过就不用发",
            8200,
            True,
        ),
        (
            "查下 K007 积分有没有超过 5000，超过了就给他发短信说可以兑换礼品，没超过就不用发",
            3100,
            False,
        ),
        ("要是 K007 的积分不少于 3000，就通知她：积分可以兑换了；不然就算了", 3000, True),
    ],
)
def test_a_yes_or_no_question_then_its_answer_is_a_condition_and_he_is_the_one_named(
    request_text, points, acts
):
    customer = {"id": "K007", "name": "周敏", "tier": "silver", "points": points}
    made, answer = run(request_text, {"find_customer": customer})
    sent = [args for name, args in made if name == "tongzhi_kehu"]
    assert bool(sent) == acts, (made, answer)
    if acts:
        assert sent[0]["customer_ids"] == ["K007"], sent
    assert "没有合适的工具" not in answer, answer  # the branch that does nothing asks for nothing


@pytest.mark.parametrize(
    "request_text",
    ["K007 是不是金卡会员？是就给她发短信：感谢支持", "如果 K007 是金卡会员，就通知他：感谢支持"],
)
def test_a_condition_on_what_something_is_is_asked_when_the_value_is_in_other_words(request_text):
    customer = {"id": "K007", "name": "周敏", "tier": "silver", "points": 10}
    made, answer = run(request_text, {"find_customer": customer})
    assert not [name for name, _ in made if name in EFFECTS], (made, answer)
    assert "已发送" not in answer and "已通知" not in answer, answer


# -- purchases: a verb's synonym, a noun that begins with a verb's character, two items -----------


def test_a_synonym_of_the_tools_verb_chooses_it_and_a_noun_keeps_its_first_character():
    made = calls("买点东西：订书机三个，单价二十五，库存用完了", OFFICE)
    assert made == [
        (
            "submit_purchase_request",
            {"item": "订书机", "quantity": 3, "unit_price": 25, "reason": "库存用完了"},
        )
    ]


def test_a_generic_lead_is_no_reason():
    reply = plan("买点东西：订书机3个，单价25", OFFICE)
    assert not reply.calls and "原因" in reply.answer, reply


def test_two_items_in_chinese_numerals_are_two_purchases_each_with_its_own_values():
    messages: list[dict[str, Any]] = [
        {
            "role": "user",
            "content": "采购：订书机三个，单价二十五；回形针十盒，一盒八块。理由写耗材用完了",
        }
    ]
    reply = SIMULATOR.complete(ChatRequest(model="course-sim", messages=messages, tools=OFFICE))
    made = sorted(
        (json.loads(c["function"]["arguments"]) for c in reply.tool_calls or []),
        key=lambda a: a["item"],
    )
    assert [(a["item"], a["quantity"], a["unit_price"]) for a in made] == [
        ("回形针", 10, 8),
        ("订书机", 3, 25),
    ], made


# -- a library desk: an English tool reached in Chinese, a name by its description, an item -------

LIBRARY = [
    fn(
        "register_reader",
        "Register a new library reader with name, phone and birth year",
        {
            "name": text("reader's full name"),
            "phone": text("mobile phone number"),
            "birth_year": {"type": "integer", "description": "year of birth, e.g. 1990"},
        },
    ),
    fn(
        "fakuan_dengji",
        "登记读者缴纳的罚款：读者证号、项目、金额",
        {
            "reader_id": text("读者证号，例如 R001"),
            "item": text("收费项目，例如 逾期罚款"),
            "amount": {"type": "number", "description": "金额（元）"},
        },
    ),
    fn("renew_loan", "Renew a book loan by its loan id, e.g. LN5521", {"loan_id": text("loan id")}),
]


@pytest.mark.parametrize(
    "request_text, name, phone, year",
    [
        ("新读者办个证：李娜，手机13900001111，1995年生的", "李娜", "13900001111", 1995),
        ("给新读者注册一下：王磊，电话13800002222，1988年出生", "王磊", "13800002222", 1988),
    ],
)
def test_a_chinese_request_reaches_the_english_tool_with_the_name_its_description_asks_for(
    request_text, name, phone, year
):
    assert calls(request_text, LIBRARY) == [
        ("register_reader", {"name": name, "phone": phone, "birth_year": year})
    ]


def test_an_item_said_after_whose_it_is_and_what_was_done_is_the_item_alone():
    messages: list[dict[str, Any]] = [{"role": "user", "content": "R003交了逾期罚款十五块，记一下"}]
    reply = SIMULATOR.complete(ChatRequest(model="course-sim", messages=messages, tools=LIBRARY))
    made = [json.loads(c["function"]["arguments"]) for c in reply.tool_calls or []]
    assert made == [{"reader_id": "R003", "item": "逾期罚款", "amount": 15}], made


def test_a_tool_whose_description_names_the_requests_verb_is_never_said_not_to_fit():
    reply = plan("R001缴费：逾期罚款12元，损坏赔偿30元，分开记", LIBRARY)
    assert not NO_TOOL.search(reply.answer or ""), reply.answer
    assert not [c for c in reply.calls if c.name == "register_reader"], reply


def test_a_clause_that_only_asks_to_look_is_no_undone_part_but_one_that_names_a_thing_is():
    def answer_after_lookup(request_text: str) -> str:
        body = {"success": True, "data": {"order_id": "WX2001", "stage": "等配件"}}
        return run_request(SIMULATOR, BIKE, request_text, default=json.dumps(body), turns=3)[1]

    assert "没有合适的工具" not in answer_after_lookup("WX2001 修到哪了，你给我瞅一眼呗")
    assert "「看看天气」没有合适的工具" in answer_after_lookup("查一下 WX2001，再看看天气")
