"""Response encoding for the OpenAI-compatible server: a ``Completion`` in, the API's JSON or SSE
chunks out.

Two shapes of the same reply:

- ``completion_body``: the non-streaming ``chat.completion`` object;
- ``ChunkWriter``: the ``chat.completion.chunk`` objects of a stream, in the order the real API
  sends them — a first chunk with the role, content deltas, each tool call as a head (id, name)
  followed by argument fragments, a chunk with ``finish_reason``, and with
  ``stream_options.include_usage`` a last chunk with ``choices: []`` and the usage. A writer is fed
  piece by piece, so it serves both a reply that is finished before streaming starts
  (``stream_chunks``, the simulator) and one that arrives token by token (the local model).

Also here: ``apply_stop`` (stop sequences on a finished reply), ``apply_max_tokens`` (a finished
reply cut at the request's reply limit, ``finish_reason: "length"``), the deterministic response id
and the ``system_fingerprint``. Left out: anything about HTTP (status codes, headers, the event
loop), which ``server`` owns, and logprobs.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable, Iterator
from typing import Any

from ...tokens import estimate_tokens
from .backend import Backend, BackendError, Completion

DONE_EVENT = "data: [DONE]\n\n"


def apply_stop(completion: Completion, stop: list[str] | None) -> Completion:
    """Cut the content at the first stop sequence, as a model stops generating there.

    Tool calls come after the text in a generation, so a reply cut by a stop sequence has none.
    """
    if not stop or not completion.content:
        return completion
    cuts = [completion.content.find(s) for s in stop]
    cuts = [c for c in cuts if c >= 0]
    if not cuts:
        return completion
    content = completion.content[: min(cuts)]
    return Completion(
        content=content,
        tool_calls=[],
        finish_reason="stop",
        prompt_tokens=completion.prompt_tokens,
        completion_tokens=estimate_tokens(content),
    )


def apply_max_tokens(completion: Completion, max_tokens: int | None) -> Completion:
    """Cut a finished reply after ``max_tokens`` generated tokens (the course's estimate), as a
    model stops there.

    A generation writes its text first, then each tool call (name, then arguments): the cut falls in
    the text, or inside a call's arguments — which then are not valid JSON, as real APIs send them —
    and ``finish_reason`` becomes ``length``. A reply that fits is returned as it is.
    """
    if max_tokens is None:
        return completion
    budget = max_tokens
    content = completion.content or ""
    if estimate_tokens(content) > budget:
        return Completion(
            content=_prefix_within(content, budget),
            tool_calls=[],
            finish_reason="length",
            prompt_tokens=completion.prompt_tokens,
            completion_tokens=max_tokens,
        )
    budget -= estimate_tokens(content)
    kept: list[dict[str, Any]] = []
    for call in completion.tool_calls:
        function = call.get("function") or {}
        name, arguments = str(function.get("name") or ""), str(function.get("arguments") or "")
        cost = estimate_tokens(name) + estimate_tokens(arguments)
        if cost <= budget:
            kept.append(call)
            budget -= cost
            continue
        room = budget - estimate_tokens(name)
        if room > 0:
            kept.append(
                {**call, "function": {**function, "arguments": _prefix_within(arguments, room)}}
            )
        return Completion(
            content=completion.content,
            tool_calls=kept,
            finish_reason="length",
            prompt_tokens=completion.prompt_tokens,
            completion_tokens=max_tokens,
        )
    return completion


def _prefix_within(text: str, tokens: int) -> str:
    """The longest prefix of ``text`` the course's estimate counts as at most ``tokens`` tokens."""
    low, high = 0, len(text)
    while low < high:  # binary search: the estimate grows with the prefix
        middle = (low + high + 1) // 2
        if estimate_tokens(text[:middle]) <= tokens:
            low = middle
        else:
            high = middle - 1
    return text[:low]


def completion_id(raw_body: bytes) -> str:
    """A deterministic response id: the same request body always gives the same id."""
    return "chatcmpl-" + hashlib.sha256(raw_body).hexdigest()[:29]


def fingerprint(backend: Backend) -> str:
    """The ``system_fingerprint``: one value per backend, so a client can tell which one
    answered.
    """
    name = getattr(backend, "name", type(backend).__name__)
    return "fp_" + hashlib.sha256(str(name).encode()).hexdigest()[:10]


def usage(completion: Completion) -> dict[str, Any]:
    """The response's ``usage``; ``prompt_tokens_details.cached_tokens`` as the real API reports it,
    when the backend read part of the prompt from its cache."""
    found: dict[str, Any] = {
        "prompt_tokens": completion.prompt_tokens,
        "completion_tokens": completion.completion_tokens,
        "total_tokens": completion.prompt_tokens + completion.completion_tokens,
    }
    if completion.cached_tokens:
        found["prompt_tokens_details"] = {"cached_tokens": completion.cached_tokens}
    return found


def wire_tool_call(call: dict[str, Any]) -> dict[str, Any]:
    """A tool call with exactly the keys the API sends: id, type, function{name, arguments}."""
    return {
        "id": call["id"],
        "type": call.get("type", "function"),
        "function": {"name": call["function"]["name"], "arguments": call["function"]["arguments"]},
    }


def message(completion: Completion) -> dict[str, Any]:
    """The assistant message of a non-streaming response."""
    body: dict[str, Any] = {"role": "assistant", "content": completion.content}
    if completion.tool_calls:
        body["tool_calls"] = [wire_tool_call(call) for call in completion.tool_calls]
    body["refusal"] = None
    return body


def completion_body(
    completion: Completion, *, response_id: str, model: str, created: int, fingerprint: str
) -> dict[str, Any]:
    """The non-streaming ``chat.completion`` object."""
    return {
        "id": response_id,
        "object": "chat.completion",
        "created": created,
        "model": model,
        "choices": [
            {
                "index": 0,
                "message": message(completion),
                "logprobs": None,
                "finish_reason": completion.finish_reason,
            }
        ],
        "usage": usage(completion),
        "system_fingerprint": fingerprint,
    }


_PIECE = re.compile(r"\s*[A-Za-z0-9_]+|\s*[^\sA-Za-z0-9_]|\s+")


def split_pieces(text: str) -> list[str]:
    """Split text into small stream pieces (an English word or one other character each); they join
    back exactly.
    """
    return _PIECE.findall(text)


class ChunkWriter:
    """The ``chat.completion.chunk`` objects of one streamed reply, written as its pieces become
    known.

    The first chunk carries the role. Its ``content`` is ``""`` when the reply starts with text and
    ``null`` when it starts with a tool call (or is empty), so the message a client assembles from
    the stream equals the non-streaming one.
    """

    def __init__(
        self,
        *,
        response_id: str,
        model: str,
        created: int,
        fingerprint: str,
        include_usage: bool = False,
    ):
        self._head = {
            "id": response_id,
            "object": "chat.completion.chunk",
            "created": created,
            "model": model,
            "system_fingerprint": fingerprint,
        }
        self.include_usage = include_usage
        self.opened = False
        self.calls = 0  # tool calls written so far: the next call's index

    def _chunk(self, delta: dict[str, Any], finish_reason: str | None = None) -> dict[str, Any]:
        body = {
            **self._head,
            "choices": [
                {"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish_reason}
            ],
        }
        if self.include_usage:
            body["usage"] = None
        return body

    def open(self, with_text: bool) -> list[dict[str, Any]]:
        """The role chunk, once; later calls return nothing."""
        if self.opened:
            return []
        self.opened = True
        return [
            self._chunk(
                {"role": "assistant", "content": "" if with_text else None, "refusal": None}
            )
        ]

    def text(self, text: str) -> list[dict[str, Any]]:
        if not text:
            return []
        return self.open(True) + [self._chunk({"content": text})]

    def tool_call(self, call: dict[str, Any]) -> list[dict[str, Any]]:
        """A head chunk (id, type, name, empty arguments), then the arguments in small pieces."""
        call = wire_tool_call(call)
        index, self.calls = self.calls, self.calls + 1
        function = call["function"]
        chunks = self.open(False)
        chunks.append(
            self._chunk(
                {
                    "tool_calls": [
                        {
                            "index": index,
                            "id": call["id"],
                            "type": call["type"],
                            "function": {"name": function["name"], "arguments": ""},
                        }
                    ]
                }
            )
        )
        for piece in split_pieces(function["arguments"]):
            chunks.append(
                self._chunk({"tool_calls": [{"index": index, "function": {"arguments": piece}}]})
            )
        return chunks

    def finish(self, completion: Completion) -> list[dict[str, Any]]:
        """The chunk with ``finish_reason``, then (when asked for) the usage chunk."""
        chunks = self.open(completion.content is not None)
        chunks.append(self._chunk({}, completion.finish_reason))
        if self.include_usage:
            chunks.append({**self._head, "choices": [], "usage": usage(completion)})
        return chunks


def stream_chunks(
    completion: Completion,
    *,
    response_id: str,
    model: str,
    created: int,
    fingerprint: str,
    include_usage: bool = False,
) -> Iterator[dict[str, Any]]:
    """The chunks that stream a finished completion: its text in small pieces, then its tool
    calls.
    """
    writer = ChunkWriter(
        response_id=response_id,
        model=model,
        created=created,
        fingerprint=fingerprint,
        include_usage=include_usage,
    )
    yield from writer.open(completion.content is not None)
    for piece in split_pieces(completion.content or ""):
        yield from writer.text(piece)
    for call in completion.tool_calls:
        yield from writer.tool_call(call)
    yield from writer.finish(completion)


def sse_event(body: dict[str, Any]) -> str:
    """One server-sent event carrying a JSON body."""
    return "data: " + json.dumps(body, ensure_ascii=False) + "\n\n"


def sse(chunks: Iterable[dict[str, Any]]) -> Iterator[str]:
    """A whole stream: one event per chunk, then ``[DONE]``."""
    for body in chunks:
        yield sse_event(body)
    yield DONE_EVENT


def error_event(error: BackendError) -> str:
    """An error that happens after the stream has started: the API sends it as an event with an
    ``error`` body.
    """
    return sse_event(error.body())
