"""Each kind of misreading, over generated inputs with a planted violation and a near variant.

- a tool result's success read from its structure (``results.read_result``): unknown status words,
  ``ok``/``success`` booleans, HTTP-like codes, a word of rejection that is the tool's own outcome;
- a question whether something happened ("撤了吗") is no request to make it happen
  (``vocabulary.asks_about_state``), while a polite request ("帮我撤了吧？") still is;
- Chinese numerals read the same way everywhere (``text.find_numbers``, ``preflight.items``),
  approximate counts ("十几个") read as no value;
- merged items split into one call per item (``preflight.split_items``), a joined count asked about.
"""

from __future__ import annotations

import itertools
import json

import pytest

from handwritten_agent.course.offline.simulator.preflight import items
from handwritten_agent.course.offline.simulator.results import DENIED, ERROR, OK, read_result
from handwritten_agent.course.offline.simulator.text import find_numbers
from handwritten_agent.course.offline.simulator.vocabulary import asks_about_state, is_question
from tests.test_simulator_generated import Case, Outcome, run, score_case

CANCEL_TOOLS = ["void_order Void a purchase order", "quxiao_yuliu 取消场地预留", "撤销申请"]
OTHER_TOOLS = ["book_room Book a meeting room", "fasong_tongzhi 发送通知"]
UNKNOWN_WORDS = ["voided", "queued", "已受理", "archived", "processing", "待处理中", "closed_out"]


def shapes(status: str) -> list[dict]:
    return [
        {"status": status},
        {"ok": True, "state": status},
        {"code": 200, "status": status},
        {"success": True, "data": {"status": status, "id": "X1"}},
        {"result": status, "http_status": 201},
    ]


@pytest.mark.parametrize(
    "result, tool",
    [
        (shape, tool)
        for word, tool in itertools.product(UNKNOWN_WORDS, CANCEL_TOOLS + OTHER_TOOLS)
        for shape in shapes(word)
    ],
)
def test_an_unknown_status_word_without_an_error_is_success(result, tool):
    assert read_result(json.dumps(result, ensure_ascii=False), tool).status == OK


@pytest.mark.parametrize(
    "result",
    [
        {"ok": False, "reason": "单号不存在"},
        {"success": False, "message": "already closed"},
        {"code": 404, "message": "not found"},
        {"status_code": "503", "detail": "维护中"},
        {"status": 500, "msg": "内部错误"},
        {"succeeded": False},
        {"error": "库存不足"},
    ],
)
def test_a_failure_is_read_from_the_structure_whatever_its_words(result):
    assert read_result(json.dumps(result, ensure_ascii=False), "void_order").status == ERROR


@pytest.mark.parametrize("word", ["cancelled", "canceled", "已取消", "已撤销"])
def test_a_cancellation_is_the_outcome_of_a_cancel_tool_and_a_refusal_of_any_other(word):
    raw = json.dumps({"status": word}, ensure_ascii=False)
    for tool in CANCEL_TOOLS:
        assert read_result(raw, tool).status == OK, (word, tool)
    # the planted violation: the same word from a tool that books or sends means it was not done
    for tool in OTHER_TOOLS:
        assert read_result(raw, tool).status == DENIED, (word, tool)
    assert (
        read_result(json.dumps({"success": True, "data": {"status": word}}), "void_order").status
        == OK
    )


VERBS = ["撤", "退", "作废", "取消", "订", "发", "交"]
STATE_FORMS = [
    "{id} {v}了吗",
    "{id} {v}掉没",
    "{id} 是不是已经{v}了？",
    "{id} 已经{v}了么",
    "{id} {v}过没有",
]
REQUEST_FORMS = [
    "帮我把 {id} {v}了吧？",
    "能不能把 {id} {v}了",
    "麻烦{v}一下 {id} 好吗",
    "{id} {v}了吧",
]


@pytest.mark.parametrize(
    "text", [f.format(id="AB1234", v=v) for f, v in itertools.product(STATE_FORMS, VERBS)]
)
def test_a_question_whether_it_happened_is_about_state(text):
    assert is_question(text) and asks_about_state(text), text


@pytest.mark.parametrize(
    "text", [f.format(id="AB1234", v=v) for f, v in itertools.product(REQUEST_FORMS, VERBS)]
)
def test_a_request_with_a_question_ending_is_still_a_request(text):
    assert not asks_about_state(text), text


@pytest.mark.parametrize(
    "text, value",
    [
        ("俩", 2),
        ("仨", 3),
        ("两", 2),
        ("一千二", 1200),
        ("三千五", 3500),
        ("1.2万", 12000),
        ("1.2千", 1200),
        ("一万二", 12000),
        ("十七", 17),
        ("一", 1),
    ],
)
def test_chinese_numerals_and_amounts_read_one_way(text, value):
    assert [n.value for n in find_numbers(text)] == [value]
    # the item reader sees the same value as quantity and as price
    (item,) = items(f"椅子 {text} 把每把 {text}")
    assert (item.quantity, item.price) == (value, value)


@pytest.mark.parametrize("text", ["十几个人", "20 多人", "几十台", "十来个人"])
def test_an_approximate_count_is_no_value(text):
    assert find_numbers(text) == []


NAMES = ["显示器", "键盘", "打印纸", "投影仪", "台灯"]
QTY = [("2", 2), ("两", 2), ("三", 3), ("10", 10)]
PRICE = [("1299", 1299), ("一千二", 1200), ("八十", 80), ("1.5千", 1500)]
UNITS = ["台", "个", "箱"]


def merged_requests():
    out = []
    for n, (a, b) in enumerate(itertools.combinations(NAMES, 2)):
        qa, qb = QTY[n % len(QTY)], QTY[(n + 1) % len(QTY)]
        pa, pb = PRICE[n % len(PRICE)], PRICE[(n + 2) % len(PRICE)]
        ua, ub = UNITS[n % 3], UNITS[(n + 1) % 3]
        text = f"帮我下单：{a} {qa[0]} {ua}每{ua} {pa[0]}；{b} {qb[0]} {ub}每{ub} {pb[0]}"
        out.append((text, [(a, qa[1], pa[1]), (b, qb[1], pb[1])]))
    return out


@pytest.mark.parametrize("text, wanted", merged_requests())
def test_merged_items_become_one_call_per_item_each_with_its_own_values(text, wanted):
    act = [("create_purchase", {"item": n, "quantity": q, "unit_price": p}) for n, q, p in wanted]
    case = Case("shop", text, act)
    outcome = run(case)
    assert score_case(case, outcome) == ("handled", False), (outcome.calls, outcome.answer)
    assert len(outcome.calls) == len(wanted)


def test_the_item_check_catches_values_mixed_across_items():
    case = Case(
        "shop",
        "帮我下单：显示器 2 台每台 1299；键盘 3 个每个 199",
        [
            ("create_purchase", {"item": "显示器", "quantity": 2, "unit_price": 1299}),
            ("create_purchase", {"item": "键盘", "quantity": 3, "unit_price": 199}),
        ],
    )
    mixed = [
        ("create_purchase", {"item": "显示器", "quantity": 3, "unit_price": 1299}),
        ("create_purchase", {"item": "键盘", "quantity": 2, "unit_price": 199}),
    ]
    assert score_case(case, Outcome(mixed, ""))[0] == "wrong"


@pytest.mark.parametrize(
    "text",
    ["帮我下单：{a}和{b}一共 5 个，每个 300", "帮我下单，{a}跟{b}总共 4 台每台 1200"],
)
@pytest.mark.parametrize("a, b", list(itertools.combinations(NAMES[:4], 2))[:3])
def test_a_joined_count_is_asked_about_never_acted_on(text, a, b):
    outcome = run(Case("shop", text.format(a=a, b=b)))
    assert not outcome.calls, outcome.calls
    assert "？" in outcome.answer or "请" in outcome.answer, outcome.answer
