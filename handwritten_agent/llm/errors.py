"""What can go wrong with a model call, as a small hierarchy under ``LLMError``; each message says
how to fix it.

Left out: turning the SDK's exceptions into these (``client``).
"""

from __future__ import annotations

from typing import Any

# ---------------------------------------------------------------------------------------------
# Errors
# ---------------------------------------------------------------------------------------------


class LLMError(Exception):
    """A model call failed. The message says what went wrong and how to fix it."""

    def __init__(
        self, message: str, *, status: int | None = None, server_message: str | None = None
    ):
        super().__init__(message)
        self.status = status
        self.server_message = server_message


class AuthenticationFailed(LLMError):
    """401/403: the server did not accept the API key."""


class ModelNotFound(LLMError):
    """404: the server has no such model (or the URL path is wrong)."""

    def __init__(self, message: str, *, available: list[str] | None = None, **kwargs: Any):
        super().__init__(message, **kwargs)
        self.available = available or []


class ConnectionFailed(LLMError):
    """No connection: refused, unknown host, network down."""


class RequestTimeout(LLMError):
    """The server did not answer within the timeout."""


class RateLimited(LLMError):
    """429 on every attempt."""


class ServerError(LLMError):
    """5xx on every attempt."""


class BadRequest(LLMError):
    """400 and other 4xx: the server rejected the request itself; its own message is included."""


class ToolsUnsupported(BadRequest):
    """400 because the model or server cannot take native ``tools`` (Ollama: "… does not support
    tools"; vLLM started without its tool parser). Day 2's prompt mode still works with it."""
