"""Prompt caching: how much of each request a provider could serve from its cache, and what the
calls cost.

A provider that has just read a request keeps its computed prefix for a few minutes; a later request
that **starts with exactly the same tokens** (same tools, same first messages) is charged less for
that part: OpenAI reports it as ``usage.prompt_tokens_details.cached_tokens`` (automatic for prompts
of 1024 tokens or more, matched in steps of 128), DeepSeek as ``usage.prompt_cache_hit_tokens``. So
a conversation that only ever appends is cheap to resend, while a memory policy that changes the
start of the request — a window that drops the oldest round, a summary written again — is charged in
full for everything after the change.

``CallLog(client)`` is a ``ChatModel`` that passes every call on and records it: the messages and
tools sent, the usage the backend reported, the cached tokens it reported (``Usage.cached_tokens``,
``None`` when it reports none — the offline simulator never does), and an **estimate**: the longest
prefix of whole messages (with the same tools) that the request shares with any earlier request in
the log (``shared_prefix_tokens``). Give the same ``CallLog`` to the agent and to the summarizer,
and the summarizer's own calls are counted too.

``CallLog.cost(price)`` turns a log into money with a ``pricing.Price``: uncached input, cached
input and output tokens at their own prices.

Left out: a provider's cache expiry (the log assumes every earlier request is still cached), caching
inside one message (a prefix counts in whole messages), and cache writes that cost extra
(Anthropic's).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..messages import ChatModel, ChatResult
from ..pricing import Price
from ..tokens import count_message_tokens
from .rounds import Message


def _key(message: Message) -> str:
    return json.dumps(
        {k: message.get(k) for k in ("role", "content", "tool_calls", "tool_call_id", "name")},
        ensure_ascii=False,
        sort_keys=True,
        default=str,
    )


def _tools_key(tools: Sequence[dict[str, Any]] | None) -> str:
    return json.dumps(list(tools or []), ensure_ascii=False, sort_keys=True, default=str)


def shared_prefix_tokens(
    messages: list[Message],
    tools: Sequence[dict[str, Any]] | None,
    earlier: Sequence[tuple[list[Message], Sequence[dict[str, Any]] | None]],
    *,
    minimum: int = 0,
    step: int = 1,
) -> int:
    """Tokens of the longest prefix of whole messages that ``messages`` shares with one of the
    ``earlier`` requests.

    Only an earlier request with the same tools counts (tools are read before the messages).
    ``minimum`` and ``step`` apply a provider's rule: OpenAI caches nothing below 1024 tokens and
    counts in steps of 128.
    """
    keys = [_key(m) for m in messages]
    tools_key = _tools_key(tools)
    longest = 0
    for old_messages, old_tools in earlier:
        if _tools_key(old_tools) != tools_key:
            continue
        n = 0
        for old, new in zip(old_messages, keys):
            if _key(old) != new:
                break
            n += 1
        longest = max(longest, n)
    if longest == 0:
        return 0
    tokens = count_message_tokens(messages[:longest], list(tools) if tools else None)
    tokens = tokens // step * step
    return tokens if tokens >= minimum else 0


@dataclass
class LoggedCall:
    """One model call: what was sent, what the backend reported, and the estimated cached prefix."""

    messages: list[Message]
    tools: list[dict[str, Any]] | None
    input_tokens: int | None  # as reported (None when the backend reported no usage)
    output_tokens: int | None
    cached_estimate: (
        int  # the shared prefix, in tokens (our count), as if every earlier request were cached
    )
    cached_reported: int | None = None  # what the backend said (None: it says nothing)

    @property
    def has_tools(self) -> bool:
        return bool(self.tools)


class CallLog:
    """A ``ChatModel`` that records every call it passes on (see the module docstring)."""

    def __init__(self, client: ChatModel, *, minimum: int = 0, step: int = 1):
        self.client, self.minimum, self.step = client, minimum, step
        self.calls: list[LoggedCall] = []

    @property
    def model(self) -> str:
        return getattr(self.client, "model", "")

    def complete(
        self,
        messages: Sequence[Message],
        tools: Sequence[dict[str, Any]] | None = None,
        **options: Any,
    ) -> ChatResult:
        sent = [dict(m) for m in messages]
        estimate = shared_prefix_tokens(
            sent,
            tools,
            [(c.messages, c.tools) for c in self.calls],
            minimum=self.minimum,
            step=self.step,
        )
        result = self.client.complete(messages, tools=tools, **options)
        usage = result.usage
        self.calls.append(
            LoggedCall(
                sent,
                list(tools) if tools else None,
                usage.prompt_tokens if usage else None,
                usage.completion_tokens if usage else None,
                estimate,
                usage.cached_tokens if usage else None,
            )
        )
        return result

    def totals(self, *, with_tools: bool | None = None) -> dict[str, int]:
        """Sums over the calls (``with_tools=True``: the agent's calls; ``False``: calls without
        tools, e.g. the summarizer's).
        """
        calls = [c for c in self.calls if with_tools is None or c.has_tools == with_tools]
        return {
            "calls": len(calls),
            "input": sum(c.input_tokens or 0 for c in calls),
            "output": sum(c.output_tokens or 0 for c in calls),
            "cached_estimate": sum(c.cached_estimate for c in calls),
        }

    def cost(self, price: Price, *, cached: bool = True, with_tools: bool | None = None) -> float:
        """What the logged calls cost at ``price``, the estimated cached prefixes at its
        cached-input price (``cached=False``: every input token at the full price); ``with_tools``
        picks calls as ``totals`` does.
        """
        calls = [c for c in self.calls if with_tools is None or c.has_tools == with_tools]
        return sum(
            price.cost(
                c.input_tokens or 0, c.output_tokens or 0, c.cached_estimate if cached else 0
            )
            or 0.0
            for c in calls
        )


__all__ = ["CallLog", "LoggedCall", "shared_prefix_tokens"]
