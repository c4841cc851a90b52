"""The ReAct loop, first with scripted replies (exact control), then against the real offline
server.
"""

from __future__ import annotations

import json
import time
from datetime import datetime

import pytest
from well_formed import assert_well_formed

from handwritten_agent.agent import DEFAULT_SYSTEM_PROMPT, REPEATED_CALL_NOTE, Agent
from handwritten_agent.display import format_event, format_run, print_event
from handwritten_agent.messages import ChatResult, ToolCall
from handwritten_agent.run import AgentEvent, RunResult
from handwritten_agent.scenarios import basic_registry
from handwritten_agent.scripted import ScriptedClient, call, calls, reply
from handwritten_agent.tools import ToolRegistry, tool

NOW = datetime(2026, 3, 12, 14, 30)


def make_agent(*replies, **options) -> tuple[Agent, ScriptedClient]:
    client = ScriptedClient(replies)
    return Agent(client, basic_registry(NOW), **options), client


def tool_messages(messages: list[dict]) -> list[dict]:
    return [m for m in messages if m["role"] == "tool"]


# --------------------------------------------------------------------------- scripted


def test_direct_answer_ends_with_final():
    agent, client = make_agent(reply("你好！我是一个可以调用工具的助手。"))
    result = agent.run("你好，你是谁？")
    assert (result.stop_reason, result.error, result.answer) == (
        "final",
        None,
        "你好！我是一个可以调用工具的助手。",
    )
    assert [m["role"] for m in result.messages] == ["system", "user", "assistant"]
    assert result.messages[0]["content"] == DEFAULT_SYSTEM_PROMPT
    assert len(result.steps) == 1 and result.tool_calls == []
    assert [t["function"]["name"] for t in client.requests[0]["tools"]] == [
        "calculator",
        "get_current_time",
        "get_weather",
        "get_exchange_rate",
    ]


def test_multi_step_run_echoes_assistant_messages_and_answers_each_call():
    first = calls(call("get_current_time", {}, id="call_time"))
    second = calls(call("calculator", '{"expression":"17*9"}', id="call_calc"))
    agent, client = make_agent(first, second, reply("现在是 14:30，17 乘以 9 等于 153。"))
    result = agent.run("现在几点了？17 乘以 9 等于多少？")

    assert result.stop_reason == "final" and "153" in result.answer
    assert [m["role"] for m in result.messages] == [
        "system",
        "user",
        "assistant",
        "tool",
        "assistant",
        "tool",
        "assistant",
    ]
    assert result.messages[2] == first.to_message()
    assert (
        result.messages[4]["tool_calls"][0]["function"]["arguments"] == '{"expression":"17*9"}'
    )  # raw text, byte for byte
    assert_well_formed(result.messages)
    assert json.loads(result.messages[3]["content"])["data"]["time"] == "14:30:00"
    assert json.loads(result.messages[5]["content"]) == {
        "success": True,
        "data": 153,
        "error": None,
    }
    # the model saw the tool results on the next call
    assert client.requests[2]["messages"] == result.messages[:-1]
    assert [r.result.data for r in result.tool_calls][1] == 153 and all(
        r.duration_ms >= 0 for r in result.tool_calls
    )


def test_parallel_calls_run_and_are_answered_in_order():
    order = []

    @tool
    def note(text: str) -> str:
        """记下一段文字。

        Args:
            text: 文字，例如：你好
        """
        order.append(text)
        return text

    client = ScriptedClient(
        [
            calls(
                call("note", {"text": "a"}, id="c1"),
                call("note", {"text": "b"}, id="c2"),
                call("note", {"text": "c"}, id="c3"),
            ),
            reply("记好了"),
        ]
    )
    result = Agent(client, ToolRegistry([note])).run("记三件事")
    assert order == ["a", "b", "c"]
    assert [m["tool_call_id"] for m in tool_messages(result.messages)] == ["c1", "c2", "c3"]
    assert [json.loads(m["content"])["data"] for m in tool_messages(result.messages)] == [
        "a",
        "b",
        "c",
    ]
    assert_well_formed(result.messages)


def test_repeated_identical_call_is_not_executed_again():
    runs = []

    @tool
    def lookup(city: str, date: str = "today") -> str:
        """查询城市信息。

        Args:
            city: 城市名，例如：北京
            date: 日期，例如：today
        """
        runs.append(city)
        return f"{city}:{date}"

    client = ScriptedClient(
        [
            calls(call("lookup", '{"city": "北京", "date": "today"}', id="c1")),
            calls(
                call("lookup", '{"date":"today","city":"北京"}', id="c2")
            ),  # same arguments, other order and spacing
            calls(call("lookup", {"city": "上海"}, id="c3")),
            reply("done"),
        ]
    )
    result = Agent(client, ToolRegistry([lookup])).run("查北京")
    assert runs == ["北京", "上海"]
    repeated = result.steps[1].calls[0]
    assert repeated.repeated and repeated.result.data == "北京:today" and repeated.duration_ms == 0
    content = json.loads(tool_messages(result.messages)[1]["content"])
    assert (
        content["repeated"] is True
        and content["data"] == "北京:today"
        and content["note"] == REPEATED_CALL_NOTE
    )
    assert not result.steps[2].calls[0].repeated
    stored = json.loads(result.to_json())
    assert set(stored["results_by_call"]) == {c.call.key for c in result.tool_calls}
    older = json.dumps({**stored, "answered": stored.pop("results_by_call")})  # an older version's
    assert RunResult.from_json(older).results_by_call == result.results_by_call


def test_repeating_forever_stops_at_max_steps_with_one_execution():
    runs = []

    @tool
    def ping() -> str:
        """检查服务。"""
        runs.append(1)
        return "pong"

    client = ScriptedClient([calls(call("ping", {}, id=f"c{i}")) for i in range(10)])
    result = Agent(client, ToolRegistry([ping]), max_steps=4).run("ping")
    assert result.stop_reason == "max_steps" and result.answer is None
    assert "4 步" in result.error and len(client.requests) == 4 and len(result.steps) == 4
    assert runs == [1] and [r.repeated for r in result.tool_calls] == [False, True, True, True]
    assert_well_formed(result.messages)


def test_empty_reply_is_an_error_not_an_answer():
    agent, _ = make_agent(ChatResult(content="  ", finish_reason="stop"))
    result = agent.run("你好")
    assert result.stop_reason == "error" and result.answer is None and "空回复" in result.error
    assert [m["role"] for m in result.messages] == ["system", "user"]


class Boom(Exception):
    pass


class FailingClient:
    def __init__(self, fail_on: int):
        self.fail_on, self.count = fail_on, 0

    def complete(self, messages, tools=None, **options):
        self.count += 1
        if self.count == self.fail_on:
            raise Boom("connection reset")
        return calls(call("get_current_time", {}, id=f"c{self.count}"))


def test_client_exception_stops_with_error_and_is_not_raised():
    result = Agent(FailingClient(fail_on=2), basic_registry(NOW)).run("几点了")
    assert (
        result.stop_reason == "error"
        and "第 2 步" in result.error
        and "Boom: connection reset" in result.error
    )
    assert len(result.steps) == 1 and len(tool_messages(result.messages)) == 1


def test_script_running_dry_is_a_client_error_too():
    agent, _ = make_agent()
    result = agent.run("你好")
    assert result.stop_reason == "error" and "ScriptExhausted" in result.error


def test_bad_json_arguments_and_unknown_tool_go_back_to_the_model_who_recovers():
    agent, client = make_agent(
        calls(
            call("calculator", '{"expression": "1+1"', id="c1"),
            call("get_wether", {"city": "北京"}, id="c2"),
        ),
        calls(
            call("calculator", {"expression": "1+1"}, id="c3"),
            call("get_weather", {"city": "北京"}, id="c4"),
        ),
        reply("1+1=2，北京今天晴（示例数据）。"),
    )
    result = agent.run("1+1，北京天气")
    first, second = tool_messages(result.messages)[:2]
    assert "不是合法的 JSON" in json.loads(first["content"])["error"]
    assert (
        "没有名为 'get_wether' 的工具" in json.loads(second["content"])["error"]
        and "get_weather" in json.loads(second["content"])["error"]
    )
    assert result.stop_reason == "final"
    assert [r.result.success for r in result.tool_calls] == [False, False, True, True]
    assert client.requests[1]["messages"][-2:] == [first, second]


def test_tool_exception_and_validation_errors_do_not_crash_the_run():
    @tool
    def crash(n: int) -> int:
        """总是出错。

        Args:
            n: 数字，例如：1
        """
        raise RuntimeError("disk on fire")

    client = ScriptedClient(
        [
            calls(call("crash", {"n": "1"}, id="a"), call("crash", {"n": 1}, id="b")),
            reply("工具出错了"),
        ]
    )
    result = Agent(client, ToolRegistry([crash])).run("x")
    errors = [json.loads(m["content"])["error"] for m in tool_messages(result.messages)]
    assert '参数 n 应该是整数（integer），收到的是字符串（string）"1"' in errors[0]
    assert errors[1] == "工具 crash 执行时出错（RuntimeError：disk on fire）。"
    assert isinstance(result.tool_calls[1].result.exception, RuntimeError)
    assert result.stop_reason == "final"


def test_time_budget_stops_with_timeout():
    @tool(timeout=None)
    def wait() -> str:
        """等待一会儿。"""
        time.sleep(0.15)
        return "ok"

    client = ScriptedClient([calls(call("wait", {}, id="c0")), reply("unused")])
    result = Agent(client, ToolRegistry([wait]), max_seconds=0.1).run("等")
    assert result.stop_reason == "timeout" and "0.1 秒" in result.error and len(result.steps) == 1
    assert client.remaining == 1


def test_model_options_reach_every_call():
    client = ScriptedClient([calls(call("calculator", {"expression": "1+1"}, id="c1")), reply("2")])
    Agent(
        client, basic_registry(NOW), model_options={"parallel_tool_calls": False, "temperature": 0}
    ).run("1+1")
    assert [(r["parallel_tool_calls"], r["temperature"]) for r in client.requests] == [
        (False, 0),
        (False, 0),
    ]


def test_history_continues_a_conversation():
    agent, client = make_agent(reply("你叫小明。"))
    earlier = [
        {"role": "user", "content": "我叫小明"},
        {"role": "assistant", "content": "你好，小明！"},
    ]
    result = agent.run("我叫什么？", history=earlier)
    assert [m["role"] for m in result.messages] == [
        "system",
        "user",
        "assistant",
        "user",
        "assistant",
    ]
    agent2, client2 = make_agent(reply("还是小明。"))
    again = agent2.run("再说一次？", history=result.messages)
    assert (
        again.messages[: len(result.messages)] == result.messages
        and again.messages[0]["role"] == "system"
    )
    assert sum(m["role"] == "system" for m in again.messages) == 1


def test_events_from_callback_and_generator_are_the_same_and_end_with_stop():
    script = [calls(call("calculator", {"expression": "2*3"}, id="c1")), reply("6")]
    seen: list[AgentEvent] = []
    agent = Agent(ScriptedClient(script), basic_registry(NOW), on_event=seen.append)
    result = agent.run("2 乘 3")
    assert [e.kind for e in seen] == [
        "run_start",
        "model_call",
        "tool_call",
        "tool_result",
        "model_call",
        "final",
        "stop",
    ]
    assert seen[-1].run is result and seen[3].record.result.data == 6 and seen[5].answer == "6"
    assert {e.run_id for e in seen} == {result.run_id} and result.run_id.startswith("run_")
    assert [e.ts for e in seen] == sorted(e.ts for e in seen)
    assert (
        seen[1].messages[-1] == {"role": "user", "content": "2 乘 3"}
        and seen[1].data["tools"] == basic_registry(NOW).names()
    )

    events = list(Agent(ScriptedClient(script), basic_registry(NOW)).iter_run("2 乘 3"))
    assert [e.kind for e in events] == [e.kind for e in seen]
    assert events[-1].run.answer == "6"


def test_display_helpers(capsys):
    agent, _ = make_agent(
        calls(call("calculator", {"expression": "1/0"}, id="c1")),
        reply("除数不能为零，无法计算。"),
        on_event=print_event,
    )
    result = agent.run("计算 1 除以 0")
    shown = capsys.readouterr().out
    assert "calculator" in shown and "除数不能为零" in shown and "stop_reason=final" in shown
    text = format_run(result)
    assert "第 1 步" in text and "失败" in text and "answer: 除数不能为零，无法计算。" in text


def test_max_steps_must_be_positive():
    with pytest.raises(ValueError):
        Agent(ScriptedClient([]), basic_registry(NOW), max_steps=0)


# -------------------------------------------------------------------------- the real offline server

from handwritten_agent.course.offline.faults import FAULTS  # noqa: E402

MAX_STEPS = 5
# generous bound on the CPU time of one run against the in-process simulator (the same on a loaded
# machine)
RUN_SECONDS = 10.0


def live_agent(
    offline_server,
    model: str = "course-sim",
    *,
    max_retries: int = 0,
    timeout: float = 5.0,
    **options,
) -> Agent:
    from handwritten_agent.llm import ChatClient

    client = ChatClient(
        offline_server.base_url,
        "test",
        model,
        max_retries=max_retries,
        timeout=timeout,
        backoff=0.01,
        max_wait=0.5,
        check_template=True,  # as for any server a learner runs: drops_tools, text_tool_calls
    )
    return Agent(client, basic_registry(NOW), max_steps=MAX_STEPS, **options)


def timed_run(agent: Agent, question: str):
    start = time.process_time()
    result = agent.run(question)
    assert time.process_time() - start < RUN_SECONDS
    assert len(result.steps) <= agent.max_steps
    assert_well_formed(result.messages)
    return result


def called(result) -> list[str]:
    return [record.call.name for record in result.tool_calls]


def test_live_case1_multi_step_time_and_calculation(offline_server):
    result = timed_run(live_agent(offline_server), "现在几点了？17 乘以 9 等于多少？")
    assert result.stop_reason == "final", format_run(result)
    assert set(called(result)) == {"get_current_time", "calculator"}
    assert all(record.result.success for record in result.tool_calls)
    assert "153" in result.answer and "14:30" in result.answer


def test_live_case2_chit_chat_calls_no_tool(offline_server):
    result = timed_run(live_agent(offline_server), "你好，你是谁？")
    assert result.stop_reason == "final" and result.tool_calls == [] and result.answer


def test_live_case3_tool_error_is_reported_not_guessed(offline_server):
    result = timed_run(live_agent(offline_server), "计算 1 除以 0")
    assert result.stop_reason == "final", format_run(result)
    assert called(result) == ["calculator"] and not result.tool_calls[0].result.success
    assert "除数不能为零" in result.tool_calls[0].result.error
    assert "零" in result.answer or "0" in result.answer


def test_live_compound_exchange_then_calculate(offline_server):
    result = timed_run(live_agent(offline_server), "查询汇率后计算 100 美元能换多少人民币")
    assert result.stop_reason == "final", format_run(result)
    assert called(result) == ["get_exchange_rate", "calculator"]
    rate = result.tool_calls[0].result.data
    assert (rate["base"], rate["target"], rate["rate"]) == ("USD", "CNY", 7.2)
    assert result.tool_calls[1].result.data == pytest.approx(720)
    assert "720" in result.answer


def test_live_weather_says_it_is_sample_data(offline_server):
    result = timed_run(live_agent(offline_server), "北京明天天气怎么样？")
    assert result.stop_reason == "final", format_run(result)
    assert called(result) == ["get_weather"]
    data = result.tool_calls[0].result.data
    assert data["city"] == "北京" and data["date"] == "明天" and "示例数据" in data["note"]


# What the simulator does under each fault, and so how an honest run must end (max_retries=0, 1 s
# timeout).
EXPECTED_STOPS = {
    "malformed_json": "final",  # the parse error goes back; the model resends valid JSON
    "unknown_tool": "final",  # the list of valid names goes back; the model uses one
    "string_arguments": "final",  # the model reports the failed calls instead of inventing results
    "repeat_forever": (
        "max_steps"
    ),  # the guard answers repeats without running the tool; the step cap ends it
    "empty_reply": "error",
    "slow": "error",  # the reply comes after 3 s; the client gives up after 1 s
    "rate_limit": "error",  # no retries here; the next test lets the client retry
    "server_error": "error",
    "bad_tool_call_id": (
        "final"
    ),  # every call is still answered (with the duplicated id the model sent)
    "gullible": "final",  # nothing in these results tells it to do anything: it answers as usual
    "flaky": (
        "final"
    ),  # a run that goes wrong still ends with an answer (a near miss, or a step skipped)
    "no_tools": "final",  # the client goes on with the tools in the prompt (Day 2's mode)
    "no_tool_parser": "final",  # the same, for vLLM's refusal
    "reasoning_model": "final",  # the loop sends neither max_tokens nor temperature
    "drops_tools": "final",  # the template check finds it; the tools go into the prompt
    "text_tool_calls": "final",  # the calls left as text are read with Day 2's parser
}


@pytest.mark.parametrize("fault", sorted(FAULTS))
def test_live_every_fault_ends_within_bounds_with_a_truthful_stop_reason(offline_server, fault):
    assert fault in EXPECTED_STOPS, f"new fault {fault!r}: add its expected stop reasons"
    result = timed_run(
        live_agent(offline_server, f"course-sim:{fault}", timeout=1.0),
        "现在几点了？17 乘以 9 等于多少？",
    )
    assert result.stop_reason == EXPECTED_STOPS[fault], format_run(result)
    if result.stop_reason == "final":
        assert result.answer and result.error is None
    else:
        assert result.answer is None and result.error
    failures = [record.result.error for record in result.tool_calls if not record.result.success]
    if fault == "malformed_json":
        assert any("不是合法的 JSON" in error for error in failures)
    if fault == "unknown_tool":
        assert any("没有名为" in error and "calculator" in error for error in failures)
    if fault == "string_arguments":
        assert any("JSON 字符串" in error for error in failures)
    if fault == "repeat_forever":
        assert (
            len(result.steps) == MAX_STEPS
            and result.tool_calls
            and all(r.repeated for r in result.tool_calls[1:])
        )
    if fault == "empty_reply":
        assert "空回复" in result.error
    if fault in ("drops_tools", "text_tool_calls"):
        ran = {record.call.name for record in result.tool_calls if record.result.success}
        assert {"calculator", "get_current_time"} <= ran, format_run(result)
    if fault in ("server_error", "rate_limit", "slow"):
        expected = {"server_error": "HTTP 500", "rate_limit": "HTTP 429", "slow": "RequestTimeout"}[
            fault
        ]
        assert result.steps == [] and expected in result.error
    if fault in ("malformed_json", "unknown_tool", "string_arguments"):
        # the model is told its mistake, corrects the call on the next turn, and answers from the
        # real result
        assert "153" in result.answer, format_run(result)


def test_live_parallel_calls_off_gives_one_call_per_turn(offline_server):
    agent = live_agent(offline_server, model_options={"parallel_tool_calls": False})
    result = timed_run(agent, "现在几点了？17 乘以 9 等于多少？")
    assert result.stop_reason == "final" and "153" in result.answer, format_run(result)
    assert [len(step.calls) for step in result.steps] == [1, 1, 0]


def test_live_rate_limit_recovers_with_client_retries(offline_server):
    result = timed_run(live_agent(offline_server, "course-sim:rate_limit", max_retries=2), "你好")
    assert result.stop_reason == "final" and result.answer


# --------------------------------------------------------------------------- cut-off replies


def test_live_a_reply_cut_at_max_tokens_ends_with_length_and_runs_no_tool(offline_server):
    result = timed_run(
        live_agent(offline_server, model_options={"max_tokens": 3}),
        "现在几点了？17 乘以 9 等于多少？",
    )
    assert result.stop_reason == "length" and result.answer is None and not result.tool_calls, (
        format_run(result)
    )
    assert "max_tokens" in result.error and "max_completion_tokens" in result.error
    roomy = timed_run(
        live_agent(offline_server, model_options={"max_completion_tokens": 2000}),
        "现在几点了？17 乘以 9 等于多少？",
    )
    assert roomy.stop_reason == "final" and "153" in roomy.answer


@pytest.mark.parametrize("finish_reason", ["length", "content_filter"])
def test_an_unfinished_reply_is_never_an_answer_nor_run(finish_reason):
    ran: list[str] = []

    @tool
    def ping(text: str) -> str:
        """回声。

        Args:
            text: 要回声的文字
        """
        ran.append(text)
        return text

    cut_text = ChatResult(content="根据查询结果，北京明天的天气是", finish_reason=finish_reason)
    cut_call = ChatResult(
        content=None,
        tool_calls=calls(call("ping", {"text": "x"})).tool_calls,
        finish_reason=finish_reason,
    )
    for reply_ in (cut_text, cut_call):
        result = Agent(ScriptedClient([reply_]), ToolRegistry([ping])).run("你好")
        assert result.stop_reason == finish_reason and result.answer is None and ran == [], (
            format_run(result)
        )
        assert finish_reason in result.error and result.error.startswith("第 1 步")
        assert_well_formed(result.messages)


def test_a_reported_event_serialises_once_and_its_data_cannot_overwrite_step_time_or_call():
    event = AgentEvent(
        "permission",
        3,
        call=ToolCall("c1", "calculator", "{}"),
        run_id="run_x",
        ts=100.0,
        data={"step": 99, "ts": 1.0, "name": "假的", "decision": "allow"},
    )
    data = event.to_dict()
    assert data["step"] == 3 and data["ts"] == 100.0, data
    assert data["call_id"] == "c1" and data["name"] == "calculator" and data["decision"] == "allow"
    line = format_event(event)
    assert line.startswith("  permission：") and "allow" in line and "c1" in line, line
