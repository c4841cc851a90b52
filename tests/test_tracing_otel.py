"""The trace as OpenTelemetry spans with GenAI attributes, checked with the SDK's in-memory exporter
(needs the [otel] extra).
"""

from __future__ import annotations

from datetime import datetime

import pytest

pytest.importorskip(
    "opentelemetry.sdk", reason="the [otel] extra is not installed: pip install -e '.[otel]'"
)

from opentelemetry.sdk.trace import TracerProvider  # noqa: E402
from opentelemetry.sdk.trace.export import SimpleSpanProcessor  # noqa: E402
from opentelemetry.sdk.trace.export.in_memory_span_exporter import (
    InMemorySpanExporter,
)  # noqa: E402
from opentelemetry.trace import StatusCode  # noqa: E402

from handwritten_agent.agent import Agent  # noqa: E402
from handwritten_agent.messages import ChatResult, Usage  # noqa: E402
from handwritten_agent.scenarios import basic_registry  # noqa: E402
from handwritten_agent.scripted import ScriptedClient, call, calls, reply  # noqa: E402
from handwritten_agent.tracing import Redactor, Tracer  # noqa: E402
from handwritten_agent.tracing.otel import export_spans  # noqa: E402

NOW = datetime(2026, 3, 12, 14, 30)


def test_runs_become_agent_chat_and_tool_spans_with_genai_attributes():
    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    tracer = Tracer(
        redactor=Redactor(environment=False), user_id="u_1", session_id="s_1", model="m1"
    )
    script = [
        ChatResult(
            None,
            [call("calculator", {"expression": "1/0"}, id="c1")],
            "tool_calls",
            Usage(30, 5),
            "m1",
        ),
        ChatResult("除数为零，无法计算。", [], "stop", None, "m1"),
    ]
    Agent(ScriptedClient(script), basic_registry(NOW), hooks=[tracer]).run("1/0")
    assert export_spans(tracer.lines, provider) == 4
    spans = {span.name: span for span in exporter.get_finished_spans()}
    assert set(spans) == {"invoke_agent handwritten_agent", "chat m1", "execute_tool calculator"}
    root = spans["invoke_agent handwritten_agent"]
    chats = [s for s in exporter.get_finished_spans() if s.name == "chat m1"]
    first, second = sorted(chats, key=lambda s: s.start_time)
    assert (
        first.attributes["gen_ai.operation.name"] == "chat"
        and first.attributes["gen_ai.usage.input_tokens"] == 30
    )
    assert first.attributes["gen_ai.response.finish_reasons"] == ("tool_calls",)
    assert "gen_ai.usage.input_tokens" not in second.attributes  # not reported → left out, never 0
    tool_span = spans["execute_tool calculator"]
    assert (
        tool_span.attributes["gen_ai.tool.name"] == "calculator"
        and tool_span.attributes["gen_ai.tool.call.id"] == "c1"
    )
    assert (
        tool_span.status.status_code == StatusCode.ERROR
        and "gen_ai.tool.call.arguments" not in tool_span.attributes
    )
    assert all(
        s.parent is not None and s.parent.span_id == root.context.span_id
        for s in chats + [tool_span]
    )
    assert (
        root.attributes["user.id"] == "u_1" and root.attributes["gen_ai.conversation.id"] == "s_1"
    )
    assert all(s.start_time <= s.end_time for s in exporter.get_finished_spans())
    assert root.start_time <= min(s.start_time for s in chats) and root.end_time >= max(
        s.end_time for s in chats
    )


def test_content_is_exported_only_when_asked():
    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    tracer = Tracer(redactor=Redactor(environment=False), record_messages=True)
    Agent(
        ScriptedClient([calls(call("calculator", {"expression": "2*3"}, id="c1")), reply("6")]),
        basic_registry(NOW),
        hooks=[tracer],
    ).run("2*3")
    export_spans(tracer.lines, provider, record_content=True)
    tool_span = next(s for s in exporter.get_finished_spans() if s.name.startswith("execute_tool"))
    assert '"expression": "2*3"' in tool_span.attributes["gen_ai.tool.call.arguments"]
    chat = next(s for s in exporter.get_finished_spans() if s.name.startswith("chat"))
    assert "gen_ai.input.messages" in chat.attributes
