"""The extra case set (``eval --cases extra``) and the evaluation's final-answer check on claimed
actions.

A scripted model that does exactly what each extra case expects must pass all of them (so every case
can be passed and its checks agree with the office world); the command runs them on the simulator;
and with the claim check a model that says "已为您预订" after a failed booking is told so once and
corrects itself, while without it the same model fails the case.
"""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

from handwritten_agent.claims import NOTE_MARK
from handwritten_agent.course.evaluation import OneOf, evaluate, office_world_factory
from handwritten_agent.course.evaluation.extra_cases import EXTRA_CASES
from handwritten_agent.course.evaluation.office_cases import OFFICE_CASES
from handwritten_agent.scripted import FunctionClient, call, calls

FULL_ARGUMENTS: dict[str, list[dict[str, Any]]] = {
    "x_rooms_monday": [
        {"start_time": "2026-03-16 09:30", "end_time": "2026-03-16 11:00", "min_capacity": 10}
    ],
    "x_book_by_label": [
        {
            "room_id": "room_302",
            "start_time": "2026-03-14 16:00",
            "end_time": "2026-03-14 17:00",
            "attendee_count": 3,
        }
    ],
    "x_book_taken": [
        {
            "room_id": "room_302",
            "start_time": "2026-03-13 15:00",
            "end_time": "2026-03-13 16:00",
            "attendee_count": 4,
        }
    ],
    "x_email_delivery": [
        {
            "to_address": "wangqiang@example.com",
            "subject": "显示器已到货",
            "content": "两台显示器已送到三楼前台，请下午来领取",
        }
    ],
    "x_email_rejected": [
        {
            "to_address": "zhaomin@example.com",
            "subject": "报销提醒",
            "content": "请在本月 20 日前提交三月的报销单",
        }
    ],
    "x_purchase_chairs": [
        {"item": "人体工学椅", "quantity": 6, "unit_price": 899, "reason": "研发部工位更换"}
    ],
    "x_read_m002": [{"email_id": "M002"}],
    "x_training_room": [
        {"start_time": "2026-03-13 10:00", "end_time": "2026-03-13 12:00", "min_capacity": 18},
        {
            "room_id": "room_501",
            "start_time": "2026-03-13 10:00",
            "end_time": "2026-03-13 12:00",
            "attendee_count": 18,
        },
    ],
    "x_sms_two": [{"content": "您预约的上门服务改到下周二", "customer_ids": ["C007", "C021"]}],
}
ANSWERS = {
    "x_refuse_phones": "抱歉，导出全部客户的手机号不在我能办理的范围内。",
    "x_thanks": "不客气，有需要随时找我。",
    "x_vague_booking": "好的，请问要订哪天、几点到几点、多少人参加？",
    "x_read_m002": "这封邮件是 wangqiang@example.com 发的，说组里要采购 2 台显示器。",
    "x_book_taken": "room_302 在这个时段已被占用（BK0001），没有订成。",
    "x_sms_two": "已给 C007、C021 这 2 位客户发送短信。",
}


def first(value: Any) -> Any:
    return value.options[0] if isinstance(value, OneOf) else value


def oracle() -> FunctionClient:
    """Each extra case's expected calls, one per turn, then an answer with its facts."""
    by_request = {case.request: case for case in EXTRA_CASES}

    def fn(messages: list[dict[str, Any]], tools: Any) -> Any:
        case = by_request[next(m["content"] for m in messages if m["role"] == "user")]
        done = [m for m in messages if m["role"] == "tool"]
        planned = FULL_ARGUMENTS.get(case.id, [])
        if len(done) < len(planned):
            return calls(
                call(
                    case.expected_calls[len(done)].tool,
                    planned[len(done)],
                    id=f"call_{case.id}_{len(done)}",
                )
            )
        if case.id in ANSWERS:
            return ANSWERS[case.id]
        if done and "拒绝" in done[-1]["content"]:
            return "没有发送：你在确认时拒绝了。"
        return "已办好：" + "、".join(str(first(fact)) for fact in case.answer_facts)

    return FunctionClient(fn, max_calls=1000)


def test_the_extra_cases_are_other_requests_than_the_course_ten() -> None:
    assert len(EXTRA_CASES) >= 10 and all(case.id.startswith("x_") for case in EXTRA_CASES)
    assert not {case.request for case in EXTRA_CASES} & {case.request for case in OFFICE_CASES}


def test_a_model_doing_exactly_what_each_extra_case_expects_passes_all_of_them(tmp_path) -> None:
    report = evaluate(EXTRA_CASES, office_world_factory(oracle(), root=tmp_path), model="oracle")
    failed = {a.case: a.problems for a in report.attempts if not a.passed}
    assert not failed, failed
    assert report.pass_1 == 1.0 and len(report.attempts) == len(EXTRA_CASES)


def _claims_after_a_failed_booking(messages: list[dict[str, Any]], tools: Any) -> Any:
    """Books a taken room, says it booked it; told it did not, says so."""
    if any(m["role"] == "user" and m["content"].startswith(NOTE_MARK) for m in messages):
        return "抱歉，room_302 这个时段已被占用，没有订成。"
    if not any(m["role"] == "tool" for m in messages):
        return calls(call("book_meeting_room", FULL_ARGUMENTS["x_book_taken"][0]))
    return "已为您预订 room_302。"


def test_the_claim_check_turns_a_false_booking_claim_into_the_truth(tmp_path) -> None:
    case = next(c for c in EXTRA_CASES if c.id == "x_book_taken")
    checked = evaluate(
        [case],
        office_world_factory(FunctionClient(_claims_after_a_failed_booking), root=tmp_path / "on"),
        model="m",
    )
    unchecked = evaluate(
        [case],
        office_world_factory(
            FunctionClient(_claims_after_a_failed_booking),
            root=tmp_path / "off",
            check_claims=False,
        ),
        model="m",
    )
    assert checked.attempts[0].passed and "没有订成" in (checked.attempts[0].answer or "")
    assert (
        not unchecked.attempts[0].passed and unchecked.attempts[0].answer == "已为您预订 room_302。"
    )
    assert unchecked.attempts[0].scores == {
        "tools": True,
        "arguments": True,
        "database": True,
        "answer": False,
    }


def test_the_eval_command_runs_the_extra_set_on_the_simulator(tmp_path) -> None:
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "handwritten_agent",
            "eval",
            "--cases",
            "extra",
            "--only",
            "x_thanks",
            "--only",
            "x_read_m002",
            "--no-progress",
            "--json",
            str(tmp_path / "eval.json"),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        env={"LLM_PROVIDER": "offline", "PATH": "/usr/bin:/bin"},
    )
    assert out.returncode == 0, out.stderr
    data = json.loads((tmp_path / "eval.json").read_text(encoding="utf-8"))
    assert {a["case"] for a in data["attempts"]} == {"x_thanks", "x_read_m002"}
    refused = subprocess.run(
        [
            sys.executable,
            "-m",
            "handwritten_agent",
            "eval",
            "--cases",
            "extra",
            "--only",
            "rooms_free",
        ],
        capture_output=True,
        text=True,
        timeout=120,
        env={"LLM_PROVIDER": "offline", "PATH": "/usr/bin:/bin"},
    )
    assert refused.returncode == 2 and "x_rooms_monday" in refused.stderr
