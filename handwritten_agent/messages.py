"""The small, normalized shapes every model backend is reduced to, and a message's parts read the
one way.

A chat-completions response is a deep tree of SDK objects. The agent only needs a few fields of it,
so ``ChatResult`` keeps those (content, tool calls, finish reason, usage) plus ``raw`` for anyone
who wants the rest. ``ChatModel`` is the one-method protocol the agent depends on: ``ChatClient``
(real HTTP) and ``ScriptedClient`` (a queue of replies, for tests) both satisfy it.

A tool call's identity lives here too, once: ``parse_arguments`` decodes its arguments,
``canonical_arguments`` writes them the one way, and ``ToolCall.key`` (name + canonical arguments)
is what "the same call" means for the repeat guard, approvals, the tool cache and diagnosis alike.
``message_text`` is the one reading of a message's text (string content or text parts),
``latest_user_index`` the one way to find the current request, and ``find_pairing_problems`` the
one statement of the rule that pairs tool calls with their results.

Left out: multimodal content parts (only their text is read), logprobs, and multiple choices (``n >
1``).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from .jsontext import describe_json_error, json_type_zh, loads_bounded
from .text import shorten


def parse_arguments(arguments: dict[str, Any] | str | None) -> dict[str, Any]:
    """A tool call's arguments as a dict; the one place the package decodes them.

    Text is parsed as JSON. Anything but a JSON object raises ``ValueError`` with a Chinese message
    the model can act on (it is sent back as the tool's error).
    """
    if arguments is None:
        return {}
    if isinstance(arguments, dict):
        return arguments
    text = arguments.strip()
    if not text:
        return {}
    try:
        value = loads_bounded(text)
    except json.JSONDecodeError as exc:
        raise ValueError(
            f"参数不是合法的 JSON（{describe_json_error(exc)}，在第 {exc.pos}"
            f" 个字符附近）：{shorten(text, 200)}。"
            '请只发送一个 JSON 对象，例如 {"name": "value"}。'
        ) from exc
    if isinstance(value, str):
        raise ValueError(
            "参数是一个 JSON 字符串，而不是 JSON 对象：请直接发送对象本身，不要把它再包成字符串。"
        )
    if not isinstance(value, dict):
        raise ValueError(
            f"参数必须是一个 JSON 对象，收到的是{json_type_zh(value)}：{shorten(text, 200)}。"
        )
    return value


def canonical_arguments(arguments: dict[str, Any] | str | None) -> str:
    """The arguments as canonical JSON (sorted keys), so equal calls compare equal however they were
    written.

    Text that is not a JSON object is returned unchanged: only the very same text is then the same
    call.
    """
    try:
        return json.dumps(
            parse_arguments(arguments), sort_keys=True, ensure_ascii=False, separators=(",", ":")
        )
    except ValueError:
        return arguments if isinstance(arguments, str) else ""


def call_key(name: str, arguments: dict[str, Any] | str | None) -> str:
    """The identity of a call to ``name`` with ``arguments``: ``name``, a NUL, the canonical
    arguments.
    """
    return f"{name}\x00{canonical_arguments(arguments)}"


@dataclass(frozen=True)
class PairingProblem:
    """One break of the rule every chat API enforces: each tool call answered, each tool message
    answering one.

    ``kind`` is ``"orphan"`` (the tool message at ``index`` follows no assistant message with tool
    calls; ``ids`` is its ``tool_call_id``), ``"unknown"`` (it follows one, but its ``tool_call_id``
    — ``ids`` — is none of that message's calls: an invented or mistyped id) or ``"unanswered"``
    (calls ``ids`` of the assistant message at ``index`` got no tool message before ``before``, the
    next other message — None at the end).
    """

    kind: str
    index: int
    ids: tuple[str, ...]
    before: int | None = None

    def describe(self) -> str:
        """The problem in Chinese, for a learner (``memory.pairing_problems`` lists these)."""
        if self.kind == "orphan":
            return (
                f"第 {self.index} 条 tool 消息（tool_call_id={self.ids[0]!r}）前面没有带工具调用的"
                " assistant 消息，它没有回答任何调用"
            )
        if self.kind == "unknown":
            return (
                f"第 {self.index} 条 tool 消息（tool_call_id={self.ids[0]!r}）没有回答它前面那条"
                " assistant 消息里的任何调用：这个 id 不在那些调用里"
            )
        where = f"第 {self.before} 条消息之前" if self.before is not None else "消息列表结束时"
        return (
            f"第 {self.index} 条 assistant 消息的工具调用 {', '.join(self.ids)}"
            f" 在{where}没有得到 tool 消息的回答"
        )


def find_pairing_problems(messages: Sequence[dict[str, Any]]) -> list[PairingProblem]:
    """Every pairing problem of a message list, in order (empty when the list is well formed).

    Ids are compared as a set: a server that reuses one id for every call is answered once per
    distinct id. Callers word the problems for their reader: ``PairingProblem.describe`` in
    Chinese (``memory.pairing_problems``), the offline server as the API's 400.
    """
    problems: list[PairingProblem] = []
    open_ids: list[str] = []
    answered: set[str] = set()
    opened_at: int | None = None

    def close(before: int | None) -> None:
        missing = tuple(i for i in dict.fromkeys(open_ids) if i not in answered)
        if missing and opened_at is not None:
            problems.append(PairingProblem("unanswered", opened_at, missing, before))

    for index, message in enumerate(messages):
        role = message.get("role")
        if role == "tool":
            call_id = str(message.get("tool_call_id"))
            if opened_at is None:
                problems.append(PairingProblem("orphan", index, (call_id,)))
            elif call_id not in open_ids:
                problems.append(PairingProblem("unknown", index, (call_id,)))
            else:
                answered.add(call_id)
            continue
        close(index)
        open_ids, answered, opened_at = [], set(), None
        if role == "assistant" and message.get("tool_calls"):
            open_ids = [
                str(call.get("id"))
                for call in message.get("tool_calls") or []
                if isinstance(call, dict)
            ]
            opened_at = index
    close(None)
    return problems


def message_text(message: dict[str, Any]) -> str:
    """A message's text: ``content`` as a string, or the text parts of multi-part content joined."""
    content = message.get("content")
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(
            str(part.get("text", ""))
            for part in content
            if isinstance(part, dict) and part.get("type", "text") == "text"
        )
    return ""


def latest_user_index(
    messages: Sequence[dict[str, Any]], skip: Callable[[dict[str, Any]], bool] | None = None
) -> int:
    """The index of the last user message (one that ``skip`` does not pass over); -1 if none.

    The one place a run's current request is looked up: memory, replay and the claim check use it.
    """
    for index in range(len(messages) - 1, -1, -1):
        message = messages[index]
        if message.get("role") == "user" and (skip is None or not skip(message)):
            return index
    return -1


@dataclass(frozen=True)
class ToolCall:
    """One tool call: which tool, with which arguments, answering to which id.

    ``arguments`` is the raw JSON text exactly as the model produced it. It is kept as text on
    purpose: the assistant message must be echoed back unchanged, and a model may produce text that
    is not valid JSON. ``args`` decodes it. A call read out of a model's *text* (Day 2) has no id
    (``id == ""``) until ``with_id`` gives it one.
    """

    id: str
    name: str
    arguments: str = "{}"

    @classmethod
    def from_arguments(
        cls, name: str, arguments: dict[str, Any] | None = None, id: str = ""
    ) -> ToolCall:
        """A call built from a dict of arguments (written as compact JSON text)."""
        return cls(id=id, name=name, arguments=json.dumps(arguments or {}, ensure_ascii=False))

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ToolCall:
        """The inverse of ``to_dict``: one entry of an assistant message's ``tool_calls``."""
        function = data.get("function") or {}
        return cls(
            id=str(data.get("id", "")),
            name=str(function.get("name", "")),
            arguments=str(function.get("arguments", "{}")),
        )

    @property
    def args(self) -> dict[str, Any]:
        """The arguments as a dict. Raises ``ValueError`` (with a message for the model) if they are
        not a JSON object.
        """
        return parse_arguments(self.arguments)

    @property
    def key(self) -> str:
        """What "the same call" means: the tool name and the canonical arguments, whatever the id
        and the JSON spacing.
        """
        return call_key(self.name, self.arguments)

    def same_call(self, other: ToolCall) -> bool:
        """Same tool and equal arguments, whatever the id and the JSON spacing."""
        return self.key == other.key

    def with_id(self, call_id: str) -> ToolCall:
        """The same call with ``id`` set (e.g. a call read from text, reported as a native call)."""
        return ToolCall(id=call_id, name=self.name, arguments=self.arguments)

    def to_dict(self) -> dict[str, Any]:
        """The wire format used inside an assistant message's ``tool_calls``."""
        return {
            "id": self.id,
            "type": "function",
            "function": {"name": self.name, "arguments": self.arguments},
        }


@dataclass(frozen=True)
class Usage:
    """The tokens one call (or a run, summed) was charged for, as the backend reported them."""

    prompt_tokens: int = 0
    completion_tokens: int = 0
    cached_tokens: int | None = None
    """The part of ``prompt_tokens`` the provider served from its prompt cache (cheaper); ``None``
    when it did not say. ``llm.replies.usage_of`` reads it from a response, the only reader."""

    @property
    def total_tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens

    def to_dict(self) -> dict[str, int]:
        """Plain JSON data; ``cached_tokens`` only when the backend reported it."""
        data = {"prompt_tokens": self.prompt_tokens, "completion_tokens": self.completion_tokens}
        if self.cached_tokens is not None:
            data["cached_tokens"] = self.cached_tokens
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Usage:
        """The inverse of ``to_dict``."""
        cached = data.get("cached_tokens")
        return cls(
            int(data.get("prompt_tokens") or 0),
            int(data.get("completion_tokens") or 0),
            None if cached is None else int(cached),
        )


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
    refusal: str | None = None
    """The model's own words when it declines (``message.refusal`` of structured outputs); then
    ``content`` is usually ``None``."""

    def to_message(self) -> dict[str, Any]:
        """The assistant message to append to the conversation, echoing ``tool_calls`` exactly."""
        message: dict[str, Any] = {"role": "assistant", "content": self.content}
        if self.tool_calls:
            message["tool_calls"] = [call.to_dict() for call in self.tool_calls]
        return message

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON data (everything but ``raw``), e.g. to store a paused run or to record a
        trace.
        """
        return {
            "content": self.content,
            "tool_calls": [call.to_dict() for call in self.tool_calls],
            "finish_reason": self.finish_reason,
            "usage": None if self.usage is None else self.usage.to_dict(),
            "model": self.model,
            "reasoning_content": self.reasoning_content,
            "refusal": self.refusal,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ChatResult:
        """The inverse of ``to_dict``."""
        usage = data.get("usage")
        return cls(
            content=data.get("content"),
            tool_calls=[ToolCall.from_dict(c) for c in data.get("tool_calls") or []],
            finish_reason=data.get("finish_reason"),
            model=data.get("model") or "",
            usage=None if usage is None else Usage.from_dict(usage),
            reasoning_content=data.get("reasoning_content"),
            refusal=data.get("refusal"),
        )


class ChatModel(Protocol):
    """Anything that can answer a list of messages. The agent depends only on this."""

    def complete(
        self,
        messages: Sequence[dict[str, Any]],
        tools: Sequence[dict[str, Any]] | None = None,
        **options: Any,
    ) -> ChatResult: ...


__all__ = [
    "ChatModel",
    "ChatResult",
    "PairingProblem",
    "ToolCall",
    "Usage",
    "call_key",
    "canonical_arguments",
    "find_pairing_problems",
    "latest_user_index",
    "message_text",
    "parse_arguments",
]
