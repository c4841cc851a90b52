"""diagnose: each row of the course's error table produced on purpose (simulator faults, a scripted
model) and found.
"""

from __future__ import annotations

from datetime import datetime

import pytest

from handwritten_agent.agent import Agent
from handwritten_agent.llm import OFFLINE_API_KEY, ChatClient
from handwritten_agent.scenarios import basic_registry
from handwritten_agent.scripted import ScriptedClient, call, calls, reply
from handwritten_agent.tools import ToolRegistry
from handwritten_agent.tracing import Redactor, Tracer, diagnose, five_steps
from handwritten_agent.tracing.diagnose import RULES, acknowledges_failure

NOW = datetime(2026, 3, 12, 14, 30)
QUESTION = "现在几点了？17 乘以 9 等于多少？"


def traced(client, registry=None, question=QUESTION, **agent_options):
    tracer = Tracer(client=client, redactor=Redactor(environment=False), record_messages=True)
    Agent(
        client,
        registry if registry is not None else basic_registry(NOW),
        hooks=[tracer],
        **agent_options,
    ).run(question)
    return tracer.lines


def sim(offline_server, fault="", **options):
    return ChatClient(
        offline_server.base_url,
        OFFLINE_API_KEY,
        "course-sim" + (f":{fault}" if fault else ""),
        max_retries=options.pop("max_retries", 0),
        backoff=0.0,
        max_wait=0.0,
        **options,
    )


def rules(lines, **options):
    return [f.rule for f in diagnose(lines, **options)]


def test_a_clean_run_has_no_finding_and_passes_all_five_steps(offline_server):
    lines = traced(sim(offline_server))
    assert diagnose(lines) == []
    checks = five_steps(lines)
    assert [c.number for c in checks] == [1, 2, 3, 4, 5] and all(c.ok for c in checks)


def test_no_tool_call_when_no_tools_were_sent_or_an_expected_tool_was_not_used(offline_server):
    lines = traced(sim(offline_server), ToolRegistry())
    found = diagnose(lines)
    assert (
        [f.rule for f in found] == ["no_tool_call"]
        and "没有带 tools" in found[0].detail
        and found[0].step == 1
    )
    chat = traced(sim(offline_server), question="你好，你是谁？")
    assert rules(chat) == []  # chit-chat needs no tool: nothing to report …
    assert rules(chat, expect_tools=True) == ["no_tool_call"]  # … unless you said one was expected
    assert (
        rules(
            lines_with_calc := traced(sim(offline_server), question="17 乘以 9 等于多少？"),
            expect_tools=["calculator"],
        )
        == []
    )
    assert rules(lines_with_calc, expect_tools=["get_weather"]) == ["no_tool_call"]
    assert five_steps(lines)[0].ok is False


def test_a_tool_error_the_answer_ignores(offline_server):
    script = [calls(call("calculator", {"expression": "1/0"}, id="c1")), reply("结果是 42。")]
    found = diagnose(traced(ScriptedClient(script)))
    assert (
        [f.rule for f in found] == ["tool_error_ignored"]
        and found[0].step == 1
        and found[0].tool_call_id == "c1"
    )
    honest = traced(
        sim(offline_server), question="计算 1 除以 0"
    )  # the simulator reports the error
    assert "tool_error_ignored" not in rules(honest)
    retried = [
        calls(call("calculator", {"expression": "1/0"}, id="c1")),
        calls(call("calculator", {"expression": "1/1"}, id="c2")),
        reply("1"),
    ]
    assert rules(traced(ScriptedClient(retried))) == []
    assert acknowledges_failure("除数为零，无法计算") and not acknowledges_failure("结果是 42")


def test_the_same_call_repeated_ends_at_max_steps(offline_server):
    found = diagnose(traced(sim(offline_server, "repeat_forever"), max_steps=4))
    assert [f.rule for f in found] == ["repeated_call", "max_steps"]
    assert found[0].step == 2 and "4 次" in found[0].detail and found[1].step == 4


def test_reused_tool_call_ids_and_a_tool_message_answering_the_wrong_id(offline_server):
    found = diagnose(traced(sim(offline_server, "bad_tool_call_id")))
    assert [f.rule for f in found] == ["tool_call_id"] and "call_0" in found[0].detail
    lines = traced(
        ScriptedClient([calls(call("calculator", {"expression": "2"}, id="c1")), reply("2")])
    )
    model = [l for l in lines if l["event"] == "model_call"][1]
    # a classic bug: an id made from the turn
    model["gen_ai.input.messages"][-1]["tool_call_id"] = "call_1_calculator"
    assert rules(lines) == ["tool_call_id"] and five_steps(lines)[2].ok is False


@pytest.mark.parametrize("fault", ["malformed_json", "string_arguments"])
def test_arguments_that_are_not_a_json_object(offline_server, fault):
    found = diagnose(traced(sim(offline_server, fault)))
    assert {f.rule for f in found} == {"invalid_arguments"} and all(f.step == 1 for f in found)


def test_a_tool_the_model_was_not_offered(offline_server):
    found = diagnose(traced(sim(offline_server, "unknown_tool"), question="17 乘以 9 等于多少？"))
    assert [f.rule for f in found] == ["unknown_tool"] and "calculator_tool" in found[0].detail


@pytest.mark.parametrize(
    "fault, title", [("empty_reply", "空回复"), ("server_error", "5xx"), ("rate_limit", "429")]
)
def test_model_errors_and_retries(offline_server, fault, title):
    client = sim(offline_server, fault, max_retries=1 if fault == "rate_limit" else 0)
    # nothing wired: the client's retries reach the tracer as events of the run
    found = diagnose(traced(client))
    if fault == "rate_limit":  # one 429, then success: a retry line, found as information
        # the fault answers 429 to the first attempt of each request it has not seen yet (the server
        # is shared by the session)
        assert (
            found
            and {f.rule for f in found} == {"rate_limited"}
            and found[0].severity == "info"
            and "429" in found[0].title
        )
    else:
        assert (
            [f.rule for f in found] == ["model_error"]
            and title in found[0].title
            and found[0].step == 1
        )


def test_a_slow_reply_timing_out_and_a_time_budget(offline_server):
    found = diagnose(traced(sim(offline_server, "slow", timeout=0.3)))
    assert [f.rule for f in found] == ["model_error"] and "超时" in found[0].title
    slow = diagnose(traced(sim(offline_server, "slow")), slow_ms=200)
    assert "slow_model_call" in [f.rule for f in slow]
    timed = traced(sim(offline_server, "slow"), question="17 乘以 9 等于多少？", max_seconds=0.2)
    assert rules(timed, slow_ms=0) == ["timeout"]


def test_unknown_rule_names_are_refused():
    with pytest.raises(ValueError, match="可用的规则"):
        diagnose([], rules=["nope"])
    assert {
        "no_tool_call",
        "tool_error_ignored",
        "repeated_call",
        "tool_call_id",
        "invalid_arguments",
    } <= set(RULES)


def _lines_with_tool_time(tool_ms: float, run_ms: float, request_id: str = "r1") -> list[dict]:
    """A run's lines as the tracer writes them, with chosen durations (no need to sleep for
    seconds).
    """
    base = {"request_id": request_id, "ts": "2026-03-12T14:30:00.000000+08:00"}
    return [
        {**base, "event": "run_start", "step": 0, "seq": 0},
        {
            **base,
            "event": "model_call",
            "step": 1,
            "seq": 1,
            "tool_calls": ["slow_report"],
            "tools_offered": ["slow_report"],
            "finish_reason": "tool_calls",
            "duration_ms": 50.0,
        },
        {
            **base,
            "event": "tool_call",
            "step": 1,
            "seq": 2,
            "tool": "slow_report",
            "gen_ai.tool.call.id": "c1",
        },
        {
            **base,
            "event": "tool_result",
            "step": 1,
            "seq": 3,
            "tool": "slow_report",
            "gen_ai.tool.call.id": "c1",
            "status": "success",
            "tool_duration_ms": tool_ms,
        },
        {
            **base,
            "event": "model_call",
            "step": 2,
            "seq": 4,
            "tool_calls": [],
            "tools_offered": ["slow_report"],
            "finish_reason": "stop",
            "duration_ms": 50.0,
        },
        {**base, "event": "final", "step": 2, "seq": 5, "answer": "报告已生成。"},
        {
            **base,
            "event": "run_end",
            "step": 2,
            "seq": 6,
            "stop_reason": "final",
            "status": "success",
            "duration_ms": run_ms,
        },
    ]


def test_tools_taking_most_of_a_run_are_reported_at_the_slowest_tool_short_runs_not_judged():
    found = [f for f in diagnose(_lines_with_tool_time(1500, 1800)) if f.rule == "tool_time_share"]
    assert (
        len(found) == 1
        and found[0].step == 1
        and found[0].tool_call_id == "c1"
        and "83%" in found[0].title
    )
    assert "slow_report" in found[0].detail and "缓存" in found[0].advice
    assert "tool_time_share" not in rules(_lines_with_tool_time(1000, 1800))  # 56%: under 70%
    assert "tool_time_share" not in rules(
        _lines_with_tool_time(1260, 1800)
    )  # exactly 70% is not more than 70%
    assert "tool_time_share" not in rules(
        _lines_with_tool_time(150, 180)
    )  # a 180 ms run is not judged
    assert "tool_time_share" in rules(_lines_with_tool_time(150, 180), min_run_ms=100)
    assert "tool_time_share" in rules(_lines_with_tool_time(1000, 1800), tool_share=0.5)
    assert "tool_time_share" in RULES


def test_a_cached_tool_result_does_not_count_as_time_in_tools():
    lines = _lines_with_tool_time(1500, 1800)
    lines[3] = {**lines[3], "status": "cached"}
    assert "tool_time_share" not in rules(lines)
