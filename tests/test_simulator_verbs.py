"""Colloquial verbs, typos and homophones the vocabulary tables do not list, over tool sets where
two write tools share their arguments.

In each tool set two or three tools change something and take the same kind of id (renew or
return a loan; approve or reject a leave request; pause or resume or stop a subscription), so the
id alone never tells them apart: only the verb does. A request whose verb picks one of them must
call that one; a request whose verb is unknown, mistyped beyond recognition or contradicted by a
negation ("不批") may ask or say it did not understand — but it must never call the other write
tool. The tool sets are described in English, in Chinese with pinyin names, and in mixed words.

``python -m tests.test_simulator_verbs`` prints the table (handled / asked / declined / wrong).

Left out: verbs whose meaning depends on a previous turn.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

import pytest

from handwritten_agent.course.offline.simulator import CourseSimulator
from tests.simkit import fn, run_request
from tests.test_simulator_generated import i, s

NOW = datetime(2026, 5, 20, 10, 0)
SIMULATOR = CourseSimulator(now=NOW)

LIBRARY = [
    fn(
        "renew_loan",
        "Renew (extend) a current book loan by its loan id, e.g. LN5521",
        {"loan_id": s("loan id like LN5521")},
        ["loan_id"],
    ),
    fn(
        "return_book",
        "Return a borrowed book by its loan id, e.g. LN5521",
        {"loan_id": s("loan id like LN5521")},
        ["loan_id"],
    ),
    fn("search_catalog", "Search the library catalog by title", {"title": s("book title")}, []),
]
LEAVE = [
    fn(
        "pizhun_qingjia",
        "批准一条请假申请，例如 申请号 QJ3301",
        {"apply_id": s("请假申请号，例如 QJ3301")},
        ["apply_id"],
    ),
    fn(
        "bohui_qingjia",
        "驳回一条请假申请，例如 申请号 QJ3301",
        {"apply_id": s("请假申请号，例如 QJ3301"), "reason": s("驳回理由")},
        ["apply_id"],
    ),
    fn(
        "chaxun_qingjia",
        "查询请假申请的审批状态",
        {"apply_id": s("请假申请号，例如 QJ3301")},
        ["apply_id"],
    ),
]
SUBSCRIPTION = [
    fn(
        "pause_subscription",
        "Pause a subscription (暂停订阅) by its id, e.g. SUB-204",
        {"sub_id": s("subscription id like SUB-204"), "weeks": i("how many weeks to pause")},
        ["sub_id"],
    ),
    fn(
        "resume_subscription",
        "Resume a paused subscription (恢复订阅) by its id, e.g. SUB-204",
        {"sub_id": s("subscription id like SUB-204")},
        ["sub_id"],
    ),
    fn(
        "stop_subscription",
        "Stop (terminate) a subscription for good (退订) by its id, e.g. SUB-204",
        {"sub_id": s("subscription id like SUB-204")},
        ["sub_id"],
    ),
]
TOOLSETS = {"library": LIBRARY, "leave": LEAVE, "subscription": SUBSCRIPTION}
READ_ONLY = {"search_catalog", "chaxun_qingjia"}


@dataclass
class VerbCase:
    toolset: str
    request: str
    tool: str | None  # the tool the verb picks; None: nothing may change


# the verb's meaning is clear to a person; the simulator may still ask, never call another tool
CASES = [
    VerbCase("library", "LN5521 再续借两周", "renew_loan"),
    VerbCase("library", "把 LN5521 续一下", "renew_loan"),
    VerbCase("library", "LN5521 帮我延期", "renew_loan"),
    VerbCase("library", "LN5521 续接一下（打错了，是续借）", "renew_loan"),
    VerbCase("library", "LN7730 这本看完了，帮我还回去", "return_book"),
    VerbCase("library", "LN7730 归还", "return_book"),
    VerbCase("library", "LN7730 退还图书馆", "return_book"),
    VerbCase("library", "LN7730 处理一下", None),
    VerbCase("library", "LN7730 弄一下", None),
    VerbCase("library", "LN7730 还没看完", None),
    VerbCase("library", "LN7730 先别还", None),
    VerbCase("leave", "QJ3301 准了吧", "pizhun_qingjia"),
    VerbCase("leave", "QJ3301 给他批了", "pizhun_qingjia"),
    VerbCase("leave", "同意 QJ3301 的请假", "pizhun_qingjia"),
    VerbCase("leave", "QJ3301 通过", "pizhun_qingjia"),
    VerbCase("leave", "QJ3301 打回去，材料不全", "bohui_qingjia"),
    VerbCase("leave", "QJ3301 驳会（驳回），理由是日期写错了", "bohui_qingjia"),
    VerbCase("leave", "拒绝 QJ3301", "bohui_qingjia"),
    VerbCase("leave", "QJ3301 不批", None),
    VerbCase("leave", "QJ3301 先不批，等我问问", None),
    VerbCase("leave", "QJ3301 看着办", None),
    VerbCase("leave", "QJ3301 批了没", None),
    VerbCase("subscription", "SUB-204 停两周", "pause_subscription"),  # a span: a pause
    VerbCase("subscription", "SUB-204 暂停三周", "pause_subscription"),
    VerbCase("subscription", "SUB-204 先停一停，过阵子再送", "pause_subscription"),
    VerbCase("subscription", "SUB-204 恢复配送", "resume_subscription"),
    VerbCase("subscription", "SUB-204 接着送吧", "resume_subscription"),
    VerbCase("subscription", "SUB-204 退订，以后都不要了", "stop_subscription"),
    VerbCase("subscription", "SUB-204 不要再送了，彻底取消", "stop_subscription"),
    VerbCase("subscription", "SUB-204 搞一下", None),
    VerbCase("subscription", "SUB-204 别退订", None),
]
# ten paraphrases written after the rules, never used while building them
FRESH = [
    VerbCase("library", "LN6102 那本再借我一个月", "renew_loan"),
    VerbCase("library", "LN6102 书到期了，能续就续", "renew_loan"),
    VerbCase("library", "LN6102 我去还掉", "return_book"),
    VerbCase("library", "LN6102 交还", "return_book"),
    VerbCase("leave", "QJ4410 这个假我批准了", "pizhun_qingjia"),
    VerbCase("leave", "QJ4410 退回给他重填", "bohui_qingjia"),
    VerbCase("leave", "QJ4410 还是别批了", None),
    VerbCase("subscription", "SUB-311 恢复一下", "resume_subscription"),
    VerbCase("subscription", "SUB-311 先暂停吧，出差一个月", "pause_subscription"),
    VerbCase("subscription", "SUB-311 处理掉", None),
]


def score(case: VerbCase, calls: list[tuple[str, dict[str, Any]]], answer: str) -> str:
    effects = [name for name, _ in calls if name not in READ_ONLY]
    if any(name != case.tool for name in effects) or len(effects) > 1:
        return "wrong"
    if effects:
        return "handled"
    if case.tool is None and calls:
        return "handled"  # a lookup instead of a change
    return "asked" if "？" in answer or "?" in answer else "declined"


def run(case: VerbCase) -> tuple[list[tuple[str, dict[str, Any]]], str]:
    return run_request(SIMULATOR, TOOLSETS[case.toolset], case.request)


@pytest.mark.parametrize("case", CASES + FRESH, ids=lambda c: c.request)
def test_a_colloquial_verb_never_calls_the_other_write_tool(case):
    calls, answer = run(case)
    assert score(case, calls, answer) != "wrong", (calls, answer)


@pytest.mark.parametrize("case", [c for c in CASES + FRESH if c.tool is None], ids=str)
def test_an_unclear_or_negated_verb_changes_nothing_and_says_so(case):
    calls, answer = run(case)
    assert not [n for n, _ in calls if n not in READ_ONLY], calls
    assert answer and "已" not in answer.split("。")[0], answer


def test_the_scorer_catches_the_other_write_tool():
    case = VerbCase("leave", "QJ3301 打回去，材料不全", "bohui_qingjia")
    assert score(case, [("pizhun_qingjia", {"apply_id": "QJ3301"})], "已批准") == "wrong"
    assert score(VerbCase("leave", "QJ3301 不批", None), [("bohui_qingjia", {})], "") == "wrong"


def table(cases: list[VerbCase]) -> dict[str, int]:
    counts = {"handled": 0, "asked": 0, "declined": 0, "wrong": 0}
    for case in cases:
        calls, answer = run(case)
        verdict = score(case, calls, answer)
        counts[verdict] += 1
        if verdict != "handled":
            print(verdict, case.request, "→", case.tool, calls, "|", answer[:90])
    return counts


if __name__ == "__main__":
    print("built against:", table(CASES))
    print("fresh:", table(FRESH))
