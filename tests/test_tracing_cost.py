"""Cost from reported tokens, per run and per day; a budget that ends a run; TTL caching and
truncation in the trace.
"""

from __future__ import annotations

import json
from datetime import datetime

import pytest

from handwritten_agent.agent import Agent
from handwritten_agent.messages import ChatResult, Usage
from handwritten_agent.run import AgentEvent
from handwritten_agent.scenarios import basic_registry
from handwritten_agent.scripted import ScriptedClient, call, calls, reply
from handwritten_agent.tool_cache import ToolCache
from handwritten_agent.tools import ToolRegistry, tool
from handwritten_agent.tracing import Budget, PriceTable, Redactor, Tracer, cost_report, read_trace

NOW = datetime(2026, 3, 12, 14, 30)


def priced(content=None, tool_calls=(), prompt=1000, completion=100, model="m1"):
    return ChatResult(
        content=content,
        tool_calls=list(tool_calls),
        finish_reason="tool_calls" if tool_calls else "stop",
        usage=Usage(prompt, completion),
        model=model,
    )


def table() -> PriceTable:
    prices = PriceTable()
    prices.set("m1", input=2.0, output=8.0, currency="CNY", read_on="2026-12-01")
    return prices


def test_price_table_costs_per_million_tokens_and_round_trips_through_a_file(tmp_path):
    prices = table()
    assert prices.cost_of({"model": "m1", "input_tokens": 1_000_000, "output_tokens": 500_000}) == (
        6.0,
        "CNY",
    )
    assert prices.cost_of({"model": "m1", "input_tokens": None, "output_tokens": 5}) == (
        None,
        "CNY",
    )
    assert prices.cost_of({"model": "unknown", "input_tokens": 5, "output_tokens": 5}) == (
        None,
        None,
    )
    assert prices.get("m1:slow") is prices.get("m1")  # simulator options after the colon
    prices.save(tmp_path / "prices.json")
    again = PriceTable.load(tmp_path / "prices.json")
    assert again.get("m1").read_on == "2026-12-01" and again.get("m1").output == 8.0
    (tmp_path / "bad.json").write_text(
        json.dumps({"models": {"x": {"input": "cheap"}}}), encoding="utf-8"
    )
    with pytest.raises(ValueError, match="input 和 output"):
        PriceTable.load(tmp_path / "bad.json")
    assert (
        "course-sim" in PriceTable.default()
        and PriceTable.default().get("deepseek-chat").currency == "USD"
    )


def test_cost_per_run_and_per_day_counts_unknown_usage_separately(tmp_path):
    path = tmp_path / "t.jsonl"
    tracer = Tracer(path, prices=table(), redactor=Redactor(environment=False))
    agent = Agent(
        ScriptedClient(
            [priced(tool_calls=[call("calculator", {"expression": "1+1"}, id="c1")]), priced("2")]
        ),
        basic_registry(NOW),
        hooks=[tracer],
    )
    first = agent.run("1+1")
    no_usage = ChatResult(content="好", finish_reason="stop", usage=None, model="m1")
    second = Agent(ScriptedClient([no_usage]), basic_registry(NOW), hooks=[tracer]).run("你好")
    tracer.close()
    per_run = cost_report(path)
    assert per_run[first.run_id].cost == {"CNY": pytest.approx(2 * (1000 * 2 + 100 * 8) / 1e6)}
    assert per_run[second.run_id].unknown_usage == 1 and per_run[second.run_id].cost == {}
    assert (
        "没有报告用量" in per_run[second.run_id].describe()
        and "null" in per_run[second.run_id].describe()
    )
    per_day = cost_report(path, by="day")
    assert (
        list(per_day) == [datetime.now().date().isoformat()]
        and per_day[list(per_day)[0]].calls == 3
    )
    dearer = table()
    dearer.set("m1", input=4.0, output=8.0)
    assert (
        cost_report(path, dearer)[first.run_id].cost["CNY"] > per_run[first.run_id].cost["CNY"]
    )  # recomputed from the table


def test_a_budget_ends_the_run_with_its_own_stop_reason_after_the_call_that_passed_it():
    script = [
        priced(tool_calls=[call("calculator", {"expression": f"{n}+1"}, id=f"c{n}")])
        for n in range(5)
    ] + [priced("完")]
    tracer = Tracer(prices=table(), redactor=Redactor(environment=False))
    budget = Budget(per_run=0.005, currency="CNY", prices=table())
    result = Agent(ScriptedClient(script), basic_registry(NOW), hooks=[budget, tracer]).run("算")
    assert result.stop_reason == "budget" and "超过了每次运行的预算" in result.error
    assert len(result.steps) == 2  # 0.0028 元 per call: the second call passes 0.005
    end = tracer.lines[-1]
    assert (
        end["event"] == "run_end"
        and end["stop_reason"] == "budget"
        and end["error.type"] == "budget"
    )
    assert [l["event"] for l in tracer.lines].count("model_call") == 2


def test_a_daily_budget_counts_earlier_spending_from_the_trace_files(tmp_path):
    path = tmp_path / "t.jsonl"
    tracer = Tracer(path, prices=table(), redactor=Redactor(environment=False))
    Agent(
        ScriptedClient([priced("好", prompt=2000, completion=0)]),
        basic_registry(NOW),
        hooks=[tracer],
    ).run("一")
    tracer.close()
    budget = Budget(per_day=0.005, history=path, prices=table())
    assert budget.spent_today == pytest.approx(0.004)
    tracer = Tracer(path, prices=table(), redactor=Redactor(environment=False))
    result = Agent(
        ScriptedClient([priced("好", prompt=1000, completion=0)]),
        basic_registry(NOW),
        hooks=[tracer, budget],
    ).run("二")
    assert result.stop_reason == "budget" and "每天的预算" in result.error
    with pytest.raises(ValueError):
        Budget()


def test_unknown_cost_can_be_made_to_stop_a_run():
    tracer = Tracer(prices=PriceTable(), redactor=Redactor(environment=False))
    result = Agent(
        ScriptedClient([priced("好")]),
        basic_registry(NOW),
        hooks=[tracer, Budget(per_run=1, unknown="stop", prices=PriceTable())],
    ).run("你好")
    assert result.stop_reason == "budget" and "费用未知" in result.error


def test_cache_serves_read_only_tools_within_the_ttl_and_the_trace_says_so():
    runs: list[str] = []
    clock = [0.0]

    @tool
    def room_status(room: str) -> str:
        """查询会议室是否空闲，例如：A301。

        Args:
            room: 会议室编号，例如：A301
        """
        runs.append(room)
        return f"{room} 空闲"

    @tool(level="L2", side_effects=True)
    def book_room(room: str) -> str:
        """预订会议室，例如：A301。

        Args:
            room: 会议室编号，例如：A301
        """
        runs.append("book " + room)
        return "已预订"

    tracer = Tracer(redactor=Redactor(environment=False))
    cache = ToolCache(ToolRegistry([room_status, book_room]), ttl=60, clock=lambda: clock[0])
    assert cache.cacheable("room_status") and not cache.cacheable("book_room")

    def ask(*tool_calls):
        script = [calls(*tool_calls), reply("好")]
        return Agent(ScriptedClient(script), cache, hooks=[tracer]).run("查")

    ask(call("room_status", {"room": "A301"}, id="a"), call("book_room", {"room": "A301"}, id="b"))
    clock[0] = 30
    ask(
        call("room_status", {"room": "A301"}, id="c"),
        call("book_room", {"room": "A301"}, id="d"),
        call("room_status", {"room": "B2"}, id="e"),
    )
    clock[0] = 100
    ask(call("room_status", {"room": "A301"}, id="f"))
    assert runs == [
        "A301",
        "book A301",
        "book A301",
        "B2",
        "A301",
    ]  # the write ran every time; reads were reused within 60 s
    statuses = {l["gen_ai.tool.call.id"]: l for l in tracer.lines if l["event"] == "tool_result"}
    assert (
        statuses["c"]["status"] == "cached"
        and statuses["c"]["cache.age_s"] == 30
        and statuses["c"]["cache.hit"] is True
    )
    assert statuses["a"]["status"] == "success" and statuses["a"]["cache.hit"] is False
    assert statuses["f"]["status"] == "success" and "cache.hit" not in statuses["b"]
    assert (cache.hits, cache.misses) == (1, 3)


def test_long_results_are_truncated_for_the_model_and_the_trace_records_the_original_length():
    @tool
    def long_report(topic: str) -> str:
        """生成一份很长的报告，例如：销售。

        Args:
            topic: 报告主题，例如：销售
        """
        return "数据" * 3000

    tracer = Tracer(redactor=Redactor(environment=False))
    cache = ToolCache(ToolRegistry([long_report]), max_chars=500)
    result = Agent(
        ScriptedClient([calls(call("long_report", {"topic": "销售"}, id="x")), reply("好")]),
        cache,
        hooks=[tracer],
    ).run("报告")
    content = json.loads(result.messages[3]["content"])
    assert (
        len(content["data"]) < 600
        and "结果过长" in content["data"]
        and "共 6000 个字符" in content["data"]
    )
    line = next(l for l in tracer.lines if l["event"] == "tool_result")
    assert line["truncated.original_chars"] == 6000 and line["truncated.kept_chars"] == 500
    assert read_trace(tracer.lines).run().stop_reason == "final"


# ---------------------------------------------- cached input, a budget checked before, a bill alert


def test_cached_input_tokens_are_billed_at_the_cached_price_and_missing_details_at_the_full_one():
    prices = PriceTable()
    prices.set("m2", input=2.0, output=8.0, cached_input=0.5)
    line = {"model": "m2", "input_tokens": 10_000, "output_tokens": 1_000}
    full = prices.cost_of(line)[0]
    assert full == pytest.approx(
        (10_000 * 2 + 1_000 * 8) / 1e6
    )  # the provider did not say: all input at the full price
    cached = prices.cost_of({**line, "gen_ai.usage.cache_read.input_tokens": 8_000})[0]
    assert cached == pytest.approx((2_000 * 2 + 8_000 * 0.5 + 1_000 * 8) / 1e6) and cached < full
    over = prices.cost_of({**line, "gen_ai.usage.cache_read.input_tokens": 99_999})[
        0
    ]  # never more cached than sent
    assert over == pytest.approx((10_000 * 0.5 + 1_000 * 8) / 1e6)
    no_cache_price = (
        table()
    )  # m1 has no cached_input price: cached tokens cost the full input price
    assert no_cache_price.cost_of(
        {
            "model": "m1",
            "input_tokens": 1000,
            "output_tokens": 0,
            "gen_ai.usage.cache_read.input_tokens": 900,
        }
    )[0] == pytest.approx(1000 * 2 / 1e6)
    default = PriceTable.default().get("deepseek-chat")
    assert (
        default.cached_input is not None
        and default.cached_input < default.input
        and default.read_on
    )


def test_the_tracer_reads_cached_tokens_from_openai_and_deepseek_shaped_responses():
    from openai.types.chat import ChatCompletion

    from handwritten_agent.llm.replies import result_from_completion, usage_of

    def cached_tokens(response):
        usage = usage_of(response)
        return None if usage is None else usage.cached_tokens

    body = {
        "id": "x",
        "object": "chat.completion",
        "created": 1,
        "model": "m2",
        "choices": [
            {"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": "好"}}
        ],
        "usage": {"prompt_tokens": 3000, "completion_tokens": 20, "total_tokens": 3020},
    }
    openai_style = ChatCompletion.model_validate(
        {**body, "usage": {**body["usage"], "prompt_tokens_details": {"cached_tokens": 2048}}}
    )
    deepseek_style = ChatCompletion.model_validate(
        {
            **body,
            "usage": {
                **body["usage"],
                "prompt_cache_hit_tokens": 1024,
                "prompt_cache_miss_tokens": 1976,
            },
        }
    )
    assert cached_tokens(openai_style) == 2048 and cached_tokens(deepseek_style) == 1024
    assert (
        cached_tokens(ChatCompletion.model_validate(body)) is None and cached_tokens(None) is None
    )
    assert cached_tokens({"usage": {"prompt_tokens_details": {"cached_tokens": 7}}}) == 7
    prices = PriceTable()
    prices.set("m2", input=2.0, output=8.0, cached_input=0.5)
    tracer = Tracer(prices=prices, redactor=Redactor(environment=False))
    reply_ = result_from_completion(openai_style)
    assert reply_.usage == Usage(3000, 20, 2048)
    assert ChatResult.from_dict(reply_.to_dict()).usage == reply_.usage  # a paused run keeps it
    shown = AgentEvent("model_call", 1, reply=reply_).to_dict()["usage"]  # the SSE and display
    assert shown == {"input_tokens": 3000, "output_tokens": 20, "cached_input_tokens": 2048}
    Agent(ScriptedClient([reply_]), basic_registry(NOW), hooks=[tracer]).run("你好")
    line = next(l for l in tracer.lines if l["event"] == "model_call")
    assert line["gen_ai.usage.cache_read.input_tokens"] == 2048
    assert line["cost"] == pytest.approx(((3000 - 2048) * 2 + 2048 * 0.5 + 20 * 8) / 1e6)
    total = cost_report(tracer.lines)[line["request_id"]]
    assert total.cached_input_tokens == 2048 and "缓存命中 2048" in total.describe()


def test_a_budget_checked_before_the_call_stops_before_spending_what_it_cannot_afford():
    script = [
        priced(tool_calls=[call("calculator", {"expression": f"{n}+1"}, id=f"c{n}")])
        for n in range(5)
    ] + [priced("完")]
    after = Agent(
        ScriptedClient(list(script)),
        basic_registry(NOW),
        hooks=[Budget(per_run=0.003, prices=table(), model="m1")],
    ).run("算")
    assert (
        after.stop_reason == "budget" and len(after.steps) == 2
    )  # 0.0028 per call: the second call passed 0.003, then it stopped
    budget = Budget(per_run=0.003, prices=table(), model="m1", check_before=True)
    before = Agent(ScriptedClient(list(script)), basic_registry(NOW), hooks=[budget]).run("算")
    assert before.stop_reason == "budget" and "还没有请求模型" in before.error
    assert (
        len(before.steps) == 1 and budget.spent_run[before.run_id] <= 0.003
    )  # the second call was never made
    unpriced = Budget(
        per_run=0.003, prices=PriceTable(), model="m1", check_before=True
    )  # nothing to estimate with: no stop before
    assert (
        Agent(ScriptedClient([priced("好")]), basic_registry(NOW), hooks=[unpriced])
        .run("你好")
        .stop_reason
        == "final"
    )


def test_a_bill_alert_says_when_a_days_spending_passes_the_line(tmp_path):
    from handwritten_agent.tracing.cost import bill_alert

    path = tmp_path / "t.jsonl"
    tracer = Tracer(path, prices=table(), redactor=Redactor(environment=False))
    for _ in range(3):
        Agent(ScriptedClient([priced("好")]), basic_registry(NOW), hooks=[tracer]).run(
            "你好"
        )  # 0.0028 元 each
    Agent(
        ScriptedClient([ChatResult(content="好", finish_reason="stop", usage=None, model="m1")]),
        basic_registry(NOW),
        hooks=[tracer],
    ).run("你好")
    tracer.close()
    today = datetime.now().date().isoformat()
    assert bill_alert(path, 0.01) is None  # 0.0084 元
    message = bill_alert(path, 0.005)
    assert (
        message is not None
        and today in message
        and "0.0084" in message
        and "1 次调用的费用未知" in message
    )
    assert bill_alert(path, 0.005, day="2000-01-01") is None


def test_a_cache_note_goes_to_the_tool_result_of_its_own_run():
    """Two runs sharing one tracer: a note reported in one run never lands on the other's line."""
    from handwritten_agent.messages import ToolCall
    from handwritten_agent.run import ToolCallRecord
    from handwritten_agent.tools import ToolResult

    tracer = Tracer(redactor=Redactor(environment=False))

    def result(run_id: str, call_id: str) -> AgentEvent:
        record = ToolCallRecord(ToolCall(call_id, "room_status", "{}"), ToolResult.ok("空闲"), 1.0)
        return AgentEvent("tool_result", 1, record=record, run_id=run_id)

    tracer.on_event(AgentEvent("tool_cache", 1, run_id="run_a", data={"cache.hit": True}))
    tracer.on_event(result("run_b", "b1"))
    tracer.on_event(result("run_a", "a1"))
    by_run = {line["request_id"]: line for line in tracer.lines}
    assert by_run["run_b"]["status"] == "success" and "cache.hit" not in by_run["run_b"]
    assert by_run["run_a"]["status"] == "cached" and by_run["run_a"]["cache.hit"] is True
