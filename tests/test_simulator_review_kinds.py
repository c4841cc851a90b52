"""Two kinds of wrong answer, each over tools invented for this file, in several domains.

1. **A status read as a fact about what the call named.** A tool whose verb the simulator does not
   know (晋升, 授予, quarantine, archive …) returns ``{"status": "ok", "name": "王芳", …}``: the
   status says the call worked, so the answer says what was done, in the tool's own words, and
   then the result's fields — never "王芳正常" or "NH2207: OK". A status it cannot read
   ("granted") is said as a status, not as a word about the person. A lookup's "status": "ok" is
   the lookup's, not the member's; a tool that says it reports a status still has it said.
2. **A question answered with an earlier request.** After the simulator asked a clarifying
   question, the user asks something else ("我的血型是什么？"): the latest message is what is
   answered — from the conversation when it holds the answer, else by saying plainly that the
   conversation does not — never the earlier request completed or asked about again. A reply that
   does answer the clarifying question, even one written as a question ("C3 呢？"), still completes
   the request.
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any

import pytest

from handwritten_agent.course.offline.backend import ChatRequest
from handwritten_agent.course.offline.simulator import CourseSimulator, promptmode
from tests import simkit
from tests.simkit import fn as tool
from tests.simkit import run_request

NOW = datetime(2026, 3, 12, 14, 30)
SIMULATOR = CourseSimulator(now=NOW)
SYSTEM = "你是一个可以调用工具的助手。"


def run(
    tools: list[dict[str, Any]], request: str, result: dict[str, Any]
) -> tuple[list[tuple[str, dict[str, Any]]], str]:
    """The calls made for ``request`` (each answered with ``result``) and the final answer."""
    calls, answer = run_request(SIMULATOR, tools, request, default=result, system=SYSTEM)
    assert answer, f"no final answer: {calls}"
    return calls, answer


# ------------------------------------------------------------------------------------------------
# 1. A status is the call's, not a fact about what it named
# ------------------------------------------------------------------------------------------------

HR = tool(
    "promote_employee",
    "晋升员工",
    employee_id=("string", "员工编号，例如 E1023"),
    level=("string", "新职级，例如 P6"),
)
GAME = tool("knight_player", "授予玩家骑士称号", player_id=("string", "玩家编号，例如 PL3301"))
MENTOR = tool(
    "mentor_assign",
    "为新员工指定导师",
    employee_id=("string", "员工编号，例如 E1023"),
    mentor=("string", "导师姓名"),
)
SHELF = tool("shelve_book", "把归还的书放回书架", book_id=("string", "图书编号，例如 BK1024"))
FEES = tool("waive_fee", "免除会员的滞纳金", member_id=("string", "会员编号，例如 M1024"))
NETWORK = tool(
    "quarantine_host",
    "Quarantine a host on the network.",
    host_id=("string", "The host id, e.g. HS1022"),
)
TICKETS = tool(
    "archive_ticket",
    "Archive a support ticket.",
    ticket_id=("string", "The ticket id, e.g. TK2231"),
)
HIRES = tool("onboard_hire", "Onboard a new hire.", hire_id=("string", "The hire id, e.g. NH1001"))

# (tool, request, the call it asks for, the result, a field the answer reports, the action's words)
DONE = [
    (
        HR,
        "把员工 E2031 晋升到 P7",
        {"employee_id": "E2031", "level": "P7"},
        {"status": "ok", "name": "王芳", "level": "P7"},
        "王芳",
        "晋升员工",
    ),
    (
        GAME,
        "授予玩家 PL7781 骑士称号",
        {"player_id": "PL7781"},
        {"status": "ok", "name": "小明"},
        "小明",
        "授予玩家骑士称号",
    ),
    (
        MENTOR,
        "给 E3302 指定导师李娜",
        {"employee_id": "E3302", "mentor": "李娜"},
        {"status": "ok", "employee": "赵磊", "mentor": "李娜"},
        "赵磊",
        "指定导师",
    ),
    (
        SHELF,
        "把 BK2048 放回书架",
        {"book_id": "BK2048"},
        {"state": "ok", "title": "三体"},
        "三体",
        "放回书架",
    ),
    (
        FEES,
        "免除会员 M3321 的滞纳金",
        {"member_id": "M3321"},
        {"ok": True, "member": "周明"},
        "周明",
        "免除会员的滞纳金",
    ),
    (
        TICKETS,
        "归档工单 TK5512",
        {"ticket_id": "TK5512"},
        {"status": "done", "ticket_id": "TK5512", "owner": "赵磊"},
        "赵磊",
        "archive_ticket",
    ),
    (
        NETWORK,
        "quarantine host HS4410",
        {"host_id": "HS4410"},
        {"status": "success", "hostname": "web-07", "owner": "Olivia"},
        "web-07",
        "quarantine a host",
    ),
    (
        HIRES,
        "onboard NH2207",
        {"hire_id": "NH2207"},
        {"status": "ok", "name": "Olivia Chen"},
        "Olivia Chen",
        "onboard a new hire",
    ),
]
# what a status word becomes when it is read as a fact about something
STATUS_AS_FACT = re.compile(r"正常|成功|已完成|\bOK\b|: (?:ok|done|success)\b|\bsuccess\b", re.I)


@pytest.mark.parametrize(
    "spec, request_text, arguments, result, reported, action",
    DONE,
    ids=[spec["function"]["name"] for spec, *_ in DONE],
)
def test_a_status_says_the_call_worked_and_the_answer_says_what_was_done(
    spec, request_text, arguments, result, reported, action
):
    calls, answer = run([spec], request_text, result)
    assert calls == [(spec["function"]["name"], arguments)], calls
    assert not STATUS_AS_FACT.search(answer), answer
    assert action in answer and re.search(r"已执行|Done —", answer), answer
    assert reported in answer, answer
    if re.search("[\u4e00-\u9fff]", request_text):
        assert re.search("[\u4e00-\u9fff]", answer), answer


def test_a_status_it_cannot_read_is_said_as_a_status_not_about_the_person():
    calls, answer = run(
        [GAME], "授予玩家 PL7781 骑士称号", {"status": "granted", "name": "小明", "title": "骑士"}
    )
    assert calls == [("knight_player", {"player_id": "PL7781"})]
    assert "状态为 granted" in answer and not re.search(r"小明\s*granted", answer), answer
    assert "已执行" not in answer, answer  # a status it cannot read does not say it worked


MEMBERS = tool("get_member", "查询会员信息", member_id=("string", "会员编号，例如 M1024"))
PATIENTS = tool(
    "lookup_patient",
    "Look up a patient record.",
    patient_id=("string", "The patient id, e.g. PA1001"),
)
HEALTH = tool("get_host_health", "查询主机的运行状态", host_id=("string", "主机编号，例如 HS1022"))


def test_a_lookup_status_is_the_lookups_not_a_fact_about_the_member():
    calls, answer = run(
        [MEMBERS], "查一下会员 M2048 的信息", {"status": "ok", "name": "赵磊", "level": "金卡"}
    )
    assert calls == [("get_member", {"member_id": "M2048"})]
    assert "金卡" in answer and "正常" not in answer, answer
    calls, answer = run(
        [PATIENTS],
        "look up patient PA3302",
        {"status": "success", "name": "Olivia", "ward": "B2"},
    )
    assert calls == [("lookup_patient", {"patient_id": "PA3302"})]
    assert "B2" in answer and not STATUS_AS_FACT.search(answer), answer


def test_a_tool_that_reports_a_status_still_has_it_said():
    """Guard: where the tool says it reports a status, "ok" is what it found out."""
    calls, answer = run([HEALTH], "查一下主机 HS4410 的运行状态", {"status": "ok"})
    assert calls == [("get_host_health", {"host_id": "HS4410"})]
    assert "正常" in answer, answer


# ------------------------------------------------------------------------------------------------
# 2. The latest question is what is answered, never an earlier request
# ------------------------------------------------------------------------------------------------

CLINIC = [
    tool(
        "book_checkup",
        "预约体检",
        package=("string", "体检套餐，例如 基础套餐"),
        date=("string", "体检日期，例如 2026-03-20"),
    )
]
TRAVEL = [
    tool(
        "convert_currency",
        "Convert an amount between two currencies.",
        amount=("number", "the amount"),
        source=("string", "currency code to convert from, e.g. USD"),
        target=("string", "currency code to convert to, e.g. EUR"),
    )
]
COURTS = [
    tool(
        "reserve_court",
        "预订球场",
        court=("string", "球场编号，例如 C3"),
        start=("string", "开始时间，例如 2026-03-13 19:00"),
    )
]
PARCELS = [
    tool(
        "ship_parcel",
        "寄一个包裹",
        weight_kg=("number", "包裹重量（公斤）"),
        destination=("string", "目的城市，例如 杭州"),
    )
]
ASKS_AGAIN = re.compile(r"能告诉我|could you tell me (?!again)", re.I)
NOT_IN_CONVERSATION = re.compile(r"没有找到这方面的信息|could not find that in the conversation")


def converse(
    tools: list[dict[str, Any]], before: list[str], last: str
) -> tuple[str, list[tuple[str, dict[str, Any]]], str]:
    """Say ``before`` turn by turn (each answered without a call), then ``last``: (the simulator's
    last question before ``last``, the calls made for ``last``, its answer)."""
    rounds = simkit.converse(SIMULATOR, tools, [*before, last], system=SYSTEM)
    for text, (calls, _) in zip(before, rounds):
        assert not calls, (text, calls)
    asked = rounds[-2][1]
    assert ASKS_AGAIN.search(asked), asked  # the simulator asked for what the request lacks
    calls, answer = rounds[-1]
    return asked, calls, answer


@pytest.mark.parametrize(
    "tools, request_text, question",
    [
        (CLINIC, "帮我预约体检", "我的血型是什么？"),
        (CLINIC, "帮我预约体检", "我上次说我对什么药过敏？"),
        (COURTS, "帮我订个球场", "我喜欢打什么球？"),
        (PARCELS, "帮我寄个包裹", "我家住在哪个城市？"),
        (TRAVEL, "How much is 100 dollars?", "What is my seat preference?"),
        (TRAVEL, "Convert some money for me", "What am I allergic to?"),
    ],
)
def test_a_new_question_after_a_clarifying_one_is_answered_not_the_earlier_request(
    tools, request_text, question
):
    asked, calls, answer = converse(tools, [request_text], question)
    assert calls == [], calls
    assert not ASKS_AGAIN.search(answer), answer  # not the earlier request's question again
    assert request_text not in answer and asked not in answer, answer
    assert NOT_IN_CONVERSATION.search(answer), answer  # nothing in the conversation says it


@pytest.mark.parametrize(
    "tools, told, request_text, question, fact",
    [
        (CLINIC, "我的血型是 O 型。", "帮我预约体检", "我的血型是什么？", "O 型"),
        (PARCELS, "我家住在杭州西湖区。", "帮我寄个包裹", "我家住在哪里？", "杭州西湖区"),
        (COURTS, "我喜欢打羽毛球。", "帮我订个球场", "我喜欢打什么球？", "羽毛球"),
    ],
)
def test_a_new_question_is_answered_from_what_the_conversation_says(
    tools, told, request_text, question, fact
):
    _, calls, answer = converse(tools, [told, request_text], question)
    assert calls == [] and fact in answer, answer
    assert "帮你" not in answer and not ASKS_AGAIN.search(answer), answer


def test_a_window_that_dropped_the_fact_says_the_conversation_no_longer_holds_it():
    """The Day 4 shape, over other tools: the turn that told the allergy is gone, a parcel was
    shipped, a conversion is waiting for its currency — and the user asks about the allergy."""
    tools = [*PARCELS, *TRAVEL]
    # "我对芒果过敏。" and its reply were dropped
    rounds = simkit.converse(
        SIMULATOR,
        tools,
        ["寄一个 3 公斤的包裹到杭州", "我周末不在家。", "100 美元能换多少？", "我对什么过敏？"],
        {"ship_parcel": {"status": "ok", "tracking_no": "SF1029"}},
        turns=3,
        system=SYSTEM,
    )
    assert ASKS_AGAIN.search(rounds[-2][1]), rounds[-2]
    calls, answer = rounds[-1]
    assert calls == []
    assert not ASKS_AGAIN.search(answer) and "美元" not in answer, answer
    assert NOT_IN_CONVERSATION.search(answer), answer


@pytest.mark.parametrize(
    "tools, request_text, reply, name, arguments",
    [
        (COURTS, "帮我订个球场", "C3 呢？明天晚上 7 点", "reserve_court", {"court": "C3"}),
        (PARCELS, "帮我寄个包裹", "3 公斤，寄到杭州", "ship_parcel", {"destination": "杭州"}),
        (TRAVEL, "How much is 100 dollars?", "in euros?", "convert_currency", {"target": "EUR"}),
        (CLINIC, "帮我预约体检", "基础套餐，3 月 20 日", "book_checkup", {"package": "基础套餐"}),
    ],
)
def test_a_reply_that_answers_the_clarifying_question_still_completes_the_request(
    tools, request_text, reply, name, arguments
):
    """Guard: a reply that gives what was asked for — even written as a question — completes."""
    _, calls, _ = converse(tools, [request_text], reply)
    assert [called for called, _ in calls] == [name], calls
    made = calls[0][1]
    assert all(made.get(k) == v for k, v in arguments.items()), made


PROMPT = """你是一个助手，可以调用下面的工具：

工具名称：reserve_court
描述：预订球场。
参数说明：
 - court (string): 球场编号，例如：C3。
 - start (string): 开始时间，例如：2026-03-13 19:00。

工具名称：ship_parcel
描述：寄一个包裹。
参数说明：
 - weight_kg (number): 包裹重量（公斤）。
 - destination (string): 目的城市，例如：杭州。

需要调用工具时，只输出这样的 JSON：
{"tool_name": "工具名称", "arguments": {...}}
不需要工具时，用自然语言回复。"""


@pytest.mark.parametrize(
    "request_text, question",
    [("帮我订个球场", "我喜欢打什么球？"), ("帮我寄个包裹", "我家住在哪个城市？")],
)
def test_prompt_mode_answers_the_new_question_too(request_text, question):
    def say(messages: list[dict[str, Any]]) -> str:
        completion = promptmode.respond(
            ChatRequest(
                model="course-sim", messages=[{"role": "system", "content": PROMPT}, *messages]
            ),
            now=NOW,
        )
        return completion.content or ""

    asked = say([{"role": "user", "content": request_text}])
    assert ASKS_AGAIN.search(asked), asked
    answer = say(
        [
            {"role": "user", "content": request_text},
            {"role": "assistant", "content": asked},
            {"role": "user", "content": question},
        ]
    )
    assert not ASKS_AGAIN.search(answer) and "tool_name" not in answer, answer
    assert re.search("[\u4e00-\u9fff]", answer), answer
