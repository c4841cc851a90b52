"""replay: the recorded replies re-run the loop without a model; identical when nothing changed, a
divergence when a tool did.
"""

from __future__ import annotations

import json
from datetime import datetime

import pytest

from handwritten_agent.agent import Agent
from handwritten_agent.llm import OFFLINE_API_KEY, ChatClient
from handwritten_agent.scenarios import (
    basic_registry,
    calculator,
    get_exchange_rate,
    get_weather,
    make_clock_tool,
)
from handwritten_agent.scripted import ScriptedClient, call, calls, reply
from handwritten_agent.tools import ToolRegistry, tool
from handwritten_agent.tracing import Budget, PriceTable, Redactor, Tracer, read_trace, replay

NOW = datetime(2026, 3, 12, 14, 30)


def record(tmp_path, client, registry, question, **options):
    path = tmp_path / "t.jsonl"
    tracer = Tracer(
        path,
        client=client,
        record_messages=True,
        redactor=Redactor(environment=False),
        **options.pop("tracer", {}),
    )
    result = Agent(client, registry, hooks=[tracer, *options.pop("hooks", [])], **options).run(
        question
    )
    tracer.close()
    return path, result


class Refuses:
    """A model that would fail the test if the replay contacted it."""

    def complete(self, *args, **kwargs):
        raise AssertionError("the replay contacted a model")


def test_replay_reproduces_a_run_byte_for_byte_without_a_model(tmp_path, offline_server):
    client = ChatClient(offline_server.base_url, OFFLINE_API_KEY, "course-sim", max_retries=0)
    path, result = record(
        tmp_path, client, basic_registry(NOW), "现在几点了？100 美元能换多少人民币？"
    )
    replayed = replay(path, redactor=Redactor(environment=False))
    assert replayed.identical, replayed.describe()
    assert replayed.result.answer == result.answer and replayed.result.stop_reason == "final"
    assert json.dumps(replayed.result.messages, ensure_ascii=False) == json.dumps(
        result.messages, ensure_ascii=False
    )
    assert replayed.model_calls == len(result.steps)
    real = replay(path, basic_registry(NOW), tools="real", redactor=Redactor(environment=False))
    assert real.identical, (
        real.describe()
    )  # the same tools with the same clock give the same results


def test_a_changed_tool_is_where_the_replay_diverges(tmp_path, offline_server):
    client = ChatClient(offline_server.base_url, OFFLINE_API_KEY, "course-sim", max_retries=0)
    path, result = record(tmp_path, client, basic_registry(NOW), "100 美元能换多少人民币？")

    @tool(name="get_exchange_rate")
    def changed_rate(from_currency: str, to_currency: str = "CNY") -> dict:
        """查询汇率（改过的版本：汇率翻倍）。

        Args:
            from_currency: 货币代码，例如：USD
            to_currency: 目标货币，例如：CNY
        """
        data = get_exchange_rate.fn(from_currency, to_currency)
        return (
            {**data, "rate": data["rate"] * 2}
            if isinstance(data, dict) and "rate" in data
            else data
        )

    registry = ToolRegistry([calculator, make_clock_tool(NOW), get_weather, changed_rate])
    replayed = replay(path, registry, tools="real", redactor=Redactor(environment=False))
    assert not replayed.identical
    first = replayed.first
    assert first.what.startswith("工具 get_exchange_rate 的结果不同") and first.step == 1
    assert "第 2 步" in str(replayed.divergences[1]) and "发给模型" in replayed.divergences[1].what
    assert "第一处是原因" in replayed.describe()


def test_replay_of_a_budget_stop_and_of_max_steps_ends_the_same_way(tmp_path, offline_server):
    client = ChatClient(
        offline_server.base_url, OFFLINE_API_KEY, "course-sim:repeat_forever", max_retries=0
    )
    path, result = record(
        tmp_path, client, basic_registry(NOW), "17 乘以 9 等于多少？", max_steps=3
    )
    assert (
        result.stop_reason == "max_steps"
        and replay(path, redactor=Redactor(environment=False)).identical
    )
    client = ChatClient(offline_server.base_url, OFFLINE_API_KEY, "course-sim", max_retries=0)
    path, result = record(
        tmp_path / "b",
        client,
        basic_registry(NOW),
        "现在几点了？17 乘以 9 等于多少？",
        tracer={"prices": PriceTable.default()},
        hooks=[Budget(per_run=0.0001)],
    )
    assert result.stop_reason == "budget"
    replayed = replay(path, redactor=Redactor(environment=False))
    assert replayed.identical and replayed.result.stop_reason == "budget"


def test_replay_needs_full_messages_and_says_how_to_get_them(tmp_path):
    path = tmp_path / "t.jsonl"
    tracer = Tracer(path, redactor=Redactor(environment=False))
    Agent(ScriptedClient([reply("好")]), basic_registry(NOW), hooks=[tracer]).run("你好")
    with pytest.raises(ValueError, match="record_messages=True"):
        replay(path)
    with pytest.raises(ValueError, match="registry"):
        replay(path, tools="real")


def test_a_recorded_run_that_wanted_more_steps_than_the_replay_can_give_is_a_divergence(tmp_path):
    script = [calls(call("calculator", {"expression": "2*3"}, id="c1")), reply("6")]
    path, result = record(tmp_path, ScriptedClient(script), basic_registry(NOW), "2 乘 3")
    trace = read_trace(path)
    lines = [
        l for l in trace.lines if not (l["event"] == "model_call" and l["step"] == 2)
    ]  # drop the second reply
    replayed = replay(lines, redactor=Redactor(environment=False))
    assert not replayed.identical and "记录里已经没有回复了" in replayed.first.what
