"""Streamed calls record the usage the stream reports, and null (not 0) when a server sends none or
rejects stream_options.
"""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Iterator
from datetime import datetime
from typing import Any

import pytest
import uvicorn
from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, StreamingResponse

from handwritten_agent.agent import Agent
from handwritten_agent.llm import OFFLINE_API_KEY, ChatClient, StreamingClient
from handwritten_agent.scenarios import basic_registry
from handwritten_agent.tracing import Redactor, Tracer

NOW = datetime(2026, 3, 12, 14, 30)


def no_usage_app(received: list[dict[str, Any]]) -> FastAPI:
    """A server that rejects stream_options the way some OpenAI-compatible servers do, and streams
    no usage.
    """
    app = FastAPI()

    @app.post("/v1/chat/completions")
    async def chat(request: Request) -> Any:
        body = await request.json()
        received.append(body)
        if "stream_options" in body:
            return JSONResponse(
                {
                    "error": {
                        "message": "Unrecognized request argument supplied: stream_options",
                        "type": "invalid_request_error",
                    }
                },
                status_code=400,
            )

        def chunks() -> Iterator[str]:
            for i, text in enumerate(["你", "好"]):
                chunk = {
                    "id": "c",
                    "object": "chat.completion.chunk",
                    "created": 0,
                    "model": "plain",
                    "choices": [
                        {
                            "index": 0,
                            "delta": {"content": text},
                            "finish_reason": "stop" if i == 1 else None,
                        }
                    ],
                }
                yield "data: " + json.dumps(chunk, ensure_ascii=False) + "\n\n"
            yield "data: [DONE]\n\n"

        return StreamingResponse(chunks(), media_type="text/event-stream")

    return app


@pytest.fixture()
def plain_server() -> Iterator[tuple[str, list[dict[str, Any]]]]:
    received: list[dict[str, Any]] = []
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    server = uvicorn.Server(
        uvicorn.Config(no_usage_app(received), log_level="warning", lifespan="off")
    )
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.01)
    try:
        yield f"http://127.0.0.1:{sock.getsockname()[1]}/v1", received
    finally:
        server.should_exit = True
        thread.join(timeout=5)


def test_streamed_calls_record_the_streams_usage(offline_server):
    client = ChatClient(offline_server.base_url, OFFLINE_API_KEY, "course-sim", max_retries=0)
    pieces: list[str] = []
    tracer = Tracer(client=client, redactor=Redactor(environment=False))
    result = Agent(
        StreamingClient(client, on_text=pieces.append), basic_registry(NOW), hooks=[tracer]
    ).run("17 乘以 9 等于多少？")
    assert result.answer and "".join(pieces).endswith(result.answer[-5:])
    models = [l for l in tracer.lines if l["event"] == "model_call"]
    assert len(models) == 2 and all(
        isinstance(l["input_tokens"], int) and l["input_tokens"] > 0 for l in models
    )
    assert all(l["gen_ai.provider.name"] == client.label for l in models)


def test_a_server_that_rejects_stream_options_is_asked_again_and_its_tokens_are_null(plain_server):
    url, received = plain_server
    client = ChatClient(url, "k", "plain", max_retries=0)
    tracer = Tracer(client=client, redactor=Redactor(environment=False))
    result = Agent(StreamingClient(client), basic_registry(NOW), hooks=[tracer]).run("你好")
    assert result.answer == "你好" and client.stream_usage is False
    assert ["stream_options" in body for body in received] == [True, False]
    model = next(l for l in tracer.lines if l["event"] == "model_call")
    assert (
        model["input_tokens"] is None and model["output_tokens"] is None and model["cost"] is None
    )
    Agent(StreamingClient(client), basic_registry(NOW), hooks=[tracer]).run("再来")
    assert ["stream_options" in body for body in received] == [
        True,
        False,
        False,
    ]  # not asked again
