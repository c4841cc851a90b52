"""ChatClient against real HTTP servers: the course's offline server and a tiny test-only app.

The offline server (fixture ``offline_server``) provides the normal replies and its named faults
(``course-sim:slow``, ``:rate_limit``, ``:server_error``). The tiny FastAPI app below stands in for
provider behaviour the simulator does not have: OpenAI's 401 body, ``retry-after-ms``, a server
without ``/v1``, Ollama's "does not support tools", DeepSeek's ``reasoning_content``.
"""

from __future__ import annotations

import itertools
import json
import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

import openai
import pytest
import uvicorn
from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, StreamingResponse

from handwritten_agent import llm
from handwritten_agent.config import ConfigError, load_settings
from handwritten_agent.llm import (
    AuthenticationFailed,
    BadRequest,
    ChatClient,
    ConnectionFailed,
    LLMError,
    ModelNotFound,
    RateLimited,
    RequestTimeout,
    ServerError,
    StreamEvent,
    connect,
    retry_after_seconds,
    retry_delay,
)
from handwritten_agent.messages import ChatResult

CALCULATOR = {
    "type": "function",
    "function": {
        "name": "calculator",
        "description": "计算数学表达式，例如 17 * 9",
        "parameters": {
            "type": "object",
            "properties": {
                "expression": {"type": "string", "description": "要计算的数学表达式，例如 17 * 9"}
            },
            "required": ["expression"],
        },
    },
}
SECRET = "sk-proj-TESTKEY0123456789abcdef"


def ask(text: str) -> list[dict[str, Any]]:
    return [{"role": "user", "content": text}]


def sim(server: Any, model: str = "course-sim", **kwargs: Any) -> ChatClient:
    kwargs.setdefault("timeout", 10)
    return ChatClient(server.base_url, "any", model, **kwargs)


def collect(events: Iterator[StreamEvent]) -> tuple[list[StreamEvent], ChatResult]:
    events = list(events)
    assert events[-1].kind == "done" and all(e.kind != "done" for e in events[:-1])
    return events[:-1], events[-1].result


def same_reply(a: ChatResult, b: ChatResult) -> None:
    assert (a.content, a.tool_calls, a.finish_reason, a.usage, a.model, a.reasoning_content) == (
        b.content,
        b.tool_calls,
        b.finish_reason,
        b.usage,
        b.model,
        b.reasoning_content,
    )


# ---------------------------------------------------------------------------------------------
# Against the offline server
# ---------------------------------------------------------------------------------------------


def test_plain_reply(offline_server):
    result = sim(offline_server).complete(ask("你好，你是谁？"))
    assert isinstance(result.content, str) and result.content.strip()
    assert result.tool_calls == [] and result.finish_reason == "stop"
    assert result.model == "course-sim"
    assert (
        result.usage is not None
        and result.usage.prompt_tokens > 0
        and result.usage.completion_tokens > 0
    )
    assert result.raw.choices[0].message.content == result.content  # the SDK object is kept


def test_tool_call_keeps_arguments_as_raw_text_and_round_trips(offline_server):
    client = sim(offline_server)
    messages = ask("17 乘以 9 等于多少？")
    first = client.complete(messages, tools=[CALCULATOR])
    assert first.finish_reason == "tool_calls"
    [call] = first.tool_calls
    assert call.name == "calculator" and call.id
    assert isinstance(call.arguments, str) and "17" in call.args["expression"]
    # Echo the assistant message (a ChatResult is accepted as is) and answer the call.
    messages += [first, {"role": "tool", "tool_call_id": call.id, "content": "153"}]
    final = client.complete(messages, tools=[CALCULATOR])
    assert final.tool_calls == [] and "153" in final.content


@pytest.mark.parametrize(
    "text, tools", [("你好，你是谁？", None), ("17 乘以 9 等于多少？", [CALCULATOR])]
)
def test_stream_gives_the_same_result_as_complete(offline_server, text, tools):
    client = sim(offline_server)
    complete = client.complete(ask(text), tools=tools)
    events, streamed = collect(client.stream(ask(text), tools=tools))
    same_reply(streamed, complete)
    assert "".join(e.text for e in events if e.kind == "content") == (complete.content or "")
    for index, call in enumerate(complete.tool_calls):
        pieces = [e for e in events if e.kind == "tool_call" and e.index == index]
        assert pieces[0].id == call.id and pieces[0].name == call.name
        assert "".join(e.text for e in pieces) == call.arguments
    assert len(events) > 2  # it really streamed in pieces


def test_models_lists_the_simulator(offline_server):
    assert "course-sim" in sim(offline_server).models()


def test_unknown_model_is_model_not_found_with_the_servers_models(offline_server):
    with pytest.raises(ModelNotFound) as info:
        sim(offline_server, "course-sim-typo").complete(ask("你好"))
    error = info.value
    assert error.status == 404 and "course-sim" in error.available
    assert "LLM_MODEL" in str(error) and "'course-sim-typo'" in str(error)
    assert isinstance(error.__cause__, openai.NotFoundError)


def test_refused_connection_names_llm_base_url():
    with socket.socket() as sock:  # a port that was free a moment ago and has no listener now
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    notices: list[llm.RetryNotice] = []
    client = ChatClient(
        f"http://127.0.0.1:{port}/v1",
        "any",
        "course-sim",
        timeout=5,
        max_retries=3,
        on_retry=notices.append,
    )
    with pytest.raises(ConnectionFailed) as info:
        client.complete(ask("hi"))
    assert notices == []  # a refused connection is not retried
    assert "LLM_BASE_URL" in str(info.value) and f"127.0.0.1:{port}" in str(info.value)
    assert "连接被拒绝" in str(info.value)  # the reason, in words, whatever the OS and Python say
    assert isinstance(info.value.__cause__, openai.APIConnectionError)


def test_timeout_names_llm_timeout(offline_server):
    notices: list[llm.RetryNotice] = []
    client = sim(offline_server, "course-sim:slow", timeout=0.5, on_retry=notices.append)
    with pytest.raises(RequestTimeout) as info:
        client.complete(ask("你好"))
    assert notices == []  # a timeout is reported at once, not retried
    assert "LLM_TIMEOUT" in str(info.value) and "0.5 秒" in str(info.value)
    assert isinstance(info.value.__cause__, openai.APITimeoutError)


def test_rate_limit_is_retried_and_recovers(offline_server):
    notices: list[llm.RetryNotice] = []
    client = sim(
        offline_server,
        "course-sim:rate_limit",
        max_retries=2,
        backoff=0.01,
        max_wait=0.05,
        on_retry=notices.append,
    )
    result = client.complete(ask("你好，你是谁？"))
    assert result.content
    assert [n.status for n in notices] == [429]
    assert notices[0].server_asked is not None  # the simulator sends Retry-After …
    assert notices[0].wait == min(notices[0].server_asked, 0.05)  # … and it is honoured, capped


def test_rate_limit_without_retries_is_rate_limited(offline_server):
    with pytest.raises(RateLimited) as info:
        sim(offline_server, "course-sim:rate_limit", max_retries=0).complete(ask("你好"))
    assert info.value.status == 429 and "LLM_MAX_RETRIES" in str(info.value)
    assert isinstance(info.value.__cause__, openai.RateLimitError)


def test_server_error_after_bounded_retries(offline_server):
    notices: list[llm.RetryNotice] = []
    client = sim(
        offline_server,
        "course-sim:server_error",
        max_retries=2,
        backoff=0.01,
        max_wait=0.02,
        on_retry=notices.append,
    )
    with pytest.raises(ServerError) as info:
        client.complete(ask("你好"))
    assert [n.attempt for n in notices] == [1, 2]
    assert info.value.status == 500 and "共尝试 3 次" in str(info.value)
    assert isinstance(info.value.__cause__, openai.InternalServerError)


def test_stream_errors_are_translated_too(offline_server):
    with pytest.raises(ModelNotFound):
        list(sim(offline_server, "course-sim-typo").stream(ask("你好")))


def test_bad_request_carries_the_servers_message(offline_server):
    with pytest.raises(BadRequest) as info:
        sim(offline_server).complete([{"role": "tool", "tool_call_id": "call_x", "content": "153"}])
    assert info.value.status == 400 and "tool" in info.value.server_message
    assert info.value.server_message.rstrip(". ") in str(
        info.value
    )  # quoted whole, inside our sentence


# ---------------------------------------------------------------------------------------------
# Pure retry arithmetic
# ---------------------------------------------------------------------------------------------


def test_retry_delay_backs_off_exponentially_and_caps():
    assert [retry_delay(n, backoff=0.5, max_wait=3) for n in range(5)] == [0.5, 1.0, 2.0, 3, 3]


def test_retry_after_wins_and_is_capped():
    assert retry_delay(0, {"Retry-After": "2"}, backoff=0.5, max_wait=10) == 2.0
    assert retry_delay(3, {"retry-after": "3600"}, backoff=0.5, max_wait=10) == 10
    assert retry_delay(0, {"retry-after-ms": "250", "retry-after": "9"}) == 0.25


def test_retry_after_parsing():
    assert retry_after_seconds(None) is None
    assert retry_after_seconds({"retry-after": "soon"}) is None
    assert retry_after_seconds({"retry-after": "-3"}) is None
    future = time.strftime("%a, %d %b %Y %H:%M:%S GMT", time.gmtime(time.time() + 30))
    assert 25 < retry_after_seconds({"Retry-After": future}) <= 30


# ---------------------------------------------------------------------------------------------
# A tiny provider stand-in for behaviour the simulator does not have
# ---------------------------------------------------------------------------------------------


def completion_body(message: dict[str, Any], finish_reason: str = "stop") -> dict[str, Any]:
    return {
        "id": "chatcmpl-test",
        "object": "chat.completion",
        "created": 0,
        "model": "tiny",
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", **message},
                "finish_reason": finish_reason,
            }
        ],
        "usage": {"prompt_tokens": 5, "completion_tokens": 7, "total_tokens": 12},
    }


def error(
    status: int, message: str, code: str | None = None, headers: dict[str, str] | None = None
) -> JSONResponse:
    return JSONResponse(
        {
            "error": {
                "message": message,
                "type": "invalid_request_error",
                "param": None,
                "code": code,
            }
        },
        status_code=status,
        headers=headers,
    )


def tiny_app() -> FastAPI:
    app = FastAPI()
    counters: dict[str, itertools.count] = {}

    @app.post("/auth/v1/chat/completions")
    async def auth(request: Request) -> JSONResponse:
        key = request.headers.get("authorization", "").removeprefix("Bearer ")
        return error(
            401,
            f"Incorrect API key provided: {key}. You can find your API key at "
            "https://platform.openai.com/account/api-keys.",
            "invalid_api_key",
        )

    @app.post("/flaky/{token}/v1/chat/completions")
    async def flaky(token: str) -> JSONResponse:
        if next(counters.setdefault(token, itertools.count())) < 2:
            return error(
                429,
                "Rate limit reached for requests",
                "rate_limit_exceeded",
                {"retry-after-ms": "40"},
            )
        return JSONResponse(completion_body({"content": "recovered"}))

    @app.post("/busy/v1/chat/completions")
    async def busy() -> JSONResponse:
        return error(503, "The engine is currently overloaded", None, {"retry-after": "3600"})

    @app.post("/ollama/v1/chat/completions")
    async def ollama() -> JSONResponse:
        return error(400, "registry.ollama.ai/library/gemma:2b does not support tools")

    @app.post("/reasoner/v1/chat/completions")
    async def reasoner(request: Request) -> Any:
        body = await request.json()
        if not body.get("stream"):
            return JSONResponse(
                completion_body({"content": "153", "reasoning_content": "17*9 = 153"})
            )

        def chunks() -> Iterator[str]:
            deltas = [
                {"role": "assistant", "content": None, "reasoning_content": ""},
                {"reasoning_content": "17*9"},
                {"reasoning_content": " = 153"},
                {"content": "153"},
            ]
            for i, delta in enumerate(deltas):
                finish = "stop" if i == len(deltas) - 1 else None
                yield (
                    "data: "
                    + json.dumps(
                        {
                            "id": "c",
                            "object": "chat.completion.chunk",
                            "created": 0,
                            "model": "tiny",
                            "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
                        }
                    )
                    + "\n\n"
                )
            yield (
                "data: "
                + json.dumps(
                    {
                        "id": "c",
                        "object": "chat.completion.chunk",
                        "created": 0,
                        "model": "tiny",
                        "choices": [],
                        "usage": {"prompt_tokens": 5, "completion_tokens": 7, "total_tokens": 12},
                    }
                )
                + "\n\n"
            )
            yield "data: [DONE]\n\n"

        return StreamingResponse(chunks(), media_type="text/event-stream")

    return app  # every other path: FastAPI's plain 404, like a base URL without /v1


@pytest.fixture(scope="module")
def tiny() -> Iterator[str]:
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(tiny_app(), log_level="warning", lifespan="off"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.02)
    assert server.started, "the tiny test server did not start"
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(5)
        sock.close()


def test_401_names_llm_api_key_and_hides_the_key(tiny):
    with pytest.raises(AuthenticationFailed) as info:
        ChatClient(f"{tiny}/auth/v1", SECRET, "gpt-4o-mini").complete(ask("hi"))
    error = info.value
    assert error.status == 401 and "Incorrect API key" in error.server_message
    assert "LLM_API_KEY" in str(error)
    assert (
        SECRET not in str(error) and SECRET not in error.server_message
    )  # the server echoed it; we do not
    assert isinstance(error.__cause__, openai.AuthenticationError)


def test_retry_after_ms_is_honoured(tiny):
    waits: list[float] = []
    client = ChatClient(
        f"{tiny}/flaky/a/v1", "k", "m", max_retries=3, backoff=5, sleep=waits.append
    )
    assert client.complete(ask("hi")).content == "recovered"
    assert waits == [0.04, 0.04]  # what the server asked, not the 5 s backoff


def test_server_wait_is_capped_and_attempts_bounded(tiny):
    waits: list[float] = []
    client = ChatClient(
        f"{tiny}/busy/v1", "k", "m", max_retries=2, max_wait=1.5, sleep=waits.append
    )
    with pytest.raises(ServerError) as info:
        client.complete(ask("hi"))
    assert waits == [1.5, 1.5] and info.value.status == 503
    assert "overloaded" in str(info.value)


def test_rate_limited_after_all_retries(tiny):
    waits: list[float] = []
    client = ChatClient(f"{tiny}/flaky/b/v1", "k", "m", max_retries=1, sleep=waits.append)
    with pytest.raises(RateLimited) as info:
        client.complete(ask("hi"))
    assert len(waits) == 1 and "共尝试 2 次" in str(info.value)


def test_404_without_model_list_points_at_the_base_url(tiny):
    with pytest.raises(ModelNotFound) as info:
        ChatClient(tiny, "k", "m").complete(ask("hi"))  # base URL missing /v1
    assert "LLM_BASE_URL" in str(info.value) and info.value.available == []


def test_model_without_tool_support_says_to_change_llm_model(tiny):
    with pytest.raises(BadRequest) as info:
        ChatClient(f"{tiny}/ollama/v1", None, "gemma:2b").complete(ask("17*9?"), tools=[CALCULATOR])
    assert "LLM_MODEL" in str(info.value) and "does not support tools" in str(info.value)


def test_reasoning_content_is_captured_in_complete_and_stream(tiny):
    client = ChatClient(f"{tiny}/reasoner/v1", "k", "deepseek-reasoner")
    complete = client.complete(ask("17*9?"))
    assert complete.reasoning_content == "17*9 = 153" and complete.content == "153"
    assert "reasoning_content" not in complete.to_message()
    events, streamed = collect(client.stream(ask("17*9?")))
    assert [e.text for e in events if e.kind == "reasoning"] == ["17*9", " = 153"]
    same_reply(streamed, complete)


def test_errors_form_one_hierarchy():
    for cls in (
        AuthenticationFailed,
        ModelNotFound,
        ConnectionFailed,
        RequestTimeout,
        RateLimited,
        ServerError,
        BadRequest,
    ):
        assert issubclass(cls, LLMError)


# ---------------------------------------------------------------------------------------------
# connect() and settings
# ---------------------------------------------------------------------------------------------


@pytest.fixture
def deepseek_dotenv(tmp_path, monkeypatch):
    for name in (
        "LLM_PROVIDER",
        "LLM_BASE_URL",
        "LLM_API_KEY",
        "LLM_MODEL",
        "LLM_TIMEOUT",
        "LLM_MAX_RETRIES",
    ):
        monkeypatch.delenv(name, raising=False)
    (tmp_path / ".env").write_text(
        f"LLM_PROVIDER=deepseek\nLLM_API_KEY={SECRET}\nLLM_TIMEOUT=7\n", encoding="utf-8"
    )
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.fixture(scope="module", autouse=True)
def stop_shared_servers():
    yield
    llm.stop_shared_servers()


def test_connect_offline_ignores_a_provider_in_dotenv(deepseek_dotenv, capsys):
    client = connect("offline")
    banner = capsys.readouterr().out
    assert client.base_url.startswith("http://127.0.0.1:") and client.model == "course-sim"
    assert client.timeout == 7.0  # timeout/retries still come from .env
    assert banner.count("\n") == 1 and "offline" in banner and client.base_url in banner
    assert SECRET not in banner
    assert client.complete(ask("你好")).content
    again = connect("offline", model="course-sim:fenced", quiet=True)
    assert (
        again.base_url == client.base_url == llm.shared_server("offline").base_url
    )  # one shared server
    assert again.model == "course-sim:fenced"
    assert capsys.readouterr().out == ""


def test_connect_follows_dotenv_for_remote_without_calling_it(deepseek_dotenv, capsys):
    client = connect()
    assert (client.base_url, client.model) == ("https://api.deepseek.com/v1", "deepseek-chat")
    assert SECRET not in repr(client) and SECRET not in capsys.readouterr().out


def test_connect_offline_from_environment(deepseek_dotenv, monkeypatch, capsys):
    monkeypatch.setenv("LLM_PROVIDER", "offline")  # what `make test` does
    assert connect().model == "course-sim"
    assert "offline" in capsys.readouterr().out


def test_connect_remote_needs_a_server(tmp_path, monkeypatch):
    for name in ("LLM_PROVIDER", "LLM_BASE_URL", "LLM_API_KEY", "LLM_MODEL"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ConfigError) as info:
        connect("remote")
    assert info.value.variable == "LLM_BASE_URL"
    with pytest.raises(ValueError):
        connect("cloud")


def test_from_settings_needs_a_running_server_for_offline():
    with pytest.raises(ValueError, match="connect"):
        ChatClient.from_settings(load_settings({}, dotenv=False))
