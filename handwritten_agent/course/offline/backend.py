"""What the OpenAI-compatible server asks of a model backend.

The server (``server.py``) owns HTTP: request validation, error bodies, streaming, ids. A backend
only turns one validated ``ChatRequest`` into one ``Completion``. Two backends exist: the course
simulator (``simulator``) and the local llama.cpp model (``local``).

A backend that generates its reply piece by piece may also offer ``stream(request)``
(``StreamingBackend``): the server then sends each piece to a streaming client as it is made,
instead of splitting the finished reply. The simulator answers at once and does not need it.

A backend signals an API-level failure (404 unknown model, 400 context too long, 429, 500) by
raising ``BackendError``; the server turns it into the JSON error body the real API sends.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, Protocol


@dataclass
class ChatRequest:
    """A validated ``POST /v1/chat/completions`` body."""

    model: str  # the model name exactly as sent, e.g. "course-sim:slow,fenced"
    messages: list[dict[str, Any]]
    tools: list[dict[str, Any]] | None = None
    tool_choice: str | dict[str, Any] | None = None
    parallel_tool_calls: bool = True
    stream: bool = False
    stop: list[str] | None = None
    max_tokens: int | None = None
    temperature: float | None = None
    base_model: str = ""  # the part before ":" ("course-sim")
    options: frozenset[str] = field(default_factory=frozenset)  # the part after ":", split on ","
    extra: dict[str, Any] = field(default_factory=dict)  # any other body fields, kept for backends


@dataclass
class Completion:
    """One assistant reply, before the server wraps it in a response or a stream."""

    content: str | None
    tool_calls: list[dict[str, Any]] = field(
        default_factory=list
    )  # wire format: id, type, function{name, arguments}
    finish_reason: str = "stop"
    prompt_tokens: int = 0
    completion_tokens: int = 0
    # prompt tokens read from a cached prefix instead of being evaluated again (the API's
    # usage.prompt_tokens_details.cached_tokens); 0 where the backend keeps no cache
    cached_tokens: int = 0


class BackendError(Exception):
    """An error the API reports to the caller as an HTTP status with an OpenAI-style error body."""

    def __init__(
        self,
        status: int,
        message: str,
        *,
        type: str = "invalid_request_error",
        param: str | None = None,
        code: str | None = None,
        headers: dict[str, str] | None = None,
        shape: dict[str, Any] | None = None,
    ):
        """``shape``: the whole error body, for servers whose errors are not OpenAI-shaped (vLLM's
        ``{"object": "error", "message": ...}``); by default ``{"error": {...}}``."""
        super().__init__(message)
        self.shape = shape
        self.status = status
        self.message = message
        self.type = type
        self.param = param
        self.code = code
        self.headers = headers or {}

    def body(self) -> dict[str, Any]:
        if self.shape is not None:
            return self.shape
        return {
            "error": {
                "message": self.message,
                "type": self.type,
                "param": self.param,
                "code": self.code,
            }
        }


class Backend(Protocol):
    name: str  # shown by the banner, e.g. "offline course simulator"

    def list_models(self) -> list[str]: ...

    def complete(self, request: ChatRequest) -> Completion: ...


@dataclass
class ReplyDelta:
    """A piece of a reply while a streaming backend generates it.

    ``content`` is new text for the client (``""`` is allowed: a tick between tokens, so a server
    can stop a generation whose client has gone even while nothing visible is being produced);
    ``tool_call`` is one finished call in wire format (id, type, function{name, arguments}).
    """

    content: str = ""
    tool_call: dict[str, Any] | None = None


class StreamingBackend(Backend, Protocol):
    def stream(self, request: ChatRequest) -> Iterator[ReplyDelta | Completion]:
        """Generate the reply for ``request`` as it is made.

        The contract the server relies on:
        - a request the backend refuses raises ``BackendError`` before anything is yielded;
        - the first item comes as soon as the request is accepted (it may be an empty
          ``ReplyDelta``);
        - the last item is the whole ``Completion``, whose content and tool calls are exactly the
          deltas joined;
        - ``close()`` on the generator stops the generation and frees the backend for the next
          request;
        - ``stop`` sequences are applied by the backend (the server cannot cut text it has already
          sent).
        """
        ...
