"""The same trace as OpenTelemetry spans, with the GenAI semantic-convention attributes (the
``[otel]`` extra).

    pip install -e ".[otel]"
    from opentelemetry.sdk.trace import TracerProvider
    provider = TracerProvider();
    provider.add_span_processor(BatchSpanProcessor(OTLPSpanExporter(...)))
    export_spans("traces/agent.jsonl", provider)

Each run becomes one ``invoke_agent`` span; inside it a ``chat {model}`` span per model call and an
``execute_tool {tool}`` span per tool call, with their recorded start and end times, so the same
JSONL file can be sent to any OpenTelemetry backend (Jaeger, Phoenix, Langfuse …) with the exporter
you configure — nothing in this module needs a key or a particular vendor, but the backend may: a
local Jaeger or Phoenix accepts spans as they come, while Langfuse's OTLP endpoint
(``https://cloud.langfuse.com/api/public/otel``, or ``us.cloud…`` / your own host) wants its
project's public and secret key as HTTP Basic auth
(``OTEL_EXPORTER_OTLP_HEADERS="Authorization=Basic <base64 of pk:sk>"``). Gate decisions, retries
and memory changes become span events on the run's span. The reference articles' field names are
exported under their convention names (``fields.SEED_TO_OTEL``); tokens a backend did not report are
left out, not 0. Message content and tool arguments/results are exported only with
``record_content=True`` (they are opt-in in the conventions too), and only as far as the trace holds
them (already redacted).

Left out: metrics (``gen_ai.client.token.usage``), span links across resumed runs, and using the
trace's own ``trace_id`` as the OpenTelemetry trace id (the SDK makes its own; ``request_id`` and
``trace_id`` are attributes on every span, to find one from the other).
"""

from __future__ import annotations

import json
from typing import Any

from .fields import SEED_TO_OTEL
from .reading import parse_ts, read_trace
from .spans import intervals


def _ns(seconds: float) -> int:
    return int(seconds * 1_000_000_000)


def _attributes(pairs: dict[str, Any]) -> dict[str, Any]:
    """OpenTelemetry accepts str, bool, int, float and lists of one of them; None is left out, the
    rest is JSON text.
    """
    out: dict[str, Any] = {}
    for key, value in pairs.items():
        if value is None:
            continue
        if isinstance(value, (str, bool, int, float)):
            out[key] = value
        elif isinstance(value, list) and value and all(isinstance(v, str) for v in value):
            out[key] = value
        else:
            out[key] = json.dumps(value, ensure_ascii=False, default=str)
    return out


def export_spans(
    source: Any,
    tracer_provider: Any = None,
    *,
    request_id: str | None = None,
    record_content: bool = False,
    agent_name: str = "handwritten_agent",
) -> int:
    """Send the runs of a trace as spans through ``tracer_provider`` (default: the global one);
    returns the span count.
    """
    try:
        from opentelemetry import trace as ot
        from opentelemetry.trace import SpanKind, Status, StatusCode
    except ImportError as exc:  # the extra is optional
        raise ImportError(
            '导出到 OpenTelemetry 需要可选依赖：pip install -e ".[otel]"（安装 '
            "opentelemetry-sdk）。"
        ) from exc

    provider = tracer_provider if tracer_provider is not None else ot.get_tracer_provider()
    tracer = provider.get_tracer("handwritten_agent.tracing")
    trace = read_trace(source)
    runs = [trace.run(request_id)] if request_id else trace.runs
    count = 0
    for run in runs:
        if not run.lines:
            continue
        origin = run.started_at()
        end_line = run.end or run.lines[-1]
        common = {
            "request_id": run.request_id,
            "trace_id": run.lines[0].get("trace_id"),
            SEED_TO_OTEL["user_id"]: run.user_id,
            SEED_TO_OTEL["session_id"]: run.lines[0].get("session_id"),
        }
        root_attributes = {
            **common,
            "gen_ai.operation.name": "invoke_agent",
            "gen_ai.agent.name": agent_name,
            "stop_reason": end_line.get("stop_reason"),
            "error.type": end_line.get("error.type"),
            SEED_TO_OTEL["input_tokens"]: end_line.get("input_tokens"),
            SEED_TO_OTEL["output_tokens"]: end_line.get("output_tokens"),
        }
        root = tracer.start_span(
            f"invoke_agent {agent_name}",
            kind=SpanKind.INTERNAL,
            start_time=_ns(origin),
            attributes=_attributes(root_attributes),
        )
        context = ot.set_span_in_context(root)
        for bar in intervals(run):
            line = bar.line
            if bar.kind == "model":
                attributes = {
                    **common,
                    "gen_ai.operation.name": "chat",
                    "gen_ai.request.model": line.get("gen_ai.request.model"),
                    SEED_TO_OTEL["model"]: line.get("model"),
                    "gen_ai.provider.name": line.get("gen_ai.provider.name"),
                    "gen_ai.response.id": line.get("gen_ai.response.id"),
                    SEED_TO_OTEL["input_tokens"]: line.get("input_tokens"),
                    SEED_TO_OTEL["output_tokens"]: line.get("output_tokens"),
                    "gen_ai.usage.cache_read.input_tokens": line.get(
                        "gen_ai.usage.cache_read.input_tokens"
                    ),
                    "gen_ai.response.finish_reasons": (
                        [line["finish_reason"]] if line.get("finish_reason") else None
                    ),
                }
                if record_content:
                    attributes["gen_ai.input.messages"] = line.get("gen_ai.input.messages")
                    attributes["gen_ai.output.messages"] = line.get("gen_ai.output.messages")
                name, kind = (
                    f"chat {line.get('gen_ai.request.model') or line.get('model')}",
                    SpanKind.CLIENT,
                )
            else:
                call = bar.call or {}
                attributes = {
                    **common,
                    "gen_ai.operation.name": "execute_tool",
                    SEED_TO_OTEL["tool"]: bar.label,
                    "gen_ai.tool.call.id": line.get("gen_ai.tool.call.id"),
                    "gen_ai.tool.type": "function",
                    "status": bar.status,
                    "error.type": line.get("error.type"),
                }
                if record_content:
                    attributes["gen_ai.tool.call.arguments"] = call.get(
                        "gen_ai.tool.call.arguments"
                    )
                    attributes["gen_ai.tool.call.result"] = line.get(
                        "gen_ai.tool.call.result"
                    ) or line.get("output_summary")
                name, kind = f"execute_tool {bar.label}", SpanKind.INTERNAL
            span = tracer.start_span(
                name,
                context=context,
                kind=kind,
                start_time=_ns(origin + bar.start_ms / 1000),
                attributes=_attributes(attributes),
            )
            if bar.status == "error" or (bar.kind == "tool" and line.get("error.type")):
                span.set_status(Status(StatusCode.ERROR, str(line.get("error") or "")[:200]))
            span.end(end_time=_ns(origin + bar.end_ms / 1000))
            count += 1
        for line in run.lines:
            if (
                line.get("event") in ("permission", "retry", "memory", "needs_confirmation")
                or line.get("event") not in _KNOWN
            ):
                event_attributes = {
                    k: v
                    for k, v in line.items()
                    if k not in ("ts", "event", "request_id", "trace_id")
                }
                root.add_event(
                    str(line.get("event")),
                    attributes=_attributes(event_attributes),
                    timestamp=_ns(parse_ts(line["ts"])),
                )
        if end_line.get("status") == "stopped":
            root.set_status(
                Status(
                    StatusCode.ERROR,
                    str(end_line.get("error") or end_line.get("stop_reason"))[:200],
                )
            )
        root.end(end_time=_ns(parse_ts(end_line["ts"])))
        count += 1
    return count


_KNOWN = {"run_start", "model_call", "tool_call", "tool_result", "final", "run_end"}

__all__ = ["export_spans"]
