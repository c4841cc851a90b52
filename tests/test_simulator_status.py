"""A question about the status of something goes to a read-only lookup, never to a tool that
changes things; with no lookup that fits, the simulator says so plainly.

Three invented tool sets each hold one lookup and two write tools over the same id (an order desk
described in English, an expense desk with pinyin names, a ticket desk in mixed words), and a
fourth holds only write tools. Questions are colloquial ("到哪了", "批了没有", "现在什么情况",
"有人管吗"). Scoring: **handled** (the lookup called with the id, and its answer carries the
status the result gave), **asked** / **declined** (no call; a question back, or a plain "I cannot
tell"), **wrong** (any write tool called), **false claim** (the answer says something was done,
or states a status the result did not give).

``python -m tests.test_simulator_status`` prints the table.

Left out: questions whose subject comes from an earlier turn ("那它呢？").
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import pytest

from handwritten_agent.course.offline.simulator import CourseSimulator
from tests.simkit import fn, run_request
from tests.test_simulator_generated import s

SIMULATOR = CourseSimulator(now=datetime(2026, 6, 3, 11, 0))

ORDERS = [
    fn(
        "cancel_order",
        "Cancel an order by its id, e.g. OD20240615",
        {"order_id": s("order id like OD20240615")},
        ["order_id"],
    ),
    fn(
        "get_order_status",
        "Look up the shipping status and current location of an order, e.g. OD20240615",
        {"order_id": s("order id like OD20240615")},
        ["order_id"],
    ),
    fn(
        "update_address",
        "Change the delivery address of an order",
        {"order_id": s("order id like OD20240615"), "address": s("new address")},
        ["order_id", "address"],
    ),
]
EXPENSES = [
    fn(
        "chehui_baoxiao",
        "撤回一张报销单，例如 单号 BX7781",
        {"bill_no": s("报销单号，例如 BX7781")},
        ["bill_no"],
    ),
    fn(
        "chaxun_baoxiao",
        "查询报销单的审批进度和打款状态，例如 单号 BX7781",
        {"bill_no": s("报销单号，例如 BX7781")},
        ["bill_no"],
    ),
    fn(
        "cuiban_baoxiao",
        "给审批人发催办提醒，例如 单号 BX7781",
        {"bill_no": s("报销单号，例如 BX7781")},
        ["bill_no"],
    ),
]
TICKETS = [
    fn(
        "close_ticket",
        "关闭工单 close a ticket, e.g. TK-3391",
        {"ticket": s("ticket id like TK-3391")},
        ["ticket"],
    ),
    fn(
        "escalate_ticket",
        "升级工单优先级 escalate a ticket, e.g. TK-3391",
        {"ticket": s("ticket id like TK-3391")},
        ["ticket"],
    ),
    fn(
        "ticket_detail",
        "查看工单详情 show a ticket's details and its handling status, e.g. TK-3391",
        {"ticket": s("ticket id like TK-3391")},
        ["ticket"],
    ),
]
WRITE_ONLY = ORDERS[:1] + ORDERS[2:]
TOOLSETS = {"orders": ORDERS, "expenses": EXPENSES, "tickets": TICKETS, "write_only": WRITE_ONLY}
LOOKUPS = {"get_order_status", "chaxun_baoxiao", "ticket_detail"}
RESULTS = {
    "get_order_status": {
        "success": True,
        "data": {"status": "in_transit", "location": "杭州转运中心"},
    },
    "chaxun_baoxiao": {"success": True, "data": {"进度": "财务复核中", "已打款": False}},
    "ticket_detail": {"success": True, "data": {"status": "处理中", "owner": "李工"}},
}
# what the answer must carry from the result (any one of them)
CARRIED = {
    "get_order_status": ("杭州转运中心", "in_transit", "运输中"),
    "chaxun_baoxiao": ("财务复核中", "否", "未打款", "没有打款"),
    "ticket_detail": ("处理中", "李工"),
}
# a change claimed, or a status none of the results gives
CLAIMS = re.compile(
    r"已(?:经)?(?:为你|帮你)?(?:取消|撤回|关闭|升级|催办|修改|更改)"
    r"|已(?:经)?(?:签收|送达|完成|解决|到账|通过|批准|处理完)"
)


@dataclass
class StatusCase:
    toolset: str
    request: str


QUESTIONS = {
    "orders": [
        "OD20240615 到哪了",
        "我那个订单 OD20240615 发货没有",
        "OD20240615 啥情况了？",
        "帮我看看 OD20240615 现在在哪",
        "OD20240615 的快递走到哪一步了",
        "OD20240615 怎么还没到",
    ],
    "expenses": [
        "报销单 BX7781 批了没有",
        "BX7781 走到哪一步了",
        "BX7781 钱到账了吗",
        "BX7781 现在什么进度",
        "我的报销 BX7781 卡在哪了？",
        "BX7781 审完没",
    ],
    "tickets": [
        "TK-3391 现在什么情况",
        "那个工单 TK-3391 有人管吗",
        "TK-3391 进展如何",
        "工单 TK-3391 解决了没",
        "TK-3391 谁在跟",
        "TK-3391 处理得怎么样了",
    ],
    "write_only": ["OD20240615 到哪了", "订单 OD20240615 现在什么状态", "OD20240615 发货了吗"],
}
# ten paraphrases written after the rules, never used while building them
FRESH = [
    StatusCase("orders", "OD20240701 还在路上吗"),
    StatusCase("orders", "查一下 OD20240701 物流"),
    StatusCase("expenses", "BX9020 财务那边过了没"),
    StatusCase("expenses", "BX9020 什么时候能打款"),
    StatusCase("expenses", "BX9020 状态？"),
    StatusCase("tickets", "TK-5120 咋样了"),
    StatusCase("tickets", "TK-5120 搞定没有"),
    StatusCase("tickets", "TK-5120 现在归谁处理"),
    StatusCase("write_only", "OD20240701 是不是已经签收了"),
    StatusCase("write_only", "OD20240701 物流到哪里了？"),
]
CASES = [StatusCase(ts, q) for ts, qs in QUESTIONS.items() for q in qs]


def score(
    case: StatusCase, calls: list[tuple[str, dict[str, Any]]], answer: str
) -> tuple[str, bool]:
    """(handled | asked | declined | wrong, false claim)."""
    if any(name not in LOOKUPS for name, _ in calls):
        return "wrong", False
    false = bool(CLAIMS.search(answer))
    if calls:
        name = calls[0][0]
        false = false or not any(word in answer for word in CARRIED[name])
        return "handled", false
    return ("asked" if re.search(r"[?？]", answer) else "declined"), false


def run(case: StatusCase) -> tuple[list[tuple[str, dict[str, Any]]], str]:
    return run_request(SIMULATOR, TOOLSETS[case.toolset], case.request, RESULTS)


@pytest.mark.parametrize("case", CASES + FRESH, ids=lambda c: c.request)
def test_a_status_question_never_calls_a_write_tool_nor_claims_a_status(case):
    calls, answer = run(case)
    verdict, false = score(case, calls, answer)
    assert verdict != "wrong", (calls, answer)
    assert not false, (calls, answer)


@pytest.mark.parametrize("case", [c for c in CASES + FRESH if c.toolset == "write_only"], ids=str)
def test_with_no_lookup_it_says_plainly_that_it_cannot_tell(case):
    calls, answer = run(case)
    assert not calls, calls
    assert re.search(r"没法|不能|无法|没有能|没看懂", answer), answer


def test_the_scorer_catches_a_write_tool_and_an_invented_status():
    case = StatusCase("orders", "OD20240615 到哪了")
    assert score(case, [("cancel_order", {"order_id": "OD20240615"})], "")[0] == "wrong"
    invented = score(case, [("get_order_status", {"order_id": "OD20240615"})], "订单已签收。")
    assert invented == ("handled", True)


def table(cases: list[StatusCase]) -> dict[str, int]:
    counts = {"handled": 0, "asked": 0, "declined": 0, "wrong": 0, "false claims": 0}
    for case in cases:
        calls, answer = run(case)
        verdict, false = score(case, calls, answer)
        counts[verdict] += 1
        counts["false claims"] += false
        if verdict != "handled" or false:
            print(verdict, "FALSE" if false else "", case.request, calls, "|", answer[:100])
    return counts


if __name__ == "__main__":
    print("built against:", table(CASES))
    print("fresh:", table(FRESH))
