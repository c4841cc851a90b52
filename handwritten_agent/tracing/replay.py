"""``replay(trace)``: run the loop again on the model replies a trace recorded, and say where it
diverges.

No model is contacted: a replay client hands the Agent the recorded replies in order, and compares
what the Agent sends each time with what the trace says was sent. Tool results come from the trace
(``tools="recorded"``, the default: the run is reproduced exactly, byte for byte) or from your
registry (``tools="real"``: the tools run again, and a changed tool shows up as the first result,
and then the first model input, that differs). Calls the original run did not execute — answered by
a gate, waiting for a confirmation — are answered from the trace in both modes, by a replay gate.
A run the original ended from a hook (``budget``, ``timeout``) is ended the same way at the same
event.

A replay needs the full messages, so the trace must be written with
``Tracer(record_messages=True)``. The trace is redacted, so the replay works on redacted text; it
compares like with like (every new message is redacted the same way before comparing), and real
tools receive the redacted arguments.

The permission gate's marking of untrusted tool results (``PolicyGate.prepare_messages``) is taken
off the recorded inputs before comparing: the replay has no gate, and the mark is a function of the
run itself.

Left out: replaying a resumed run (replay the run that paused, then resume it yourself), runs whose
memory hook changed what was sent (the replay has no memory hook), and streaming.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from ..agent import Agent
from ..confirmation import ConfirmationRequest
from ..hooks import HookContext
from ..messages import ChatResult, ToolCall, Usage, latest_user_index, message_text
from ..permissions.gate import unmark_external
from ..pricing import CACHED_TOKENS
from ..run import AgentEvent, NeedsConfirmation, RunResult, StopRun, ending_line
from ..text import shorten
from ..tools import ToolRegistry, ToolResult
from .reading import TraceRun, as_run
from .redact import Redactor

NATIVE_ENDINGS = (
    "final",
    "max_steps",
    "error",
    "needs_confirmation",
    "length",
    "content_filter",
    "refusal",
)
"""Stop reasons the loop reaches by itself; any other (``budget``, ``timeout``…) is re-raised at the
same event.
"""


class ReplayError(RuntimeError):
    """The replay needed a model reply the trace does not have (the new run went further than the
    recorded one).
    """


@dataclass(frozen=True)
class Divergence:
    """The first (or a later) place where the replayed run differs from the recorded one."""

    step: int
    what: str
    recorded: Any
    replayed: Any

    def __str__(self) -> str:
        return (
            f"第 {self.step} 步 · {self.what}\n    记录：{shorten(self.recorded, 140)}\n   "
            f" 重放：{shorten(self.replayed, 140)}"
        )


@dataclass
class ReplayResult:
    """The replayed run, the recorded one, and every divergence between them (the first one is the
    cause).
    """

    result: RunResult
    recorded: TraceRun
    divergences: list[Divergence] = field(default_factory=list)
    model_calls: int = 0

    @property
    def identical(self) -> bool:
        """No divergence: same model inputs, same tool results, same ending, same final messages."""
        return not self.divergences

    @property
    def first(self) -> Divergence | None:
        return self.divergences[0] if self.divergences else None

    def describe(self) -> str:
        same = "也是" if self.result.stop_reason == self.recorded.stop_reason else "是"
        head = (
            f"重放了 {self.model_calls} 次模型调用（没有联系任何模型），结束："
            f"{ending_line(self.result.stop_reason)}，"
            f"记录里{same}：{ending_line(self.recorded.stop_reason)}。"
        )
        if self.identical:
            return (
                head
                + "\n与记录完全一致：每次发给模型的消息、每个工具结果、最终回答和整段消息都相同。"
            )
        return (
            head
            + f"\n发现 {len(self.divergences)} 处不同，第一处是原因：\n"
            + "\n".join(str(d) for d in self.divergences)
        )

    def __str__(self) -> str:
        return self.describe()


def _canonical(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True, default=str)


def _first_difference(
    recorded: list[dict[str, Any]], replayed: list[dict[str, Any]]
) -> tuple[int, Any, Any] | None:
    for index in range(max(len(recorded), len(replayed))):
        a = recorded[index] if index < len(recorded) else None
        b = replayed[index] if index < len(replayed) else None
        if _canonical(a) != _canonical(b):
            return index, a, b
    return None


def _reply(line: dict[str, Any]) -> ChatResult:
    output = (line.get("gen_ai.output.messages") or [{}])[0]
    usage = (
        None
        if line.get("input_tokens") is None
        else Usage(
            int(line["input_tokens"]),
            int(line.get("output_tokens") or 0),
            line.get(CACHED_TOKENS),
        )
    )
    return ChatResult(
        content=output.get("content"),
        tool_calls=[ToolCall.from_dict(c) for c in output.get("tool_calls") or []],
        finish_reason=output.get("finish_reason", line.get("finish_reason")),
        usage=usage,
        model=str(line.get("model") or ""),
        reasoning_content=output.get("reasoning_content"),
    )


class _ReplayClient:
    """Answers with the recorded replies, in order, and notes every input that differs from the
    recorded one.
    """

    def __init__(self, session: _Session):
        self.session = session
        self.calls = 0
        self.model = "replay"

    def complete(self, messages: Any, tools: Any = None, **options: Any) -> ChatResult:
        recorded = self.session.run.model_calls
        index = self.calls
        self.calls += 1
        if index >= len(recorded):
            end = self.session.run.end or {}
            if end.get("stop_reason") == "error" and index == len(recorded):
                raise ReplayError(
                    str(end.get("error") or "记录里的这次模型调用失败了")
                )  # the original failed here too
            self.session.diverge(
                index + 1,
                "新的运行还要再调用一次模型，但记录里已经没有回复了",
                f"记录里只有 {len(recorded)} 次模型调用",
                f"第 {index + 1} 次",
            )
            raise ReplayError(f"记录里只有 {len(recorded)} 次模型调用，重放需要第 {index + 1} 次。")
        line = recorded[index]
        sent = self.session.redact(list(messages))
        # the permission gate marks untrusted tool results in what it sends; the replay has no gate,
        # so compare without the marks
        difference = _first_difference(
            unmark_external(line.get("gen_ai.input.messages") or []), sent
        )
        if difference is not None:
            position, was, now = difference
            self.session.diverge(
                int(line.get("step", index + 1)),
                f"发给模型的第 {position} 条消息不同",
                _message_summary(was),
                _message_summary(now),
            )
        return _reply(line)


def _message_summary(message: Any) -> str:
    if not isinstance(message, dict):
        return "（没有这条消息）"
    text = message_text(message) or _canonical(message.get("tool_calls"))
    return f"{message.get('role')}: {text}"


class _ReplayGate:
    """Answers from the trace every call the original run did not execute (or, with recorded tools,
    every call).
    """

    def __init__(self, session: _Session, registry: ToolRegistry | None):
        self.session, self.registry = session, registry

    def check_call(self, call: ToolCall, context: HookContext) -> ToolResult | None:
        outcome = self.session.outcome_for_current_call()
        if outcome is None:  # the original run had no such call: run it for real if we can
            return (
                None
                if self.registry is not None and self.registry.get(call.name)
                else ToolResult.fail("重放：记录里没有这次调用。")
            )
        if outcome.get("event") == "needs_confirmation":
            raise NeedsConfirmation(
                ConfirmationRequest.from_dict(outcome.get("request") or {"id": call.id})
            )
        if self.registry is None or not outcome.get("executed", True):
            recorded = outcome.get("gen_ai.tool.call.result")
            return (
                ToolResult.from_dict(recorded)
                if isinstance(recorded, dict)
                else ToolResult.fail("重放：记录里没有这次调用的结果。")
            )
        return None  # run the real tool


class _Session:
    def __init__(self, run: TraceRun, redactor: Redactor):
        self.run, self.redactor = run, redactor
        self.divergences: list[Divergence] = []
        calls = run.tool_calls
        self.outcomes: list[dict[str, Any] | None] = []
        answers = [
            line for line in run.lines if line.get("event") in ("tool_result", "needs_confirmation")
        ]
        for call in calls:
            match = next(
                (
                    a
                    for a in answers
                    if a.get("gen_ai.tool.call.id") == call.get("gen_ai.tool.call.id")
                    and a.get("tool") == call.get("tool")
                ),
                None,
            )
            if match is not None:
                answers.remove(match)
            self.outcomes.append(match)
        self.call_index = -1
        self.lines = [
            line
            for line in run.lines
            if line.get("event")
            in ("model_call", "tool_call", "tool_result", "needs_confirmation", "final")
        ]
        self.position = 0

    def redact(self, value: Any) -> Any:
        return self.redactor(json.loads(json.dumps(value, ensure_ascii=False, default=str)))

    def diverge(self, step: int, what: str, recorded: Any, replayed: Any) -> None:
        self.divergences.append(Divergence(step, what, recorded, replayed))

    def outcome_for_current_call(self) -> dict[str, Any] | None:
        return self.outcomes[self.call_index] if 0 <= self.call_index < len(self.outcomes) else None

    def on_event(self, event: AgentEvent) -> None:
        if event.kind == "tool_call" and event.call is not None:
            self.call_index += 1
            recorded = (
                self.run.tool_calls[self.call_index]
                if self.call_index < len(self.run.tool_calls)
                else None
            )
            if recorded is None or recorded.get("tool") != event.call.name:
                self.diverge(
                    event.step, "工具调用不同", recorded and recorded.get("tool"), event.call.name
                )
        if event.kind == "tool_result" and event.record is not None:
            outcome = self.outcome_for_current_call()
            if outcome is not None and outcome.get("content") is not None:
                now = self.redact(event.record.content)
                if now != outcome.get("content"):
                    self.diverge(
                        event.step,
                        f"工具 {event.call.name if event.call else ''} 的结果不同",
                        outcome.get("content"),
                        now,
                    )
        if event.kind in ("model_call", "tool_call", "tool_result", "needs_confirmation", "final"):
            self.position += 1
            end = self.run.end or {}
            reason = end.get("stop_reason")
            if (
                self.position == len(self.lines)
                and reason not in NATIVE_ENDINGS
                and event.kind != "final"
            ):
                raise StopRun(
                    str(reason),
                    str(end.get("error") or f"记录里的运行在这里结束：{ending_line(reason)}"),
                )


def replay(
    source: Any,
    registry: ToolRegistry | None = None,
    *,
    tools: str = "recorded",
    request_id: str | None = None,
    redactor: Redactor | None = None,
    on_event: Any = None,
) -> ReplayResult:
    """Re-run a recorded run without a model; ``tools="real"`` runs ``registry``'s tools instead of
    using recorded results.

    ``source``: a trace path, a ``Trace`` or a ``TraceRun``; ``request_id`` picks a run (default:
    the last). ``redactor`` must redact like the one that wrote the trace (the default
    ``Redactor()`` does); ``on_event`` also receives the replay's events (e.g. a second ``Tracer``).
    """
    if tools not in ("recorded", "real"):
        raise ValueError(
            "tools 只能是 'recorded'（用记录里的工具结果）或 'real'（真的再运行工具），收到的是"
            f" {tools!r}。"
        )
    if tools == "real" and registry is None:
        raise ValueError("tools='real' 需要传入 registry：要重新运行的工具。")
    run = as_run(source, request_id)
    end = run.end
    if end is None or not run.model_calls and end.get("stop_reason") != "error":
        raise ValueError(f"运行 {run.request_id} 在 trace 里没有结束行或没有模型调用，无法重放。")
    if any(line.get("resumed") for line in run.of("run_start")):
        raise ValueError("这是一次暂停后继续的运行：请重放暂停之前的那一段，然后自己 resume。")
    if "messages" not in end or any(
        "gen_ai.input.messages" not in line for line in run.model_calls
    ):
        raise ValueError(
            "这个 trace 没有记录完整的消息，无法重放。请用 Tracer(record_messages=True) 重新运行一"
            "次再重放。"
        )

    session = _Session(run, redactor if redactor is not None else Redactor())
    messages = end["messages"]
    last_user = latest_user_index(messages)
    if last_user < 0:
        raise ValueError("记录的消息里没有用户消息，无法知道这次运行是怎么开始的。")
    opening = messages[: last_user + 1]
    system = opening[0]["content"] if opening and opening[0].get("role") == "system" else None
    history = opening[1:last_user] if system is not None else opening[:last_user]
    client = _ReplayClient(session)
    recorded_steps = len(run.model_calls)
    max_steps = max(
        1, recorded_steps if end.get("stop_reason") == "max_steps" else recorded_steps + 1
    )

    agent = Agent(
        client,
        registry if tools == "real" and registry is not None else ToolRegistry(),
        system_prompt=system or "",
        max_steps=max_steps,
        on_event=on_event,
        hooks=[_ReplayGate(session, registry if tools == "real" else None), session],
    )
    result = agent.run(message_text(opening[last_user]), history, run_id=f"replay_{run.request_id}")

    if result.stop_reason != end.get("stop_reason"):
        session.diverge(
            len(result.steps), "结束方式不同", end.get("stop_reason"), result.stop_reason
        )
    if (result.answer or None) != (
        session.redact(end.get("answer")) if end.get("answer") is not None else None
    ):
        session.diverge(len(result.steps), "最终回答不同", end.get("answer"), result.answer)
    difference = _first_difference(end["messages"], session.redact(result.messages))
    if difference is not None and not session.divergences:
        position, was, now = difference
        session.diverge(
            len(result.steps),
            f"最终的消息列表第 {position} 条不同",
            _message_summary(was),
            _message_summary(now),
        )
    return ReplayResult(result, run, session.divergences, client.calls)


__all__ = ["Divergence", "NATIVE_ENDINGS", "ReplayError", "ReplayResult", "replay"]
