"""The offline model server: an OpenAI-compatible HTTP server with a pluggable backend.

    from handwritten_agent.course.offline import serve
    with serve() as server:            # the course simulator on a free port, in a background thread
        client = openai.OpenAI(base_url=server.base_url, api_key="any")

- ``server``     the HTTP app and its running: error bodies, streaming, ``serve()`` /
                 ``serve_forever()``
- ``validation`` the request checks, with the real API's 400 messages (body → ``ChatRequest``)
- ``encoding``   ``Completion`` → ``chat.completion`` JSON or ``chat.completion.chunk`` events
- ``backend``    what the server asks of a backend (``ChatRequest`` → ``Completion``,
                 ``BackendError``; optionally ``stream()`` for a reply sent while it is generated)
- ``faults``     the simulator's model-name options (``course-sim:rate_limit``,
                 ``course-sim:fenced``)
- ``simulator``  the deterministic course simulator: a rule engine, not an LLM
- ``local``      a real small LLM on the CPU through llama.cpp (needs the ``local`` extra)
- ``assembly``   a model's generated text → content and tool calls, token by token, template markup
                 removed

Names from ``server`` are imported lazily, so importing ``backend`` or ``faults`` does not load
FastAPI or uvicorn. Left out here: any client code — the course talks to this server through the
official ``openai`` SDK like to any other provider.
"""

from __future__ import annotations

from typing import Any

from .backend import Backend, BackendError, ChatRequest, Completion
from .faults import SIMULATOR_MODEL

_SERVER_NAMES = ("OfflineServer", "create_app", "make_backend", "serve", "serve_forever")

__all__ = [
    "Backend",
    "BackendError",
    "ChatRequest",
    "Completion",
    "SIMULATOR_MODEL",
    *_SERVER_NAMES,
]


def __getattr__(name: str) -> Any:
    if name in _SERVER_NAMES:
        from . import server

        return getattr(server, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
