"""``ChatClient``: one small client for every backend, over the official ``openai`` SDK.

Every backend of the course speaks the OpenAI Chat Completions wire format, so one client serves
them all. It adds three things to the bare SDK call:

- a normalized result: ``complete()`` returns a ``ChatResult`` (content, tool calls with their raw
  argument text, finish reason, usage, DeepSeek-style ``reasoning_content``); ``stream()`` yields
  ``StreamEvent``s and ends with a ``done`` event carrying the same ``ChatResult``;
- retries written out by hand (the SDK's own retries are switched off so the course can show them):
  on HTTP 429 and 5xx only, waiting what ``Retry-After`` / ``retry-after-ms`` asks, otherwise an
  exponential backoff without jitter (deterministic), every wait capped, the attempts bounded;
- errors that say what went wrong and which ``.env`` variable or command fixes it, as a small
  hierarchy under ``LLMError``; the SDK's exception stays available as ``__cause__``.

``connect()`` is what notebooks call: it reads the settings (``config``), starts the shared
in-process server for the ``offline`` or ``local`` backend when needed, prints the banner line and
returns a client.

One file per part, in the order Day 1 teaches them: ``errors``, ``replies`` (a response and a stream
put back together), ``retry``, ``client`` (``ChatClient``), ``connect``; ``streaming`` makes an
agent's model calls as streams (Day 6 shows text as it arrives).

Left out: async, multiple choices (``n > 1``), the Responses API, and retrying a stream that already
produced output (a half-delivered answer cannot be un-shown).
"""

from .client import ChatClient
from .connect import OFFLINE_API_KEY, connect, shared_server, stop_shared_servers
from .errors import (
    AuthenticationFailed,
    BadRequest,
    ConnectionFailed,
    LLMError,
    ModelNotFound,
    RateLimited,
    RequestTimeout,
    ServerError,
    ToolsUnsupported,
)
from .replies import StreamEvent, result_from_completion
from .retry import (
    DEFAULT_BACKOFF,
    DEFAULT_MAX_WAIT,
    RetryNotice,
    is_retryable,
    retry_after_seconds,
    retry_delay,
)
from .streaming import StreamingClient

__all__ = [
    "AuthenticationFailed",
    "BadRequest",
    "ChatClient",
    "ConnectionFailed",
    "DEFAULT_BACKOFF",
    "DEFAULT_MAX_WAIT",
    "LLMError",
    "ModelNotFound",
    "OFFLINE_API_KEY",
    "RateLimited",
    "RequestTimeout",
    "RetryNotice",
    "ServerError",
    "StreamEvent",
    "StreamingClient",
    "ToolsUnsupported",
    "connect",
    "is_retryable",
    "result_from_completion",
    "retry_after_seconds",
    "retry_delay",
    "shared_server",
    "stop_shared_servers",
]
