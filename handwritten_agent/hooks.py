"""Hooks: how Days 4–7 attach to the Day 3 loop without rewriting it.

A hook is any object with some of these eight methods. ``Agent(..., hooks=[a, b])`` calls, at each
named point of the loop, every hook that has the method, in the order given:

====================================  ==========================  ==================================
method                                when                        what it may do
====================================  ==========================  ==================================
``start_run(messages, tools, ctx)``   a run starts or resumes     learn what the history brought in
                                                                  (the gate: untrusted text)
``prepare_messages(messages, ctx)``   before every model call     send the model less (a window, a
``-> messages``                                                   summary — Day 4); the run keeps
                                                                  its full history
``visible_tools(tools, ctx)``         before every model call     show the model fewer tools
``-> tools``                                                      (Day 5)
``before_model(messages, tools,``     just before the call        look at exactly what is sent
``ctx)``                                                          (messages, tool schemas); stop
                                                                  the run (a budget, Day 6)
``check_call(call, ctx)``             before every tool call      answer it without running it (a
``-> ToolResult | None``                                          refusal, a cached result), or
                                                                  raise ``NeedsConfirmation``
``after_call(call, result, ctx)``     after a tool ran            change what the model reads
``-> ToolResult``                                                 (masking, Day 5)
``review_answer(answer, run, ctx)``   before a final answer       send the model a note instead,
``-> str | None``                     stands                      and go on (a claim no tool backs)
``on_event(event)``                   every event, as it happens  print it, write a trace (Day 6),
                                                                  count cost
====================================  ==========================  ==================================

Any of them may raise ``StopRun(reason, message)`` to end the run with that stop reason (a budget, a
cancel). ``context.report(kind, **data)`` adds an event of the hook's own (a gate's ``permission``,
a memory policy's ``memory``). ``check_call`` stops at the first hook that answers; the others
chain, each getting what the one before returned; ``review_answer`` stops at the first note (the
loop appends it as a user message and asks the model again, within ``max_steps``); ``on_event``
reaches every hook even when one of them stops the run. ``ctx`` is the ``HookContext``: the run
and step, the tools the model was shown at that step (``shown``), and for a tool call the tool.
``agent.hooks.find(PolicyGate)`` gives an agent's hook of a given type (the confirmation card asks
the gate who may decide).

``Agent(memory=fn)`` and ``Agent(on_event=fn)`` are sugar for the two hooks the notebooks use most:
``MessagesHook(fn)`` (a ``messages -> messages`` function, such as a memory policy) and
``EventHook(fn)``.

**Code that is not a hook** — a client that retries, a fallback client that switches models, a tool
cache — reports into the run it is part of with ``reporting.report(kind, **data)``: the loop puts
the context of the current step in a context variable while it calls the model and each tool, and
yields what was reported as events of the run (``retry`` and ``fallback`` before the step's
``model_call``; a tool cache's ``tool_cache`` before the call's ``tool_result``), so every hook and
every ``iter_run`` caller sees them with nothing wired by hand. Outside a run ``report`` does
nothing and returns False.

Left out: async hooks, and a hook that changes the model call itself (``before_model`` only looks;
to retry or switch models, wrap the client: a ``ChatModel`` is one method).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, TypeVar

from .messages import ToolCall
from .run import AgentEvent, RunResult, StopRun
from .tokens import count_message_tokens
from .tools import Tool, ToolResult

H = TypeVar("H")

HOOK_METHODS = (
    "start_run",
    "prepare_messages",
    "visible_tools",
    "before_model",
    "check_call",
    "after_call",
    "review_answer",
    "on_event",
)


@dataclass
class HookContext:
    """What a hook is told: the run and step; for a tool call also the tool, and on resume the
    decision.
    """

    run_id: str
    step: int
    tool: Tool | None = None
    """The registry's ``Tool`` for the call, or None when the model named a tool that does not
    exist.
    """
    decision: Any = None
    """On resume: the decision a person made about this paused call."""
    request: Any = None
    """On resume: the confirmation request the call paused with."""
    shown: tuple[str, ...] = ()
    """The names of the tools the model was shown at this step (set once ``visible_tools`` ran; a
    resumed call gets the ones recorded in its step).
    """
    last: bool = False
    """No model call is left after this step (``max_steps``): a note on its answer cannot be acted
    on, so ``review_answer`` that objects should end the run (``StopRun``) with its reason.
    """
    reports: list[tuple[str, dict[str, Any]]] = field(default_factory=list)

    def report(self, kind: str, **data: Any) -> None:
        """Add an event of ``kind`` to the run's events (e.g. a permission decision, for the
        trace).
        """
        self.reports.append((kind, data))


class Hooks:
    """The hooks of one agent, called in order at each point of the loop."""

    def __init__(self, hooks: list[Any]):
        for hook in hooks:
            if not any(callable(getattr(hook, name, None)) for name in HOOK_METHODS):
                raise TypeError(
                    f"{hook!r} 不是一个钩子：它至少要有 {'、'.join(HOOK_METHODS)} 中的一个方法。"
                    "普通函数请用 Agent(memory=函数) 或 Agent(on_event=函数) 传入。"
                )
        self.hooks = list(hooks)

    def __iter__(self) -> Iterator[Any]:
        return iter(self.hooks)

    def __len__(self) -> int:
        return len(self.hooks)

    def find(self, kind: type[H]) -> H | None:
        """The first hook that is a ``kind`` (e.g. the agent's ``PolicyGate``), or None."""
        return next((hook for hook in self.hooks if isinstance(hook, kind)), None)

    def _methods(self, name: str) -> list[Callable[..., Any]]:
        return [method for hook in self.hooks if callable(method := getattr(hook, name, None))]

    def start_run(
        self, messages: list[dict[str, Any]], tools: list[Tool], context: HookContext
    ) -> None:
        for method in self._methods("start_run"):
            method(messages, tools, context)

    def prepare_messages(
        self, messages: list[dict[str, Any]], context: HookContext
    ) -> list[dict[str, Any]]:
        for method in self._methods("prepare_messages"):
            messages = method(messages, context)
        return messages

    def visible_tools(self, tools: list[Tool], context: HookContext) -> list[Tool]:
        for method in self._methods("visible_tools"):
            tools = method(tools, context)
        return tools

    def before_model(
        self, messages: list[dict[str, Any]], tools: list[dict[str, Any]], context: HookContext
    ) -> None:
        for method in self._methods("before_model"):
            method(messages, tools, context)

    def check_call(self, call: ToolCall, context: HookContext) -> ToolResult | None:
        for method in self._methods("check_call"):
            answer = method(call, context)
            if answer is not None:
                return answer
        return None

    def after_call(self, call: ToolCall, result: ToolResult, context: HookContext) -> ToolResult:
        for method in self._methods("after_call"):
            result = method(call, result, context)
        return result

    def review_answer(self, answer: str, run: RunResult, context: HookContext) -> str | None:
        for method in self._methods("review_answer"):
            note = method(answer, run, context)
            if note is not None:
                return note
        return None

    def on_event(self, event: AgentEvent) -> None:
        """Every hook sees the event; the first ``StopRun`` raised is raised again once all have
        seen it.
        """
        stop: StopRun | None = None
        for method in self._methods("on_event"):
            try:
                method(event)
            except StopRun as exc:
                stop = stop or exc
        if stop is not None:
            raise stop


class MessagesHook:
    """``Agent(memory=fn)``: a ``messages -> messages`` function applied to a copy before every
    model call.

    When it changes what is sent, a ``memory`` event says by how much (messages and estimated
    tokens). An exception from the function (e.g. a conversation that cannot fit) ends the run with
    ``error`` and the reason, instead of a traceback.
    """

    def __init__(self, fn: Callable[[list[dict[str, Any]]], list[dict[str, Any]]]):
        if not callable(fn):
            raise TypeError(
                f"memory 要是一个函数（messages -> messages），收到的是 {type(fn).__name__}。"
            )
        self.fn = fn

    def prepare_messages(
        self, messages: list[dict[str, Any]], context: HookContext
    ) -> list[dict[str, Any]]:
        try:
            sent = self.fn([dict(m) for m in messages])
        except StopRun:
            raise
        except Exception as exc:
            raise StopRun(
                "error", f"记忆策略（memory）没能处理这段对话：{type(exc).__name__}: {exc}"
            ) from exc
        if sent != messages:
            context.report(
                "memory",
                messages_before=len(messages),
                messages_after=len(sent),
                tokens_before=count_message_tokens(messages),
                tokens_after=count_message_tokens(sent),
            )
        return sent


class EventHook:
    """``Agent(on_event=fn)``: ``fn(event)`` for every event; raising ``StopRun`` from it ends the
    run.
    """

    def __init__(self, fn: Callable[[AgentEvent], None]):
        if not callable(fn):
            raise TypeError(
                f"on_event 要是一个函数（event -> None），收到的是 {type(fn).__name__}。"
            )
        self.on_event = fn


__all__ = ["EventHook", "HOOK_METHODS", "HookContext", "Hooks", "MessagesHook"]
