"""The simulator scored on requests generated from templates over three invented tool sets.

The tool sets are none of the course's office tools: a gym front desk described in Chinese, a
purchasing desk described in English, and a sports venue whose tools have pinyin names and Chinese
descriptions. Each template names a kind (a question ending in a particle, a colloquial or
mistyped verb, a colloquial relative time, merged items, Chinese numerals, an unknown status word
in a result) and is filled with values drawn from small tables, so the requests are not the ones
the rules were written against. Each case states what a careful assistant does: act (which tool,
which values), or make no side effect (answer, ask, or say it did not understand).

Scoring, per request: **handled** (the expected action with the expected values, or a request
that must not act answered from a read-only tool), **asked** (a question back, no side effect),
**declined** (an honest "I cannot tell / did not understand", no side effect), **wrong** (a side
effect not asked for, or with a wrong value) and **false claim** (a question acknowledged as
a statement, a success reported as not done, a failure or a non-action reported as done). The
test asserts no wrong side effect and no false claim; ``python -m tests.test_simulator_generated``
prints the table.

Left out: requests written by anyone but the template author (the templates share their author's
blind spots), and tool sets with more than three tools.
"""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import pytest

from handwritten_agent.course.offline.simulator import CourseSimulator
from tests.simkit import fn, run_request

NOW = datetime(2026, 3, 12, 14, 30)  # a Thursday
SIMULATOR = CourseSimulator(now=NOW)


def s(description: str) -> dict[str, Any]:
    return {"type": "string", "description": description}


def i(description: str) -> dict[str, Any]:
    return {"type": "integer", "description": description}


GYM = [
    fn(
        "book_class",
        "预订团课名额，例如 课程=瑜伽",
        {
            "course": s("课程名称，例如 瑜伽、动感单车"),
            "start": s("上课开始时间，格式 YYYY-MM-DD HH:MM"),
            "people": i("人数"),
        },
        ["course", "start", "people"],
    ),
    fn(
        "cancel_class",
        "取消一个团课预订，例如 预订号 GB3012",
        {"booking_id": s("预订号，例如 GB3012")},
        ["booking_id"],
    ),
    fn("list_classes", "查询某天的团课安排", {"date": s("日期 YYYY-MM-DD")}, ["date"]),
]
SHOP = [
    fn(
        "create_purchase",
        "Create a purchase order for one item",
        {
            "item": s("the item to buy"),
            "quantity": i("how many units"),
            "unit_price": {"type": "number", "description": "price of one unit in yuan"},
        },
        ["item", "quantity", "unit_price"],
    ),
    fn(
        "void_order",
        "Void a purchase order by its id, e.g. PO7781",
        {"order_id": s("purchase order id like PO7781")},
        ["order_id"],
    ),
    fn("check_stock", "Check whether an item is in stock", {"item": s("item name")}, ["item"]),
]
VENUE = [
    fn(
        "yuliu_changdi",
        "预留运动场地，例如 场地=篮球场",
        {
            "venue": s("场地名称，例如 篮球场、羽毛球馆"),
            "date": s("日期 YYYY-MM-DD"),
            "time": s("开始时间 HH:MM"),
            "headcount": i("使用人数"),
        },
        ["venue", "date", "time", "headcount"],
    ),
    fn(
        "quxiao_yuliu",
        "取消场地预留，例如 单号 CD2207",
        {"order_no": s("预留单号，例如 CD2207")},
        ["order_no"],
    ),
    fn(
        "chaxun_kaifang",
        "查询场馆某天是否开放及开放时间",
        {"venue": s("场地名称"), "date": s("日期 YYYY-MM-DD")},
        ["venue", "date"],
    ),
]
READ_ONLY = {"list_classes", "check_stock", "chaxun_kaifang"}
TOOLSETS = {"gym": GYM, "shop": SHOP, "venue": VENUE}

Check = Callable[[dict[str, Any]], bool]


@dataclass
class Case:
    toolset: str
    request: str
    act: list[tuple[str, dict[str, Any]]] | None = None  # None: no side effect expected
    results: dict[str, Any] = field(default_factory=dict)
    succeeded: bool = True  # the side effect's result reports success


@dataclass
class Outcome:
    calls: list[tuple[str, dict[str, Any]]]
    answer: str


def run(case: Case) -> Outcome:
    calls, answer = run_request(
        SIMULATOR,
        TOOLSETS[case.toolset],
        case.request,
        case.results,
        default={"success": True, "data": {}},
        turns=5,
    )
    return Outcome(calls, answer)


ACKNOWLEDGED = re.compile(r"好的，知道了|记下了|已记录|noted", re.I)
NOT_DONE = re.compile(r"没有执行|没有成功|未执行|not carried out|could not|失败")
DONE = re.compile(r"已(?:经)?(?:为你|帮你)?(?:取消|预订|预留|作废|撤销|下单|创建|提交)|成功")


def _same(expected: Any, got: Any) -> bool:
    if isinstance(expected, (int, float)) and not isinstance(expected, bool):
        try:
            return float(got) == float(expected)
        except (TypeError, ValueError):
            return False
    return str(expected) in str(got)


def score_case(case: Case, outcome: Outcome) -> tuple[str, bool]:
    """(handled | asked | wrong, false claim) for one request."""
    effects = [(n, a) for n, a in outcome.calls if n not in READ_ONLY]
    answer = outcome.answer
    false = False
    if case.act is None:
        verdict = "wrong" if effects else "handled"
        if re.search(r"[吗呢么没不]\s*[?？]?$|是不是|[?？]", case.request) and ACKNOWLEDGED.search(
            answer
        ):
            false = True
        if not effects and DONE.search(answer) and not outcome.calls:
            false = True
        if verdict == "handled" and not outcome.calls:
            # nothing looked up: a question back, or an honest "I cannot tell / did not understand"
            verdict = "asked" if re.search(r"[?？]", answer) else "declined"
        return verdict, false
    if not effects:
        asked = re.search(r"[?？]", answer)
        return "asked" if asked else "declined", bool(DONE.search(answer) and not asked)
    wanted = sorted(case.act, key=lambda c: json.dumps(c, ensure_ascii=False))
    if len(effects) != len(wanted):
        return "wrong", False
    for (name, args), (want_name, want_args) in zip(
        sorted(effects, key=lambda c: json.dumps(c, ensure_ascii=False)), wanted
    ):
        if name != want_name or not all(_same(v, args.get(k)) for k, v in want_args.items()):
            # merged items may be sorted differently: try every pairing before calling it wrong
            break
    else:
        pass
    matched = all(
        any(
            name == want_name and all(_same(v, args.get(k)) for k, v in want_args.items())
            for name, args in effects
        )
        for want_name, want_args in case.act
    )
    if not matched:
        return "wrong", False
    if case.succeeded and NOT_DONE.search(answer):
        false = True
    if not case.succeeded and not NOT_DONE.search(answer):
        false = True
    return "handled", false


# --- the templates -------------------------------------------------------------------------

QUESTION_TEMPLATES = [
    "{subject}这周六开放不",
    "{subject}明天开没？",
    "{subject}是不是周日不开",
    "{subject}周五还能用吗",
    "{subject}今天开着呢",
    "{subject}下午开么？",
]
QUESTION_SUBJECTS = {"venue": ["篮球场", "羽毛球馆"], "gym": ["瑜伽课", "动感单车课"]}

CANCEL_TEMPLATES = ["把 {id} 撤了", "{id} 不要了，退掉吧", "{id} 这单作废掉", "帮我撤销 {id}"]
CANCEL_NEAR_QUESTIONS = ["{id} 撤了吗", "{id} 是不是已经作废了？", "{id} 退掉没"]
IDS = {
    "gym": ("cancel_class", "booking_id", ["GB3012", "GB4410"]),
    "shop": ("void_order", "order_id", ["PO7781", "PO1206"]),
    "venue": ("quxiao_yuliu", "order_no", ["CD2207", "CD9031"]),
}
SUCCESS_RESULTS = [
    {"status": "voided"},
    {"status": "queued", "ticket": "T-88"},
    {"result": "已受理"},
    {"ok": True, "state": "cancelled"},
    {"code": 200, "status": "已撤销"},
    {"success": True, "data": {"status": "cancelled"}},
]
FAILURE_RESULTS = [
    {"ok": False, "reason": "单号不存在"},
    {"code": 404, "message": "order not found"},
    {"success": False, "error": "已过截止时间，不能取消"},
]

# (request, date, time) relative to NOW = 2026-03-12 14:30 (Thu)
TIMES = [
    ("后天一早八点", "2026-03-14", "08:00"),
    ("今儿晚上七点", "2026-03-12", "19:00"),
    ("大后天下午三点半", "2026-03-15", "15:30"),
    ("下下周一上午十点", "2026-03-23", "10:00"),
    ("明儿下午两点", "2026-03-13", "14:00"),
]
PAST_TIMES = ["昨天下午三点", "今天上午九点", "前天晚上八点"]
VAGUE_TIMES = ["后天一早", "今儿晚上", "下下周一下午"]  # no hour: ask, never guess one
PEOPLE = [("俩人", 2), ("仨人", 3), ("两个人", 2), ("十二个人", 12), ("5 个人", 5)]
BOOK_VERBS = ["定一个", "占一下", "帮我排上", "预订"]

ITEMS = [
    ("显示器 2 台每台 1299；键盘 3 个每个 199", [("显示器", 2, 1299), ("键盘", 3, 199)]),
    ("鼠标两个每个八十；耳机一副每副三百五", [("鼠标", 2, 80), ("耳机", 1, 350)]),
    ("打印纸十箱每箱一百二", [("打印纸", 10, 120)]),
    ("椅子 4 把每把 1.2千", [("椅子", 4, 1200)]),
]
AMBIGUOUS_ITEMS = ["显示器和键盘一共 5 个，总价 3000", "买点显示器键盘，钱不超过 1.2万"]


def cases() -> list[Case]:
    out: list[Case] = []
    for toolset, subjects in QUESTION_SUBJECTS.items():
        for template, subject in itertools.product(QUESTION_TEMPLATES, subjects):
            out.append(Case(toolset, template.format(subject=subject)))
    for toolset, (tool, key, ids) in IDS.items():
        for n, (template, ident) in enumerate(itertools.product(CANCEL_TEMPLATES, ids)):
            result = SUCCESS_RESULTS[n % len(SUCCESS_RESULTS)]
            out.append(
                Case(toolset, template.format(id=ident), [(tool, {key: ident})], {tool: result})
            )
        for template in CANCEL_NEAR_QUESTIONS:
            out.append(Case(toolset, template.format(id=ids[0])))
        for result in FAILURE_RESULTS:
            out.append(
                Case(
                    toolset,
                    f"把 {ids[1]} 撤了",
                    [(tool, {key: ids[1]})],
                    {tool: result},
                    succeeded=False,
                )
            )
    for n, ((when, day, clock), (people, count)) in enumerate(itertools.product(TIMES, PEOPLE)):
        if n % 2:
            continue
        verb = BOOK_VERBS[n % len(BOOK_VERBS)]
        out.append(
            Case(
                "gym",
                f"{when}{verb}瑜伽课，{people}",
                [("book_class", {"course": "瑜伽", "start": f"{day} {clock}", "people": count})],
            )
        )
        out.append(
            Case(
                "venue",
                f"{when}{verb}篮球场，{people}",
                [
                    (
                        "yuliu_changdi",
                        {"venue": "篮球场", "date": day, "time": clock, "headcount": count},
                    )
                ],
            )
        )
    for when in VAGUE_TIMES:
        out.append(Case("venue", f"{when}占一下篮球场，6 个人"))
        out.append(Case("gym", f"{when}帮我排上瑜伽课，仨人"))
    for when in PAST_TIMES:
        out.append(Case("venue", f"{when}占一下篮球场，4 个人"))
        out.append(Case("gym", f"{when}定一个瑜伽课，俩人"))
    for text, items in ITEMS:
        out.append(
            Case(
                "shop",
                f"帮我下单：{text}",
                [
                    ("create_purchase", {"item": item, "quantity": qty, "unit_price": price})
                    for item, qty, price in items
                ],
            )
        )
    for text in AMBIGUOUS_ITEMS:
        out.append(Case("shop", f"帮我下单，{text}"))
    return out


CASES = cases()


def table(results: list[tuple[Case, str, bool]]) -> dict[str, int]:
    counts = {"handled": 0, "asked": 0, "declined": 0, "wrong": 0, "false claims": 0}
    for _, verdict, false in results:
        counts[verdict] += 1
        counts["false claims"] += false
    return counts


def score_all() -> list[tuple[Case, str, bool, Outcome]]:
    scored = []
    for case in CASES:
        outcome = run(case)
        verdict, false = score_case(case, outcome)
        scored.append((case, verdict, false, outcome))
    return scored


def test_the_generated_set_is_large_and_spans_three_tool_sets():
    assert len(CASES) >= 40
    assert {case.toolset for case in CASES} == set(TOOLSETS)


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c.toolset}:{c.request}")
def test_no_wrong_side_effect_and_no_false_claim(case):
    outcome = run(case)
    verdict, false = score_case(case, outcome)
    assert verdict != "wrong", (outcome.calls, outcome.answer)
    assert not false, (outcome.calls, outcome.answer)


def test_the_scorer_catches_a_planted_wrong_action_and_false_claims():
    booking = Case("gym", "后天一早定一个瑜伽课，俩人", [("book_class", {"people": 2})])
    mixed = Outcome([("book_class", {"course": "瑜伽", "people": 3})], "已预订")
    assert score_case(booking, mixed)[0] == "wrong"
    question = Case("venue", "篮球场这周六开放不")
    assert score_case(question, Outcome([], "好的，知道了。"))[1]
    assert score_case(question, Outcome([("quxiao_yuliu", {"order_no": "CD1"})], ""))[0] == "wrong"
    cancel = Case("shop", "把 PO7781 撤了", [("void_order", {"order_id": "PO7781"})])
    assert score_case(cancel, Outcome([("void_order", {"order_id": "PO7781"})], "作废没有执行"))[1]


if __name__ == "__main__":
    rows = score_all()
    for case, verdict, false, outcome in rows:
        if verdict != "handled" or false:
            print(verdict, "FALSE" if false else "", case.toolset, case.request)
            print("    ", outcome.calls, "|", outcome.answer[:160].replace("\n", " "))
    print(len(rows), table([(c, v, f) for c, v, f, _ in rows]))
