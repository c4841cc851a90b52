"""The ReAct loop: ask the model, run the tools it asks for, hand back the results, repeat — with bounds.

This is the seeds' minimal loop made correct:

- the assistant message is appended exactly as the model sent it (``ChatResult.to_message()``), so
  every ``tool_call`` keeps its id and argument text, and each tool message answers its call by
  ``tool_call_id``, in the order the calls were made;
- a tool error, bad arguments or an unknown tool become a result the model reads
  (``ToolRegistry.dispatch`` never raises), so the model can correct itself;
- an identical call (same tool, same parsed arguments) made earlier in the run is not executed
  again: the model gets the earlier result back with a note that it already had it;
- the run always ends, with a truthful ``stop_reason``:

  ==============  ===============================================================================
  ``final``       the model answered in words
  ``max_steps``   ``max_steps`` model calls were made and the model still wanted tools
  ``timeout``     ``max_seconds`` had passed when the next model call was due (checked between
                  steps; a model call or tool already running is bounded by its own timeout)
  ``error``       the model call raised (network, HTTP error, …) or the reply was empty
  ==============  ===============================================================================

Every step is reported as an ``AgentEvent`` to ``on_event`` and, if you iterate ``iter_run``, to
you; ``run`` is ``iter_run`` consumed to the end. The loop is written once, in ``_loop``.

Left out: streaming tokens, memory trimming (Day 4), permission checks and confirmation (Day 5),
traces to a file (Day 6). Each of those wraps or extends this loop rather than rewriting it.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator, Literal

from .tools import ToolRegistry, ToolResult
from .types import ChatModel, ChatResult, ToolCall, Usage

DEFAULT_SYSTEM_PROMPT = (
    "你是一个可以调用工具的助手。先判断用户的问题需不需要工具：打招呼、闲聊或常识问题直接回答；"
    "需要当前时间、精确计算、天气、汇率等外部信息时，调用描述相符的工具。\n"
    "工具返回的结果是事实的唯一来源，不要编造工具没有给出的数据。\n"
    "如果工具返回 success 为 false，说明调用失败：不要猜测结果，把 error 中的原因如实告诉用户。\n"
    "已经拿到的结果不要用相同的参数再调用一次。信息齐全后，用简洁的中文给出最终回答。"
)

REPEATED_CALL_NOTE = "你已经用完全相同的参数调用过这个工具，上面是那次的结果，这次没有重复执行。请直接使用这个结果，或者换用不同的参数。"

StopReason = Literal["final", "max_steps", "timeout", "error"]
EventKind = Literal["model_call", "tool_call", "tool_result", "final", "stop"]


@dataclass
class ToolCallRecord:
    """One tool call of a step: what the model asked, what came back, and how long it took."""

    call: ToolCall
    result: ToolResult
    duration_ms: float
    repeated: bool = False
    """True when this identical call was made earlier in the run and was answered from that result."""
    content: str = ""
    """The exact text of the ``role: tool`` message sent back to the model."""


@dataclass
class Step:
    """One model call and the tool calls it asked for."""

    index: int
    reply: ChatResult
    model_ms: float
    calls: list[ToolCallRecord] = field(default_factory=list)


@dataclass
class RunResult:
    answer: str | None
    stop_reason: StopReason
    error: str | None
    messages: list[dict[str, Any]]
    steps: list[Step]
    duration_ms: float = 0.0

    @property
    def tool_calls(self) -> list[ToolCallRecord]:
        """Every tool call of the run, in order."""
        return [record for step in self.steps for record in step.calls]

    @property
    def usage(self) -> Usage:
        """Tokens summed over all model calls (zero where a backend reported none)."""
        usages = [step.reply.usage for step in self.steps if step.reply.usage]
        return Usage(sum(u.prompt_tokens for u in usages), sum(u.completion_tokens for u in usages))


@dataclass(frozen=True)
class AgentEvent:
    """Something that happened in a run. ``kind`` says which of the optional fields are set.

    - ``model_call``: the model replied — ``reply``, ``duration_ms``
    - ``tool_call``: a tool call is about to run — ``call``
    - ``tool_result``: it finished (or was answered as a repeat) — ``call``, ``record``, ``duration_ms``
    - ``final``: the model answered in words — ``answer``
    - ``stop``: always the last event — ``run`` (the whole ``RunResult``)
    """

    kind: EventKind
    step: int
    reply: ChatResult | None = None
    call: ToolCall | None = None
    record: ToolCallRecord | None = None
    duration_ms: float | None = None
    answer: str | None = None
    run: RunResult | None = None


def call_key(call: ToolCall) -> str:
    """Identity of a call for the repeat guard: the tool name plus its arguments in canonical JSON."""
    try:
        canonical = json.dumps(json.loads(call.arguments or "{}"), sort_keys=True, ensure_ascii=False)
    except ValueError:
        canonical = call.arguments  # unparseable text: only the very same text counts as a repeat
    return f"{call.name}\x00{canonical}"


def _ms_since(start: float) -> float:
    return round((time.perf_counter() - start) * 1000, 1)


class Agent:
    """A tool-calling agent: one client, one registry, bounded by ``max_steps`` and ``max_seconds``."""

    def __init__(self, client: ChatModel, registry: ToolRegistry, system_prompt: str = DEFAULT_SYSTEM_PROMPT, max_steps: int = 8,
                 max_seconds: float | None = None, on_event: Callable[[AgentEvent], None] | None = None,
                 model_options: dict[str, Any] | None = None):
        """``model_options`` go to every ``client.complete`` call (e.g. ``{"parallel_tool_calls": False}``).

        ``on_event`` is called synchronously for every event; an exception it raises is a bug in the
        caller's code and propagates (unlike anything the model or a tool does).
        """
        if max_steps < 1:
            raise ValueError(f"max_steps must be at least 1, got {max_steps}.")
        self.client, self.registry, self.system_prompt = client, registry, system_prompt
        self.max_steps, self.max_seconds, self.on_event = max_steps, max_seconds, on_event
        self.model_options = dict(model_options or {})

    def run(self, user_message: str, history: list[dict[str, Any]] | None = None) -> RunResult:
        """Run to the end and return the result. Never raises for anything the model or a tool does."""
        last = None
        for last in self.iter_run(user_message, history):
            pass
        assert last is not None and last.run is not None  # _loop always ends with a stop event
        return last.run

    def iter_run(self, user_message: str, history: list[dict[str, Any]] | None = None) -> Iterator[AgentEvent]:
        """The same run as ``run``, as a generator of events; the last one (``stop``) carries the ``RunResult``."""
        for event in self._loop(user_message, history):
            if self.on_event is not None:
                self.on_event(event)
            yield event

    def _start(self, user_message: str, history: list[dict[str, Any]] | None) -> list[dict[str, Any]]:
        """The opening messages. A history that starts with a system message keeps it (continuing a run)."""
        history = list(history or [])
        head = [] if history and history[0].get("role") == "system" else [{"role": "system", "content": self.system_prompt}]
        return head + history + [{"role": "user", "content": user_message}]

    def _loop(self, user_message: str, history: list[dict[str, Any]] | None) -> Iterator[AgentEvent]:
        messages = self._start(user_message, history)
        steps: list[Step] = []
        earlier: dict[str, ToolResult] = {}  # call_key -> result, for the repeat guard
        started = time.perf_counter()
        tools = self.registry.schemas() or None

        def stop(reason: StopReason, answer: str | None = None, error: str | None = None) -> AgentEvent:
            result = RunResult(answer, reason, error, messages, steps, _ms_since(started))
            return AgentEvent("stop", len(steps), run=result)

        for index in range(1, self.max_steps + 1):
            if self.max_seconds is not None and time.perf_counter() - started > self.max_seconds:
                yield stop("timeout", error=f"The time budget of {self.max_seconds:g} s ran out after {index - 1} step(s). "
                                            "Raise Agent(max_seconds=...) or make the task smaller.")
                return

            model_start = time.perf_counter()
            try:
                reply = self.client.complete(messages, tools=tools, **self.model_options)
            except Exception as exc:  # HTTP, network, timeout, a scripted client running dry …: end the run, truthfully
                yield stop("error", error=f"The model call failed at step {index}: {type(exc).__name__}: {exc}")
                return
            step = Step(index, reply, _ms_since(model_start))
            steps.append(step)
            yield AgentEvent("model_call", index, reply=reply, duration_ms=step.model_ms)

            if not reply.tool_calls:  # no tool wanted: this is the answer — unless there is nothing in it
                if not (reply.content or "").strip():
                    yield stop("error", error=f"The model returned an empty reply at step {index} (no content, no tool calls, "
                                              f"finish_reason={reply.finish_reason!r}). Try again, or check the model supports tools.")
                    return
                messages.append(reply.to_message())
                yield AgentEvent("final", index, answer=reply.content)
                yield stop("final", answer=reply.content)
                return

            messages.append(reply.to_message())  # echoed exactly: same ids, same argument text
            for call in reply.tool_calls:  # every call answered, in the order the model made them
                yield AgentEvent("tool_call", index, call=call)
                record = self._execute(call, earlier)
                step.calls.append(record)
                messages.append({"role": "tool", "tool_call_id": call.id, "content": record.content})
                yield AgentEvent("tool_result", index, call=call, record=record, duration_ms=record.duration_ms)

        yield stop("max_steps", error=f"No final answer after {self.max_steps} steps: the model kept calling tools. "
                                      "Look at the last steps for a loop, or raise Agent(max_steps=...).")

    def _execute(self, call: ToolCall, earlier: dict[str, ToolResult]) -> ToolCallRecord:
        """Dispatch one call, or answer it from an identical earlier call without running the tool again."""
        key = call_key(call)
        if key in earlier:
            previous = earlier[key]
            content = json.dumps({**previous.to_dict(), "repeated": True, "note": REPEATED_CALL_NOTE}, ensure_ascii=False, default=str)
            return ToolCallRecord(call, previous, 0.0, repeated=True, content=content)
        start = time.perf_counter()
        result = self.registry.dispatch(call.name, call.arguments)
        earlier[key] = result
        return ToolCallRecord(call, result, _ms_since(start), content=result.to_content())


# --------------------------------------------------------------------------- showing a run (notebooks)


def _short(text: Any, limit: int = 160) -> str:
    text = text if isinstance(text, str) else json.dumps(text, ensure_ascii=False, default=str)
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def format_call(call: ToolCall) -> str:
    return f"{call.name}({_short(call.arguments, 120)})"


def format_record(record: ToolCallRecord) -> str:
    result = record.result
    body = f"成功 {_short(result.data)}" if result.success else f"失败 {_short(result.error)}"
    tag = "重复调用，未执行，返回上次结果：" if record.repeated else f"{record.duration_ms:g} ms，"
    return f"    ← [{record.call.id}] {tag}{body}"


def format_step(step: Step) -> str:
    """A few lines for one step: what the model said or asked, then each tool result."""
    lines = [f"第 {step.index} 步 · 模型 {step.model_ms:g} ms"]
    if step.reply.content:
        lines.append(f"  assistant: {_short(step.reply.content, 300)}")
    lines += [f"  → [{record.call.id}] {format_call(record.call)}\n{format_record(record)}" for record in step.calls]
    return "\n".join(lines)


def format_run(result: RunResult) -> str:
    """The whole run, step by step, ending with how and why it stopped."""
    parts = [format_step(step) for step in result.steps]
    ending = f"结束：stop_reason={result.stop_reason}，{len(result.steps)} 步，{len(result.tool_calls)} 次工具调用，{result.duration_ms:g} ms"
    if result.error:
        ending += f"\n  error: {result.error}"
    if result.answer:
        ending += f"\n  answer: {result.answer}"
    return "\n".join(parts + [ending])


def print_run(result: RunResult) -> None:
    print(format_run(result))


def format_event(event: AgentEvent) -> str:
    """One line (or two) per event; ``Agent(on_event=print_event)`` shows a run as it happens."""
    if event.kind == "model_call" and event.reply is not None:
        wants = "、".join(call.name for call in event.reply.tool_calls)
        if wants:
            said = f"调用 {wants}"
        elif (event.reply.content or "").strip():
            said = f"回答 {_short(event.reply.content)}"
        else:
            said = "回复为空（没有文字，也没有工具调用）"
        return f"第 {event.step} 步 · 模型 {event.duration_ms:g} ms：{said}"
    if event.kind == "tool_call" and event.call is not None:
        return f"  → [{event.call.id}] {format_call(event.call)}"
    if event.kind == "tool_result" and event.record is not None:
        return format_record(event.record)
    if event.kind == "final":
        return f"最终回答：{event.answer}"
    if event.kind == "stop" and event.run is not None:
        run = event.run
        return f"结束：stop_reason={run.stop_reason}" + (f"（{run.error}）" if run.error else "")
    return f"{event.kind} (step {event.step})"


def print_event(event: AgentEvent) -> None:
    print(format_event(event))


__all__ = ["Agent", "AgentEvent", "DEFAULT_SYSTEM_PROMPT", "REPEATED_CALL_NOTE", "RunResult", "Step", "ToolCallRecord", "call_key",
           "format_event", "format_run", "format_step", "print_event", "print_run"]
