"""What a run is made of and what it produces: steps, tool-call records, events, the result, and the
signals hooks raise.

Unlike ``agent.py`` (the loop that makes them), this module only describes them, and turns them into
plain JSON and back: a run paused for a confirmation is stored as ``RunResult.to_json()`` and
resumed, maybe in another process, from ``RunResult.from_json()``.

Left out: the loop itself (``agent``), showing a run (``display``), writing a trace (``tracing``).
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from typing import Any

from .confirmation import ConfirmationRequest
from .messages import ChatResult, ToolCall, Usage
from .tools import ToolResult

StopReason = str
"""``final``, ``max_steps``, ``timeout``, ``error``, ``needs_confirmation``, ``length`` (the reply
was cut off at its token limit), ``content_filter`` (the provider withheld it), ``refusal`` (the
model declined in its ``refusal`` field, with no answer), ``unbacked_claim`` (the answer claimed
what did not happen even after a note, ``claims.ClaimCheck``), or the reason of a ``StopRun``."""

ENDINGS_ZH: dict[str, str] = {
    "final": "模型给出了最终回答",
    "needs_confirmation": "暂停，等人决定",
    "max_steps": "步数用完了，模型还想调用工具",
    "timeout": "时间用完了",
    "error": "出错了",
    "budget": "预算用完了",
    "cancelled": "已取消",
    "length": "回复被截断了（达到回复长度上限）",
    "content_filter": "回复被内容过滤拦下了",
    "refusal": "模型拒绝了这个请求",
    "unbacked_claim": "回答声称做了没有做成的事，被拦下了",
}
"""How a run ended, in words (``RunResult.stop_reason`` → Chinese)."""


def ending_zh(stop_reason: str | None) -> str:
    """How a run ended, in Chinese words (an unknown reason is named as it is)."""
    return ENDINGS_ZH.get(str(stop_reason), f"停止（{stop_reason}）")


def ending_line(stop_reason: str | None) -> str:
    """The Chinese words with the stop reason after them, e.g. ``预算用完了（budget）``: for lines
    that a learner reads and may also want to match against ``result.stop_reason``."""
    return f"{ending_zh(stop_reason)}（{stop_reason}）"


EventKind = str
"""The loop's own kinds — ``run_start``, ``model_call``, ``tool_call``, ``tool_result``,
``needs_confirmation``, ``answer_reviewed``, ``final``, ``stop`` — or a kind reported into the run:
by a hook through ``HookContext.report`` (``memory``, ``permission``, ``mcp_pin``) or by code below
the loop through ``reporting.report`` (``retry``, ``fallback``, ``tool_cache``)."""


class StopRun(Exception):
    """Raised by any hook to end the run with its own stop reason (``budget``, ``cancelled``…)."""

    def __init__(self, reason: str, message: str):
        super().__init__(message)
        self.reason, self.message = reason, message


class NeedsConfirmation(Exception):
    """Raised by a hook's ``check_call``: this call may run only after a person decides. ``request``
    says what to show them.
    """

    def __init__(self, request: ConfirmationRequest):
        super().__init__(getattr(request, "summary", "") or "需要确认")
        self.request = request


@dataclass
class ToolCallRecord:
    """One tool call of a step: what the model asked, what came back, and how long it took."""

    call: ToolCall
    result: ToolResult
    duration_ms: float
    repeated: bool = False
    """True when this identical call was made earlier in the run and was answered from that
    result.
    """
    content: str = ""
    """The exact text of the ``role: tool`` message sent back to the model."""
    executed: bool = True
    """False when the tool did not run: a repeat, or a gate answered the call (refused, rejected,
    cached).
    """

    def to_dict(self) -> dict[str, Any]:
        return {
            "call": self.call.to_dict(),
            "result": self.result.to_dict(),
            "duration_ms": self.duration_ms,
            "repeated": self.repeated,
            "content": self.content,
            "executed": self.executed,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ToolCallRecord:
        return cls(
            ToolCall.from_dict(data["call"]),
            ToolResult.from_dict(data["result"]),
            data.get("duration_ms", 0.0),
            data.get("repeated", False),
            data.get("content", ""),
            data.get("executed", True),
        )


@dataclass
class Step:
    """One model call and the tool calls it asked for."""

    index: int
    reply: ChatResult
    model_ms: float
    calls: list[ToolCallRecord] = field(default_factory=list)
    shown: list[str] = field(default_factory=list)
    """The names of the tools the model was shown for this call (what a resumed call is checked
    against).
    """

    def to_dict(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "reply": self.reply.to_dict(),
            "model_ms": self.model_ms,
            "calls": [c.to_dict() for c in self.calls],
            "shown": list(self.shown),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Step:
        return cls(
            data["index"],
            ChatResult.from_dict(data["reply"]),
            data.get("model_ms", 0.0),
            [ToolCallRecord.from_dict(c) for c in data.get("calls", [])],
            list(data.get("shown", [])),
        )


@dataclass
class PausedCall:
    """A tool call waiting for a person's decision, and the request that says what to show them."""

    call: ToolCall
    request: ConfirmationRequest

    def to_dict(self) -> dict[str, Any]:
        return {"call": self.call.to_dict(), "request": self.request.to_dict()}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> PausedCall:
        return cls(ToolCall.from_dict(data["call"]), ConfirmationRequest.from_dict(data["request"]))


@dataclass
class RunResult:
    """A run as data: how it ended, everything said, every step — and, when paused, the calls that
    wait.
    """

    answer: str | None
    stop_reason: StopReason
    error: str | None
    messages: list[dict[str, Any]]
    steps: list[Step]
    duration_ms: float = 0.0
    run_id: str = ""
    paused: list[PausedCall] = field(default_factory=list)
    """With ``needs_confirmation``: the calls waiting for a decision, in call order."""
    results_by_call: dict[str, dict[str, Any]] = field(default_factory=dict, repr=False)
    """The repeat guard's memory (``ToolCall.key`` → result), so a resumed run still knows what it
    already did.
    """

    @property
    def pending(self) -> list[ConfirmationRequest]:
        """The confirmation requests waiting for a decision, in call order (decide each by its
        ``id``).
        """
        return [paused.request for paused in self.paused]

    @property
    def tool_calls(self) -> list[ToolCallRecord]:
        """Every tool call of the run, in order."""
        return [record for step in self.steps for record in step.calls]

    @property
    def usage(self) -> Usage:
        """Tokens summed over the model calls that reported usage (see ``Step.reply.usage`` for
        which did); ``cached_tokens`` over the calls that reported it, ``None`` if none did.
        """
        usages = [step.reply.usage for step in self.steps if step.reply.usage]
        cached = [u.cached_tokens for u in usages if u.cached_tokens is not None]
        return Usage(
            sum(u.prompt_tokens for u in usages),
            sum(u.completion_tokens for u in usages),
            sum(cached) if cached else None,
        )

    def to_json(self) -> str:
        """The whole run as JSON text: enough for ``Agent.resume`` in another process (Day 7 stores
        it).
        """
        return json.dumps(
            {
                "run_id": self.run_id,
                "answer": self.answer,
                "stop_reason": self.stop_reason,
                "error": self.error,
                "messages": self.messages,
                "steps": [s.to_dict() for s in self.steps],
                "duration_ms": self.duration_ms,
                "paused": [p.to_dict() for p in self.paused],
                "results_by_call": self.results_by_call,
            },
            ensure_ascii=False,
            default=str,
        )

    @classmethod
    def from_json(cls, text: str) -> RunResult:
        """The inverse of ``to_json``."""
        data = json.loads(text)
        return cls(
            answer=data.get("answer"),
            stop_reason=data["stop_reason"],
            error=data.get("error"),
            messages=data["messages"],
            steps=[Step.from_dict(s) for s in data.get("steps", [])],
            duration_ms=data.get("duration_ms", 0.0),
            run_id=data.get("run_id", ""),
            paused=[PausedCall.from_dict(p) for p in data.get("paused", [])],
            results_by_call=dict(  # "answered": its name in runs paused by older versions
                data.get("results_by_call", data.get("answered", {}))
            ),
        )


@dataclass(frozen=True)
class AgentEvent:
    """Something that happened in a run. ``kind`` says which of the optional fields are set.

    - ``run_start``: a run (or a resumed run) begins — ``data["resumed"]`` (True when resuming)
    - ``memory``: the memory hook changed what is sent — ``data`` has message and token counts
      before/after
    - ``model_call``: the model replied — ``reply``, ``duration_ms``, ``messages`` (what was sent),
      ``data["tools"]``
    - ``tool_call``: a tool call is about to be checked and run — ``call``
    - ``tool_result``: it finished (or was answered without running) — ``call``, ``record``,
      ``duration_ms``
    - ``needs_confirmation``: a call waits for a person — ``call``, ``data["request"]``
    - ``answer_reviewed``: a hook sent a final answer back with a note — ``answer``,
      ``data["note"]``
    - ``final``: the model answered in words — ``answer``
    - ``stop``: always the last event — ``run`` (the whole ``RunResult``)
    - anything a hook reported with ``HookContext.report`` — ``data`` (and ``call`` when it was
      about one)
    """

    kind: EventKind
    step: int
    reply: ChatResult | None = None
    call: ToolCall | None = None
    record: ToolCallRecord | None = None
    duration_ms: float | None = None
    answer: str | None = None
    run: RunResult | None = None
    run_id: str = ""
    ts: float = field(default_factory=time.time)
    messages: list[dict[str, Any]] | None = None
    data: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """The event as JSON-ready data: what a reader of the run is shown, never the message list.

        ``step`` and ``ts`` always; then the fields of its kind (a reply's content, calls and usage,
        how many messages were sent and which tools were offered; a call's id, name and arguments;
        a result's outcome; the final answer; the stop reason), or, for a kind a hook reported, its
        ``data`` plus ``call_id`` and ``name`` when it was about a call (a key of the data that
        would overwrite one of these is kept as ``data.<key>``). This is the one serialisation of an
        event: the service's stream and ``display`` show it, and the trace (``tracing.Tracer``)
        builds each line from it, renaming fields to OpenTelemetry names and adding costs.
        """
        out: dict[str, Any] = {"step": self.step, "ts": self.ts}
        if self.kind == "model_call" and self.reply is not None:
            reply = self.reply
            usage = (
                None
                if reply.usage is None
                else {
                    "input_tokens": reply.usage.prompt_tokens,
                    "output_tokens": reply.usage.completion_tokens,
                }
            )
            if usage is not None and reply.usage.cached_tokens is not None:
                usage["cached_input_tokens"] = reply.usage.cached_tokens
            calls = [
                {"id": c.id, "name": c.name, "arguments": c.arguments} for c in reply.tool_calls
            ]
            out.update(
                model=reply.model,
                content=reply.content,
                finish_reason=reply.finish_reason,
                usage=usage,
                duration_ms=self.duration_ms,
                message_count=len(self.messages or []),
                tools_offered=list(self.data.get("tools", [])),
                tool_calls=calls,
            )
        elif self.kind == "tool_call" and self.call is not None:
            out.update(id=self.call.id, name=self.call.name, arguments=self.call.arguments)
        elif self.kind == "tool_result" and self.record is not None:
            record, result = self.record, self.record.result
            out.update(
                id=record.call.id,
                name=record.call.name,
                success=result.success,
                data=result.data,
                error=result.error,
                duration_ms=record.duration_ms,
                executed=record.executed,
                repeated=record.repeated,
            )
        elif self.kind == "final":
            out.update(answer=self.answer)
        elif self.kind == "stop" and self.run is not None:
            out.update(
                stop_reason=self.run.stop_reason, error=self.run.error, answer=self.run.answer
            )
        else:  # a reported kind: its data cannot overwrite the event's own step, time or call
            if self.call is not None:
                out.update(call_id=self.call.id, name=self.call.name)
            data = {
                (f"data.{key}" if key in out else key): value for key, value in self.data.items()
            }
            out = {**data, **out}
        return out


__all__ = [
    "ENDINGS_ZH",
    "AgentEvent",
    "EventKind",
    "NeedsConfirmation",
    "PausedCall",
    "RunResult",
    "Step",
    "StopReason",
    "StopRun",
    "ToolCallRecord",
    "ending_line",
    "ending_zh",
]
