"""The simulator round trip through the official SDK, next to a bare FastAPI + uvicorn app on the
same machine.

Both servers run in background threads of this process, as the course's own server does in a
notebook, and each is reached by one ``openai.OpenAI`` client (one keep-alive connection). The floor
is a bare FastAPI app that uvicorn binds itself and that *replays the bytes our server sent* for the
same request: same JSON body, same number of SSE chunks. So the difference between the two columns
is what our server adds — request validation, the rule engine, encoding — and nothing about the HTTP
stack or the SDK. The two are called alternately, request by request (which goes first alternates
too), so a noisy neighbour slows both alike.

Left out: concurrency (one request at a time), the ``httpx`` client without the SDK, and the local
model (see ``local``).
"""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Callable
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import Response, StreamingResponse

from .registry import Context, Figure, Stats, benchmark

TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "calculator",
            "description": "计算一个数学表达式并返回结果，例如 17 * 9。",
            "parameters": {
                "type": "object",
                "properties": {"expression": {"type": "string", "description": "要计算的算式"}},
                "required": ["expression"],
            },
        },
    },
    {
        "type": "function",
        "function": {
            "name": "get_current_time",
            "description": "获取当前的日期和时间。",
            "parameters": {"type": "object", "properties": {}, "required": []},
        },
    },
]
MESSAGES = [{"role": "user", "content": "现在几点了？17 乘以 9 等于多少？"}]
WARMUP = 5
FLOOR_IS = "bare FastAPI+uvicorn app replaying the same response bytes"


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class _BareServer:
    """A FastAPI app that answers with recorded bodies, run by uvicorn binding its own socket."""

    def __init__(self, models: bytes, completion: bytes, stream_events: list[bytes]):
        import uvicorn

        # FastAPI reads the handlers' annotations by name, so Request must be a module-level import
        app = FastAPI(docs_url=None, redoc_url=None, openapi_url=None)

        @app.get("/v1/models")
        async def list_models() -> Response:
            return Response(models, media_type="application/json")

        @app.post("/v1/chat/completions")
        async def chat(request: Request) -> Response:
            body = json.loads(
                await request.body()
            )  # a real server has to read the request at least
            if body.get("stream"):
                return StreamingResponse(iter(stream_events), media_type="text/event-stream")
            return Response(completion, media_type="application/json")

        self.port = _free_port()
        config = uvicorn.Config(
            app,
            host="127.0.0.1",
            port=self.port,
            log_level="warning",
            access_log=False,
            lifespan="off",
            timeout_graceful_shutdown=2,
        )
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(
            target=self._server.run, name="bench-bare-server", daemon=True
        )
        self._thread.start()
        deadline = time.monotonic() + 10
        while not self._server.started:  # bounded wait for uvicorn's startup
            if time.monotonic() > deadline or not self._thread.is_alive():
                self.stop()
                raise RuntimeError(f"the bare FastAPI app did not start on 127.0.0.1:{self.port}")
            time.sleep(0.01)
        self.base_url = f"http://127.0.0.1:{self.port}/v1"

    def stop(self) -> None:
        self._server.should_exit = True
        self._thread.join(5)


def _record(base_url: str, request: dict[str, Any]) -> tuple[bytes, bytes, list[bytes]]:
    """The raw bytes our server sends for /v1/models, the request, and the request streamed (one
    item per event).
    """
    import httpx

    with httpx.Client(
        base_url=base_url, headers={"Authorization": "Bearer bench"}, timeout=30
    ) as http:
        models = http.get("/models").content
        completion = http.post("/chat/completions", json=request).content
        events: list[bytes] = []
        with http.stream("POST", "/chat/completions", json={**request, "stream": True}) as response:
            for line in response.iter_lines():
                if line:
                    events.append(line.encode() + b"\n\n")
    return models, completion, events


def _timed(call: Callable[[], Any]) -> float:
    start = time.perf_counter()
    call()
    return (time.perf_counter() - start) * 1000


@benchmark("roundtrip", title="offline simulator round trip vs a bare FastAPI app", order=10)
def roundtrip(ctx: Context) -> list[Figure]:
    import openai

    from ..offline import serve

    request = {"model": "course-sim", "messages": MESSAGES, "tools": TOOLS, "temperature": 0}
    with serve(backend="offline") as ours:
        bare = _BareServer(*_record(ours.base_url, request))
        try:
            clients = {
                side: openai.OpenAI(base_url=url, api_key="bench", max_retries=0)
                for side, url in (("ours", ours.base_url), ("floor", bare.base_url))
            }

            def calls(client: openai.OpenAI) -> dict[str, Callable[[], Any]]:
                def chat() -> Any:
                    reply = client.chat.completions.create(**request)
                    if not reply.choices[0].message.tool_calls:
                        raise RuntimeError(
                            "the benchmark request should get tool calls back, and got none"
                        )

                def chat_stream() -> Any:
                    if not list(client.chat.completions.create(**request, stream=True)):
                        raise RuntimeError("the streamed reply had no chunks")

                return {
                    "models": lambda: client.models.list(),
                    "chat": chat,
                    "chat_stream": chat_stream,
                }

            measures = {
                "models": "GET /v1/models, SDK",
                "chat": "chat completion with 2 tools, SDK, non-streaming",
                "chat_stream": "chat completion with 2 tools, SDK, streaming (all chunks read)",
            }
            per_side = {side: calls(client) for side, client in clients.items()}
            samples: dict[tuple[str, str], list[float]] = {
                (m, s): [] for m in measures for s in per_side
            }
            bar = ctx.progress(total=len(measures) * (WARMUP + ctx.n), desc="roundtrip")
            with bar:
                for measure in measures:
                    for i in range(WARMUP + ctx.n):
                        for side in (
                            ("ours", "floor") if i % 2 else ("floor", "ours")
                        ):  # neither always goes first
                            elapsed = _timed(per_side[side][measure])
                            if i >= WARMUP:
                                samples[(measure, side)].append(elapsed)
                        bar.update(1)
            for client in clients.values():
                client.close()
        finally:
            bare.stop()

    return [
        Figure(
            benchmark="roundtrip",
            measure=label,
            unit="ms",
            ours=Stats.of(samples[(m, "ours")]),
            floor=Stats.of(samples[(m, "floor")]),
            floor_is=FLOOR_IS,
            note=f"keep-alive, one request at a time, median and p95 of {ctx.n}",
        )
        for m, label in measures.items()
    ]
