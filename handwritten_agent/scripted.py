"""Fake models for tests and demos: replies come from a queue or from your function, never from the
network.

``ScriptedClient`` answers from a fixed list of replies, in order: it does not look at the messages
to decide what to say — the script decides — so a test reads top to bottom. ``FunctionClient`` is
the reactive one (pydantic-ai's ``FunctionModel``): your function reads the conversation and returns
the reply, for tests where the answer depends on what the agent sent (a summary request, a tool
error). Both record every request they receive (``.requests``) so a test can check what the agent
sent.

Left out: streaming. Use the offline server for anything that streams.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from .messages import ChatResult, ToolCall, Usage


def reply(text: str) -> ChatResult:
    """A final answer in words."""
    return ChatResult(content=text, finish_reason="stop", usage=Usage())


def call(
    name: str, arguments: dict[str, Any] | str | None = None, *, id: str | None = None
) -> ToolCall:
    """One tool call; ``arguments`` may be a dict or raw (possibly broken) JSON text."""
    raw = (
        arguments if isinstance(arguments, str) else json.dumps(arguments or {}, ensure_ascii=False)
    )
    return ToolCall(id=id or f"call_scripted_{name}", name=name, arguments=raw)


def calls(*tool_calls: ToolCall, content: str | None = None) -> ChatResult:
    """An assistant turn that requests ``tool_calls``."""
    return ChatResult(
        content=content, tool_calls=list(tool_calls), finish_reason="tool_calls", usage=Usage()
    )


class ScriptExhausted(RuntimeError):
    """The script ran out of replies: the code under test called the model more often than
    expected.
    """


class ScriptedClient:
    """A ``ChatModel`` that answers from a fixed list of replies, in order."""

    def __init__(self, replies: Iterable[ChatResult | str]):
        self._replies = [reply(r) if isinstance(r, str) else r for r in replies]
        self.requests: list[dict[str, Any]] = []

    def complete(
        self,
        messages: Sequence[dict[str, Any]],
        tools: Sequence[dict[str, Any]] | None = None,
        **options: Any,
    ) -> ChatResult:
        self.requests.append({"messages": copy.deepcopy(list(messages)), "tools": tools, **options})
        if not self._replies:
            raise ScriptExhausted(
                f"脚本里的回复用完了：第 {len(self.requests)}"
                " 次请求没有可用的回复（被测代码调用模型的次数比预期多）。"
            )
        return self._replies.pop(0)

    @property
    def remaining(self) -> int:
        return len(self._replies)


class FunctionClient:
    """A ``ChatModel`` whose reply is ``fn(messages, tools)``: a ``ChatResult`` or plain text (a
    final answer).
    """

    def __init__(
        self,
        fn: Callable[[list[dict[str, Any]], Sequence[dict[str, Any]] | None], ChatResult | str],
        *,
        max_calls: int = 100,
    ):
        self.fn, self.max_calls = fn, max_calls
        self.requests: list[dict[str, Any]] = []

    def complete(
        self,
        messages: Sequence[dict[str, Any]],
        tools: Sequence[dict[str, Any]] | None = None,
        **options: Any,
    ) -> ChatResult:
        self.requests.append({"messages": copy.deepcopy(list(messages)), "tools": tools, **options})
        if len(self.requests) > self.max_calls:
            raise ScriptExhausted(
                f"FunctionClient 已被调用 {len(self.requests)} 次，超过上限"
                f" {self.max_calls}：调用方的循环可能没有边界。"
            )
        answer = self.fn(copy.deepcopy(list(messages)), tools)
        return reply(answer) if isinstance(answer, str) else answer
