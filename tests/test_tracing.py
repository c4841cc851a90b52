"""The tracer: one line per event with the course's and OTel's field names, tokens null when
unknown, redaction, crash safety.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import warnings
from datetime import datetime
from pathlib import Path

import pytest

from handwritten_agent.agent import Agent
from handwritten_agent.llm import OFFLINE_API_KEY, ChatClient
from handwritten_agent.messages import ChatResult, Usage
from handwritten_agent.scenarios import basic_registry
from handwritten_agent.scripted import ScriptedClient, call, calls, reply
from handwritten_agent.tools import ToolRegistry, tool
from handwritten_agent.tracing import Redactor, Tracer, TraceWarning, read_trace

NOW = datetime(2026, 3, 12, 14, 30)
ROOT = Path(__file__).resolve().parents[1]


def check_invariants(trace) -> None:
    """What the notebook asserts too: every tool call has a result line, every run one end line,
    tokens numbers or null.
    """
    for run in trace.runs:
        answered = [
            l["gen_ai.tool.call.id"]
            for l in run.lines
            if l["event"] in ("tool_result", "needs_confirmation")
        ]
        for line in run.tool_calls:
            assert line["gen_ai.tool.call.id"] in answered
        assert [l["stop_reason"] for l in run.of("run_end")] and all(
            l["stop_reason"] for l in run.of("run_end")
        )
        for line in run.lines:
            for key in ("input_tokens", "output_tokens"):
                if key in line:
                    assert line[key] is None or (
                        isinstance(line[key], int) and not isinstance(line[key], bool)
                    )


def test_a_run_becomes_lines_with_the_course_fields_and_otel_names(tmp_path, offline_server):
    client = ChatClient(offline_server.base_url, OFFLINE_API_KEY, "course-sim", max_retries=0)
    tracer = Tracer(tmp_path / "t.jsonl", client=client, user_id="u_001", session_id="s_01")
    result = Agent(client, basic_registry(NOW), hooks=[tracer]).run(
        "现在几点了？17 乘以 9 等于多少？"
    )
    tracer.close()
    trace = read_trace(tmp_path / "t.jsonl")
    run = trace.run()
    assert run.request_id == result.run_id and len(trace.runs) == 1
    assert [l["event"] for l in run.lines][0] == "run_start" and run.lines[-1]["event"] == "run_end"
    assert [l["seq"] for l in run.lines] == list(range(len(run.lines)))
    for line in run.lines:
        assert {
            "ts",
            "event",
            "request_id",
            "trace_id",
            "user_id",
            "session_id",
            "step",
            "gen_ai.operation.name",
        } <= set(line)
        assert (
            line["user_id"] == "u_001"
            and line["session_id"] == "s_01"
            and len(line["trace_id"]) == 32
        )
        datetime.fromisoformat(line["ts"])
    model = run.model_calls[0]
    assert (
        model["gen_ai.operation.name"] == "chat" and model["gen_ai.request.model"] == "course-sim"
    )
    assert (
        model["model"] == "course-sim"
        and isinstance(model["input_tokens"], int)
        and model["input_tokens"] > 0
    )
    assert model["finish_reason"] == "tool_calls" and model["tool_calls"] == [
        "get_current_time",
        "calculator",
    ]
    assert "gen_ai.input.messages" not in model  # full messages are off by default
    tools = {l["tool"]: l for l in run.tool_results}
    assert (
        tools["calculator"]["status"] == "success"
        and tools["calculator"]["output_summary"] == "153"
    )
    assert isinstance(tools["calculator"]["tool_duration_ms"], float)
    assert run.tool_calls[1]["gen_ai.tool.call.arguments"] == {"expression": "17 * 9"}
    end = run.end
    assert end["stop_reason"] == "final" and end["status"] == "success"
    assert end["input_tokens"] == sum(l["input_tokens"] for l in run.model_calls)
    assert (
        end["cost"] == pytest.approx(sum(l["cost"] for l in run.model_calls))
        and end["cost_currency"] == "CNY"
    )
    check_invariants(trace)


def test_tokens_not_reported_are_null_never_zero_and_the_totals_count_them():
    no_usage = ChatResult(
        content=None,
        tool_calls=[call("calculator", {"expression": "1+1"}, id="c1")],
        finish_reason="tool_calls",
        usage=None,
    )
    with_usage = ChatResult(content="2", finish_reason="stop", usage=Usage(40, 3), model="m")
    tracer = Tracer(redactor=Redactor(environment=False))
    Agent(ScriptedClient([no_usage, with_usage]), basic_registry(NOW), hooks=[tracer]).run("1+1")
    first, second = [l for l in tracer.lines if l["event"] == "model_call"]
    assert (
        first["input_tokens"] is None and first["output_tokens"] is None and first["cost"] is None
    )
    assert (second["input_tokens"], second["output_tokens"]) == (40, 3)
    end = tracer.lines[-1]
    assert end["input_tokens"] == 40 and end["usage_unknown"] == 1
    tracer2 = Tracer(redactor=Redactor(environment=False))
    Agent(
        ScriptedClient([ChatResult(content="好", usage=None)]), basic_registry(NOW), hooks=[tracer2]
    ).run("你好")
    assert tracer2.lines[-1]["input_tokens"] is None and tracer2.lines[-1]["cost"] is None


def test_every_line_reaches_the_file_before_the_next_event(tmp_path):
    path = tmp_path / "live.jsonl"
    seen: list[int] = []

    @tool
    def count_lines() -> int:
        """数一数 trace 文件现在有几行。"""
        seen.append(len(path.read_text(encoding="utf-8").splitlines()))
        return seen[-1]

    tracer = Tracer(path, redactor=Redactor(environment=False))
    Agent(
        ScriptedClient([calls(call("count_lines", {}, id="c1")), reply("好")]),
        ToolRegistry([count_lines]),
        hooks=[tracer],
    ).run("数")
    assert seen == [
        3
    ]  # run_start, model_call, tool_call were on disk while the tool ran (no buffering)


def test_a_partial_last_line_is_skipped_with_a_warning_and_a_damaged_middle_line_too(tmp_path):
    path = tmp_path / "t.jsonl"
    tracer = Tracer(path, redactor=Redactor(environment=False))
    Agent(ScriptedClient([reply("好")]), basic_registry(NOW), hooks=[tracer]).run("你好")
    tracer.close()
    whole = path.read_text(encoding="utf-8")
    path.write_text(
        whole + '{"ts": "2026-03-12T14:30:00.000+08:00", "event": "run_st', encoding="utf-8"
    )
    with pytest.warns(TraceWarning, match="最后一行"):
        trace = read_trace(path)
    assert len(trace.lines) == len(whole.splitlines()) and trace.run().stop_reason == "final"
    lines = whole.splitlines()
    path.write_text("\n".join(lines[:1] + ["{broken"] + lines[1:]) + "\n", encoding="utf-8")
    with pytest.warns(TraceWarning, match="第 2 行"):
        trace = read_trace(path)
    assert len(trace.lines) == len(lines)


def test_a_process_killed_mid_run_leaves_a_readable_trace(tmp_path):
    path = tmp_path / "crash.jsonl"
    script = textwrap.dedent(f"""
        import time
        from handwritten_agent.agent import Agent
        from handwritten_agent.scripted import ScriptedClient, call, calls, reply
        from handwritten_agent.tools import ToolRegistry, tool
        from handwritten_agent.tracing import Redactor, Tracer

        @tool(timeout=None)
        def slow_lookup(city: str) -> str:
            \"\"\"查一个城市（很慢）。

            Args:
                city: 城市名，例如：北京
            \"\"\"
            print("tool started", flush=True)
            time.sleep(60)
            return city

        tracer = Tracer({str(path)!r}, redactor=Redactor(environment=False))
        lookup = calls(call("slow_lookup", {{"city": "北京"}}, id="c1"))
        client = ScriptedClient([lookup, reply("好")])
        Agent(client, ToolRegistry([slow_lookup]), hooks=[tracer]).run("查北京")
    """)
    process = subprocess.Popen(
        [sys.executable, "-c", script], stdout=subprocess.PIPE, cwd=ROOT, text=True
    )
    try:
        assert process.stdout is not None and process.stdout.readline().strip() == "tool started"
        os.kill(
            process.pid, signal.SIGKILL
        )  # no atexit, no finally, no flush: the hardest way to die
        process.wait(timeout=10)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == -signal.SIGKILL
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # every line written before the kill is whole
        trace = read_trace(path)
    run = trace.run()
    assert [l["event"] for l in run.lines] == ["run_start", "model_call", "tool_call"]
    assert run.end is None and run.tool_calls[0]["gen_ai.tool.call.arguments"] == {"city": "北京"}
    from handwritten_agent.tracing import diagnose

    assert [f.rule for f in diagnose(trace)] == ["no_end"]


PLANTED = {
    "openai_key": "sk-proj-Abc123Def456Ghi789Jkl012Mno345",
    "bearer": "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1MDAxIn0.c2lnbmF0dXJl",
    "env_secret": "zq-LocalEnvSecret-9f8e7d6c",
    "phone": "13912345678",
    "id_card": "11010519491231002X",
    "email": "wang.fang@example.com",
    "bank_card": "6222021234567890128",  # passes the Luhn check
    "aws_key": "AKIAIOSFODNN7EXAMPLE",
    "github_token": "ghp_A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8",
    "id_card_typo": (
        "110105194912310021"
    ),  # an ID whose check character is wrong: still personal data
    "landline": "010-62345678",
}


def test_redaction_plants_secrets_and_personal_data_everywhere_and_finds_none_in_the_file(
    tmp_path, monkeypatch
):
    monkeypatch.setenv("PAYMENT_API_TOKEN", PLANTED["env_secret"])
    monkeypatch.chdir(tmp_path)
    (tmp_path / ".env").write_text(f"LLM_API_KEY={PLANTED['openai_key']}\n", encoding="utf-8")

    @tool
    def lookup_customer(phone: str) -> dict:
        """按手机号查客户，例如：13800000000。

        Args:
            phone: 客户手机号，例如：13800000000
        """
        return {
            "phone": phone,
            "id_card": PLANTED["id_card"],
            "email": PLANTED["email"],
            "card": PLANTED["bank_card"],
            "note": f"Authorization: Bearer {PLANTED['bearer']}",
            "api_key": "anything-here",
            "config": f"aws {PLANTED['aws_key']}，git {PLANTED['github_token']}",
            "other_id": PLANTED["id_card_typo"],
            "office_phone": PLANTED["landline"],
        }

    prompt = (
        f"我的手机 {PLANTED['phone']}，邮箱 {PLANTED['email']}，key 是 {PLANTED['openai_key']}，"
        f"token {PLANTED['env_secret']}"
    )
    script = [
        calls(call("lookup_customer", {"phone": PLANTED["phone"]}, id="c1")),
        reply(f"客户的卡号是 {PLANTED['bank_card']}，身份证 {PLANTED['id_card']}"),
    ]
    path = tmp_path / "t.jsonl"
    tracer = Tracer(path, user_id=PLANTED["phone"], record_messages=True)
    Agent(ScriptedClient(script), ToolRegistry([lookup_customer]), hooks=[tracer]).run(prompt)
    tracer.close()
    text = path.read_text(encoding="utf-8")
    leaked = [name for name, value in PLANTED.items() if value in text]
    assert not leaked, f"planted values found in the trace: {leaked}"
    assert "139****5678" in text and "w***@example.com" in text and "110***********002X" in text
    assert text.count('"gen_ai.input.messages"') == 2  # the full messages were recorded, redacted
    record = read_trace(path).run()
    assert record.tool_results[0]["gen_ai.tool.call.result"]["data"]["api_key"] == "***"


def test_redactor_leaves_counts_and_ordinary_text_alone():
    redactor = Redactor(environment=False)
    value = {
        "input_tokens": 12,
        "tokens_before": 300,
        "text": "订单 OD20240615 金额 299 元",
        "token": "abcdefgh123",
    }
    assert redactor(value) == {
        "input_tokens": 12,
        "tokens_before": 300,
        "text": "订单 OD20240615 金额 299 元",
        "token": "***",
    }
    assert redactor("password=hunter2hunter") == "password=***"


def test_lines_from_a_gate_and_a_confirmation_pause_keep_the_invariants():
    from handwritten_agent.confirmation import ConfirmationRequest
    from handwritten_agent.run import NeedsConfirmation

    class AskFirst:
        def check_call(self, call, context):
            context.report("permission", decision="ask", level="L2", tool=call.name)
            if context.decision is None:
                raise NeedsConfirmation(
                    ConfirmationRequest(
                        "req_1", context.run_id, call.id, call.name, {}, "x", summary="算一下"
                    )
                )
            return None

    tracer = Tracer(redactor=Redactor(environment=False))
    agent = Agent(
        ScriptedClient([calls(call("calculator", {"expression": "2*3"}, id="c1")), reply("6")]),
        basic_registry(NOW),
        hooks=[AskFirst(), tracer],
    )
    paused = agent.run("2 乘 3")
    assert paused.stop_reason == "needs_confirmation"
    agent.resume(paused, {"req_1": "approve"})
    trace = read_trace(tracer.lines)
    events = [l["event"] for l in trace.run().lines]
    assert (
        events.count("run_end") == 2
        and "needs_confirmation" in events
        and events.count("permission") == 2
    )
    assert trace.run().ends[0]["status"] == "paused" and trace.run().end["stop_reason"] == "final"
    check_invariants(trace)


def test_a_memory_hook_shows_as_a_memory_line_with_counts_before_and_after():
    tracer = Tracer(redactor=Redactor(environment=False))
    history = [{"role": "user", "content": "早"}, {"role": "assistant", "content": "早上好"}] * 3
    Agent(
        ScriptedClient([reply("好")]),
        basic_registry(NOW),
        memory=lambda m: m[:1] + m[-1:],
        hooks=[tracer],
    ).run("你好", history)
    memory = next(l for l in tracer.lines if l["event"] == "memory")
    assert (memory["messages_before"], memory["messages_after"]) == (8, 2) and memory[
        "tokens_after"
    ] < memory["tokens_before"]
    model = next(l for l in tracer.lines if l["event"] == "model_call")
    assert model["message_count"] == 2  # what was actually sent


def test_a_gates_data_never_overwrites_the_lines_own_fields():
    class Reports:
        def check_call(self, call, context):
            context.report(
                "permission", decision="allow", request_id="req_1", step=99, event="oops"
            )
            return None

    tracer = Tracer(redactor=Redactor(environment=False))
    result = Agent(
        ScriptedClient([calls(call("calculator", {"expression": "2*3"}, id="c1")), reply("6")]),
        basic_registry(NOW),
        hooks=[Reports(), tracer],
    ).run("2 乘 3")
    line = next(l for l in tracer.lines if l["event"] == "permission")
    assert (
        line["request_id"] == result.run_id
        and line["step"] == 1
        and line["data.request_id"] == "req_1"
    )
    assert line["data.step"] == 99 and line["data.event"] == "oops" and line["decision"] == "allow"


def test_the_office_assistant_behind_the_policy_gate_traces_every_decision(
    tmp_path, offline_server
):
    from handwritten_agent.permissions import PolicyGate, User, approve
    from handwritten_agent.scenarios.office import OfficeScenario

    office = OfficeScenario.create(tmp_path / "office", now=NOW)
    zhang = User("E001", role="行政助理", name="张明")
    client = ChatClient(offline_server.base_url, OFFLINE_API_KEY, "course-sim", max_retries=0)
    tracer = Tracer(tmp_path / "t.jsonl", client=client, record_messages=True, user_id=zhang.id)
    agent = Agent(
        client, office.registry(zhang), hooks=[PolicyGate(office.policy(), zhang), tracer]
    )
    paused = agent.run("帮我预订 2026-03-13 15:00 到 16:00 的会议室 room_301，6 个人")
    done = agent.resume(paused, {paused.pending[0].id: approve()})
    tracer.close()
    trace = read_trace(tmp_path / "t.jsonl")
    run = trace.run()
    assert done.stop_reason == "final" and run.user_id == "E001"
    decisions = [l["decision"] for l in run.of("permission")]
    assert len(decisions) == 2 and decisions[0] != decisions[1] and run.of("needs_confirmation")
    assert all(l["request_id"] == paused.run_id for l in run.lines)
    check_invariants(trace)
    from handwritten_agent.tracing import replay

    with pytest.raises(
        ValueError, match="暂停后继续"
    ):  # a resumed run is refused, never half replayed
        replay(trace)
