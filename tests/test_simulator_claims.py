"""The final answer states only what the tool results say: no value the result contradicts, no
success the result refuses.

Generated over four write tools of three invented tool sets (a gym, a venue with pinyin names, a
purchasing desk in English, a courier desk in English), each answered with results of three
kinds:

- a success whose own field differs from what was asked (the class moved to 16:00, the price is
  1199, the venue is another one): the asked value must not appear as the outcome, the result's
  value must;
- a refusal said in the result's structure (``accepted: false``, ``ok: false``, a nested
  ``status: rejected`` under ``success: true``): the answer must not say it was done;
- a plain success: the answer says it was done (no "没有成功").

Left out: values inside free-text messages of the result (they are relayed as they are).
"""

from __future__ import annotations

import itertools
import re
from datetime import datetime

import pytest

from handwritten_agent.course.offline.simulator import CourseSimulator
from tests.test_simulator_generated import GYM, SHOP, VENUE
from tests.test_simulator_times import COURIER, run_request

SIMULATOR = CourseSimulator(now=datetime(2026, 3, 12, 9, 0))
# tool set, request, tool, (field, asked value as said, the result's other value)
ACTIONS = [
    (GYM, "明天下午三点帮我定个瑜伽课，俩人", "book_class", ("start", "15:00", "2026-03-13 16:30")),
    (VENUE, "明天下午三点占一下篮球场，6 个人", "yuliu_changdi", ("venue", "篮球场", "羽毛球馆")),
    (VENUE, "后天晚上七点帮我预留羽毛球馆，四个人", "yuliu_changdi", ("time", "19:00", "20:30")),
    (SHOP, "帮我下单：显示器 2 台每台 1299", "create_purchase", ("unit_price", "1299", 1199)),
    (
        COURIER,
        "明天上午十点让快递来3号楼前台取件，2 个包裹",
        "schedule_pickup",
        ("pickup_time", "10:00", "2026-03-13T11:15"),
    ),
]
REFUSALS = [
    {"accepted": False, "reason": "名额已满"},
    {"ok": False, "message": "超出预算"},
    {"success": True, "data": {"status": "rejected", "reason": "审批未通过"}},
    {"success": False, "error": "系统维护中"},
]
DONE = re.compile(r"^已(?!拒绝)|^Done\b|(?<!没有)(?<!未)成功")
NOT_DONE = re.compile(r"没有成功|没有执行|未执行|失败|拒绝|not carried out|could not")


def _contradicting(field: str, value: object) -> dict:
    return {"success": True, "data": {"id": "R77", field: value}}


CASES = [
    (tools, request, tool, kind, result, field)
    for (tools, request, tool, field), (kind, result) in itertools.product(
        ACTIONS,
        [("moved", None), ("plain", {"success": True, "data": {"id": "R77"}})]
        + [("refused", r) for r in REFUSALS],
    )
]


def _result(kind: str, result: dict | None, field: tuple) -> dict:
    return _contradicting(field[0], field[2]) if kind == "moved" else result or {}


@pytest.mark.parametrize(
    "tools, said, tool, kind, result, field",
    CASES,
    ids=[f"{c[2]}:{c[3]}:{i}" for i, c in enumerate(CASES)],
)
def test_the_answer_states_what_the_result_says(tools, said, tool, kind, result, field):
    calls, answer = run_request(SIMULATOR, tools, said, {tool: _result(kind, result, field)})
    assert [name for name, _ in calls] == [tool], (calls, answer)
    if kind == "moved":
        name, asked, other = field
        shown = str(other)[-5:] if ":" in str(other) else str(other)
        assert asked not in answer, (answer, asked)
        assert shown in answer, (answer, shown)
    elif kind == "refused":
        assert not DONE.search(answer), answer
        assert NOT_DONE.search(answer), answer
    else:
        assert not NOT_DONE.search(answer), answer


def test_the_checks_catch_a_planted_claim():
    assert DONE.search("已预订团课名额（瑜伽 2026 年 3 月 13 日 15:00）")
    assert not NOT_DONE.search("已创建采购（显示器），accepted为否")
    assert "15:00" in "已预订团课名额（瑜伽 2026 年 3 月 13 日 15:00），开始于 16:30"
