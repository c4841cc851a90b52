"""``Tracer``: a hook of the Agent that writes one redacted JSON line per event, as it happens.

    tracer = Tracer("traces/agent.jsonl", client=client, user_id="u_001", session_id="s_01")
    Agent(client, registry, hooks=[tracer]).run("现在几点了？")

The loop is not changed: every ``AgentEvent`` the Agent already emits becomes a line (``run_start``,
``memory``, ``model_call``, ``tool_call``, ``tool_result``, a gate's ``permission``…,
``needs_confirmation``, ``final``, ``run_end``), including the events code below the loop reports
into the run (``reporting``): ``retry`` when the client retries a 429/5xx, ``fallback`` when a
fallback client switches models — nothing to wire by hand. A line starts from the event's one
serialisation, ``AgentEvent.to_dict()``, the same the service streams; field names follow
``fields`` (the reference articles' where they name one, the OpenTelemetry GenAI conventions for
the rest), and a field of the event that no rule renames is written as it is.

What it adds on the way:

- **redaction** of every line before it is encoded (``redact.Redactor``: secrets and personal data);
- **tokens as reported**: ``input_tokens``/``output_tokens`` are the backend's usage, ``null`` when
  it reported none — never 0 — and ``run_end`` sums them, counting the calls it could not; the input
  tokens the provider served from its prompt cache, when it says
  (``gen_ai.usage.cache_read.input_tokens``);
- **cost** of each model call from a ``PriceTable`` (a ``Budget`` hook beside the tracer stops a run
  that spends too much: ``cost``);
- **full messages** only with ``record_messages=True`` (off by default, as the conventions advise:
  they hold whatever users and tools said); replay needs them;
- **notes** a ``ToolCache`` reports (``tool_cache`` events: a cache hit, a truncated result),
  attached to the ``tool_result`` line of the call they happened in.

Every line is written with one unbuffered ``os.write`` (``writer``), so a killed process loses at
most the line being written; surviving a power cut as well takes ``fsync=True`` (one ``os.fsync``
per line, slower). Without a path the lines are only kept in memory (``tracer.lines``), for tests.

Left out: sampling, async writing, and spans (``otel`` turns a finished trace into spans).
"""

from __future__ import annotations

import hashlib
import json
import os
import threading
import time
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any
from urllib.parse import urlsplit

from ..messages import parse_arguments
from ..run import AgentEvent, RunResult
from ..text import shorten
from .cost import CACHED_TOKENS, PriceTable
from .fields import OPERATION
from .redact import Redactor
from .writer import JsonlWriter

STRUCTURAL = frozenset(
    {
        "ts",
        "event",
        "request_id",
        "trace_id",
        "seq",
        "step",
        "gen_ai.tool.call.id",
        "gen_ai.response.id",
        "gen_ai.operation.name",
        "duration_ms",
        "tool_duration_ms",
        "input_tokens",
        "output_tokens",
        CACHED_TOKENS,
    }
)
"""Fields the redactor never rewrites: ids, times and counts (the rest — users, text, arguments —
are redacted).
"""

RESERVED = frozenset(
    {
        "ts",
        "event",
        "request_id",
        "trace_id",
        "user_id",
        "session_id",
        "step",
        "seq",
        "gen_ai.operation.name",
    }
)
"""Fields every line has; a hook's data with one of these names is written as ``data.<name>``."""


def iso_ts(epoch: float) -> str:
    """Epoch seconds as local ISO 8601 with microseconds and the UTC offset, e.g.
    ``2026-03-12T14:30:00.123456+08:00``.
    """
    return datetime.fromtimestamp(epoch).astimezone().isoformat(timespec="microseconds")


def trace_id_for(request_id: str) -> str:
    """The OpenTelemetry trace id (32 hex digits) of a run: derived from its id, so a resumed run
    keeps it.
    """
    return hashlib.sha256(request_id.encode()).hexdigest()[:32]


def provider_name(client: Any) -> str | None:
    """``gen_ai.provider.name`` for a client: a known provider by its host, else the client's own
    label.
    """
    from ..config import PRESETS

    base_url = getattr(client, "base_url", None)
    host = urlsplit(str(base_url)).hostname if base_url else None
    for preset in PRESETS.values():
        if preset.requires_key and host and urlsplit(preset.base_url).hostname == host:
            return preset.name
    label = getattr(client, "label", None)
    return str(label) if label else (type(client).__name__ if client is not None else None)


@dataclass
class _RunTotals:
    seq: int = 0
    step: int = 0
    user: Any = None
    input_tokens: int | None = None
    output_tokens: int | None = None
    usage_unknown: int = 0
    cost: dict[str, float] = field(default_factory=dict)


class Tracer:
    """Writes the events of every run it is given to one JSONL file (and/or keeps them in
    ``lines``).
    """

    def __init__(
        self,
        path: str | os.PathLike[str] | None = None,
        *,
        client: Any = None,
        model: str | None = None,
        provider: str | None = None,
        user_id: Any = None,
        session_id: str | None = None,
        record_messages: bool = False,
        redactor: Redactor | None = None,
        prices: PriceTable | None = None,
        summary_chars: int = 200,
        fsync: bool = False,
        keep_lines: bool | None = None,
        close_at_stop: bool = False,
    ):
        """``client`` fills ``gen_ai.request.model`` and ``gen_ai.provider.name`` (or give
        ``model``/``provider``); ``prices`` defaults to ``PriceTable.default()``; ``keep_lines``
        (default: only when there is no ``path``) keeps every written line in ``self.lines`` too;
        ``close_at_stop`` closes the file after the first run's ``stop`` (a tracer per run, as the
        service has)."""
        self.writer = JsonlWriter(path, fsync=fsync) if path is not None else None
        self.path = self.writer.path if self.writer else None
        self.client, self.model, self.user_id, self.session_id = client, model, user_id, session_id
        self.provider = (
            provider
            if provider is not None
            else (provider_name(client) if client is not None else None)
        )
        self.record_messages, self.summary_chars = record_messages, summary_chars
        self.redactor = redactor if redactor is not None else Redactor()
        self.prices = prices if prices is not None else PriceTable.default()
        self.close_at_stop = close_at_stop
        self.keep_lines = (path is None) if keep_lines is None else keep_lines
        self.lines: list[dict[str, Any]] = []
        self._runs: dict[str, _RunTotals] = {}
        self._current: str | None = None
        self._notes: dict[str, dict[str, Any]] = {}  # per run, for its next tool_result line
        self._lock = threading.RLock()

    # ----------------------------------------------------------------------- the hook

    def on_event(self, event: AgentEvent) -> None:
        """Write the event's line (a ``tool_cache`` report is kept for the ``tool_result`` line that
        follows it).
        """
        if event.kind == "tool_cache":
            self._note(event)
            return
        self.write(self._line(event), event.ts)
        if event.kind == "stop" and self.close_at_stop:
            self.close()

    def write(self, line: dict[str, Any], ts: float | None = None) -> dict[str, Any]:
        """Complete a line (ids, time, order), redact it and write it; returns what was written."""
        with self._lock:
            request_id = str(line.get("request_id") or self._current or "no_run")
            totals = self._runs.setdefault(request_id, _RunTotals())
            if line.get("user_id") is not None:
                totals.user = line["user_id"]
            line.pop("user_id", None)
            line.pop("request_id", None)
            head = {
                "ts": iso_ts(ts if ts is not None else time.time()),
                "event": line.pop("event"),
                "request_id": request_id,
                "trace_id": trace_id_for(request_id),
                "user_id": self.user_id if self.user_id is not None else totals.user,
                "session_id": self.session_id,
                "step": line.pop("step", totals.step),
                "seq": totals.seq,
            }
            head["gen_ai.operation.name"] = OPERATION.get(head["event"], "execute_tool")
            totals.seq += 1
            record = {**head, **line}
            record = {
                key: value if key in STRUCTURAL else self.redactor(value)
                for key, value in record.items()
            }
            if self.writer is not None:
                self.writer.write(record)
            if self.keep_lines:
                self.lines.append(record)
            return record

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()

    def __enter__(self) -> Tracer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ----------------------------------------------------------------------- events → lines

    def _line(self, event: AgentEvent) -> dict[str, Any]:
        """The event's line: ``event.to_dict()`` with the trace's names, plus what only a trace
        writes (the model asked for, the provider, cost, a tool's status, a run's totals, and the
        messages themselves with ``record_messages``). A field of ``to_dict`` that no rule below
        names is written as it is, so the line never falls behind the event.
        """
        run_id, kind = event.run_id, event.kind
        totals = self._runs.setdefault(run_id, _RunTotals())
        totals.step = max(totals.step, event.step)
        fields = event.to_dict()
        del fields["ts"]  # ``write`` puts the event's time at the head of the line
        base: dict[str, Any] = {"event": kind, "request_id": run_id, "step": fields.pop("step")}
        if kind == "run_start":
            self._current = run_id
            return {**base, "resumed": bool(fields.pop("resumed", False)), **_rest(fields)}
        if kind == "model_call" and event.reply is not None:
            return {**base, **self._model_call(event, fields, totals)}
        if kind == "tool_call" and event.call is not None:
            call = _call_fields(fields)
            return {**base, **call, **_arguments(fields.pop("arguments")), **_rest(fields)}
        if kind == "tool_result" and event.record is not None:
            with self._lock:
                notes = self._notes.pop(run_id, {})
            return {**base, **self._tool_result(event, fields, notes)}
        if kind == "retry":  # a client's retry, reported into the run (``reporting``)
            status = fields.pop("status", None)
            return {
                **base,
                "http.response.status_code": status,
                "error.type": str(status),
                "error": shorten(str(fields.pop("message", None) or ""), self.summary_chars),
                "attempt": fields.pop("attempt", None),
                "wait_s": fields.pop("wait", None),
                "server_asked_s": fields.pop("server_asked", None),
                **_rest(fields),
            }
        if kind == "stop" and event.run is not None:
            if self._current == run_id:
                self._current = None
            return {**base, **self._run_end(event.run, fields, totals), "event": "run_end"}
        # ``final``, and a gate's own kinds (permission …): its data, renamed where it would
        # overwrite a field every line has
        call = _call_fields(fields, "call_id") if event.call is not None else {}
        return {**call, **_rest(fields), **base}

    def _note(self, event: AgentEvent) -> None:
        """Keep a ``tool_cache`` report (a cache hit, a truncated result) for the run's next
        ``tool_result`` line.
        """
        fields = event.to_dict()
        for own in ("step", "ts", "call_id", "name"):  # the tool_result line has its own
            fields.pop(own, None)
        with self._lock:
            self._notes.setdefault(event.run_id, {}).update(fields)

    def _model_call(
        self, event: AgentEvent, fields: dict[str, Any], totals: _RunTotals
    ) -> dict[str, Any]:
        reply = event.reply
        assert reply is not None
        usage = fields.pop("usage")
        reported = usage or {}
        requested = self.model or getattr(self.client, "model", None)
        fields.pop("content")  # the trace holds no message text unless it records the messages
        line: dict[str, Any] = {
            "model": fields.pop("model") or requested,
            "gen_ai.request.model": requested,
            "gen_ai.provider.name": self.provider,
            "input_tokens": reported.get("input_tokens"),
            "output_tokens": reported.get("output_tokens"),
            CACHED_TOKENS: reported.get("cached_input_tokens"),
            "finish_reason": fields.pop("finish_reason"),
            "duration_ms": fields.pop("duration_ms"),
            "message_count": fields.pop("message_count"),
            "tools_offered": fields.pop("tools_offered"),
            "tool_calls": [call["name"] for call in fields.pop("tool_calls")],
            **_rest(fields),
        }
        response_id = getattr(reply.raw, "id", None)
        if isinstance(response_id, str):
            line["gen_ai.response.id"] = response_id
        amount, currency = self.prices.cost_of(line)
        amount = (
            round(amount, 12) if amount is not None else None
        )  # no float noise (0.000204512, not 0.00020451200000000004)
        line["cost"], line["cost_currency"] = amount, currency
        if usage is None:
            totals.usage_unknown += 1
        else:
            totals.input_tokens = (totals.input_tokens or 0) + line["input_tokens"]
            totals.output_tokens = (totals.output_tokens or 0) + line["output_tokens"]
        if amount is not None and currency is not None:
            totals.cost[currency] = totals.cost.get(currency, 0.0) + amount
        if self.record_messages:
            output = reply.to_message()
            output["finish_reason"] = reply.finish_reason
            if reply.reasoning_content:
                output["reasoning_content"] = reply.reasoning_content
            line["gen_ai.input.messages"] = _plain(event.messages or [])
            line["gen_ai.output.messages"] = [output]
        return line

    def _tool_result(
        self, event: AgentEvent, fields: dict[str, Any], notes: dict[str, Any]
    ) -> dict[str, Any]:
        record = event.record
        assert record is not None
        call = _call_fields(fields)
        success, executed = fields.pop("success"), fields.pop("executed")
        data, error = fields.pop("data"), fields.pop("error")
        if fields.pop("repeated"):
            status = "repeated"
        elif notes.get("cache.hit"):
            status = "cached"
        elif not executed:
            status = "refused"
        else:
            status = "success" if success else "error"
        line: dict[str, Any] = {
            **call,
            "tool_duration_ms": fields.pop("duration_ms"),
            "status": status,
            "success": success,
            "executed": executed,
        }
        if not success:
            exception = record.result.exception
            line["error.type"] = type(exception).__name__ if exception is not None else "tool_error"
            line["error"] = error
        line["output_summary"] = shorten(data if success else error, self.summary_chars)
        line.update(_rest(fields))
        line.update(notes)
        if self.record_messages:
            line["gen_ai.tool.call.result"] = _plain(record.result.to_dict())
            line["content"] = record.content
        return line

    def _run_end(
        self, run: RunResult, fields: dict[str, Any], totals: _RunTotals
    ) -> dict[str, Any]:
        reason = fields.pop("stop_reason")
        error, answer = fields.pop("error"), fields.pop("answer")
        status = (
            "success"
            if reason == "final"
            else ("paused" if reason == "needs_confirmation" else "stopped")
        )
        line: dict[str, Any] = {
            "stop_reason": reason,
            "status": status,
            "duration_ms": run.duration_ms,
            "steps": len(run.steps),
            "tool_call_count": len(run.tool_calls),
            "input_tokens": totals.input_tokens,
            "output_tokens": totals.output_tokens,
            "usage_unknown": totals.usage_unknown,
        }
        if len(totals.cost) <= 1:
            currency, amount = next(iter(totals.cost.items()), (None, None))
            line["cost"], line["cost_currency"] = (
                (round(amount, 12) if amount is not None else None),
                currency,
            )
        else:
            line["cost"], line["cost_currency"] = dict(totals.cost), None
        if status == "stopped":
            line["error.type"] = reason
        if error:
            line["error"] = error
        if answer is not None:
            line["answer"] = answer
        if run.pending:
            line["pending"] = [getattr(request, "id", None) for request in run.pending]
        line.update(_rest(fields))
        if self.record_messages:
            line["messages"] = _plain(run.messages)
        return line


def _call_fields(fields: dict[str, Any], id_key: str = "id") -> dict[str, Any]:
    """The call an event is about, under the trace's names (taken out of ``fields``; a reported
    kind names the call's id ``call_id``).
    """
    return {"tool": fields.pop("name"), "gen_ai.tool.call.id": fields.pop(id_key)}


def _arguments(arguments: str) -> dict[str, Any]:
    try:
        return {"gen_ai.tool.call.arguments": parse_arguments(arguments)}
    except ValueError as exc:
        return {
            "gen_ai.tool.call.arguments": arguments,
            "error.type": "invalid_arguments",
            "error": str(exc),
        }


def _rest(fields: dict[str, Any]) -> dict[str, Any]:
    """The event's fields no rule renamed, as they are; one that would overwrite a field every
    line has becomes ``data.<name>``.
    """
    return {(f"data.{key}" if key in RESERVED else key): value for key, value in fields.items()}


def _plain(value: Any) -> Any:
    """A JSON-only copy (what will be written), so later changes to the run do not change a line
    already built.
    """
    return json.loads(json.dumps(value, ensure_ascii=False, default=str))


__all__ = ["STRUCTURAL", "Tracer", "iso_ts", "provider_name", "trace_id_for"]
