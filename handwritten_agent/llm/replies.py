"""A response reduced to a ``ChatResult``, and a stream of chunks put back together into one.

Left out: the HTTP call itself (``client``).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Literal

from ..messages import ChatResult, ToolCall, Usage
from .errors import LLMError

# ---------------------------------------------------------------------------------------------
# Results and stream events
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class StreamEvent:
    """One piece of a streamed reply.

    ``kind`` is ``content`` (``text`` is new answer text), ``reasoning`` (``text`` is new
    reasoning_content), ``tool_call`` (a piece of tool call ``index``: ``id`` and ``name`` on its
    first piece, ``text`` the next piece of its argument JSON) or ``done`` (``result`` is the whole
    reply).
    """

    kind: Literal["content", "reasoning", "tool_call", "done"]
    text: str = ""
    index: int = 0
    id: str | None = None
    name: str | None = None
    result: ChatResult | None = None


def result_from_completion(response: Any) -> ChatResult:
    """Reduce an SDK ``ChatCompletion`` to a ``ChatResult`` (tool-call arguments kept as raw
    text).
    """
    if not response.choices:
        raise LLMError(
            f"服务器的回复里没有任何 choice（模型 {response.model!r}），不符合 Chat Completions 格"
            "式。请检查 LLM_BASE_URL 是否指向 OpenAI 兼容接口的根地址（…/v1）。"
        )
    choice = response.choices[0]
    message = choice.message
    calls = [
        ToolCall(
            id=call.id or "", name=call.function.name or "", arguments=call.function.arguments or ""
        )
        for call in message.tool_calls or []
        if getattr(call, "function", None) is not None
    ]
    return ChatResult(
        content=message.content,
        tool_calls=calls,
        finish_reason=choice.finish_reason,
        usage=usage_of(response),
        model=response.model or "",
        raw=response,
        reasoning_content=_reasoning(message),
        refusal=getattr(message, "refusal", None) or None,
    )


def usage_of(response: Any) -> Usage | None:
    """The ``Usage`` a response (or a stream's last chunk) reports; ``None`` if it has none.

    Works on the SDK's objects and on plain dicts. The cached input tokens are read from
    ``usage.prompt_tokens_details.cached_tokens`` (OpenAI and compatible servers), else from
    DeepSeek's ``usage.prompt_cache_hit_tokens``; ``None`` when the backend says neither.
    """

    def get(value: Any, name: str) -> Any:
        if value is None:
            return None
        if isinstance(value, dict):
            return value.get(name)
        found = getattr(value, name, None)
        if found is None:  # pydantic models keep fields they do not declare in model_extra
            found = (getattr(value, "model_extra", None) or {}).get(name)
        return found

    def count(value: Any) -> int | None:
        return value if isinstance(value, int) and not isinstance(value, bool) else None

    usage = get(response, "usage")
    if usage is None:
        return None
    cached = count(get(get(usage, "prompt_tokens_details"), "cached_tokens"))
    if cached is None:
        cached = count(get(usage, "prompt_cache_hit_tokens"))
    return Usage(
        prompt_tokens=count(get(usage, "prompt_tokens")) or 0,
        completion_tokens=count(get(usage, "completion_tokens")) or 0,
        cached_tokens=cached,
    )


def _reasoning(message_or_delta: Any) -> str | None:
    """DeepSeek sends ``reasoning_content``; some other servers call it ``reasoning``."""
    for name in ("reasoning_content", "reasoning"):
        value = getattr(message_or_delta, name, None)
        if isinstance(value, str):
            return value
    return None


class _StreamAssembler:
    """Builds the ``ChatResult`` from ``chat.completion.chunk``s while turning each into events."""

    def __init__(self) -> None:
        self.content: list[str] = []
        self.reasoning: list[str] = []
        self.refusal: list[str] = []
        self.saw_content = False
        self.calls: dict[int, dict[str, Any]] = {}
        self.finish_reason: str | None = None
        self.usage: Usage | None = None
        self.model = ""
        self.chunks: list[Any] = []

    def add(self, chunk: Any) -> Iterator[StreamEvent]:
        self.chunks.append(chunk)
        self.model = chunk.model or self.model
        self.usage = usage_of(chunk) or self.usage
        for choice in chunk.choices or []:
            if choice.index != 0:
                continue
            delta = choice.delta
            if delta is not None:
                reasoning = _reasoning(delta)
                if reasoning:
                    self.reasoning.append(reasoning)
                    yield StreamEvent("reasoning", text=reasoning)
                refusal = getattr(delta, "refusal", None)
                if refusal:
                    self.refusal.append(refusal)
                if delta.content is not None:
                    self.saw_content = True
                    if delta.content:
                        self.content.append(delta.content)
                        yield StreamEvent("content", text=delta.content)
                for piece in delta.tool_calls or []:
                    call = self.calls.setdefault(
                        piece.index, {"id": "", "name": "", "arguments": []}
                    )
                    new_id = piece.id if piece.id and not call["id"] else None
                    function = piece.function
                    new_name = (
                        function.name
                        if function is not None and function.name and not call["name"]
                        else None
                    )
                    arguments = (function.arguments or "") if function is not None else ""
                    call["id"] = call["id"] or (piece.id or "")
                    call["name"] = call["name"] or (new_name or "")
                    call["arguments"].append(arguments)
                    yield StreamEvent(
                        "tool_call", text=arguments, index=piece.index, id=new_id, name=new_name
                    )
            if choice.finish_reason:
                self.finish_reason = choice.finish_reason

    def result(self) -> ChatResult:
        calls = [
            ToolCall(id=c["id"], name=c["name"], arguments="".join(c["arguments"]))
            for _, c in sorted(self.calls.items())
        ]
        content = "".join(self.content) if (self.content or self.saw_content) else None
        if content == "" and calls:
            content = None  # as in the non-streaming message of a tool-call-only reply
        return ChatResult(
            content=content,
            tool_calls=calls,
            finish_reason=self.finish_reason,
            usage=self.usage,
            model=self.model,
            raw=self.chunks,
            reasoning_content="".join(self.reasoning) if self.reasoning else None,
            refusal="".join(self.refusal) or None,
        )
