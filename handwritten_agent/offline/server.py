"""The OpenAI-compatible HTTP server in front of a model backend (the simulator or the local model).

``create_app(backend)`` builds a FastAPI app with the two endpoints an agent needs:

- ``GET /v1/models`` and ``GET /v1/models/{id}``
- ``POST /v1/chat/completions``, non-streaming and streaming (server-sent events), tool calls included

The server owns everything about the wire format so that backends stay small: it validates the
request the way the real API does and answers bad requests with the same 400 error body, splits the
model name into base model and options (``course-sim:slow``), applies ``stop`` sequences, makes the
response id from a hash of the request body (same request, same id), and turns one ``Completion``
into either a ``chat.completion`` object or a stream of ``chat.completion.chunk`` events. The backend
runs in a worker thread, so a slow reply never blocks other requests, and any backend exception
becomes an error response, never a crashed server.

``serve()`` starts the app with uvicorn on a free port in a background thread (for notebooks and
tests); ``serve_forever()`` runs it in the foreground for ``python -m handwritten_agent serve``.

Left out on purpose: authentication (any API key is accepted), ``n > 1`` (rejected with a 400),
logprobs, multimodal input, the legacy ``functions`` parameter, and every endpoint except the two
above. Validation covers the mistakes an agent author makes (roles, tool-call pairing, tool schemas),
not every field of the real API.
"""

from __future__ import annotations

import hashlib
import json
import logging
import re
import signal
import socket
import threading
import time
from typing import Any, Iterator

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, StreamingResponse
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException as StarletteHTTPException

from ..tokens import estimate_tokens
from ..types import loads_bounded
from .backend import Backend, BackendError, ChatRequest, Completion
from .faults import SIMULATOR_MODEL, split_model_name, validate_options

logger = logging.getLogger(__name__)

OWNER = "handwritten-agent"
VALID_ROLES = ("system", "developer", "user", "assistant", "tool")
TOOL_NAME_PATTERN = re.compile(r"^[a-zA-Z0-9_-]{1,64}$")
TOOL_CHOICE_STRINGS = ("none", "auto", "required")
# Body fields that become ChatRequest attributes; every other field goes into ChatRequest.extra.
KNOWN_FIELDS = {"model", "messages", "tools", "tool_choice", "parallel_tool_calls", "stream", "stop", "max_tokens",
                "temperature", "n", "stream_options"}


# ---------------------------------------------------------------------------------------------
# Validation: each check raises BackendError(400, ...) with the message the real API would give.
# ---------------------------------------------------------------------------------------------

def _bad_request(message: str, param: str | None = None, code: str | None = None) -> BackendError:
    return BackendError(400, message, type="invalid_request_error", param=param, code=code)


def _type_name(value: Any) -> str:
    if value is None:
        return "null"
    return {bool: "a boolean", int: "an integer", float: "a decimal", str: "a string", list: "an array",
            dict: "an object"}.get(type(value), type(value).__name__)


def _invalid_type(param: str, expected: str, value: Any) -> BackendError:
    return _bad_request(f"Invalid type for '{param}': expected {expected}, but got {_type_name(value)} instead.",
                        param=param, code="invalid_type")


def _missing(param: str) -> BackendError:
    return _bad_request(f"Missing required parameter: '{param}'.", param=param, code="missing_required_parameter")


def _validate_messages(messages: Any) -> list[dict[str, Any]]:
    if messages is None:
        raise _missing("messages")
    if not isinstance(messages, list):
        raise _invalid_type("messages", "an array of objects", messages)
    if not messages:
        raise _bad_request("Invalid 'messages': empty array. Expected an array with minimum length 1, but got an empty array instead.",
                           param="messages", code="empty_array")
    for i, message in enumerate(messages):
        if not isinstance(message, dict):
            raise _invalid_type(f"messages[{i}]", "an object", message)
        role = message.get("role")
        if role is None:
            raise _missing(f"messages[{i}].role")
        if role not in VALID_ROLES:
            supported = ", ".join(f"'{r}'" for r in VALID_ROLES[:-1]) + f", and '{VALID_ROLES[-1]}'"
            raise _bad_request(f"Invalid value: '{role}'. Supported values are: {supported}.",
                               param=f"messages[{i}].role", code="invalid_value")
        content = message.get("content")
        if role != "assistant" and content is None:
            raise _missing(f"messages[{i}].content")
        if content is not None and not isinstance(content, (str, list)):
            raise _invalid_type(f"messages[{i}].content", "one of a string or array of objects", content)
        if role == "assistant":
            _validate_assistant_tool_calls(i, message.get("tool_calls"))
        if role == "tool":
            call_id = message.get("tool_call_id")
            if call_id is None:
                raise _missing(f"messages[{i}].tool_call_id")
            if not isinstance(call_id, str):
                raise _invalid_type(f"messages[{i}].tool_call_id", "a string", call_id)
    _validate_tool_pairing(messages)
    return messages


def _validate_assistant_tool_calls(i: int, tool_calls: Any) -> None:
    if tool_calls is None:
        return
    if not isinstance(tool_calls, list):
        raise _invalid_type(f"messages[{i}].tool_calls", "an array of objects", tool_calls)
    if not tool_calls:  # the real API rejects "tool_calls": [] - omit the key when there are none
        raise _bad_request(f"Invalid 'messages[{i}].tool_calls': empty array. Expected an array with minimum length 1, "
                           "but got an empty array instead. Leave out 'tool_calls' when there are none.",
                           param=f"messages[{i}].tool_calls", code="empty_array")
    for j, call in enumerate(tool_calls):
        where = f"messages[{i}].tool_calls[{j}]"
        if not isinstance(call, dict):
            raise _invalid_type(where, "an object", call)
        if call.get("id") is None:
            raise _missing(f"{where}.id")
        if not isinstance(call["id"], str):
            raise _invalid_type(f"{where}.id", "a string", call["id"])
        if call.get("type") is None:
            raise _missing(f"{where}.type")
        if call["type"] != "function":
            raise _bad_request(f"Invalid value: '{call['type']}'. Supported values are: 'function'.",
                               param=f"{where}.type", code="invalid_value")
        function = call.get("function")
        if function is None:
            raise _missing(f"{where}.function")
        if not isinstance(function, dict):
            raise _invalid_type(f"{where}.function", "an object", function)
        if not isinstance(function.get("name"), str):
            raise _missing(f"{where}.function.name") if function.get("name") is None else \
                _invalid_type(f"{where}.function.name", "a string", function["name"])
        arguments = function.get("arguments")
        if arguments is None:
            raise _missing(f"{where}.function.arguments")
        if not isinstance(arguments, str):
            # A classic mistake: echoing parsed arguments (a dict) instead of the raw JSON text.
            raise _invalid_type(f"{where}.function.arguments", "a string", arguments)


def _validate_tool_pairing(messages: list[dict[str, Any]]) -> None:
    """Every tool message answers the assistant tool calls just before it, and every call gets an answer.

    Ids are compared as sets: duplicate ids (some servers give every call ``call_0``) are allowed,
    each distinct id just needs at least one tool message.
    """
    open_ids: set[str] = set()  # ids of the latest assistant tool calls
    answered: set[str] = set()
    open_at: int | None = None  # index of that assistant message while its tool messages may follow

    def close() -> None:
        missing = [call_id for call_id in sorted(open_ids) if call_id not in answered]
        if missing and open_at is not None:
            raise _bad_request(
                "An assistant message with 'tool_calls' must be followed by tool messages responding to each "
                f"'tool_call_id'. The following tool_call_ids did not have response messages: {', '.join(missing)}",
                param=f"messages.[{open_at}].role")

    for i, message in enumerate(messages):
        role = message["role"]
        if role == "tool":
            if open_at is None or message["tool_call_id"] not in open_ids:
                raise _bad_request("Invalid parameter: messages with role 'tool' must be a response to a preceeding "
                                   "message with 'tool_calls'.", param=f"messages.[{i}].role")
            answered.add(message["tool_call_id"])
            continue
        close()
        open_ids, answered, open_at = set(), set(), None
        if role == "assistant" and message.get("tool_calls"):
            open_ids = {call["id"] for call in message["tool_calls"]}
            open_at = i
    close()


def _validate_tools(tools: Any) -> list[dict[str, Any]] | None:
    if tools is None:
        return None
    if not isinstance(tools, list):
        raise _invalid_type("tools", "an array of objects", tools)
    for i, tool in enumerate(tools):
        if not isinstance(tool, dict):
            raise _invalid_type(f"tools[{i}]", "an object", tool)
        kind = tool.get("type")
        if kind is None:
            raise _missing(f"tools[{i}].type")
        if kind != "function":
            raise _bad_request(f"Invalid value: '{kind}'. Supported values are: 'function'.", param=f"tools[{i}].type",
                               code="invalid_value")
        function = tool.get("function")
        if function is None:
            raise _missing(f"tools[{i}].function")
        if not isinstance(function, dict):
            raise _invalid_type(f"tools[{i}].function", "an object", function)
        name = function.get("name")
        if name is None:
            raise _missing(f"tools[{i}].function.name")
        if not isinstance(name, str) or not TOOL_NAME_PATTERN.match(name):
            raise _bad_request(f"Invalid 'tools[{i}].function.name': string does not match pattern. Expected a string "
                               f"that matches the pattern '^[a-zA-Z0-9_-]{{1,64}}$' (got {json.dumps(name, ensure_ascii=False)}).",
                               param=f"tools[{i}].function.name", code="invalid_value")
        if "description" in function and not isinstance(function["description"], str):
            raise _invalid_type(f"tools[{i}].function.description", "a string", function["description"])
        if "parameters" in function and not isinstance(function["parameters"], dict):
            raise _invalid_type(f"tools[{i}].function.parameters", "an object", function["parameters"])
    return tools


def _validate_tool_choice(choice: Any, tools: list[dict[str, Any]] | None) -> str | dict[str, Any] | None:
    if choice is None:
        return None
    if isinstance(choice, str):
        if choice not in TOOL_CHOICE_STRINGS:
            raise _bad_request(f"Invalid value: '{choice}'. Supported values are: 'none', 'auto', and 'required'.",
                               param="tool_choice", code="invalid_value")
        if choice == "required" and not tools:
            raise _bad_request("Invalid value for 'tool_choice': 'tool_choice' is only allowed when 'tools' are specified.",
                               param="tool_choice")
        return choice
    if not isinstance(choice, dict):
        raise _invalid_type("tool_choice", "one of a string or an object", choice)
    if choice.get("type") != "function":
        raise _bad_request(f"Invalid value: '{choice.get('type')}'. Supported values are: 'function'.",
                           param="tool_choice.type", code="invalid_value")
    function = choice.get("function")
    if not isinstance(function, dict) or not isinstance(function.get("name"), str):
        raise _missing("tool_choice.function.name")
    if not tools:
        raise _bad_request("Invalid value for 'tool_choice': 'tool_choice' is only allowed when 'tools' are specified.",
                           param="tool_choice")
    names = [tool["function"]["name"] for tool in tools]
    if function["name"] not in names:
        raise _bad_request(f"Invalid value for 'tool_choice': function '{function['name']}' is not among the offered "
                           f"tools ({', '.join(names)}).", param="tool_choice")
    return choice


def _validate_stop(stop: Any) -> list[str] | None:
    if stop is None:
        return None
    if isinstance(stop, str):
        return [stop] if stop else None
    if not isinstance(stop, list) or not all(isinstance(s, str) for s in stop):
        raise _invalid_type("stop", "one of a string or array of strings", stop)
    if len(stop) > 4:
        raise _bad_request(f"Invalid 'stop': array too long. Expected an array with maximum length 4, but got an array "
                           f"with length {len(stop)} instead.", param="stop", code="array_above_max_length")
    return [s for s in stop if s] or None


def _optional(body: dict[str, Any], name: str, types: tuple[type, ...], expected: str) -> Any:
    value = body.get(name)
    if value is None:
        return None
    if not isinstance(value, types) or (isinstance(value, bool) and bool not in types):
        raise _invalid_type(name, expected, value)
    return value


def parse_request(body: Any, backend_models: list[str], fault_header: str | None = None) -> ChatRequest:
    """Validate a decoded request body and turn it into a ``ChatRequest`` (raises ``BackendError`` 400/404)."""
    if not isinstance(body, dict):
        raise _bad_request(f"The request body must be a JSON object, but got {_type_name(body)}.")
    model = body.get("model")
    if model is None or model == "":
        raise _bad_request("you must provide a model parameter", param="model", code="missing_required_parameter")
    if not isinstance(model, str):
        raise _invalid_type("model", "a string", model)
    messages = _validate_messages(body.get("messages"))
    tools = _validate_tools(body.get("tools"))
    tool_choice = _validate_tool_choice(body.get("tool_choice"), tools)
    n = _optional(body, "n", (int,), "an integer")
    if n is not None and n != 1:
        raise _bad_request(f"Invalid 'n': this server returns exactly one choice per request, so 'n' must be 1 (got {n}). "
                           "Send the request several times instead.", param="n", code="invalid_value")
    stream = _optional(body, "stream", (bool,), "a boolean")
    parallel = _optional(body, "parallel_tool_calls", (bool,), "a boolean")
    max_tokens = _optional(body, "max_tokens", (int,), "an integer")
    temperature = _optional(body, "temperature", (int, float), "a decimal")
    stream_options = _optional(body, "stream_options", (dict,), "an object")
    if stream_options is not None and not stream:
        raise _bad_request("The 'stream_options' parameter is only allowed when 'stream' is enabled.",
                           param="stream_options")

    base_model, options = split_model_name(model)
    if SIMULATOR_MODEL in backend_models and base_model == SIMULATOR_MODEL:
        options = validate_options(model, options, fault_header)
    elif fault_header:
        options = options | split_model_name(":" + fault_header)[1]

    extra = {key: value for key, value in body.items() if key not in KNOWN_FIELDS}
    if stream_options is not None:
        extra["stream_options"] = stream_options
    return ChatRequest(
        model=model, messages=messages, tools=tools, tool_choice=tool_choice,
        parallel_tool_calls=True if parallel is None else parallel, stream=bool(stream),
        stop=_validate_stop(body.get("stop")), max_tokens=max_tokens,
        temperature=None if temperature is None else float(temperature),
        base_model=base_model, options=options, extra=extra,
    )


# ---------------------------------------------------------------------------------------------
# Responses
# ---------------------------------------------------------------------------------------------

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
    return Completion(content=content, tool_calls=[], finish_reason="stop", prompt_tokens=completion.prompt_tokens,
                      completion_tokens=estimate_tokens(content))


def completion_id(raw_body: bytes) -> str:
    """A deterministic response id: the same request body always gives the same id."""
    return "chatcmpl-" + hashlib.sha256(raw_body).hexdigest()[:29]


def _fingerprint(backend: Backend) -> str:
    name = getattr(backend, "name", type(backend).__name__)
    return "fp_" + hashlib.sha256(str(name).encode()).hexdigest()[:10]


def _usage(completion: Completion) -> dict[str, int]:
    return {"prompt_tokens": completion.prompt_tokens, "completion_tokens": completion.completion_tokens,
            "total_tokens": completion.prompt_tokens + completion.completion_tokens}


def _message(completion: Completion) -> dict[str, Any]:
    message: dict[str, Any] = {"role": "assistant", "content": completion.content}
    if completion.tool_calls:
        message["tool_calls"] = [
            {"id": call["id"], "type": call.get("type", "function"),
             "function": {"name": call["function"]["name"], "arguments": call["function"]["arguments"]}}
            for call in completion.tool_calls
        ]
    message["refusal"] = None
    return message


def completion_body(completion: Completion, *, response_id: str, model: str, created: int, fingerprint: str) -> dict[str, Any]:
    """The non-streaming ``chat.completion`` object."""
    return {
        "id": response_id,
        "object": "chat.completion",
        "created": created,
        "model": model,
        "choices": [{"index": 0, "message": _message(completion), "logprobs": None,
                     "finish_reason": completion.finish_reason}],
        "usage": _usage(completion),
        "system_fingerprint": fingerprint,
    }


_PIECE = re.compile(r"\s*[A-Za-z0-9_]+|\s*[^\sA-Za-z0-9_]|\s+")


def split_pieces(text: str) -> list[str]:
    """Split text into small stream pieces (an English word or one other character each); they join back exactly."""
    return _PIECE.findall(text)


def stream_chunks(completion: Completion, *, response_id: str, model: str, created: int, fingerprint: str,
                  include_usage: bool = False) -> Iterator[dict[str, Any]]:
    """The ``chat.completion.chunk`` objects that stream one completion, in the order the real API sends them."""

    def chunk(delta: dict[str, Any], finish_reason: str | None = None) -> dict[str, Any]:
        body = {"id": response_id, "object": "chat.completion.chunk", "created": created, "model": model,
                "system_fingerprint": fingerprint,
                "choices": [{"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish_reason}]}
        if include_usage:
            body["usage"] = None
        return body

    # A reply with text starts with content ""; a tool-call-only reply starts with content null,
    # so the message a client assembles from the stream equals the non-streaming one.
    yield chunk({"role": "assistant", "content": "" if completion.content is not None else None, "refusal": None})
    for piece in split_pieces(completion.content or ""):
        yield chunk({"content": piece})
    for index, call in enumerate(_message(completion).get("tool_calls", [])):
        function = call["function"]
        yield chunk({"tool_calls": [{"index": index, "id": call["id"], "type": call["type"],
                                     "function": {"name": function["name"], "arguments": ""}}]})
        for piece in split_pieces(function["arguments"]):
            yield chunk({"tool_calls": [{"index": index, "function": {"arguments": piece}}]})
    yield chunk({}, completion.finish_reason)
    if include_usage:
        yield {"id": response_id, "object": "chat.completion.chunk", "created": created, "model": model,
               "system_fingerprint": fingerprint, "choices": [], "usage": _usage(completion)}


def _sse(chunks: Iterator[dict[str, Any]]) -> Iterator[str]:
    for body in chunks:
        yield "data: " + json.dumps(body, ensure_ascii=False) + "\n\n"
    yield "data: [DONE]\n\n"


def error_response(error: BackendError) -> JSONResponse:
    return JSONResponse(error.body(), status_code=error.status, headers=error.headers)


def _internal_error(exc: BaseException) -> JSONResponse:
    logger.error("backend failed while answering a request", exc_info=exc)
    body = BackendError(500, f"The server had an error while processing your request ({type(exc).__name__}: {exc}). "
                             "The traceback is in the server log.", type="server_error").body()
    return JSONResponse(body, status_code=500)


# ---------------------------------------------------------------------------------------------
# The app
# ---------------------------------------------------------------------------------------------

def _model_object(model_id: str) -> dict[str, Any]:
    return {"id": model_id, "object": "model", "created": 0, "owned_by": OWNER}


def create_app(backend: Backend) -> FastAPI:
    """An OpenAI-compatible app serving ``backend`` under ``/v1``."""
    app = FastAPI(title="handwritten-agent offline server", docs_url=None, redoc_url=None, openapi_url=None)
    fingerprint = _fingerprint(backend)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        # Wrong paths and methods get the real API's error shape, e.g. a base URL missing "/v1".
        message = f"Invalid URL ({request.method} {request.url.path})" if exc.status_code in (404, 405) else str(exc.detail)
        return JSONResponse(BackendError(exc.status_code, message).body(), status_code=exc.status_code)

    @app.get("/v1/models")
    async def list_models() -> JSONResponse:
        try:
            models = await run_in_threadpool(backend.list_models)
        except Exception as exc:  # noqa: BLE001 - any backend failure becomes a 500 body
            return _internal_error(exc)
        return JSONResponse({"object": "list", "data": [_model_object(m) for m in models]})

    @app.get("/v1/models/{model_id:path}")
    async def retrieve_model(model_id: str) -> JSONResponse:
        try:
            models = await run_in_threadpool(backend.list_models)
            base, options = split_model_name(model_id)
            if base not in models:
                raise BackendError(404, f"The model '{model_id}' does not exist. Available models: {', '.join(models)}.",
                                   param="model", code="model_not_found")
            if base == SIMULATOR_MODEL:
                validate_options(model_id, options)
        except BackendError as error:
            return error_response(error)
        except Exception as exc:  # noqa: BLE001
            return _internal_error(exc)
        return JSONResponse(_model_object(model_id))

    @app.post("/v1/chat/completions")
    async def chat_completions(request: Request) -> Any:
        raw = await request.body()
        try:
            try:
                body = loads_bounded(raw)
            except (ValueError, UnicodeDecodeError) as exc:  # JSONDecodeError is a ValueError; so is "nested too deeply"
                raise _bad_request(
                    "We could not parse the JSON body of your request. The API expects a JSON object, but what was "
                    f"sent was not valid JSON ({exc}). Send the body with json=... (httpx/requests) and the header "
                    "Content-Type: application/json.") from None
            models = await run_in_threadpool(backend.list_models)
            chat = parse_request(body, models, request.headers.get("x-course-fault"))
            completion = await run_in_threadpool(backend.complete, chat)
            completion = apply_stop(completion, chat.stop)
        except BackendError as error:
            return error_response(error)
        except Exception as exc:  # noqa: BLE001 - the server answers 500 and keeps running
            return _internal_error(exc)

        meta = {"response_id": completion_id(raw), "model": chat.model, "created": int(time.time()),
                "fingerprint": fingerprint}
        if not chat.stream:
            return JSONResponse(completion_body(completion, **meta))
        include_usage = bool((chat.extra.get("stream_options") or {}).get("include_usage"))
        return StreamingResponse(_sse(stream_chunks(completion, include_usage=include_usage, **meta)),
                                 media_type="text/event-stream", headers={"Cache-Control": "no-cache"})

    return app


# ---------------------------------------------------------------------------------------------
# Running it
# ---------------------------------------------------------------------------------------------

def make_backend(backend: str | Backend = "offline", *, model_path: str | None = None, now: Any = None) -> Backend:
    """``"offline"`` → the course simulator, ``"local"`` → the llama.cpp model, or a ready Backend instance."""
    if backend == "offline":
        from .simulator import CourseSimulator

        return CourseSimulator(now=now)
    if backend == "local":
        from .local import LocalBackend

        return LocalBackend(model_path)
    if isinstance(backend, str):
        raise ValueError(f"Unknown backend {backend!r}: use 'offline' (the course simulator), 'local' (the llama.cpp "
                         "model) or pass a Backend instance.")
    return backend


def _client_host(host: str) -> str:
    if host in ("", "0.0.0.0"):
        return "127.0.0.1"
    if host == "::":
        return "[::1]"
    return f"[{host}]" if ":" in host else host


class OfflineServer:
    """A running server: ``.base_url`` to give the SDK, ``.stop()`` to end it (also a context manager)."""

    def __init__(self, backend: Backend, host: str, port: int, uvicorn_server: Any, thread: threading.Thread,
                 sock: socket.socket):
        self.backend = backend
        self.host = host
        self.port = port
        self.base_url = f"http://{_client_host(host)}:{port}/v1"
        self._server = uvicorn_server
        self._thread = thread
        self._socket = sock

    def stop(self, timeout: float = 5.0) -> None:
        """Ask uvicorn to exit, wait (bounded) for its thread, and close the backend. Safe to call more than once."""
        if self._thread.is_alive():
            self._server.should_exit = True
            self._thread.join(timeout)
            if self._thread.is_alive():
                self._server.force_exit = True
                self._thread.join(timeout)
        self._socket.close()
        close = getattr(self.backend, "close", None)  # e.g. the local model frees its memory
        if callable(close):
            close()

    def __enter__(self) -> "OfflineServer":
        return self

    def __exit__(self, *exc_info: Any) -> None:
        self.stop()

    def __repr__(self) -> str:
        running = "running" if self._thread.is_alive() else "stopped"
        return f"OfflineServer({self.base_url}, backend={getattr(self.backend, 'name', type(self.backend).__name__)!r}, {running})"


def _bind(host: str, port: int) -> socket.socket:
    """The listening socket, made the way ``loop.create_server(host, port)`` makes it.

    The protocol must be ``IPPROTO_TCP``, not the default 0: asyncio sets ``TCP_NODELAY`` on an
    accepted connection only when its socket says it is TCP (``asyncio.base_events._set_nodelay``
    checks ``sock.proto``), and accepted sockets inherit the listening socket's ``proto``. With 0,
    Nagle's algorithm holds back the second write of every response (headers, then body) until the
    client's delayed ACK, about 40 ms per request. uvicorn binding its own socket goes through
    ``getaddrinfo``, which fills in ``IPPROTO_TCP``; we pass it explicitly.
    """
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as exc:
        sock.close()
        raise OSError(f"Cannot listen on {host}:{port} ({exc.strerror}). Another program probably uses this port: "
                      "choose another one (--port N, or port=0 for any free port).") from exc
    sock.listen(128)
    return sock


def serve(port: int = 0, host: str = "127.0.0.1", backend: str | Backend = "offline", *,
          model_path: str | None = None, now: Any = None, startup_timeout: float = 10.0) -> OfflineServer:
    """Start the server in a background thread and return once it accepts connections.

    ``port=0`` picks a free port. ``backend`` is ``"offline"`` (the course simulator, with the clock
    ``now`` if given), ``"local"`` (the llama.cpp model at ``model_path``) or a Backend instance.
    """
    import uvicorn

    chosen = make_backend(backend, model_path=model_path, now=now)
    sock = _bind(host, port)
    actual_port = sock.getsockname()[1]
    config = uvicorn.Config(create_app(chosen), log_level="warning", access_log=False, lifespan="off",
                            timeout_graceful_shutdown=2)
    server = uvicorn.Server(config)
    failure: list[BaseException] = []

    def run() -> None:
        try:
            server.run(sockets=[sock])
        except BaseException as exc:  # noqa: BLE001 - reported to the caller of serve()
            failure.append(exc)

    thread = threading.Thread(target=run, name=f"offline-server-{actual_port}", daemon=True)
    thread.start()
    running = OfflineServer(chosen, host, actual_port, server, thread, sock)

    deadline = time.monotonic() + startup_timeout
    while time.monotonic() < deadline:  # bounded wait for uvicorn's startup
        if failure or not thread.is_alive():
            running.stop()
            raise RuntimeError(f"The offline server failed to start on {host}:{actual_port}: {failure[0] if failure else 'thread exited'}")
        if server.started and _accepts(_client_host(host).strip("[]"), actual_port):
            return running
        time.sleep(0.02)
    running.stop()
    raise TimeoutError(f"The offline server did not accept connections on {host}:{actual_port} within {startup_timeout:.0f} s. "
                       "Check the log above for an error from uvicorn.")


def _accepts(host: str, port: int) -> bool:
    try:
        with socket.create_connection((host, port), timeout=0.5):
            return True
    except OSError:
        return False


def serve_forever(host: str = "127.0.0.1", port: int = 8765, backend: str | Backend = "offline",
                  model_path: str | None = None) -> int:
    """Run the server in the foreground until Ctrl+C (or SIGTERM); print how to point a client at it."""
    stop = threading.Event()
    if threading.current_thread() is threading.main_thread():  # before serving: a SIGTERM that comes early still stops cleanly
        signal.signal(signal.SIGTERM, lambda *_: stop.set())
    running = serve(port=port, host=host, backend=backend, model_path=model_path)
    try:
        models = running.backend.list_models()
        label = getattr(running.backend, "name", type(running.backend).__name__)
        if SIMULATOR_MODEL in models and "not an LLM" not in label:
            label += " (a rule engine, not an LLM)"
        model = SIMULATOR_MODEL if SIMULATOR_MODEL in models else (models[0] if models else "MODEL")
        print(f"handwritten-agent server · backend: {label} · base URL: {running.base_url} · models: {', '.join(models)}",
              flush=True)
        print(f"export LLM_BASE_URL={running.base_url} LLM_API_KEY=any LLM_MODEL={model}"
              "   # then run the notebooks; Ctrl+C stops the server", flush=True)
        # Deliberately unbounded: this is the foreground server; Ctrl+C or SIGTERM ends it.
        while not stop.wait(0.5):
            pass
    except KeyboardInterrupt:
        pass
    finally:
        running.stop()
    print("server stopped", flush=True)
    return 0
