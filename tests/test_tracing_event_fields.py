"""A trace line is built from the event's one serialisation, ``AgentEvent.to_dict()``.

The tracer renames what it writes under OpenTelemetry names and adds what only a trace has (the
model asked for, costs, a tool's status, a run's totals); a field ``to_dict`` gains reaches the
line without a change to the tracer.
"""

from __future__ import annotations

from datetime import datetime

import pytest

from handwritten_agent.agent import Agent
from handwritten_agent.confirmation import ConfirmationRequest
from handwritten_agent.messages import ChatResult, ToolCall, Usage
from handwritten_agent.reporting import report
from handwritten_agent.run import AgentEvent, NeedsConfirmation
from handwritten_agent.scenarios import basic_registry
from handwritten_agent.scripted import ScriptedClient, call, calls, reply
from handwritten_agent.tool_cache import ToolCache
from handwritten_agent.tracing import Redactor, Tracer

NOW = datetime(2026, 3, 12, 14, 30)


class RetryingClient:
    """A scripted model whose first call reports a retry, as ``ChatClient`` does on a 429."""

    def __init__(self, replies):
        self.inner, self.model = ScriptedClient(replies), "scripted"

    def complete(self, messages, tools=None, **options):
        report("retry", attempt=1, status=429, wait=0.0, server_asked=None, message="慢一点")
        return self.inner.complete(messages, tools, **options)


class Gate:
    """Reports a decision on every call and pauses the first call to ``calculator``."""

    def check_call(self, call_, context):
        context.report("permission", decision="allow", tool=call_.name)
        if call_.name == "calculator" and context.request is None:
            raise NeedsConfirmation(
                ConfirmationRequest("req_1", context.run_id, call_.id, call_.name, {}, "sha")
            )
        return None


def traced_kinds(tracer: Tracer) -> set[str]:
    """Two runs that between them emit every kind the tracer writes a line of its own for."""
    usage = Usage(prompt_tokens=12, completion_tokens=3, cached_tokens=4)
    first = ChatResult(
        content=None,
        tool_calls=[
            ToolCall("t1", "get_current_time", "{}"),
            ToolCall("t2", "get_current_time", "{}"),  # the same call again: a repeat
            ToolCall("b1", "calculator", "not json"),
        ],
        usage=usage,
        model="scripted",
        finish_reason="tool_calls",
    )
    registry = ToolCache(basic_registry(NOW))
    Agent(RetryingClient([first, reply("好")]), registry, hooks=[Gate(), tracer]).run("几点了")
    Agent(
        ScriptedClient([calls(call("get_current_time", {}, id="t3")), reply("现在 14:30")]),
        registry,
        hooks=[tracer],
    ).run("现在几点")
    return {line["event"] for line in tracer.lines}


def test_every_kind_of_line_is_covered_by_the_runs_below():
    kinds = traced_kinds(Tracer(redactor=Redactor(environment=False)))
    assert kinds == {
        "run_start",
        "retry",
        "model_call",
        "tool_call",
        "permission",
        "tool_result",
        "needs_confirmation",
        "final",
        "run_end",
    }, kinds


def test_a_field_added_to_to_dict_reaches_every_line_with_no_change_to_the_tracer(monkeypatch):
    serialise = AgentEvent.to_dict

    def with_new_fields(event: AgentEvent) -> dict:
        if event.kind == "tool_cache":  # no line of its own: its fields join the tool_result line
            return serialise(event)
        return {**serialise(event), "novel_field": f"new in {event.kind}", "seq": "its own"}

    monkeypatch.setattr(AgentEvent, "to_dict", with_new_fields)
    tracer = Tracer(redactor=Redactor(environment=False))
    traced_kinds(tracer)
    for line in tracer.lines:
        kind = {"run_end": "stop"}.get(line["event"], line["event"])
        assert line["novel_field"] == f"new in {kind}", line
        # a name every line has already is kept apart, never overwritten
        assert line["data.seq"] == "its own" and isinstance(line["seq"], int), line
    results = [line for line in tracer.lines if line["event"] == "tool_result"]
    assert results and all(  # a tool_cache report's fields join its tool_result line
        "cache.hit" in line for line in results if line["status"] != "repeated"
    ), results


@pytest.mark.parametrize(
    ("kind", "changed", "written"),
    [
        ("model_call", {"model": "changed-model"}, {"model": "changed-model"}),
        ("model_call", {"tools_offered": ["x"]}, {"tools_offered": ["x"]}),
        ("model_call", {"usage": None}, {"input_tokens": None, "output_tokens": None}),
        ("tool_call", {"name": "renamed"}, {"tool": "renamed"}),
        ("tool_call", {"arguments": '{"a": 1}'}, {"gen_ai.tool.call.arguments": {"a": 1}}),
        ("tool_result", {"id": "other"}, {"gen_ai.tool.call.id": "other"}),
        ("tool_result", {"duration_ms": 7.0}, {"tool_duration_ms": 7.0}),
        ("tool_result", {"repeated": True}, {"status": "repeated"}),
        ("retry", {"status": 503}, {"http.response.status_code": 503, "error.type": "503"}),
        ("permission", {"decision": "deny"}, {"decision": "deny"}),
        ("final", {"answer": "另一个回答"}, {"answer": "另一个回答"}),
        ("stop", {"stop_reason": "budget"}, {"stop_reason": "budget", "status": "stopped"}),
    ],
)
def test_the_line_takes_its_values_from_to_dict_not_from_the_event(
    monkeypatch, kind, changed, written
):
    serialise = AgentEvent.to_dict

    def changed_for_kind(event: AgentEvent) -> dict:
        data = serialise(event)
        return {**data, **changed} if event.kind == kind else data

    monkeypatch.setattr(AgentEvent, "to_dict", changed_for_kind)
    tracer = Tracer(redactor=Redactor(environment=False))
    traced_kinds(tracer)
    event = {"stop": "run_end"}.get(kind, kind)
    lines = [line for line in tracer.lines if line["event"] == event]
    assert lines and all(line[key] == value for line in lines for key, value in written.items()), (
        lines
    )


def test_reported_data_that_names_the_events_own_fields_is_kept_in_to_dict_and_the_trace():
    event = AgentEvent(
        "fallback",
        2,
        run_id="run_x",
        ts=100.0,
        data={"from_model": "a", "to_model": "b", "ts": 99.5, "step": 7},
    )
    assert event.to_dict() == {
        "from_model": "a",
        "to_model": "b",
        "data.ts": 99.5,
        "data.step": 7,
        "step": 2,
        "ts": 100.0,
    }
    tracer = Tracer(redactor=Redactor(environment=False))
    tracer.on_event(event)
    (line,) = tracer.lines
    assert (line["step"], line["data.ts"], line["data.step"]) == (2, 99.5, 7), line
    assert (line["from_model"], line["to_model"]) == ("a", "b"), line
