"""The ReAct loop: ask the model, run the tools it asks for, hand back the results, repeat — with
bounds.

This is the reference articles' minimal loop made correct:

- the assistant message is appended exactly as the model sent it (``ChatResult.to_message()``), so
  every ``tool_call`` keeps its id and argument text, and each tool message answers its call by
  ``tool_call_id``, in the order the calls were made;
- a tool error, bad arguments or an unknown tool become a result the model reads
  (``ToolRegistry.dispatch`` never raises), so the model can correct itself;
- an identical call (same tool, same arguments: ``ToolCall.key``) made earlier in the run is not
  executed again: the model gets the earlier result back with a note that it already had it;
- the run always ends, with a truthful ``stop_reason``:

  ======================  =======================================================================
  ``final``               the model answered in words
  ``max_steps``           ``max_steps`` model calls were made and the model still wanted tools
  ``timeout``             ``max_seconds`` had passed when the next model call was due (checked
                          between steps; a model call or tool already running has its own timeout)
  ``error``               the model call raised (network, HTTP error, …) or the reply was empty
  ``needs_confirmation``  a hook paused a call until a person decides; ``resume`` continues the run
  any other               a hook raised ``StopRun(reason, …)`` (e.g. ``budget`` on Day 6)
  ======================  =======================================================================

Later days attach through ``hooks`` (see ``hooks.py``): objects whose ``prepare_messages``,
``visible_tools``, ``before_model``, ``check_call``, ``after_call``, ``on_event``… the loop calls at
those points.
The loop itself knows no day. ``memory=fn`` and ``on_event=fn`` are sugar for the two most common
hooks.

Every step is reported as an ``AgentEvent`` (with the run id and a timestamp) to the hooks and, if
you iterate ``iter_run``, to you; ``run`` is ``iter_run`` consumed to the end. The loop is written
once, in ``_loop``. A paused run is plain data: ``RunResult.to_json()`` / ``RunResult.from_json()``.

The shapes a run produces (``RunResult``, ``Step``, ``AgentEvent``…) and the signals hooks raise
(``StopRun``, ``NeedsConfirmation``) live in ``run``; showing a run lives in ``display``.

Left out: streaming tokens to the caller, async tools, and running the calls of one step in
parallel.
"""

from __future__ import annotations

import json
import time
import uuid
from collections.abc import Callable, Generator, Iterator, Sequence
from typing import Any

from .hooks import EventHook, HookContext, Hooks, MessagesHook
from .messages import ChatModel, ChatResult, ToolCall
from .reporting import within
from .run import (
    AgentEvent,
    EventKind,
    NeedsConfirmation,
    PausedCall,
    RunResult,
    Step,
    StopReason,
    StopRun,
    ToolCallRecord,
)
from .tools import ToolRegistry, ToolResult

DEFAULT_SYSTEM_PROMPT = (
    "你是一个可以调用工具的助手。先判断用户的问题需不需要工具：打招呼、闲聊或常识问题直接回答；"
    "需要当前时间、精确计算、天气、汇率等外部信息时，调用描述相符的工具。\n"
    "工具返回的结果是事实的唯一来源，不要编造工具没有给出的数据。\n"
    "如果工具返回 success 为 false，说明调用失败：不要猜测结果，把 error 中的原因如实告诉用户。\n"
    "已经拿到的结果不要用相同的参数再调用一次。信息齐全后，用简洁的中文给出最终回答。"
)

REPEATED_CALL_NOTE = (
    "你已经用完全相同的参数调用过这个工具，上面是那次的结果，这次没有重复执行。请直接使用这个结果，"
    "或者换用不同的参数。"
)


def _ms_since(start: float) -> float:
    return round((time.perf_counter() - start) * 1000, 1)


CUT_OFF: dict[str, str] = {
    "length": (
        "模型的回复写到一半被截断了（finish_reason='length'：达到了回复长度上限 max_tokens / "
        "max_completion_tokens）。截断的文字不是完整的回答，截断的工具调用参数也不完整，"
        "所以一个都没有执行。"
        "请调大回复上限（Agent(model_options={'max_tokens': ...})；新接口和推理模型用"
        " max_completion_tokens），"
        "或者让模型回答得更短。"
    ),
    "content_filter": (
        "模型的回复被服务商的内容过滤拦下了（finish_reason='content_filter'），没有可用的回答或工具"
        "调用。请换一种说法，或检查请求里是否有会触发过滤的内容。"
    ),
}
"""``finish_reason`` values that mean the reply is unfinished → why the run stops (its stop reason
is the value).
"""

TIMEOUT_ERROR = (
    "{seconds:g} 秒的时间预算在第 {step} 步之后用完了。"
    "请调大 Agent(max_seconds=...)，或者把任务拆小。"
)
MAX_STEPS_ERROR = (
    "{steps} 步之后仍然没有最终回答：模型一直在调用工具。"
    "请查看最后几步是否在兜圈子，或者调大 Agent(max_steps=...)。"
)


class Agent:
    """A tool-calling agent: one client, one registry, bounded by ``max_steps`` and
    ``max_seconds``.
    """

    def __init__(
        self,
        client: ChatModel,
        registry: ToolRegistry,
        system_prompt: str = DEFAULT_SYSTEM_PROMPT,
        max_steps: int = 8,
        max_seconds: float | None = None,
        on_event: Callable[[AgentEvent], None] | None = None,
        model_options: dict[str, Any] | None = None,
        *,
        hooks: Sequence[Any] = (),
        memory: Callable[[list[dict[str, Any]]], list[dict[str, Any]]] | None = None,
    ):
        """``model_options`` go to every ``client.complete`` call (e.g. ``{"parallel_tool_calls":
        False}``).

        ``hooks`` are called in order (see ``hooks.py``); ``memory=fn`` comes first and
        ``on_event=fn`` last. An exception a hook raises is a bug in that hook and propagates
        (unlike anything the model or a tool does), except ``StopRun``, which ends the run, and
        ``NeedsConfirmation``, which pauses a call.
        """
        if max_steps < 1:
            raise ValueError(f"max_steps 至少是 1，收到的是 {max_steps}。")
        self.client, self.registry, self.system_prompt = client, registry, system_prompt
        self.max_steps, self.max_seconds = max_steps, max_seconds
        self.model_options = dict(model_options or {})
        self.hooks = Hooks(
            [
                *([MessagesHook(memory)] if memory is not None else []),
                *hooks,
                *([EventHook(on_event)] if on_event is not None else []),
            ]
        )

    # ----------------------------------------------------------------------- public entry points

    def run(
        self,
        user_message: str,
        history: list[dict[str, Any]] | None = None,
        *,
        run_id: str | None = None,
    ) -> RunResult:
        """Run to the end and return the result. Never raises for anything the model or a tool
        does.
        """
        return _last_run(self.iter_run(user_message, history, run_id=run_id))

    def iter_run(
        self,
        user_message: str,
        history: list[dict[str, Any]] | None = None,
        *,
        run_id: str | None = None,
    ) -> Iterator[AgentEvent]:
        """The same run as ``run``, as a generator of events; the last one (``stop``) carries the
        ``RunResult``.
        """
        run = RunResult(
            answer=None,
            stop_reason="running",
            error=None,
            messages=self._start(user_message, history),
            steps=[],
            run_id=run_id or f"run_{uuid.uuid4().hex[:12]}",
        )
        yield from self._drive(self._loop(run, {}))

    def resume(self, paused: RunResult, decisions: dict[str, Any]) -> RunResult:
        """Continue a run that ended with ``needs_confirmation``; ``decisions`` maps every pending
        request id to a decision.
        """
        return _last_run(self.iter_resume(paused, decisions))

    def iter_resume(self, paused: RunResult, decisions: dict[str, Any]) -> Iterator[AgentEvent]:
        """``resume`` as a generator of events."""
        if paused.stop_reason != "needs_confirmation":
            raise ValueError(
                "只能继续一个等待确认的运行（stop_reason='needs_confirmation'），这个运行的"
                f" stop_reason 是 {paused.stop_reason!r}。"
            )
        ids = [request.id for request in paused.pending]
        missing, unknown = (
            [i for i in ids if i not in decisions],
            [i for i in decisions if i not in ids],
        )
        if missing or unknown:
            raise ValueError(
                "每个待确认的调用都要有一个决定，而且只能是这些调用的："
                + (f"缺少 {', '.join(missing)}；" if missing else "")
                + (f"不认识 {', '.join(unknown)}；" if unknown else "")
                + f"待确认的是 {', '.join(ids)}。"
            )
        # copies, so the paused result stays as it was
        steps = [
            Step(s.index, s.reply, s.model_ms, list(s.calls), list(s.shown)) for s in paused.steps
        ]
        run = RunResult(
            answer=None,
            stop_reason="running",
            error=None,
            messages=[dict(m) for m in paused.messages],
            steps=steps,
            run_id=paused.run_id,
            paused=list(paused.paused),
            results_by_call=dict(paused.results_by_call),
        )
        yield from self._drive(self._loop(run, decisions))

    # ----------------------------------------------------------------------- the loop

    def _start(
        self, user_message: str, history: list[dict[str, Any]] | None
    ) -> list[dict[str, Any]]:
        """The opening messages. A history that starts with a system message keeps it (continuing a
        conversation).
        """
        history = list(history or [])
        head = (
            []
            if history and history[0].get("role") == "system"
            else [{"role": "system", "content": self.system_prompt}]
        )
        return head + history + [{"role": "user", "content": user_message}]

    def _loop(self, run: RunResult, decisions: dict[str, Any]) -> Iterator[AgentEvent]:
        messages, steps, started = run.messages, run.steps, time.perf_counter()
        event = self._event_factory(run)

        def stop(
            reason: StopReason, answer: str | None = None, error: str | None = None
        ) -> AgentEvent:
            run.answer, run.stop_reason, run.error = answer, reason, error
            run.duration_ms = _ms_since(started)
            return event("stop", len(steps), run=run)

        try:
            yield event("run_start", len(steps), data={"resumed": bool(decisions)})
            self.hooks.start_run(
                list(messages), list(self.registry), HookContext(run.run_id, len(steps))
            )
            if run.paused:  # resuming: answer the calls that waited for a decision, then carry on
                yield from self._handle_calls([p.call for p in run.paused], run, decisions)
                if run.paused:
                    yield stop("needs_confirmation")
                    return
                _tool_messages_in_call_order(messages)
            for index in range(len(steps) + 1, self.max_steps + 1):
                late = self._late(started, index)  # max_seconds used up: why; None if not
                if late is not None:
                    yield stop("timeout", error=late)
                    return
                context = HookContext(run.run_id, index, last=index == self.max_steps)
                reply = yield from self._call_model(run, context)
                # HTTP, network, timeout, a script run dry: end, and say so
                if isinstance(reply, str):
                    yield stop("error", error=reply)
                    return
                unusable = _unusable(reply, index)  # cut off, refused or empty: why the run ends
                if unusable is not None:
                    yield stop(unusable[0], error=unusable[1])
                    return
                messages.append(reply.to_message())  # echoed exactly: same ids, same argument text
                # no tool wanted: this is the answer, unless a hook objects
                if not reply.tool_calls:
                    note = self.hooks.review_answer(reply.content, run, context)
                    # e.g. it claims what no tool did: tell the model, go on (at the last step
                    # the run then ends on max_steps, the answer withheld; ClaimCheck says why)
                    if note is not None:
                        messages.append({"role": "user", "content": note})
                        yield event(
                            "answer_reviewed", index, answer=reply.content, data={"note": note}
                        )
                        continue
                    run.answer = reply.content  # kept if a hook stops the run at the final event
                    yield event("final", index, answer=reply.content)
                    yield stop("final", answer=reply.content)
                    return
                # every call answered, in the order the model made them
                yield from self._handle_calls(reply.tool_calls, run, {})
                if run.paused:
                    yield stop("needs_confirmation")
                    return
            yield stop("max_steps", error=MAX_STEPS_ERROR.format(steps=self.max_steps))
        except StopRun as exc:  # a hook ended the run (a budget, a cancel)
            yield stop(exc.reason, answer=run.answer, error=exc.message)

    def _late(self, started: float, index: int) -> str | None:
        """Why step ``index`` may not start: ``max_seconds`` have passed; None while time is
        left.
        """
        if self.max_seconds is None or time.perf_counter() - started <= self.max_seconds:
            return None
        return TIMEOUT_ERROR.format(seconds=self.max_seconds, step=index - 1)

    def _call_model(
        self, run: RunResult, context: HookContext
    ) -> Generator[AgentEvent, None, ChatResult | str]:
        """One model call with what the hooks let it see; its events, then the reply (or why the
        call failed).
        """
        event, index = self._event_factory(run), context.step
        sent = self.hooks.prepare_messages(
            list(run.messages), context
        )  # the model may see less; the run keeps all
        tools = [tool.schema() for tool in self.hooks.visible_tools(list(self.registry), context)]
        context.shown = tuple(schema["function"]["name"] for schema in tools)
        self.hooks.before_model(sent, tools, context)  # may stop the run (a budget)
        yield from self._reports(context, event)
        started = time.perf_counter()
        try:
            with within(context):  # a client's retries and fallback switches report into this step
                reply = self.client.complete(sent, tools=tools or None, **self.model_options)
        except Exception as exc:
            yield from self._reports(context, event)
            return f"第 {index} 步调用模型失败：{type(exc).__name__}: {exc}"
        yield from self._reports(context, event)
        step = Step(index, reply, _ms_since(started), shown=list(context.shown))
        run.steps.append(step)
        yield event(
            "model_call",
            index,
            reply=reply,
            duration_ms=step.model_ms,
            messages=list(sent),
            data={"tools": list(context.shown)},
        )
        return reply

    @staticmethod
    def _reports(context: HookContext, event: Callable[..., AgentEvent]) -> Iterator[AgentEvent]:
        """What hooks and code below the loop reported into this step so far, as events (each
        once).
        """
        reports, context.reports[:] = list(context.reports), []
        yield from (event(kind, context.step, data=data) for kind, data in reports)

    def _handle_calls(
        self, calls: list[ToolCall], run: RunResult, decisions: dict[str, Any]
    ) -> Iterator[AgentEvent]:
        """Check, run and answer each call in order; calls a hook pauses are left in
        ``run.paused``.
        """
        event, step = self._event_factory(run), run.steps[-1]
        waiting = {paused.call.id: paused.request for paused in run.paused}
        run.paused = []
        for call in calls:
            if call.id not in waiting:
                yield event("tool_call", step.index, call=call)
            request = waiting.get(call.id)
            context = HookContext(
                run.run_id,
                step.index,
                self.registry.get(call.name),
                decisions.get(request.id) if request is not None else None,
                request,
                tuple(step.shown),
            )
            try:
                with within(
                    context
                ):  # a tool (or a registry wrapping it, e.g. a cache) reports into this call
                    record = self._execute(call, run.results_by_call, context)
            except NeedsConfirmation as paused:
                run.paused.append(PausedCall(call, paused.request))
                yield from (
                    event(kind, step.index, call=call, data=data) for kind, data in context.reports
                )
                yield event(
                    "needs_confirmation",
                    step.index,
                    call=call,
                    data={"request": paused.request.to_dict()},
                )
                continue
            yield from (
                event(kind, step.index, call=call, data=data) for kind, data in context.reports
            )
            step.calls.append(record)
            run.messages.append(
                {"role": "tool", "tool_call_id": call.id, "content": record.content}
            )
            yield event(
                "tool_result", step.index, call=call, record=record, duration_ms=record.duration_ms
            )

    def _execute(
        self, call: ToolCall, earlier: dict[str, dict[str, Any]], context: HookContext
    ) -> ToolCallRecord:
        """Answer one call: from an identical earlier call, from a hook, or by running the tool."""
        if call.key in earlier:
            previous = ToolResult.from_dict(earlier[call.key])
            content = json.dumps(
                {**previous.to_dict(), "repeated": True, "note": REPEATED_CALL_NOTE},
                ensure_ascii=False,
                default=str,
            )
            return ToolCallRecord(
                call, previous, 0.0, repeated=True, content=content, executed=False
            )
        start = time.perf_counter()
        given = self.hooks.check_call(call, context)  # may raise NeedsConfirmation
        if given is None:
            result = self.hooks.after_call(
                call, self.registry.dispatch(call.name, call.arguments), context
            )
        else:
            result = given
        earlier[call.key] = result.to_dict()
        return ToolCallRecord(
            call, result, _ms_since(start), content=result.to_content(), executed=given is None
        )

    def _event_factory(self, run: RunResult) -> Callable[..., AgentEvent]:
        def event(kind: EventKind, step: int, **fields: Any) -> AgentEvent:
            return AgentEvent(kind, step, run_id=run.run_id, **fields)

        return event

    def _drive(self, events: Iterator[AgentEvent]) -> Iterator[AgentEvent]:
        """Hand each event to the hooks, then to the caller. A ``StopRun`` from a hook is thrown
        into the loop, which turns it into its ``stop`` event; the loop always ends with one, so
        this ends too."""
        event = next(events)
        while event.kind != "stop":
            try:
                self.hooks.on_event(event)
            except StopRun as exc:
                yield event
                event = events.throw(exc)
                continue
            yield event
            event = next(events)
        try:
            self.hooks.on_event(event)
        except StopRun:
            pass  # the run has already ended
        yield event


def _last_run(events: Iterator[AgentEvent]) -> RunResult:
    run = None
    for event in events:
        run = event.run  # set only on the last event: _loop always ends with a stop that carries it
    if run is None:
        raise RuntimeError("运行没有以 stop 事件结束：这是 Agent 循环本身的错误。")
    return run


def _unusable(reply: ChatResult, step: int) -> tuple[StopReason, str] | None:
    """Why a reply can be neither an answer nor calls to run, as (stop reason, error); None if it
    can be. An unfinished reply (``CUT_OFF``) runs none of its calls; a reply without calls must
    have words, and a refusal without words ends the run as ``refusal``.
    """
    cut = CUT_OFF.get(reply.finish_reason or "")
    if cut is not None:
        return reply.finish_reason, f"第 {step} 步：{cut}"  # type: ignore[return-value]
    if reply.tool_calls:
        return None
    if reply.refusal and not (reply.content or "").strip():
        return "refusal", f"第 {step} 步模型拒绝了这个请求：{reply.refusal}"
    if not (reply.content or "").strip():
        return "error", (
            f"第 {step} 步模型返回了空回复（没有文字，也没有工具调用，"
            f"finish_reason={reply.finish_reason!r}）。请重试，或确认这个模型支持工具调用。"
        )
    return None


def _tool_messages_in_call_order(messages: list[dict[str, Any]]) -> None:
    """After a resume, put the tool messages that follow the last assistant message back in call
    order.
    """
    start = max(i for i, m in enumerate(messages) if m.get("role") == "assistant")
    order = {call["id"]: n for n, call in enumerate(messages[start].get("tool_calls") or [])}
    messages[start + 1 :] = sorted(
        messages[start + 1 :], key=lambda m: order.get(m.get("tool_call_id"), len(order))
    )


__all__ = ["Agent", "DEFAULT_SYSTEM_PROMPT", "REPEATED_CALL_NOTE"]
