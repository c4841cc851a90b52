"""What the OpenAI-compatible server asks of a model backend.

The server (``server.py``) owns HTTP: request validation, error bodies, streaming, ids. A backend
only turns one validated ``ChatRequest`` into one ``Completion``. Two backends exist: the course
simulator (``simulator``) and the local llama.cpp model (``local``).

A backend signals an API-level failure (404 unknown model, 400 context too long, 429, 500) by
raising ``BackendError``; the server turns it into the JSON error body the real API sends.
"""

from __future__ import annotations

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
    tool_calls: list[dict[str, Any]] = field(default_factory=list)  # wire format: id, type, function{name, arguments}
    finish_reason: str = "stop"
    prompt_tokens: int = 0
    completion_tokens: int = 0


class BackendError(Exception):
    """An error the API reports to the caller as an HTTP status with an OpenAI-style error body."""

    def __init__(self, status: int, message: str, *, type: str = "invalid_request_error", param: str | None = None,
                 code: str | None = None, headers: dict[str, str] | None = None):
        super().__init__(message)
        self.status = status
        self.message = message
        self.type = type
        self.param = param
        self.code = code
        self.headers = headers or {}

    def body(self) -> dict[str, Any]:
        return {"error": {"message": self.message, "type": self.type, "param": self.param, "code": self.code}}


class Backend(Protocol):
    name: str  # shown by the banner, e.g. "offline course simulator"

    def list_models(self) -> list[str]: ...

    def complete(self, request: ChatRequest) -> Completion: ...
