"""The simulator's tool choice by action, one call per request, steps that use an earlier result,
and answer words.

Families of cases over tools the course never shows (members, documents, flights, invoices, hotels,
parking, expenses, faxes, parcels …):

- a tool whose action (its name's verb, else its description's leading verb) is not what the request
  asks for is not chosen, however many words they share; with no fitting tool the answer says so;
- a clause that only supplies arguments of the call before it joins that call (no second intent, no
  question about arguments the call already has);
- a later step takes an id the request lacks from the first object of an earlier result that fits
  the constraints stated; "有的话" without one is said, not asked;
- result fields and status values read in Chinese in a Chinese answer, with the tool's own words
  where the table has none, and a status the sentence already says is not said again.
"""

from __future__ import annotations

import json
import re
from datetime import datetime
from typing import Any

import pytest

from handwritten_agent.course.offline.simulator.actions import (
    CREATE,
    DELETE,
    EXPORT,
    READ,
    SEND,
    request_actions,
    tool_action,
)
from handwritten_agent.course.offline.simulator.arguments import Param
from handwritten_agent.course.offline.simulator.arguments.carry import NONE_FIT, value_from_results
from handwritten_agent.course.offline.simulator.fieldwords import field_label
from handwritten_agent.course.offline.simulator.planner import PlannedCall, plan_turn
from handwritten_agent.course.offline.simulator.schemawords import schema_words
from tests.simkit import tool

NOW = datetime(2026, 3, 12, 14, 30)  # a Thursday


def s(description: str, **extra: Any) -> dict[str, Any]:
    return {"type": "string", "description": description, **extra}


def n(description: str, **extra: Any) -> dict[str, Any]:
    return {"type": "integer", "description": description, **extra}


def ok(data: Any) -> str:
    return json.dumps({"success": True, "data": data, "error": None}, ensure_ascii=False)


def run(
    question: str, tools: list[dict[str, Any]], answer_of: Any, max_turns: int = 5
) -> tuple[list[PlannedCall], str]:
    """Plan turns until an answer, answering every call with ``answer_of(call)``; the calls made and
    the answer.
    """
    results: list[tuple[PlannedCall, str]] = []
    for _ in range(max_turns):
        plan = plan_turn(question, tools, results, now=NOW)
        if not plan.calls:
            return [call for call, _ in results], plan.answer or ""
        results += [(call, answer_of(call)) for call in plan.calls]
    raise AssertionError(f"no answer after {max_turns} turns: {results}")


# ------------------------------------------------------------------------------------------------
# 1. Tool choice weighs the action
# ------------------------------------------------------------------------------------------------

MEMBERS = [
    tool(
        "send_message_to_members",
        "给会员发送站内消息。member_ids 为空时发给全部会员。",
        {
            "text": s("消息内容，例如：活动提醒"),
            "member_ids": {
                "type": "array",
                "items": {"type": "string"},
                "description": '会员编号列表，例如：["M001"]',
            },
        },
        ["text"],
    ),
    tool(
        "get_member_profile",
        "根据会员编号查询会员资料，包括姓名、等级和积分。",
        {"member_id": s("会员编号，例如：M001")},
    ),
]
DOCUMENTS = [
    tool(
        "delete_document",
        "删除一份文档，删除后不能恢复。",
        {"doc_id": s("文档编号，例如：DOC1234")},
    ),
    tool("read_document", "读取一份文档的标题和正文。", {"doc_id": s("文档编号，例如：DOC1234")}),
]
FLIGHTS = [
    tool(
        "cancel_flight_booking",
        "取消一张机票预订，返回退款金额。",
        {"booking_code": s("预订编号，例如：BK88231")},
    ),
    tool(
        "query_flight_booking",
        "查询机票预订的航班、座位和状态。",
        {"booking_code": s("预订编号，例如：BK88231")},
    ),
]
INVOICES = [
    tool(
        "send_invoice_email",
        "Email one invoice to a customer.",
        {
            "invoice_id": s("Invoice id, e.g. INV0012"),
            "to": s("Recipient email address, e.g. bob@example.com"),
        },
    ),
    tool(
        "export_invoices",
        "Export all invoices of a month as a CSV file.",
        {"month": s("Month, e.g. 2026-03")},
    ),
]


@pytest.mark.parametrize(
    "text, wanted",
    [
        ("把所有客户的名单导出给我", {EXPORT}),
        ("查一下订单 OD20240615 到哪了", {READ}),
        ("订单发货了吗", {READ}),  # a question; 订/发 in nouns are no verbs
        ("帮我订明天上午的会议室", {CREATE}),
        ("删除文档 DOC1234", {DELETE}),
        ("给李丽发一封邮件", {SEND}),
        ("export all invoices from March", {EXPORT}),
        ("北京明天天气", set()),
    ],
)
def test_request_actions_come_from_verbs_not_from_nouns_that_contain_them(text, wanted):
    assert request_actions(text) == frozenset(wanted)


@pytest.mark.parametrize(
    "name, description, action",
    [
        ("send_sms_to_customers", "给客户发送短信通知。", SEND),
        ("export_customer_list", "内部管理接口：导出全部客户资料。", EXPORT),
        ("room_availability", "查询指定时间段内空闲的会议室。", READ),
        ("meeting_room", "预订会议室，返回预订编号。", CREATE),
        ("weather", "The current weather of a city.", None),
        ("purge_cache", "Remove every cached page.", DELETE),
    ],
)
def test_a_tool_s_action_comes_from_its_name_verb_else_its_description(name, description, action):
    assert tool_action(name, description) == action


@pytest.mark.parametrize(
    "question, tools",
    [
        ("把所有会员的资料导出给我，要带手机号", MEMBERS),
        ("export the full member list with phone numbers", MEMBERS),
        ("帮我把文档 DOC1234 下载下来", DOCUMENTS),
    ],
)
def test_no_tool_whose_action_contradicts_the_request_is_called_and_the_answer_says_so(
    question, tools
):
    plan = plan_turn(question, tools, [], now=NOW)
    assert plan.calls == [], plan
    assert re.search(r"没有能做|做不了|不能办|cannot do", plan.answer), plan.answer


@pytest.mark.parametrize(
    "question, tools, expected",
    [
        ("读一下文档 DOC1234", DOCUMENTS, "read_document"),
        ("删除文档 DOC1234", DOCUMENTS, "delete_document"),
        ("查一下预订 BK88231 的航班", FLIGHTS, "query_flight_booking"),
        ("帮我取消预订 BK88231", FLIGHTS, "cancel_flight_booking"),
        ("export all invoices of 2026-03", INVOICES, "export_invoices"),
        ("send invoice INV0012 to bob@example.com", INVOICES, "send_invoice_email"),
        ("查询会员 M001 的积分", MEMBERS, "get_member_profile"),
        ("给所有会员发消息：周六闭馆", MEMBERS, "send_message_to_members"),
    ],
)
def test_the_tool_whose_action_the_request_names_is_chosen(question, tools, expected):
    plan = plan_turn(question, tools, [], now=NOW)
    assert [call.name for call in plan.calls] == [expected], plan


# ------------------------------------------------------------------------------------------------
# 2. A clause that only supplies arguments joins the call before it
# ------------------------------------------------------------------------------------------------

EXPENSE = tool(
    "submit_expense_claim",
    "提交报销单并通知财务，返回报销单号。",
    {
        "category": {"type": "string", "enum": ["交通", "餐饮", "住宿"], "description": "报销类别"},
        "amount": {"type": "number", "description": "金额（元），例如：120"},
        "reason": s("报销原因，例如：出差"),
    },
)
LEAVE = tool(
    "apply_for_leave",
    "提交请假申请，返回申请编号。",
    {
        "days": n("请假天数，例如：2"),
        "start_date": s("开始日期，格式 YYYY-MM-DD，例如：2026-03-20"),
        "reason": s("请假原因，例如：家里有事"),
    },
)


@pytest.mark.parametrize(
    "question, spec, expected",
    [
        (
            "提交报销：交通 86 元，原因是加班晚归",
            EXPENSE,
            {"category": "交通", "amount": 86, "reason": "加班晚归"},
        ),
        (
            "提交报销申请，餐饮，320 元，原因是客户来访",
            EXPENSE,
            {"category": "餐饮", "amount": 320, "reason": "客户来访"},
        ),
        (
            "请假 2 天，从 2026-03-20 开始，原因是家里有事",
            LEAVE,
            {"days": 2, "start_date": "2026-03-20", "reason": "家里有事"},
        ),
    ],
)
def test_clauses_that_only_supply_arguments_make_one_call_and_no_question(question, spec, expected):
    calls, final = run(
        question, [spec], lambda call: ok({"claim_no": "EX0001", "status": "submitted"})
    )
    assert calls == [PlannedCall(spec["name"], expected)]
    assert "？" not in final and "?" not in final, final


def test_an_operation_on_the_previous_result_stays_a_step_of_its_own():
    math = tool("calculator", "计算数学表达式", {"expression": s("数学表达式，例如：17 * 9")})
    calls, _ = run(
        "17 乘以 9，再乘以 2",
        [math],
        lambda call: "153" if call.arguments["expression"] == "17 * 9" else "306",
    )
    assert [call.arguments["expression"] for call in calls] == ["17 * 9", "153 * 2"]


# ------------------------------------------------------------------------------------------------
# 3. A later step takes an id from an earlier result
# ------------------------------------------------------------------------------------------------

HOTEL = [
    tool(
        "search_hotel_rooms",
        "查询指定日期可入住的客房，返回房间号、床位数和价格。",
        {
            "check_in": s("入住日期，格式 YYYY-MM-DD，例如：2026-03-20"),
            "min_beds": n("至少几张床，例如：2", default=1),
        },
        ["check_in"],
    ),
    tool(
        "reserve_hotel_room",
        "预订一间客房，返回订单号。",
        {
            "room_no": s("房间号，例如：R1001"),
            "check_in": s("入住日期，格式 YYYY-MM-DD，例如：2026-03-20"),
            "guests": n("入住人数，例如：2"),
        },
    ),
]
PARKING = [
    tool(
        "list_free_bays",
        "列出某个时段空闲的车位，返回车位编号和是否有充电桩。",
        {"date": s("日期，格式 YYYY-MM-DD，例如：2026-03-13")},
    ),
    tool(
        "book_parking_bay",
        "预订一个车位，返回预订编号。",
        {"bay_id": s("车位编号，例如：B12"), "date": s("日期，格式 YYYY-MM-DD，例如：2026-03-13")},
    ),
]


def hotel_rooms(rooms: list[dict[str, Any]]):
    def answer_of(call: PlannedCall) -> str:
        if call.name == "search_hotel_rooms":
            return ok({"check_in": call.arguments["check_in"], "rooms": rooms})
        return ok(
            {"order_no": "HT0001", "room_no": call.arguments["room_no"], "status": "confirmed"}
        )

    return answer_of


@pytest.mark.parametrize(
    "question, rooms, room",
    [
        (
            "查一下明天有没有至少 2 张床的客房，有的话帮我订下来，2 个人",
            [
                {"room_no": "R1203", "beds": 1, "price": 300},
                {"room_no": "R1508", "beds": 2, "price": 420},
            ],
            "R1508",
        ),
        (
            "看看明天可入住的客房里有没有至少 3 张床的，有的话帮我订一间，3 个人",
            [
                {"room_no": "R0901", "beds": 2},
                {"room_no": "R1101", "beds": 3},
                {"room_no": "R1102", "beds": 3},
            ],
            "R1101",
        ),
        (
            "查一下明天可入住的客房，有的话帮我订下来，1 个人",
            [{"room_no": "R0701", "beds": 1}],
            "R0701",
        ),
    ],
)
def test_a_later_step_takes_the_first_fitting_id_from_the_earlier_result(question, rooms, room):
    calls, final = run(question, HOTEL, hotel_rooms(rooms))
    assert [call.name for call in calls] == ["search_hotel_rooms", "reserve_hotel_room"]
    assert calls[1].arguments["room_no"] == room and calls[1].arguments["check_in"] == "2026-03-13"
    assert "HT0001" in final


@pytest.mark.parametrize("rooms", [[], [{"room_no": "R1203", "beds": 1}]])
def test_if_any_without_a_fitting_value_says_so_instead_of_calling_or_asking(rooms):
    calls, final = run(
        "查一下明天有没有至少 2 张床的客房，有的话帮我订下来，2 个人", HOTEL, hotel_rooms(rooms)
    )
    assert [call.name for call in calls] == ["search_hotel_rooms"]
    assert "没有符合条件的房间号" in final and "没有预订" in final and "？" not in final, final


def test_an_id_comes_from_a_list_of_objects_under_any_key_and_the_pattern_decides():
    def answer_of(call: PlannedCall) -> str:
        if call.name == "list_free_bays":
            return ok(
                {
                    "date": "2026-03-13",
                    "bays": [{"id": "B07", "charger": False}, {"id": "B12", "charger": True}],
                }
            )
        return ok({"booking_id": "PK0001", "bay_id": call.arguments["bay_id"]})

    calls, final = run("看看明天有哪些空闲车位，有的话帮我订一个", PARKING, answer_of)
    assert calls[-1] == PlannedCall("book_parking_bay", {"bay_id": "B07", "date": "2026-03-13"})


def test_constraints_come_from_the_earlier_call_and_from_numbers_on_the_same_topic():
    search, reserve = HOTEL
    room_no = Param("room_no", reserve["parameters"]["properties"]["room_no"], True)
    guests = Param("guests", {"type": "integer", "description": "需要几张床，例如：2"}, True)
    pattern = [re.compile(r"R\d{4}")]
    raw = ok(
        {
            "rooms": [
                {"room_no": "R0101", "beds": 1},
                {"room_no": "R0202", "beds": 2},
                {"room_no": "R0303", "beds": 4},
            ]
        }
    )
    assert value_from_results(room_no, pattern, [(search, {"min_beds": 2}, raw)]) == "R0202"
    assert (
        value_from_results(room_no, pattern, [(search, {"min_beds": 1}, raw)], [(guests, 3)])
        == "R0303"
    )
    assert value_from_results(room_no, pattern, [(search, {"min_beds": 5}, raw)]) is NONE_FIT
    assert value_from_results(room_no, pattern, [(search, {}, ok({"count": 0}))]) is None


# ------------------------------------------------------------------------------------------------
# 4. Field words and status values in Chinese answers
# ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name, label",
    [
        ("free_slots", "空闲时段"),
        ("total_count", "总数"),
        ("available_items", "可用项目"),
        ("results", "结果"),
        ("records", "记录"),
        ("request_id", "申请编号"),
        ("approver", "审批人"),
    ],
)
def test_common_api_field_words_have_chinese_labels(name, label):
    assert field_label(name, "zh") == label


def test_the_schema_s_own_words_label_fields_the_table_does_not_know():
    words = schema_words(PARKING[1])
    assert words["bay"] == "车位" and words["bay_id"] == "车位编号"
    assert field_label("free_bays", "zh", words) == "空闲车位"
    assert field_label("free_bays", "zh") == "free bays"  # without the schema nothing is invented


ENGLISH_WORD = re.compile(r"(?<![A-Za-z])[a-z]{3,}(?![A-Za-z])")


@pytest.mark.parametrize(
    "question, spec, data, expected",
    [
        (
            "明天有哪些空闲车位？",
            PARKING[0],
            {"date": "2026-03-13", "free_bays": [{"bay_id": "B07"}, {"bay_id": "B12"}]},
            "空闲车位",
        ),
        (
            "查一下明天的空闲工位",
            tool(
                "list_open_desks",
                "查询指定日期空闲的工位，返回工位编号。",
                {"date": s("日期，格式 YYYY-MM-DD")},
            ),
            {"open_desks": [{"desk": "D-3"}, {"desk": "D-9"}]},
            "工位",
        ),
        (
            "明天有哪些可预约的时段？",
            tool(
                "get_clinic_slots", "查询门诊可预约的时段。", {"date": s("日期，格式 YYYY-MM-DD")}
            ),
            {"available_slots": ["09:00", "10:30"]},
            "可用时段",
        ),
    ],
)
def test_list_labels_in_a_chinese_answer_are_chinese(question, spec, data, expected):
    calls, final = run(question, [spec], lambda call: ok(data))
    assert expected in final, final
    assert not ENGLISH_WORD.search(final), final


FAX = tool(
    "send_fax",
    "发送一份传真，返回传真编号。",
    {"number": s("传真号码，例如：010-12345678"), "text": s("传真内容")},
)
PARCEL = tool("get_parcel_status", "查询包裹状态。", {"parcel_id": s("包裹编号，例如：PK20260301")})


@pytest.mark.parametrize(
    "status, said, unsaid",
    [
        ("sent", "已发送传真", ["sent", "已发送，"]),
        ("queued", "排队中", ["queued"]),
        ("failed", "失败", ["failed"]),
        ("pending", "待处理", ["pending"]),
    ],
)
def test_a_status_reads_in_chinese_and_is_not_said_twice(status, said, unsaid):
    calls, final = run(
        "发传真到 010-12345678，内容是「合同已寄出」",
        [FAX],
        lambda call: ok({"fax_id": "FX0001", "status": status}),
    )
    assert said in final and "FX0001" in final, final
    for word in unsaid:
        assert word not in final, final


@pytest.mark.parametrize(
    "status, word", [("shipped", "已发货"), ("delivered", "已送达"), ("in_transit", "运输中")]
)
def test_a_looked_up_status_reads_in_chinese(status, word):
    _, final = run(
        "包裹 PK20260301 到哪了",
        [PARCEL],
        lambda call: ok({"parcel_id": "PK20260301", "status": status}),
    )
    assert word in final and status not in final, final


def test_an_english_answer_keeps_english_status_words():
    _, final = run(
        "where is parcel PK20260301",
        [PARCEL],
        lambda call: ok({"parcel_id": "PK20260301", "status": "in_transit"}),
    )
    assert "in transit" in final, final
