"""The small, normalized shapes every model backend is reduced to.

A chat-completions response is a deep tree of SDK objects. The agent only needs a few fields of it,
so ``ChatResult`` keeps those (content, tool calls, finish reason, usage) plus ``raw`` for anyone
who wants the rest. ``ChatModel`` is the one-method protocol the agent depends on: ``ChatClient``
(real HTTP) and ``ScriptedClient`` (a queue of replies, for tests) both satisfy it.

Left out: multimodal content parts, logprobs, and multiple choices (``n > 1``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Protocol, Sequence


@dataclass(frozen=True)
class ToolCall:
    """One tool call requested by the model.

    ``arguments`` is the raw JSON text exactly as the model produced it. It is kept as text on
    purpose: the assistant message must be echoed back unchanged, and a model may produce text that
    is not valid JSON (see ``parsed_arguments``).
    """

    id: str
    name: str
    arguments: str = "{}"

    def parsed_arguments(self) -> dict[str, Any]:
        """The arguments as a dict. Raises ``ValueError`` with a readable message if they are not a JSON object."""
        text = self.arguments.strip() or "{}"
        try:
            value = json.loads(text)
        except json.JSONDecodeError as exc:
            raise ValueError(f"arguments of {self.name!r} are not valid JSON ({exc.msg} at position {exc.pos}): {text[:200]}") from exc
        if not isinstance(value, dict):
            raise ValueError(f"arguments of {self.name!r} must be a JSON object, got {type(value).__name__}: {text[:200]}")
        return value

    def to_dict(self) -> dict[str, Any]:
        """The wire format used inside an assistant message's ``tool_calls``."""
        return {"id": self.id, "type": "function", "function": {"name": self.name, "arguments": self.arguments}}


@dataclass(frozen=True)
class Usage:
    prompt_tokens: int = 0
    completion_tokens: int = 0

    @property
    def total_tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens


@dataclass
class ChatResult:
    """What one chat-completions call produced, reduced to what an agent needs."""

    content: str | None
    tool_calls: list[ToolCall] = field(default_factory=list)
    finish_reason: str | None = None
    usage: Usage | None = None
    model: str = ""
    raw: Any = None
    reasoning_content: str | None = None

    def to_message(self) -> dict[str, Any]:
        """The assistant message to append to the conversation, echoing ``tool_calls`` exactly."""
        message: dict[str, Any] = {"role": "assistant", "content": self.content}
        if self.tool_calls:
            message["tool_calls"] = [call.to_dict() for call in self.tool_calls]
        return message


class ChatModel(Protocol):
    """Anything that can answer a list of messages. The agent depends only on this."""

    def complete(self, messages: Sequence[dict[str, Any]], tools: Sequence[dict[str, Any]] | None = None, **options: Any) -> ChatResult: ...
