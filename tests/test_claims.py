"""Final answers that claim an action no tool performed: found, told to the model once, and left
alone when true.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import pytest

from handwritten_agent.agent import Agent
from handwritten_agent.claims import (
    NOTE_MARK,
    UNBACKED,
    ClaimCheck,
    already_noted,
    find_claims,
    unbacked_claims,
)
from handwritten_agent.permissions import User, approve, reject
from handwritten_agent.run import StopRun, ending_zh
from handwritten_agent.scenarios.office import OfficeScenario
from handwritten_agent.scripted import ScriptedClient, call, calls
from handwritten_agent.service.agents import office_agent
from handwritten_agent.tools import ToolError, ToolRegistry, tool

NOW = datetime(2026, 3, 12, 14, 30)
SIDE_EFFECT_TOOLS = {
    "book_meeting_room": "预订会议室，需要会议室编号、时间段和参会人数",
    "send_notification_email": "向指定邮箱发送会议通知邮件",
    "submit_purchase_request": "提交采购申请并生成工单",
}


@pytest.mark.parametrize(
    "answer, actions",
    [
        ("已为您预订 room_301，预订编号 BK0002。", ["预订"]),
        ("预订成功！", ["预订"]),
        ("我已经成功提交了采购申请", ["提交"]),
        ("邮件已发送给 lili@example.com", ["发送"]),
        ("已帮你订好了 B501", ["预订"]),
        ("采购申请提交成功，工单号 PR20260312001", ["提交"]),
        ("I have booked room_301 for you. The email has been sent.", ["预订", "发送"]),
    ],
)
def test_phrases_that_state_a_completed_action_are_claims(answer: str, actions: list[str]) -> None:
    assert [claim.action for claim in find_claims(answer)] == actions


@pytest.mark.parametrize(
    "answer",
    [
        "没有预订：你在确认时拒绝了这个操作。",
        "未能预订成功，room_302 已被占用。",
        "您要预订了吗？",
        "我可以帮您预订会议室，请告诉我时间。",
        "很抱歉，这次预订被拒绝，操作已取消。",
        "The room was not booked.",
        "查询到以下空闲会议室：B501、B502。",
        "无法提交，已被拒绝。",
    ],
)
def test_negations_offers_and_queries_are_not_claims(answer: str) -> None:
    assert find_claims(answer) == []


def test_a_claim_is_unbacked_unless_a_related_side_effect_call_succeeded() -> None:
    answer = "已为您预订 room_301。"
    assert unbacked_claims(answer, [], SIDE_EFFECT_TOOLS)  # nothing ran
    assert unbacked_claims(
        answer, [("book_meeting_room", False)], SIDE_EFFECT_TOOLS
    )  # it ran and failed
    assert unbacked_claims(
        answer, [("send_notification_email", True)], SIDE_EFFECT_TOOLS
    )  # something else succeeded
    assert unbacked_claims(
        answer, [("query_room_availability", True)], SIDE_EFFECT_TOOLS
    )  # a read-only tool backs nothing
    assert unbacked_claims(answer, [("book_meeting_room", True)], SIDE_EFFECT_TOOLS) == []


def test_an_action_no_tool_names_is_backed_by_any_successful_side_effect() -> None:
    assert (
        unbacked_claims("已为您登记。", [("submit_purchase_request", True)], SIDE_EFFECT_TOOLS)
        == []
    )
    assert unbacked_claims("已为您登记。", [], SIDE_EFFECT_TOOLS)


# ---------------------------------------------------- the hook and the wrapper, on a small registry


def registry(booked: list[str], fail: bool = False) -> ToolRegistry:
    @tool(side_effects=True)
    def book_room(room: str) -> dict:
        """预订一间会议室，返回预订编号。

        Args:
            room: 会议室编号，例如：room_301
        """
        if fail:
            raise ToolError(f"{room} 已被占用")
        booked.append(room)
        return {"booking_id": f"BK{len(booked):04d}", "room": room}

    @tool
    def list_rooms(size: int) -> dict:
        """查询能坐下 size 个人的会议室。

        Args:
            size: 人数，例如：6
        """
        return {"rooms": ["room_301"]}

    return ToolRegistry([book_room, list_rooms])


def test_a_false_claim_is_sent_back_once_and_the_model_then_acts() -> None:
    booked: list[str] = []
    client = ScriptedClient(
        [
            "已为您预订 room_301。",
            calls(call("book_room", {"room": "room_301"})),
            "已为您预订 room_301，编号 BK0001。",
        ]
    )
    agent = Agent(client, registry(booked), hooks=[ClaimCheck.from_registry(registry(booked))])
    result = agent.run("帮我订 room_301", run_id="run_claim")
    assert result.stop_reason == "final" and result.answer == "已为您预订 room_301，编号 BK0001。"
    assert booked == ["room_301"] and result.run_id == "run_claim"
    notes = [
        m["content"]
        for m in result.messages
        if m["role"] == "user" and m["content"].startswith(NOTE_MARK)
    ]
    assert (
        len(notes) == 1
        and "“已为您预订”" in notes[0]
        and "没有调用任何" in notes[0]
        and "“帮我订 room_301”" in notes[0]
    )
    assert [step.index for step in result.steps] == [1, 2, 3] and [
        r.call.name for r in result.tool_calls
    ] == ["book_room"]
    assert client.remaining == 0


def test_the_note_says_why_a_call_failed_and_a_second_claim_ends_the_run() -> None:
    client = ScriptedClient(
        [calls(call("book_room", {"room": "room_302"})), "预订成功！", "已经预订好了。"]
    )
    result = Agent(
        client, registry([], fail=True), hooks=[ClaimCheck.from_registry(registry([], fail=True))]
    ).run("帮我订 room_302")
    notes = [
        m["content"]
        for m in result.messages
        if m["role"] == "user" and m["content"].startswith(NOTE_MARK)
    ]
    assert len(notes) == 1 and "book_room 执行失败" in notes[0] and "已被占用" in notes[0]
    # told once, not twice: the run is bounded; and the claim made again is not the answer
    assert client.remaining == 0 and result.stop_reason == UNBACKED, result.stop_reason
    assert result.answer is None, result.answer
    error = result.error or ""
    assert "“已经预订好了”" in error or "“预订好了”" in error, error
    assert "book_room 执行失败" in error and "没有作为最终回答" in error, error
    assert ending_zh(result.stop_reason) == "回答声称做了没有做成的事，被拦下了"


def test_a_second_answer_that_no_longer_claims_is_the_answer() -> None:
    client = ScriptedClient(
        [
            calls(call("book_room", {"room": "room_302"})),
            "预订成功！",
            "没有订成：room_302 已被占用。",
        ]
    )
    result = Agent(
        client, registry([], fail=True), hooks=[ClaimCheck.from_registry(registry([], fail=True))]
    ).run("帮我订 room_302")
    assert result.stop_reason == "final" and result.answer == "没有订成：room_302 已被占用。"


def test_a_true_or_honest_answer_is_left_alone() -> None:
    true_claim = ScriptedClient(
        [calls(call("book_room", {"room": "room_301"})), "已为您预订 room_301，编号 BK0001。"]
    )
    assert (
        Agent(true_claim, registry([]), hooks=[ClaimCheck.from_registry(registry([]))])
        .run("订 room_301")
        .answer
        == "已为您预订 room_301，编号 BK0001。"
    )
    honest = ScriptedClient(["请问要订哪一天、几点的会议室？"])
    result = Agent(honest, registry([]), hooks=[ClaimCheck.from_registry(registry([]))]).run(
        "帮我订个会议室"
    )
    assert result.answer == "请问要订哪一天、几点的会议室？" and not already_noted(result.messages)


def test_a_claim_at_the_last_step_is_not_the_answer() -> None:
    # max_steps=1: no step is left for a note, so the claim ends the run instead of standing
    client = ScriptedClient(["已为您预订 room_301。"])
    result = Agent(
        client, registry([]), max_steps=1, hooks=[ClaimCheck.from_registry(registry([]))]
    ).run("帮我订 room_301")
    assert result.stop_reason == UNBACKED and result.answer is None, result.stop_reason
    assert "最后一步" in (result.error or "") and "“已为您预订”" in (result.error or "")
    # the same at the end of a longer run: the claim comes at step 2 of 2
    client = ScriptedClient([calls(call("list_rooms", {"size": 6})), "已为您预订 room_301。"])
    result = Agent(
        client, registry([]), max_steps=2, hooks=[ClaimCheck.from_registry(registry([]))]
    ).run("帮我订 room_301")
    assert result.stop_reason == UNBACKED and result.answer is None, result.stop_reason
    # an honest answer at the last step stands
    client = ScriptedClient(["请问要订哪一天？"])
    result = Agent(
        client, registry([]), max_steps=1, hooks=[ClaimCheck.from_registry(registry([]))]
    ).run("帮我订个会议室")
    assert result.stop_reason == "final" and result.answer == "请问要订哪一天？"


def test_a_note_from_any_hook_at_the_last_step_withholds_the_answer() -> None:
    class Objects:
        def review_answer(self, answer, run, context):  # type: ignore[no-untyped-def]
            return "请再核对一遍。"

    result = Agent(ScriptedClient(["好的"]), registry([]), max_steps=1, hooks=[Objects()]).run(
        "你好"
    )
    assert result.stop_reason == "max_steps" and result.answer is None, result.stop_reason


def test_an_answer_that_leaves_out_the_id_an_action_returned_is_sent_back_once() -> None:
    booked: list[str] = []
    client = ScriptedClient(
        [
            calls(call("book_room", {"room": "room_301"})),
            "已为您预订。",  # true, but says neither what was booked nor its number
            "已为您预订 room_301，预订编号 BK0001。",
        ]
    )
    result = Agent(
        client, registry(booked), hooks=[ClaimCheck.from_registry(registry(booked))]
    ).run("帮我订 room_301")
    assert result.stop_reason == "final" and "BK0001" in (result.answer or ""), result.answer
    notes = [m["content"] for m in result.messages if str(m.get("content")).startswith(NOTE_MARK)]
    assert len(notes) == 1 and "booking_id（BK0001）" in notes[0] and "不需要再调用工具" in notes[0]
    assert booked == ["room_301"] and client.remaining == 0  # nothing booked twice
    # told once: a second answer without the id stands (it is short, not false)
    terse = ScriptedClient(
        [calls(call("book_room", {"room": "room_301"})), "已为您预订。", "已经订好了。"]
    )
    result = Agent(terse, registry([]), hooks=[ClaimCheck.from_registry(registry([]))]).run(
        "帮我订 room_301"
    )
    assert result.stop_reason == "final" and result.answer == "已经订好了。"
    # at the last step there is no step to send it back to: the answer stands
    last = ScriptedClient([calls(call("book_room", {"room": "room_301"})), "已为您预订。"])
    result = Agent(
        last, registry([]), max_steps=2, hooks=[ClaimCheck.from_registry(registry([]))]
    ).run("帮我订 room_301")
    assert result.stop_reason == "final" and result.answer == "已为您预订。"


def test_only_ids_an_action_returned_are_asked_for() -> None:
    from handwritten_agent.claims import unreported_ids

    check = ClaimCheck.from_registry(registry([]))
    client = ScriptedClient([calls(call("book_room", {"room": "room_301"})), "好"])
    run = Agent(client, registry([])).run("订 room_301")
    assert unreported_ids("好", run.tool_calls, check.tools) == [
        ("book_room", "booking_id", "BK0001")
    ]
    assert unreported_ids("编号 BK0001", run.tool_calls, check.tools) == []
    assert unreported_ids("room_301 订好了", run.tool_calls, check.tools) == []  # says what
    # a read-only tool's result, and an id the call was given, are not asked for
    reads = ScriptedClient([calls(call("list_rooms", {"size": 6})), "有 room_301"])
    run = Agent(reads, registry([])).run("6 人的会议室")
    assert unreported_ids("好", run.tool_calls, check.tools) == []


def test_saying_nothing_was_found_when_a_read_returned_items_is_a_false_claim() -> None:
    client = ScriptedClient(
        [
            calls(call("list_rooms", {"size": 6})),
            "抱歉，没有找到能坐 6 个人的会议室。",  # the result lists room_301
            "能坐 6 个人的有 room_301。",
        ]
    )
    result = Agent(client, registry([]), hooks=[ClaimCheck.from_registry(registry([]))]).run(
        "6 个人能用哪间会议室？"
    )
    assert result.stop_reason == "final" and result.answer == "能坐 6 个人的有 room_301。"
    notes = [m["content"] for m in result.messages if str(m.get("content")).startswith(NOTE_MARK)]
    assert len(notes) == 1 and "“没有找到”" in notes[0] and "返回了 1 条结果" in notes[0], notes
    assert "room_301" in notes[0], notes  # the note names what was found: a small model reads it


def test_a_note_names_at_most_a_few_of_many_items_found() -> None:
    from handwritten_agent.claims import NAMED_ITEMS, _first_names

    many = [{"room_id": f"room_{n}", "capacity": 6} for n in range(12)]
    text = _first_names(many)
    assert text.count("room_") == NAMED_ITEMS and "共 12 条" in text, text
    assert _first_names([{"ok": True}]) == "见上面"  # nothing to name an item by


@pytest.mark.parametrize(
    "answer",
    [
        "没有找到能坐 20 人的，能坐 6 人的有 room_301。",  # names what was found
        "room_301 可以用。",
        "找到了一间：room_301。",
    ],
)
def test_an_answer_that_names_what_a_read_returned_is_no_denial(answer: str) -> None:
    from handwritten_agent.claims import denied_results

    check = ClaimCheck.from_registry(registry([]))
    run = Agent(ScriptedClient([calls(call("list_rooms", {"size": 6})), "好"]), registry([])).run(
        "6 个人"
    )
    assert denied_results(answer, run.tool_calls, check.tools) == []
    assert denied_results("没有查到空闲的会议室。", run.tool_calls, check.tools)
    assert denied_results("No rooms available.", run.tool_calls, check.tools)
    nothing = Agent(ScriptedClient(["没有找到。"]), registry([])).run("6 个人")
    assert denied_results("没有找到。", nothing.tool_calls, check.tools) == []  # nothing was read


def test_review_answer_is_a_hook_the_loop_calls_once_per_run() -> None:
    check = ClaimCheck.from_registry(registry([]))
    assert check.side_effect_tools.keys() == {"book_room"}
    client = ScriptedClient(["已为您预订。"])
    result = Agent(client, registry([])).run("订 room_301")
    note = check.review_answer(result.answer or "", result)
    assert note is not None and note.startswith(NOTE_MARK)
    noted = [
        *result.messages,
        {"role": "user", "content": note},
        {"role": "assistant", "content": "已为您预订。"},
    ]
    result.messages = noted
    with pytest.raises(StopRun) as stopped:  # once per run: a claim made again ends the run
        check.review_answer("已为您预订。", result)
    assert stopped.value.reason == UNBACKED and "“已为您预订”" in stopped.value.message
    assert check.review_answer("请问要订哪一天？", result) is None  # an honest answer stands


# ----------------------------------------------------- the office agent, with its confirmation gate


def test_on_the_office_agent_a_rejected_booking_cannot_be_reported_as_done(tmp_path: Path) -> None:
    office = OfficeScenario.create(tmp_path / "office", now=NOW)
    user = User("E001", role="行政助理", name="张明")
    arguments = {
        "room_id": "room_301",
        "start_time": "2026-03-13 10:00",
        "end_time": "2026-03-13 11:00",
        "attendee_count": 5,
    }
    client = ScriptedClient(
        [
            calls(call("book_meeting_room", arguments)),
            "已为您预订 room_301。",
            "没有预订：您在确认时拒绝了。",
        ]
    )
    agent = office_agent(client, office, office.policy(), user, now=NOW)
    paused = agent.run("帮我订明天上午 10 点的 room_301，5 个人")
    assert paused.stop_reason == "needs_confirmation"
    result = agent.resume(
        paused, {request.id: reject("不需要了", by=user) for request in paused.pending}
    )
    assert (
        result.answer == "没有预订：您在确认时拒绝了。" and office.count("bookings") == 1
    )  # only the seed booking
    note = next(
        m["content"]
        for m in result.messages
        if m["role"] == "user" and m["content"].startswith(NOTE_MARK)
    )
    assert "book_meeting_room 没有执行" in note


def test_on_the_office_agent_an_approved_booking_stands(tmp_path: Path) -> None:
    office = OfficeScenario.create(tmp_path / "office", now=NOW)
    user = User("E001", role="行政助理", name="张明")
    arguments = {
        "room_id": "room_301",
        "start_time": "2026-03-13 10:00",
        "end_time": "2026-03-13 11:00",
        "attendee_count": 5,
    }
    client = ScriptedClient(
        [calls(call("book_meeting_room", arguments)), "已为您预订 room_301，编号 BK0002。"]
    )
    agent = office_agent(client, office, office.policy(), user, now=NOW)
    paused = agent.run("帮我订明天上午 10 点的 room_301，5 个人")
    result = agent.resume(paused, {request.id: approve(by=user) for request in paused.pending})
    assert (
        result.answer == "已为您预订 room_301，编号 BK0002。"
        and client.remaining == 0
        and office.count("bookings") == 2
    )
