"""The simulator on wordings and tool sets it was never shown: it acts right, asks, or says it did
not understand.

A clinic front desk (three tools described in English, one with a pinyin name and a Chinese
description) and questions ending in particles. Checks from the outside: which tool was called, and
what the answer does not claim.
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any

import pytest

from handwritten_agent.course.offline.simulator import CourseSimulator
from handwritten_agent.course.offline.simulator.vocabulary import expand, is_question
from tests.simkit import fn, run_request

SIMULATOR = CourseSimulator(now=datetime(2026, 3, 12, 14, 30))
ACKNOWLEDGED = re.compile(r"好的，知道了|noted", re.I)
NO_TOOL = re.compile(r"没有能做这件事|none of the \d+ tools")


CLINIC = [
    fn(
        "yuyue_menzhen",
        "给病人预约门诊，例如 科室=内科",
        {
            "patient": {"type": "string", "description": "病人姓名"},
            "dept": {"type": "string", "description": "科室"},
            "date": {"type": "string", "description": "日期 YYYY-MM-DD"},
        },
        ["patient", "dept", "date"],
    ),
    fn(
        "void_visit",
        "Void an existing visit by its id, e.g. VS5521",
        {"visit_id": {"type": "string", "description": "visit id like VS5521"}},
        ["visit_id"],
    ),
    fn(
        "find_chart",
        "Find a patient's chart by the patient's name",
        {"name": {"type": "string", "description": "patient name"}},
        ["name"],
    ),
]


def run(
    request: str, results: dict[str, Any] | None = None
) -> tuple[list[tuple[str, dict[str, Any]]], str]:
    return run_request(SIMULATOR, CLINIC, request, results, default={"success": True, "data": {}})


@pytest.mark.parametrize(
    "text",
    [
        "下周一门诊开不开",
        "VS5521 那个号还在不",
        "内科今天有大夫没",
        "病历能调出来么",
        "可以帮忙挂号不？",
        "is the clinic open on sunday?",
    ],
)
def test_a_question_is_never_acknowledged_as_a_statement(text):
    assert is_question(text), text
    calls, answer = run(text)
    assert not ACKNOWLEDGED.search(answer), answer
    assert not [name for name, _ in calls if name in ("yuyue_menzhen", "void_visit")], calls


@pytest.mark.parametrize("text", ["今天有点冷", "我叫王小明"])
def test_a_statement_is_not_taken_for_a_question(text):
    assert not is_question(text)


@pytest.mark.parametrize(
    "text",
    ["把 VS5521 撤了", "VS5521 这个号作废掉", "VS5521 不要了，退掉吧", "cancel visit VS5521"],
)
def test_a_colloquial_or_chinese_cancel_reaches_the_english_tool(text):
    calls, _ = run(text)
    assert calls == [("void_visit", {"visit_id": "VS5521"})], calls


@pytest.mark.parametrize("status", ["voided", "archived", "closed_out"])
def test_an_unknown_status_word_without_an_error_is_reported_as_what_the_result_says(status):
    calls, answer = run("把 VS5521 撤了", {"void_visit": {"status": status, "visit_id": "VS5521"}})
    assert calls and calls[0][0] == "void_visit", calls
    assert status in answer and not re.search(
        r"没有执行|没有成功|not carried out|could not", answer
    ), answer


@pytest.mark.parametrize("text", ["门诊那边帮我弄一下", "病人的事你看着办吧"])
def test_a_request_whose_words_fit_a_tool_is_never_told_no_tool_can_do_it(text):
    calls, answer = run(text)
    side_effects = [name for name, _ in calls if name != "find_chart"]
    assert not side_effects, calls
    if not calls:
        assert not NO_TOOL.search(answer), answer


def test_the_glossary_links_chinese_english_and_pinyin_both_ways():
    assert "cancel" in expand("把预约撤了").split() and "取消" in expand("Void a visit").split()
    assert "预约" in expand("yuyue_menzhen").split() and "patient" in expand("查病人").split()


@pytest.mark.parametrize(
    "word, offset", [("今儿", 0), ("明儿个", 1), ("后儿", 2), ("大后儿", 3), ("昨儿", -1)]
)
def test_colloquial_day_words_are_read_from_the_table(word, offset):
    from datetime import date, timedelta

    from handwritten_agent.course.offline.simulator.dates import find_dates

    today = date(2026, 3, 12)
    assert [found for found, _ in find_dates(f"{word}下午三点", today)] == [
        today + timedelta(days=offset)
    ]
