"""A fallback model: when the primary model is rate-limited, failing or too slow, ask the next one.

``FallbackClient([primary, fallback])`` is itself a ``ChatModel``, so the Agent does not know it is
there. It moves to the next client only on the errors a second model can help with — ``RateLimited``
(429), ``ServerError`` (5xx) and ``RequestTimeout`` — and only after that client's own retries
(``ChatClient`` retries 429/5xx with backoff before it raises). A 400, a wrong key or an unknown
model is the request's or the configuration's fault, and another model would hide it: those are
raised at once, as is a connection that cannot be made (usually a wrong ``LLM_BASE_URL``).

Before asking a client whose context window is smaller, the messages are fitted to it (by default
Day 4's ``trim_messages``, which drops whole oldest rounds and never splits a tool call from its
result, down to Day 4's ``context_budget``: the window minus the reply's room — the request's
``max_tokens``, else ``REPLY_ROOM`` — minus a margin for the estimate). Every switch is kept in
``switches``, reported into the run the call is part of as a ``fallback`` event (``reporting``: the
tracer writes it, the service stores it) and passed to ``on_switch`` if you give one.

Left out: remembering that a model is down (a circuit breaker) — each call starts with the primary
again.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any

from .llm import RateLimited, RequestTimeout, ServerError
from .messages import ChatModel, ChatResult
from .reporting import report

SWITCH_ON = (RateLimited, ServerError, RequestTimeout)
REPLY_ROOM = 1024  # tokens kept free for the reply when the request does not say (no max_tokens)


def _trim(
    messages: list[dict[str, Any]],
    tools: Sequence[dict[str, Any]] | None,
    window: int,
    reply_room: int = REPLY_ROOM,
) -> list[dict[str, Any]]:
    from .memory import context_budget, trim_messages  # Day 4

    budget = context_budget(window, reply_room)
    return (
        trim_messages(messages, budget, tools=tools) if tools else trim_messages(messages, budget)
    )


class FallbackClient:
    """Try each client in order; the next one only after a 429, a 5xx or a timeout from the one
    before.
    """

    def __init__(
        self,
        clients: Sequence[ChatModel],
        *,
        context_windows: Sequence[int | None] | None = None,
        fit: (
            Callable[
                [list[dict[str, Any]], Sequence[dict[str, Any]] | None, int], list[dict[str, Any]]
            ]
            | None
        ) = None,
        on_switch: Callable[[dict[str, Any]], None] | None = None,
    ):
        """``context_windows[i]`` is client i's window in tokens (None: no fitting); ``fit(messages,
        tools, window)`` shortens.
        """
        if not clients:
            raise ValueError("FallbackClient 至少需要一个模型客户端。")
        self.clients = list(clients)
        self.context_windows = (
            list(context_windows) if context_windows is not None else [None] * len(self.clients)
        )
        if len(self.context_windows) != len(self.clients):
            raise ValueError(
                f"context_windows 要和 clients 一样多：收到 {len(self.context_windows)}"
                f" 个窗口、{len(self.clients)} 个客户端。"
            )
        self.fit, self.on_switch = fit, on_switch
        self.switches: list[dict[str, Any]] = []

    @property
    def model(self) -> str:
        return getattr(self.clients[0], "model", "")

    def complete(
        self,
        messages: Sequence[dict[str, Any]],
        tools: Sequence[dict[str, Any]] | None = None,
        **options: Any,
    ) -> ChatResult:
        sent = list(messages)
        for index, client in enumerate(self.clients):
            try:
                return client.complete(sent, tools=tools, **options)
            except SWITCH_ON as exc:
                if index + 1 == len(self.clients):
                    raise
                window = self.context_windows[index + 1]
                fitted = (
                    self._fit(list(messages), tools, window, options)
                    if window is not None
                    else list(messages)
                )
                self._report(index, exc, before=len(messages), after=len(fitted), window=window)
                sent = fitted
        raise AssertionError("unreachable: the last client either answered or raised")

    def _fit(
        self,
        messages: list[dict[str, Any]],
        tools: Sequence[dict[str, Any]] | None,
        window: int,
        options: dict[str, Any],
    ) -> list[dict[str, Any]]:
        if self.fit is not None:
            return self.fit(messages, tools, window)
        return _trim(messages, tools, window, int(options.get("max_tokens") or REPLY_ROOM))

    def _report(
        self, index: int, error: Exception, *, before: int, after: int, window: int | None
    ) -> None:
        switch = {
            "from_model": getattr(self.clients[index], "model", f"#{index}"),
            "to_model": getattr(self.clients[index + 1], "model", f"#{index + 1}"),
            "error_type": type(error).__name__,
            "status": getattr(error, "status", None),
            "error": str(error)[:300],
            "context_window": window,
            "messages_before": before,
            "messages_after": after,
            "ts": time.time(),
        }
        self.switches.append(switch)
        report("fallback", **switch)  # an event of the run this call is part of, if any
        if self.on_switch is not None:
            self.on_switch(switch)


__all__ = ["REPLY_ROOM", "FallbackClient", "SWITCH_ON"]
