"""The OpenAI-compatible server, driven by the official ``openai`` SDK over real HTTP.

Most tests use ``EchoBackend``, a tiny deterministic backend defined here, so they check the HTTP
layer alone (validation, error bodies, streaming, stop sequences, concurrency). ``TickingBackend``
generates its reply piece by piece (a ``StreamingBackend``, like the local model) to test streaming
while a reply is generated and stopping when the client goes away. The tests at the end go through
the real course simulator (the ``offline_server`` fixture) for its faults.
"""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import threading
import time
from typing import Any

import httpx
import openai
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from handwritten_agent.course.offline import BackendError, ChatRequest, Completion, serve
from handwritten_agent.course.offline.backend import ReplyDelta
from handwritten_agent.course.offline.server import split_pieces

WEATHER = {
    "type": "function",
    "function": {
        "name": "get_weather",
        "description": "Weather for a city",
        "parameters": {"type": "object", "properties": {"city": {"type": "string"}}},
    },
}
CLOCK = {
    "type": "function",
    "function": {
        "name": "get_time",
        "description": "Current time",
        "parameters": {"type": "object", "properties": {}},
    },
}


class EchoBackend:
    """Deterministic stand-in backend; the model-name options choose its behaviour.

    ``echo`` → "echo: <last message>"; ``echo:tools`` → one call per offered tool; ``echo:react`` →
    a text ReAct step with an "Observation:" line; ``echo:crash`` → an unexpected exception;
    ``echo:block`` → waits until ``release`` is set (bounded), to test concurrency.
    """

    name = "echo test backend"

    def __init__(self) -> None:
        self.release = threading.Event()
        self.requests: list[ChatRequest] = []

    def list_models(self) -> list[str]:
        return ["echo"]

    def complete(self, request: ChatRequest) -> Completion:
        self.requests.append(request)
        if request.base_model != "echo":
            raise BackendError(
                404,
                f"The model `{request.model}` does not exist",
                param="model",
                code="model_not_found",
            )
        if "crash" in request.options:
            raise RuntimeError("the backend broke")
        if "block" in request.options:
            self.release.wait(5)
            return Completion(content="finally", prompt_tokens=1, completion_tokens=1)
        if "tools" in request.options and request.tools:
            calls = [
                {
                    "id": f"call_{i}",
                    "type": "function",
                    "function": {
                        "name": tool["function"]["name"],
                        "arguments": json.dumps({"city": "北京", "n": i}, ensure_ascii=False),
                    },
                }
                for i, tool in enumerate(request.tools)
            ]
            return Completion(
                content=None,
                tool_calls=calls,
                finish_reason="tool_calls",
                prompt_tokens=20,
                completion_tokens=12,
            )
        if "react" in request.options:
            return Completion(
                content=(
                    "Thought: need weather\nAction: get_weather\nObservation: sunny\nFinal Answer:"
                    " sunny"
                ),
                prompt_tokens=10,
                completion_tokens=15,
            )
        last = request.messages[-1].get("content")
        return Completion(content=f"echo: {last}", prompt_tokens=10, completion_tokens=5)


@pytest.fixture(scope="module")
def echo() -> EchoBackend:
    return EchoBackend()


@pytest.fixture(scope="module")
def echo_server(echo):
    with serve(backend=echo) as server:
        yield server


@pytest.fixture
def client(echo_server) -> openai.OpenAI:
    return openai.OpenAI(base_url=echo_server.base_url, api_key="test", max_retries=0)


USER = [{"role": "user", "content": "你好 world"}]


# --- models ---------------------------------------------------------------------------------------


def test_models_list_and_retrieve(client):
    models = client.models.list()
    assert [(m.id, m.object, m.owned_by, m.created) for m in models.data] == [
        ("echo", "model", "handwritten-agent", 0)
    ]
    assert client.models.retrieve("echo").id == "echo"
    with pytest.raises(openai.NotFoundError) as info:
        client.models.retrieve("gpt-4o")
    assert info.value.body["code"] == "model_not_found"


def test_wrong_path_gets_api_error_body(echo_server):
    root = echo_server.base_url.removesuffix("/v1")
    response = httpx.post(root + "/chat/completions", json={"model": "echo", "messages": USER})
    assert response.status_code == 404
    assert response.json() == {
        "error": {
            "message": "Invalid URL (POST /chat/completions)",
            "type": "invalid_request_error",
            "param": None,
            "code": None,
        }
    }


# --- non-streaming --------------------------------------------------------------------------------


def test_non_streaming_reply_has_the_openai_shape(echo_server, client):
    body = {"model": "echo", "messages": USER}
    raw = httpx.post(echo_server.base_url + "/chat/completions", json=body).json()
    assert set(raw) == {
        "id",
        "object",
        "created",
        "model",
        "choices",
        "usage",
        "system_fingerprint",
    }
    assert raw["object"] == "chat.completion" and raw["model"] == "echo"
    assert raw["id"].startswith("chatcmpl-") and isinstance(raw["created"], int)
    assert raw["choices"] == [
        {
            "index": 0,
            "message": {"role": "assistant", "content": "echo: 你好 world", "refusal": None},
            "logprobs": None,
            "finish_reason": "stop",
        }
    ]
    assert raw["usage"] == {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}

    again = httpx.post(echo_server.base_url + "/chat/completions", json=body).json()
    other = httpx.post(
        echo_server.base_url + "/chat/completions", json={**body, "temperature": 0}
    ).json()
    assert again["id"] == raw["id"] != other["id"]  # the id is a hash of the request body

    reply = client.chat.completions.create(model="echo", messages=USER)
    assert reply.choices[0].message.content == "echo: 你好 world"
    assert reply.choices[0].message.tool_calls is None


def test_tool_calls_reply(client):
    reply = client.chat.completions.create(
        model="echo:tools", messages=USER, tools=[WEATHER, CLOCK]
    )
    choice = reply.choices[0]
    assert choice.finish_reason == "tool_calls" and choice.message.content is None
    assert [
        (c.id, c.function.name, json.loads(c.function.arguments)) for c in choice.message.tool_calls
    ] == [
        ("call_0", "get_weather", {"city": "北京", "n": 0}),
        ("call_1", "get_time", {"city": "北京", "n": 1}),
    ]


def test_request_fields_reach_the_backend(client, echo):
    client.chat.completions.create(
        model="echo:a,b",
        messages=USER,
        stop="END",
        max_tokens=7,
        temperature=0.5,
        parallel_tool_calls=False,
        tools=[WEATHER],
        tool_choice="auto",
        extra_body={"seed": 42, "custom": {"x": 1}},
        extra_headers={"X-Course-Fault": "c"},
    )
    request = echo.requests[-1]
    assert (request.base_model, request.options) == (
        "echo",
        frozenset({"a", "b", "c"}),
    )  # not the simulator: not validated
    assert (request.stop, request.max_tokens, request.temperature) == (["END"], 7, 0.5)
    assert (
        request.parallel_tool_calls is False
        and request.tool_choice == "auto"
        and request.stream is False
    )
    assert request.extra == {"seed": 42, "custom": {"x": 1}}


# --- streaming ------------------------------------------------------------------------------------


def _streamed_message(client: openai.OpenAI, **kwargs: Any):
    with client.chat.completions.stream(**kwargs) as stream:
        return stream.get_final_completion().choices[0]


@pytest.mark.parametrize(
    "model, tools", [("echo", None), ("echo:tools", [WEATHER, CLOCK]), ("echo:react", None)]
)
def test_stream_assembles_to_the_non_streaming_message(client, model, tools):
    extra = {"tools": tools} if tools else {}
    plain = client.chat.completions.create(model=model, messages=USER, **extra).choices[0]
    streamed = _streamed_message(client, model=model, messages=USER, **extra)
    assert streamed.finish_reason == plain.finish_reason
    assert streamed.message.content == plain.message.content
    as_dicts = lambda calls: [
        (c.id, c.type, c.function.name, c.function.arguments) for c in calls or []
    ]  # noqa: E731
    assert as_dicts(streamed.message.tool_calls) == as_dicts(plain.message.tool_calls)


def _raw_chunks(base_url: str, body: dict[str, Any]) -> list[dict[str, Any]]:
    with httpx.stream("POST", base_url + "/chat/completions", json=body, timeout=10) as response:
        assert response.status_code == 200
        assert response.headers["content-type"].startswith("text/event-stream")
        lines = [line for line in response.iter_lines() if line]
    assert all(line.startswith("data: ") for line in lines)
    assert lines[-1] == "data: [DONE]"
    return [json.loads(line.removeprefix("data: ")) for line in lines[:-1]]


def test_stream_chunks_follow_the_openai_format(echo_server):
    chunks = _raw_chunks(echo_server.base_url, {"model": "echo", "messages": USER, "stream": True})
    assert all(
        c["object"] == "chat.completion.chunk" and c["id"] == chunks[0]["id"] for c in chunks
    )
    assert chunks[0]["choices"][0]["delta"] == {"role": "assistant", "content": "", "refusal": None}
    pieces = [c["choices"][0]["delta"]["content"] for c in chunks[1:-1]]
    assert len(pieces) > 3 and "".join(pieces) == "echo: 你好 world"
    assert chunks[-1]["choices"][0] == {
        "index": 0,
        "delta": {},
        "logprobs": None,
        "finish_reason": "stop",
    }
    assert "usage" not in chunks[-1]


def test_streamed_tool_calls_and_usage_chunk(echo_server):
    body = {
        "model": "echo:tools",
        "messages": USER,
        "tools": [WEATHER, CLOCK],
        "stream": True,
        "stream_options": {"include_usage": True},
    }
    chunks = _raw_chunks(echo_server.base_url, body)
    assert chunks[0]["choices"][0]["delta"]["content"] is None  # a tool-call-only reply has no text
    deltas = [
        c["choices"][0]["delta"]["tool_calls"][0]
        for c in chunks
        if c["choices"] and "tool_calls" in c["choices"][0]["delta"]
    ]
    heads = [d for d in deltas if "id" in d]
    assert heads == [
        {
            "index": 0,
            "id": "call_0",
            "type": "function",
            "function": {"name": "get_weather", "arguments": ""},
        },
        {
            "index": 1,
            "id": "call_1",
            "type": "function",
            "function": {"name": "get_time", "arguments": ""},
        },
    ]
    fragments = [d for d in deltas if "id" not in d]
    assert all(
        set(d) == {"index", "function"} and set(d["function"]) == {"arguments"} for d in fragments
    )
    for index in (0, 1):
        arguments = "".join(d["function"]["arguments"] for d in fragments if d["index"] == index)
        assert json.loads(arguments) == {"city": "北京", "n": index}
    assert chunks[-2]["choices"][0]["finish_reason"] == "tool_calls" and chunks[-2]["usage"] is None
    assert chunks[-1]["choices"] == []
    assert chunks[-1]["usage"] == {"prompt_tokens": 20, "completion_tokens": 12, "total_tokens": 32}


def test_sdk_stream_with_usage(client):
    stream = client.chat.completions.create(
        model="echo", messages=USER, stream=True, stream_options={"include_usage": True}
    )
    chunks = list(stream)
    text = "".join(c.choices[0].delta.content or "" for c in chunks if c.choices)
    assert text == "echo: 你好 world"
    assert chunks[-1].usage.total_tokens == 15


@settings(max_examples=50)
@given(st.text())
def test_stream_pieces_join_back_exactly(text):
    pieces = split_pieces(text)
    assert "".join(pieces) == text
    assert all(pieces)


# --- stop sequences -------------------------------------------------------------------------------


def test_stop_sequences_cut_the_content(client):
    reply = client.chat.completions.create(model="echo:react", messages=USER, stop="Observation:")
    assert reply.choices[0].message.content == "Thought: need weather\nAction: get_weather\n"
    assert reply.choices[0].finish_reason == "stop"
    reply = client.chat.completions.create(
        model="echo:react", messages=USER, stop=["Final", "Action:"]
    )
    assert reply.choices[0].message.content == "Thought: need weather\n"  # the earliest match wins
    streamed = _streamed_message(client, model="echo:react", messages=USER, stop=["Observation:"])
    assert streamed.message.content == "Thought: need weather\nAction: get_weather\n"
    untouched = client.chat.completions.create(model="echo:react", messages=USER, stop=["nowhere"])
    assert untouched.choices[0].message.content.endswith("Final Answer: sunny")


# --- the reply's token limit ----------------------------------------------------------------------


def test_max_tokens_cuts_the_reply_and_says_length(client):
    full = client.chat.completions.create(model="echo:react", messages=USER)
    cut = client.chat.completions.create(model="echo:react", messages=USER, max_tokens=4)
    assert cut.choices[0].finish_reason == "length" and full.choices[0].finish_reason == "stop"
    text = cut.choices[0].message.content
    assert (
        text
        and full.choices[0].message.content.startswith(text)
        and len(text) < len(full.choices[0].message.content)
    )
    assert cut.usage.completion_tokens == 4
    newer = client.chat.completions.create(
        model="echo:react", messages=USER, max_completion_tokens=4
    )
    assert newer.choices[0].message.content == text and newer.choices[0].finish_reason == "length"
    chunks = list(
        client.chat.completions.create(model="echo:react", messages=USER, max_tokens=4, stream=True)
    )
    streamed = "".join(c.choices[0].delta.content or "" for c in chunks if c.choices)
    assert (
        streamed == text
        and [c.choices[0].finish_reason for c in chunks if c.choices][-1] == "length"
    )
    with pytest.raises(
        openai.LengthFinishReasonError
    ):  # the SDK's stream helper refuses to hand over a cut-off reply
        _streamed_message(client, model="echo:react", messages=USER, max_tokens=4)
    roomy = client.chat.completions.create(model="echo:react", messages=USER, max_tokens=4000)
    assert (
        roomy.choices[0].message.content == full.choices[0].message.content
        and roomy.choices[0].finish_reason == "stop"
    )


def test_a_tool_call_cut_by_max_tokens_has_unfinished_arguments(client):
    whole = client.chat.completions.create(model="echo:tools", messages=USER, tools=[WEATHER])
    arguments = whole.choices[0].message.tool_calls[0].function.arguments
    cut = client.chat.completions.create(
        model="echo:tools", messages=USER, tools=[WEATHER], max_tokens=5
    )
    assert cut.choices[0].finish_reason == "length"
    partial = cut.choices[0].message.tool_calls[0].function.arguments
    assert arguments.startswith(partial) and partial != arguments
    with pytest.raises(ValueError):
        json.loads(partial)


@pytest.mark.parametrize(
    "body, fragment",
    [
        ({"max_tokens": 5, "max_completion_tokens": 6}, "只传一个"),
        ({"max_completion_tokens": 0}, "至少是 1"),
        ({"max_tokens": -3}, "至少是 1"),
    ],
)
def test_contradictory_or_empty_reply_limits_are_a_400(echo_server, body, fragment):
    answer = httpx.post(
        f"{echo_server.base_url}/chat/completions",
        json={"model": "echo", "messages": USER, **body},
        timeout=10,
    )
    assert answer.status_code == 400 and fragment in answer.json()["error"]["message"]


# --- 400 validation -------------------------------------------------------------------------------

CALL = {"id": "call_a", "type": "function", "function": {"name": "get_weather", "arguments": "{}"}}
CALL_B = {
    "id": "call_b",
    "type": "function",
    "function": {"name": "get_weather", "arguments": "{}"},
}
ASSISTANT_CALLS = {"role": "assistant", "content": None, "tool_calls": [CALL, CALL_B]}

BAD_REQUESTS = {
    "empty messages": ({"messages": []}, "messages", "empty array"),
    "message not an object": ({"messages": ["hello"]}, "messages[0]", "expected an object"),
    "unknown role": (
        {"messages": [{"role": "human", "content": "hi"}]},
        "messages[0].role",
        "Invalid value: 'human'",
    ),
    "missing role": (
        {"messages": [{"content": "hi"}]},
        "messages[0].role",
        "Missing required parameter",
    ),
    "missing content": (
        {"messages": [{"role": "user"}]},
        "messages[0].content",
        "Missing required parameter",
    ),
    "tool without call": (
        {"messages": USER + [{"role": "tool", "tool_call_id": "call_a", "content": "1"}]},
        "messages.[1].role",
        "must be a response to a preceeding message with 'tool_calls'",
    ),
    "tool answers unknown id": (
        {
            "messages": (
                USER
                + [
                    ASSISTANT_CALLS,
                    {"role": "tool", "tool_call_id": "call_a", "content": "1"},
                    {"role": "tool", "tool_call_id": "call_x", "content": "1"},
                ]
            )
        },
        None,  # the real API names no param for an id that is none of the calls
        "'tool_call_id' of 'call_x' not found in 'tool_calls' of previous message.",
    ),
    "call left unanswered": (
        {
            "messages": (
                USER
                + [
                    ASSISTANT_CALLS,
                    {"role": "tool", "tool_call_id": "call_a", "content": "1"},
                    {"role": "user", "content": "and?"},
                ]
            )
        },
        "messages.[1].role",
        "did not have response messages: call_b",
    ),
    "trailing calls unanswered": (
        {"messages": USER + [ASSISTANT_CALLS]},
        "messages.[1].role",
        "did not have response messages: call_a, call_b",
    ),
    "arguments echoed as a dict": (
        {
            "messages": (
                USER
                + [
                    {
                        "role": "assistant",
                        "tool_calls": [
                            {
                                **CALL,
                                "function": {"name": "get_weather", "arguments": {"city": "x"}},
                            }
                        ],
                    },
                    {"role": "tool", "tool_call_id": "call_a", "content": "1"},
                ]
            )
        },
        "messages[1].tool_calls[0].function.arguments",
        "expected a string",
    ),
    "empty tool_calls echoed": (
        {"messages": USER + [{"role": "assistant", "content": "ok", "tool_calls": []}]},
        "messages[1].tool_calls",
        "empty array",
    ),
    "echoed call without type": (
        {
            "messages": (
                USER
                + [
                    {
                        "role": "assistant",
                        "tool_calls": [{"id": "call_a", "function": CALL["function"]}],
                    },
                    {"role": "tool", "tool_call_id": "call_a", "content": "1"},
                ]
            )
        },
        "messages[1].tool_calls[0].type",
        "Missing required parameter",
    ),
    "tool type": (
        {"messages": USER, "tools": [{"type": "retrieval", "function": {"name": "x"}}]},
        "tools[0].type",
        "'function'",
    ),
    "tool name with space": (
        {"messages": USER, "tools": [{"type": "function", "function": {"name": "get weather"}}]},
        "tools[0].function.name",
        "does not match pattern",
    ),
    "tool name too long": (
        {"messages": USER, "tools": [{"type": "function", "function": {"name": "x" * 65}}]},
        "tools[0].function.name",
        "does not match pattern",
    ),
    "tool without name": (
        {"messages": USER, "tools": [{"type": "function", "function": {}}]},
        "tools[0].function.name",
        "Missing",
    ),
    "bad tool_choice": (
        {"messages": USER, "tools": [WEATHER], "tool_choice": "always"},
        "tool_choice",
        "'none', 'auto', and 'required'",
    ),
    "tool_choice names a missing tool": (
        {
            "messages": USER,
            "tools": [WEATHER],
            "tool_choice": {"type": "function", "function": {"name": "get_time"}},
        },
        "tool_choice",
        "get_time",
    ),
    "tool_choice without tools": (
        {"messages": USER, "tool_choice": "required"},
        "tool_choice",
        "only allowed when 'tools'",
    ),
    "n > 1": ({"messages": USER, "n": 2}, "n", "n 只能是 1"),
    "stop not strings": ({"messages": USER, "stop": [1, 2]}, "stop", "array of strings"),
}


@pytest.mark.parametrize("name", list(BAD_REQUESTS))
def test_bad_requests_get_the_api_400(client, name):
    fields, param, message = BAD_REQUESTS[name]
    with pytest.raises(openai.BadRequestError) as info:
        client.chat.completions.create(model="echo", **fields)
    error = info.value.body
    assert info.value.status_code == 400
    assert (
        set(error) == {"message", "type", "param", "code"}
        and error["type"] == "invalid_request_error"
    )
    assert error["param"] == param
    assert message in error["message"]


def test_missing_model_and_messages_and_invalid_json(echo_server):
    url = echo_server.base_url + "/chat/completions"
    cases = [
        (b'{"model": "echo", "messages": [', "could not parse the JSON body"),
        (b"[1, 2]", "must be a JSON object"),
        (json.dumps({"messages": USER}).encode(), "you must provide a model parameter"),
        (json.dumps({"model": "echo"}).encode(), "Missing required parameter: 'messages'"),
    ]
    for content, message in cases:
        response = httpx.post(url, content=content, headers={"Content-Type": "application/json"})
        assert response.status_code == 400, content
        error = response.json()["error"]
        assert message in error["message"] and error["type"] == "invalid_request_error"


def test_valid_tool_rounds_pass_including_duplicate_ids(client, echo):
    ok = USER + [
        ASSISTANT_CALLS,
        {"role": "tool", "tool_call_id": "call_b", "content": "2"},
        {"role": "tool", "tool_call_id": "call_a", "content": "1"},
    ]
    assert (
        client.chat.completions.create(model="echo", messages=ok).choices[0].message.content
        == "echo: 1"
    )
    # Some servers give every call the same id; each distinct id needs one answer, and a later turn
    # may reuse it.
    same = {
        "id": "call_0",
        "type": "function",
        "function": {"name": "get_weather", "arguments": "{}"},
    }
    dup = USER + [
        {"role": "assistant", "content": "", "tool_calls": [same, same]},
        {"role": "tool", "tool_call_id": "call_0", "content": "1"},
        {"role": "tool", "tool_call_id": "call_0", "content": "2"},
        {"role": "assistant", "content": None, "tool_calls": [same]},
        {"role": "tool", "tool_call_id": "call_0", "content": "3"},
    ]
    assert (
        client.chat.completions.create(model="echo", messages=dup).choices[0].message.content
        == "echo: 3"
    )
    developer = [
        {"role": "developer", "content": "be brief"},
        {"role": "system", "content": "s"},
    ] + USER
    assert (
        client.chat.completions.create(model="echo", messages=developer).choices[0].message.content
        == "echo: 你好 world"
    )


# --- backend errors -------------------------------------------------------------------------------


def test_backend_errors_keep_status_and_body(client):
    with pytest.raises(openai.NotFoundError) as info:
        client.chat.completions.create(model="gpt-4o", messages=USER)
    assert info.value.body == {
        "message": "The model `gpt-4o` does not exist",
        "type": "invalid_request_error",
        "param": "model",
        "code": "model_not_found",
    }


def test_unexpected_exception_is_a_500_and_the_server_lives_on(client, caplog):
    with pytest.raises(openai.InternalServerError) as info:
        client.chat.completions.create(model="echo:crash", messages=USER, stream=True)
    assert info.value.body["type"] == "server_error"
    assert "RuntimeError: the backend broke" in info.value.body["message"]
    assert any("backend failed" in record.message and record.exc_info for record in caplog.records)
    assert (
        client.chat.completions.create(model="echo", messages=USER).choices[0].message.content
        == "echo: 你好 world"
    )


def test_a_slow_request_does_not_block_a_fast_one(client, echo):
    echo.release.clear()
    result: dict[str, Any] = {}

    def slow() -> None:
        result["slow"] = (
            client.chat.completions.create(model="echo:block", messages=USER)
            .choices[0]
            .message.content
        )

    thread = threading.Thread(target=slow)
    thread.start()
    try:
        deadline = time.monotonic() + 5
        while not any("block" in r.options for r in echo.requests) and time.monotonic() < deadline:
            time.sleep(0.01)  # until the blocking request is inside the backend
        fast = client.chat.completions.create(model="echo", messages=USER, timeout=3)
        assert fast.choices[0].message.content == "echo: 你好 world"
        assert thread.is_alive() and "slow" not in result  # the slow one is still waiting
    finally:
        echo.release.set()
        thread.join(5)
    assert result["slow"] == "finally"


# --- starting and stopping ------------------------------------------------------------------------


def test_serve_reports_a_busy_port_and_stop_is_idempotent(echo_server, echo):
    with pytest.raises(OSError, match="换一个端口"):
        serve(port=echo_server.port, backend=echo)
    server = serve(backend=echo)
    assert server.base_url == f"http://127.0.0.1:{server.port}/v1"
    server.stop()
    server.stop()
    with pytest.raises(httpx.ConnectError):
        httpx.get(server.base_url + "/models", timeout=2)
    with pytest.raises(ValueError, match="不认识的后端"):
        serve(backend="cloud")


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_cli_serve_answers_the_sdk():
    port = _free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "handwritten_agent", "serve", "--port", str(port)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        client = openai.OpenAI(
            base_url=f"http://127.0.0.1:{port}/v1", api_key="any", max_retries=0, timeout=5
        )
        deadline = time.monotonic() + 120
        while True:
            try:
                models = client.models.list()
                break
            except openai.APIConnectionError:
                assert process.poll() is None, process.stderr.read()
                assert time.monotonic() < deadline, (
                    "the server did not start within 120 s (a generous bound: a loaded machine"
                    " starts Python slowly)"
                )
                time.sleep(0.1)
        assert "course-sim" in [m.id for m in models.data]
        reply = client.chat.completions.create(
            model="course-sim", messages=[{"role": "user", "content": "你好"}]
        )
        assert reply.choices[0].message.content
    finally:
        process.terminate()
        out, err = process.communicate(timeout=10)
    assert process.returncode == 0, err
    assert f"http://127.0.0.1:{port}/v1" in out and out.count("不是 LLM") == 1
    assert (
        f"export LLM_BASE_URL=http://127.0.0.1:{port}/v1 LLM_API_KEY=any LLM_MODEL=course-sim"
        in out
    )


# --- streaming while the backend generates --------------------------------------------------------


class TickingBackend:
    """A ``StreamingBackend`` stand-in: one word per tick, one lock, a record of how far each
    generation got.

    Model-name options: a number → that many words (default 5); ``slow`` → 0.2 s per word (else 0.02
    s); ``tools`` → a tool call after the words; ``fail`` → an exception after two words; ``refuse``
    → a 400 before anything is generated.
    """

    name = "ticking test backend"

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.runs: list[dict[str, Any]] = []

    def list_models(self) -> list[str]:
        return ["ticker"]

    def complete(self, request: ChatRequest) -> Completion:
        *_, last = self.stream(request)
        return last

    def stream(self, request: ChatRequest):
        if "refuse" in request.options:
            raise BackendError(
                400, "too long for this model", param="messages", code="context_length_exceeded"
            )
        words = int(next((option for option in request.options if option.isdigit()), "5"))
        delay = 0.2 if "slow" in request.options else 0.02
        with self.lock:  # serialized like the local model; released when the generator is closed
            run = {
                "words": 0,
                "ended": False,
                "closed_early": False,
                "thread": threading.get_ident(),
            }
            self.runs.append(run)
            yield ReplyDelta()  # accepted
            try:
                for index in range(words):
                    time.sleep(delay)
                    run["words"] += 1
                    yield ReplyDelta(content=f"w{index}" if index == 0 else f" w{index}")
                    if "fail" in request.options and index == 1:
                        raise RuntimeError("the generator broke")
                calls = []
                if "tools" in request.options:
                    calls = [
                        {
                            "id": "call_t0",
                            "type": "function",
                            "function": {"name": "get_weather", "arguments": '{"city": "上海"}'},
                        }
                    ]
                    yield ReplyDelta(tool_call=calls[0])
                run["ended"] = True
            finally:
                run["closed_early"] = not run["ended"]
            content = " ".join(f"w{index}" for index in range(words)) or None
            yield Completion(
                content=content,
                tool_calls=calls,
                finish_reason="tool_calls" if calls else "stop",
                prompt_tokens=7,
                completion_tokens=words,
            )


@pytest.fixture(scope="module")
def ticker() -> TickingBackend:
    return TickingBackend()


@pytest.fixture(scope="module")
def ticker_server(ticker):
    with serve(backend=ticker) as server:
        yield server


@pytest.fixture
def ticker_client(ticker_server) -> openai.OpenAI:
    return openai.OpenAI(base_url=ticker_server.base_url, api_key="test", max_retries=0, timeout=10)


def test_a_generating_backend_streams_each_piece_as_it_is_made(ticker_client):
    started = time.perf_counter()
    arrivals: list[tuple[float, str]] = []
    for chunk in ticker_client.chat.completions.create(
        model="ticker:slow", messages=USER, stream=True
    ):
        if chunk.choices and chunk.choices[0].delta.content:
            arrivals.append((time.perf_counter() - started, chunk.choices[0].delta.content))
    assert [text for _, text in arrivals] == [
        "w0",
        " w1",
        " w2",
        " w3",
        " w4",
    ]  # one chunk per piece, not re-split
    first, last = arrivals[0][0], arrivals[-1][0]
    # 0.2 s passes between words in the backend: sent as generated, the words arrive spread over >=
    # 0.8 s; sent after the whole reply, they would arrive together.
    assert last - first > 0.5, arrivals


@pytest.mark.parametrize("model", ["ticker", "ticker:tools", "ticker:0,tools", "ticker:0"])
def test_a_generated_stream_assembles_to_the_non_streaming_message(ticker_client, model):
    plain = ticker_client.chat.completions.create(model=model, messages=USER).choices[0]
    streamed = _streamed_message(ticker_client, model=model, messages=USER)
    assert (streamed.finish_reason, streamed.message.content) == (
        plain.finish_reason,
        plain.message.content,
    )
    as_dicts = lambda calls: [
        (c.id, c.type, c.function.name, c.function.arguments) for c in calls or []
    ]  # noqa: E731
    assert as_dicts(streamed.message.tool_calls) == as_dicts(plain.message.tool_calls)


def test_a_generated_stream_has_the_openai_chunks_and_usage(ticker_server):
    body = {
        "model": "ticker:2,tools",
        "messages": USER,
        "stream": True,
        "stream_options": {"include_usage": True},
    }
    chunks = _raw_chunks(ticker_server.base_url, body)
    assert chunks[0]["choices"][0]["delta"] == {"role": "assistant", "content": "", "refusal": None}
    assert [c["choices"][0]["delta"].get("content") for c in chunks[1:3]] == ["w0", " w1"]
    heads = [
        c["choices"][0]["delta"]["tool_calls"][0]
        for c in chunks
        if c["choices"] and "id" in (c["choices"][0]["delta"].get("tool_calls") or [{}])[0]
    ]
    assert heads == [
        {
            "index": 0,
            "id": "call_t0",
            "type": "function",
            "function": {"name": "get_weather", "arguments": ""},
        }
    ]
    assert chunks[-2]["choices"][0]["finish_reason"] == "tool_calls" and chunks[-2]["usage"] is None
    assert chunks[-1]["choices"] == [] and chunks[-1]["usage"] == {
        "prompt_tokens": 7,
        "completion_tokens": 2,
        "total_tokens": 9,
    }


def test_a_refused_streaming_request_keeps_its_status(ticker_client, ticker):
    runs = len(ticker.runs)
    with pytest.raises(openai.BadRequestError) as info:
        ticker_client.chat.completions.create(model="ticker:refuse", messages=USER, stream=True)
    assert info.value.body["code"] == "context_length_exceeded"
    assert len(ticker.runs) == runs  # nothing was generated
    assert not ticker.lock.locked()


def test_an_error_after_the_stream_started_is_an_error_event(ticker_client, ticker, caplog):
    received = []
    with pytest.raises(openai.APIError, match="RuntimeError: the generator broke"):
        for chunk in ticker_client.chat.completions.create(
            model="ticker:fail", messages=USER, stream=True
        ):
            received += (
                [chunk.choices[0].delta.content]
                if chunk.choices and chunk.choices[0].delta.content
                else []
            )
    assert received == ["w0", " w1"]
    assert not ticker.lock.locked()
    assert (
        ticker_client.chat.completions.create(model="ticker:1", messages=USER)
        .choices[0]
        .message.content
        == "w0"
    )


def test_a_client_that_leaves_mid_stream_stops_the_generation(ticker_server, ticker, ticker_client):
    runs = len(ticker.runs)
    body = {
        "model": "ticker:500",
        "messages": USER,
        "stream": True,
    }  # 500 words at 0.02 s: 10 s if nobody stops it
    with httpx.stream(
        "POST", ticker_server.base_url + "/chat/completions", json=body, timeout=10
    ) as response:
        lines = response.iter_lines()
        contents = 0
        for line in lines:
            if '"content": "' in line and '"role"' not in line:
                contents += 1
            if contents == 3:
                break
    # the connection is closed here; the next request is answered while the abandoned one is
    # stopped, not after its 500 words (the word count below, not a clock, shows it)
    reply = ticker_client.chat.completions.create(model="ticker:2", messages=USER)
    assert reply.choices[0].message.content == "w0 w1"
    abandoned = ticker.runs[runs]
    assert abandoned["closed_early"] and not abandoned["ended"]
    assert (
        3 <= abandoned["words"] < 60
    )  # stopped within a few ticks of the disconnect, far from 500
    assert not ticker.lock.locked()


def test_concurrent_streams_to_a_generating_backend_are_served_one_at_a_time(ticker_client, ticker):
    from concurrent.futures import ThreadPoolExecutor

    def ask(_: int) -> str:
        return "".join(
            chunk.choices[0].delta.content or ""
            for chunk in ticker_client.chat.completions.create(
                model="ticker:3", messages=USER, stream=True
            )
            if chunk.choices
        )

    runs = len(ticker.runs)
    with ThreadPoolExecutor(max_workers=3) as pool:
        replies = list(pool.map(ask, range(3)))
    assert replies == ["w0 w1 w2"] * 3
    assert len(ticker.runs) == runs + 3 and all(run["ended"] for run in ticker.runs[runs:])


# --- through the course simulator -----------------------------------------------------------------


def test_simulator_models_and_unknown_option(sdk):
    assert "course-sim" in [m.id for m in sdk.models.list().data]
    with pytest.raises(openai.NotFoundError, match="可用的选项"):
        sdk.chat.completions.create(model="course-sim:no_such_fault", messages=USER)
    with pytest.raises(openai.NotFoundError, match="no_such_fault"):
        sdk.chat.completions.create(
            model="course-sim", messages=USER, extra_headers={"X-Course-Fault": "no_such_fault"}
        )
    with pytest.raises(openai.NotFoundError):
        sdk.models.retrieve("course-sim:no_such_fault")
    assert sdk.models.retrieve("course-sim:slow").id == "course-sim:slow"


def test_simulator_stream_equals_non_stream(sdk):
    messages = [{"role": "user", "content": "北京今天天气怎么样？"}]
    for tools in (None, [WEATHER, CLOCK]):
        extra = {"tools": tools} if tools else {}
        plain = sdk.chat.completions.create(model="course-sim", messages=messages, **extra).choices[
            0
        ]
        streamed = _streamed_message(sdk, model="course-sim", messages=messages, **extra)
        assert streamed.message.content == plain.message.content
        assert streamed.finish_reason == plain.finish_reason
        as_dicts = lambda calls: [
            (c.id, c.function.name, c.function.arguments) for c in calls or []
        ]  # noqa: E731
        assert as_dicts(streamed.message.tool_calls) == as_dicts(plain.message.tool_calls)
    assert plain.message.tool_calls and plain.message.tool_calls[0].function.name == "get_weather"


def test_simulator_rate_limit_is_recovered_by_the_sdk_retry(offline_server, sdk):
    with pytest.raises(openai.RateLimitError) as info:
        sdk.chat.completions.create(
            model="course-sim:rate_limit", messages=[{"role": "user", "content": "限流测试 A"}]
        )
    assert info.value.response.headers.get("retry-after") or info.value.response.headers.get(
        "retry-after-ms"
    )
    retrying = openai.OpenAI(base_url=offline_server.base_url, api_key="test", max_retries=2)
    reply = retrying.chat.completions.with_raw_response.create(
        model="course-sim:rate_limit", messages=[{"role": "user", "content": "限流测试 B"}]
    )
    assert reply.retries_taken >= 1
    assert reply.parse().choices[0].message.content


def test_simulator_server_error(sdk):
    with pytest.raises(openai.InternalServerError) as info:
        sdk.chat.completions.create(model="course-sim:server_error", messages=USER)
    assert info.value.status_code == 500


def test_simulator_slow_reply_times_out_the_client():
    from handwritten_agent.course.offline.simulator import CourseSimulator

    with serve(backend=CourseSimulator(slow_seconds=0.6)) as server:
        client = openai.OpenAI(base_url=server.base_url, api_key="test", max_retries=0, timeout=0.2)
        with pytest.raises(openai.APITimeoutError):
            client.chat.completions.create(model="course-sim:slow", messages=USER)
        patient = openai.OpenAI(base_url=server.base_url, api_key="test", max_retries=0, timeout=5)
        assert (
            patient.chat.completions.create(model="course-sim", messages=USER)
            .choices[0]
            .message.content
        )


def test_simulator_tool_round_trip_accepts_echoed_messages_and_duplicate_ids(sdk):
    weather = {
        "type": "function",
        "function": {
            "name": "get_weather",
            "description": "查询城市天气",
            "parameters": {
                "type": "object",
                "required": ["city"],
                "properties": {"city": {"type": "string", "description": "城市名，例如 北京"}},
            },
        },
    }
    for model in ("course-sim", "course-sim:bad_tool_call_id"):
        messages: list[dict[str, Any]] = [
            {"role": "user", "content": "北京天气怎么样？然后告诉我现在几点"}
        ]
        first = (
            sdk.chat.completions.create(model=model, messages=messages, tools=[weather, CLOCK])
            .choices[0]
            .message
        )
        assert [c.function.name for c in first.tool_calls] == ["get_weather", "get_time"]
        if model.endswith("bad_tool_call_id"):
            assert {c.id for c in first.tool_calls} == {"call_0"}
        messages.append(first.model_dump())  # the SDK object echoed whole, None fields included
        messages += [
            {"role": "tool", "tool_call_id": c.id, "content": f"{c.function.name} ok"}
            for c in first.tool_calls
        ]
        final = sdk.chat.completions.create(
            model=model, messages=messages, tools=[weather, CLOCK]
        ).choices[0]
        assert final.finish_reason == "stop" and "get_weather ok" in final.message.content


def test_accepted_connections_have_nagle_off():
    """The cause of a ~40 ms stall per request, checked directly: asyncio turns on TCP_NODELAY for
    an accepted connection only when the listening socket says it is TCP (``proto == IPPROTO_TCP``).
    """
    import asyncio
    import socket as socketlib

    from handwritten_agent.course.offline.server import _bind

    listener = _bind("127.0.0.1", 0)
    assert listener.proto == socketlib.IPPROTO_TCP

    async def nodelay_of_accepted() -> int:
        seen: asyncio.Future[int] = asyncio.get_running_loop().create_future()

        class Probe(asyncio.Protocol):
            def connection_made(self, transport: asyncio.BaseTransport) -> None:
                sock = transport.get_extra_info("socket")
                seen.set_result(sock.getsockopt(socketlib.IPPROTO_TCP, socketlib.TCP_NODELAY))
                transport.close()

        server = await asyncio.get_running_loop().create_server(Probe, sock=listener)
        try:
            _, writer = await asyncio.open_connection(*listener.getsockname()[:2])
            value = await asyncio.wait_for(seen, 5)
            writer.close()
            return value
        finally:
            server.close()
            await server.wait_closed()

    assert asyncio.run(nodelay_of_accepted()) != 0


def test_a_body_nested_deeper_than_the_bound_is_a_400_not_a_500():
    with serve() as server:
        body = (
            '{"model": "course-sim", "messages": [{"role": "user", "content": "hi"}], "x": '
            + "[" * 100000
            + "]" * 100000
            + "}"
        )
        response = httpx.post(
            f"{server.base_url}/chat/completions",
            content=body,
            headers={"content-type": "application/json"},
        )
    assert (
        response.status_code == 400 and response.json()["error"]["type"] == "invalid_request_error"
    )


def test_serve_process_reports_a_command_that_never_listens():
    from handwritten_agent.course.offline.server import serve_process

    # a startup timeout far beyond any machine's load: returning at all means the exit was noticed
    with pytest.raises(RuntimeError, match="没有打印出它的地址") as caught:
        with serve_process("no-such-backend", startup_timeout=3600):
            pass
    assert "no-such-backend" in str(caught.value)  # the command's own complaint is shown
