"""A scripted model: replies come from a queue, never from the network.

Tests and demos that need one exact sequence of model replies use ``ScriptedClient``. It records
every request it receives (``.requests``) so a test can check what the agent sent. It does not look
at the messages to decide what to say — the script decides — so a test reads top to bottom.

Left out: streaming. Use the offline server for anything that streams.
"""

from __future__ import annotations

import copy
import json
from typing import Any, Iterable, Sequence

from .types import ChatResult, ToolCall, Usage


def reply(text: str) -> ChatResult:
    """A final answer in words."""
    return ChatResult(content=text, finish_reason="stop", usage=Usage())


def call(name: str, arguments: dict[str, Any] | str | None = None, *, id: str | None = None) -> ToolCall:
    """One tool call; ``arguments`` may be a dict or raw (possibly broken) JSON text."""
    raw = arguments if isinstance(arguments, str) else json.dumps(arguments or {}, ensure_ascii=False)
    return ToolCall(id=id or f"call_scripted_{name}", name=name, arguments=raw)


def calls(*tool_calls: ToolCall, content: str | None = None) -> ChatResult:
    """An assistant turn that requests ``tool_calls``."""
    return ChatResult(content=content, tool_calls=list(tool_calls), finish_reason="tool_calls", usage=Usage())


class ScriptExhausted(RuntimeError):
    """The script ran out of replies: the code under test called the model more often than expected."""


class ScriptedClient:
    """A ``ChatModel`` that answers from a fixed list of replies, in order."""

    def __init__(self, replies: Iterable[ChatResult | str]):
        self._replies = [reply(r) if isinstance(r, str) else r for r in replies]
        self.requests: list[dict[str, Any]] = []

    def complete(self, messages: Sequence[dict[str, Any]], tools: Sequence[dict[str, Any]] | None = None, **options: Any) -> ChatResult:
        self.requests.append({"messages": copy.deepcopy(list(messages)), "tools": tools, **options})
        if not self._replies:
            raise ScriptExhausted(f"no scripted reply left for request #{len(self.requests)}")
        return self._replies.pop(0)

    @property
    def remaining(self) -> int:
        return len(self._replies)
