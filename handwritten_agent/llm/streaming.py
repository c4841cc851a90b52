"""``StreamingClient``: the Agent's model calls made as streams, so a run can show text as it
arrives and still record the tokens the backend reported.

The Agent calls ``complete``; this wrapper answers it by consuming ``ChatClient.stream`` (which asks
for ``stream_options.include_usage``) and returning the final ``ChatResult``. The reply's ``usage``
is what the stream's last chunk reported, or None when the server sends none — a streamed call is
then traced with ``input_tokens: null``, not with a made-up 0 (the trap most tracing tools fall
into).

A reply whose text turns out to be tool calls the server did not read (``ChatClient.stream`` reads
them once the stream has ended) was passed on as text while it arrived; the result holds the calls,
and the client says once that the text shown was them.

Left out: cancelling a stream half-way, and tool-call deltas shown to the user (only text is passed
on).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ..messages import ChatResult


class StreamingClient:
    """A ``ChatModel`` that streams each call through ``client.stream`` and returns its final
    ``ChatResult``.
    """

    def __init__(self, client: Any, on_text: Callable[[str], None] | None = None):
        if not hasattr(client, "stream"):
            raise TypeError(
                "StreamingClient 需要一个有 stream() 方法的客户端（例如 ChatClient），收到的是"
                f" {type(client).__name__}。"
            )
        self.client, self.on_text = client, on_text

    def complete(
        self, messages: Sequence[Any], tools: Sequence[dict[str, Any]] | None = None, **options: Any
    ) -> ChatResult:
        result: ChatResult | None = None
        for event in self.client.stream(messages, tools, **options):
            if event.kind == "content" and self.on_text is not None:
                self.on_text(event.text)
            elif event.kind == "done":
                result = event.result
        if result is None:
            raise RuntimeError("流式回复没有以 done 事件结束：连接可能中途断开了。请重试。")
        return result

    def __getattr__(self, name: str) -> Any:  # model, base_url, label … for the tracer
        if name in ("client", "on_text"):
            raise AttributeError(name)
        return getattr(self.client, name)


__all__ = ["StreamingClient"]
