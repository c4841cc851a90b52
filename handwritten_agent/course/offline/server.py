"""The OpenAI-compatible HTTP server in front of a model backend (the simulator or the local model).

``create_app(backend)`` builds a FastAPI app with the two endpoints an agent needs:

- ``GET /v1/models`` and ``GET /v1/models/{id}``
- ``POST /v1/chat/completions``, non-streaming and streaming (server-sent events), tool calls
  included

The server owns everything about the wire format so that backends stay small, in three modules:
``validation`` checks the request the way the real API does (same 400 bodies) and splits the model
name into base model and options (``course-sim:slow``); ``encoding`` turns a ``Completion`` into a
``chat.completion`` object or ``chat.completion.chunk`` events, with deterministic ids; this module
runs them: the HTTP app, the event loop, and ``serve()``. Structured outputs (``response_format``,
``strict`` tools) are checked and applied around the backend by ``structured``: a backend that
constrains its own decoding (``structured_outputs = True``, the local model) keeps its content.

A backend runs in a worker thread, so a slow reply never blocks other requests, and any backend
exception becomes an error response, never a crashed server. A streaming request to a backend that
offers ``stream()`` (the local model) is sent token by token as the backend generates it; when the
client goes away mid-stream, the generation is stopped. Other backends (the simulator) answer whole
and the server splits the reply into chunks.

``serve()`` starts the app with uvicorn on a free port in a background thread (for notebooks and
tests); ``serve_forever()`` runs it in the foreground for ``python -m handwritten_agent serve``, and
``serve_process()`` starts that command as a process of its own.

Left out on purpose: authentication (any API key is accepted), ``n > 1`` (rejected with a 400),
logprobs, multimodal input, the legacy ``functions`` parameter, and every endpoint except the two
above.
"""

from __future__ import annotations

import asyncio
import logging
import os
import re
import signal
import subprocess
import sys
import threading
import time
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import contextmanager
from datetime import datetime
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, StreamingResponse
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException as StarletteHTTPException

from ..background import BackgroundServer, bind
from .backend import Backend, BackendError, ChatRequest, Completion, ReplyDelta
from .encoding import (
    DONE_EVENT,
    ChunkWriter,
    apply_max_tokens,
    apply_stop,
    completion_body,
    completion_id,
    error_event,
    fingerprint,
    split_pieces,
    sse,
    sse_event,
    stream_chunks,
)
from .faults import (
    SIMULATOR_MODEL,
    as_parsed,
    as_templated,
    provider_error,
    split_model_name,
    validate_options,
)
from .structured import for_backend, read_structure, shape_reply
from .validation import decode_body, parse_request

logger = logging.getLogger(__name__)

OWNER = "handwritten-agent"
SSE_HEADERS = {"Cache-Control": "no-cache"}

# What notebooks and tests import from this module; some of these names live in ``encoding`` and
# ``validation``.
__all__ = [
    "OfflineServer",
    "apply_stop",
    "completion_body",
    "completion_id",
    "create_app",
    "error_response",
    "make_backend",
    "parse_request",
    "serve",
    "serve_forever",
    "serve_process",
    "split_pieces",
    "stream_chunks",
]


def error_response(error: BackendError) -> JSONResponse:
    return JSONResponse(error.body(), status_code=error.status, headers=error.headers)


def _internal_error(exc: BaseException) -> BackendError:
    logger.error("backend failed while answering a request", exc_info=exc)
    return BackendError(
        500,
        f"服务器处理请求时出错（{type(exc).__name__}: {exc}），完整的 traceback 在服务器的日志里。",
        type="server_error",
    )


# ---------------------------------------------------------------------------------------------
# Streaming a reply while the backend generates it
# ---------------------------------------------------------------------------------------------

_END = object()


class _Pump:
    """Runs a backend's ``stream()`` generator in its own thread and hands each item to the event
    loop.

    One thread does the whole generation, so a backend's lock is taken and released in the same
    thread. ``cancel()`` (the client went away) makes the thread close the generator at its next
    item; a backend that yields a tick per token therefore stops within one token.
    """

    def __init__(self, start: Callable[[], Iterator[Any]]):
        self._loop = asyncio.get_running_loop()
        self._queue: asyncio.Queue[Any] = asyncio.Queue()
        self._cancelled = threading.Event()
        self._thread = threading.Thread(
            target=self._run, args=(start,), name="stream-pump", daemon=True
        )
        self._thread.start()

    def _put(self, item: Any) -> None:
        try:
            self._loop.call_soon_threadsafe(self._queue.put_nowait, item)
        except (
            RuntimeError
        ):  # the event loop is closed: the server is shutting down, nobody is listening
            self._cancelled.set()

    def _run(self, start: Callable[[], Iterator[Any]]) -> None:
        try:
            generator = start()
            try:
                for item in generator:
                    if self._cancelled.is_set():
                        break
                    self._put(item)
            finally:
                close = getattr(generator, "close", None)
                if callable(close):
                    close()  # stops the generation and frees the backend, also after a break
        except BaseException as exc:  # noqa: BLE001 - handed to the event loop, which answers the client
            self._put(exc)
        finally:
            self._put(_END)

    async def next(self) -> Any:
        """The next item, ``_END`` after the last one; an exception raised by the backend is raised
        here.
        """
        item = await self._queue.get()
        if isinstance(item, BaseException):
            raise item
        return item

    def cancel(self) -> None:
        self._cancelled.set()


async def _live_stream(backend: Any, chat: ChatRequest, writer: ChunkWriter) -> StreamingResponse:
    """Stream the reply of a ``StreamingBackend`` as it is generated.

    The response starts once the backend has accepted the request, so a refused request (too long
    for the context, say) still gets its HTTP status and JSON error body. After that, an error can
    only be reported inside the stream, as the API does, with an ``error`` event.
    """
    pump = _Pump(lambda: backend.stream(chat))
    try:
        first = await pump.next()  # a BackendError here becomes an ordinary error response
    except BaseException:
        pump.cancel()
        raise

    async def events() -> AsyncIterator[str]:
        item = first
        try:
            while item is not _END:
                if isinstance(item, ReplyDelta):
                    chunks = writer.text(item.content) + (
                        writer.tool_call(item.tool_call) if item.tool_call else []
                    )
                elif isinstance(item, Completion):
                    chunks = writer.finish(item)
                else:
                    raise TypeError(
                        f"A streaming backend yielded {type(item).__name__}; expected ReplyDelta or"
                        " Completion."
                    )
                for chunk in chunks:
                    yield sse_event(chunk)
                item = await pump.next()
        except BackendError as error:
            yield error_event(error)
        except Exception as exc:  # noqa: BLE001 - the stream has started: the error goes into it
            yield error_event(_internal_error(exc))
        finally:
            # the client left (this generator was cancelled or closed) or the reply is done
            pump.cancel()
        yield DONE_EVENT

    return StreamingResponse(events(), media_type="text/event-stream", headers=SSE_HEADERS)


# ---------------------------------------------------------------------------------------------
# The app
# ---------------------------------------------------------------------------------------------


def _clock(backend: Any, chat: ChatRequest) -> datetime:
    """Today for filling dates: the backend's clock (the simulator's can be fixed), as the prompt
    states it ("今天是 …")."""
    from .simulator.today import stated_now

    now = getattr(backend, "now", None)
    return stated_now(chat.messages, now() if callable(now) else datetime.now())


def _with_refusal(
    chunks: Iterator[dict[str, Any]], refusal: str | None
) -> Iterator[dict[str, Any]]:
    """A stream whose reply is a refusal: after the role chunk, the refusal in pieces under
    ``delta.refusal``, as the API streams it."""
    for index, chunk in enumerate(chunks):
        yield chunk
        if index == 0 and refusal:
            for piece in split_pieces(refusal):
                yield {
                    **chunk,
                    "choices": [
                        {
                            "index": 0,
                            "delta": {"refusal": piece},
                            "logprobs": None,
                            "finish_reason": None,
                        }
                    ],
                }


def _model_object(model_id: str) -> dict[str, Any]:
    return {"id": model_id, "object": "model", "created": 0, "owned_by": OWNER}


def create_app(backend: Backend) -> FastAPI:
    """An OpenAI-compatible app serving ``backend`` under ``/v1``."""
    app = FastAPI(
        title="handwritten-agent offline server", docs_url=None, redoc_url=None, openapi_url=None
    )
    system_fingerprint = fingerprint(backend)
    streams_live = callable(getattr(backend, "stream", None))

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        # Wrong paths and methods get the real API's error shape, e.g. a base URL missing "/v1".
        message = (
            f"Invalid URL ({request.method} {request.url.path})"
            if exc.status_code in (404, 405)
            else str(exc.detail)
        )
        return JSONResponse(
            BackendError(exc.status_code, message).body(), status_code=exc.status_code
        )

    @app.get("/v1/models")
    async def list_models() -> JSONResponse:
        try:
            models = await run_in_threadpool(backend.list_models)
        except Exception as exc:  # noqa: BLE001 - any backend failure becomes a 500 body
            return error_response(_internal_error(exc))
        return JSONResponse({"object": "list", "data": [_model_object(m) for m in models]})

    @app.get("/v1/models/{model_id:path}")
    async def retrieve_model(model_id: str) -> JSONResponse:
        try:
            models = await run_in_threadpool(backend.list_models)
            base, options = split_model_name(model_id)
            if base not in models:
                raise BackendError(
                    404,
                    # OpenAI's words
                    f"The model `{model_id}` does not exist or you do not have access to it.",
                    param="model",
                    code="model_not_found",
                )
            if base == SIMULATOR_MODEL:
                validate_options(model_id, options)
        except BackendError as error:
            return error_response(error)
        except Exception as exc:  # noqa: BLE001
            return error_response(_internal_error(exc))
        return JSONResponse(_model_object(model_id))

    @app.post("/v1/chat/completions")
    async def chat_completions(request: Request) -> Any:
        raw = await request.body()
        try:
            body = decode_body(raw)
            models = await run_in_threadpool(backend.list_models)
            chat = parse_request(body, models, request.headers.get("x-course-fault"))
            imitated = provider_error(chat, body)  # course-sim:no_tools and the like
            if imitated is not None:
                raise imitated
            chat = as_templated(chat)  # course-sim:drops_tools
            meta = {
                "response_id": completion_id(raw),
                "model": chat.model,
                "created": int(time.time()),
                "fingerprint": system_fingerprint,
            }
            include_usage = bool((chat.extra.get("stream_options") or {}).get("include_usage"))
            structure = read_structure(chat)  # response_format and strict tools, or a 400
            if chat.stream and streams_live:
                return await _live_stream(
                    backend, chat, ChunkWriter(include_usage=include_usage, **meta)
                )
            completion = await run_in_threadpool(backend.complete, for_backend(chat, structure))
            refusal = None
            if structure.active:
                reply = shape_reply(
                    completion,
                    chat,
                    structure,
                    _clock(backend, chat),
                    fill_content=not getattr(backend, "structured_outputs", False),
                )
                completion, refusal = reply.completion, reply.refusal
            completion = apply_max_tokens(apply_stop(completion, chat.stop), chat.max_tokens)
            completion = as_parsed(completion, chat)  # course-sim:text_tool_calls
        except BackendError as error:
            return error_response(error)
        except Exception as exc:  # noqa: BLE001 - the server answers 500 and keeps running
            return error_response(_internal_error(exc))

        if not chat.stream:
            body = completion_body(completion, **meta)
            body["choices"][0]["message"]["refusal"] = refusal
            return JSONResponse(body)
        chunks = stream_chunks(completion, include_usage=include_usage, **meta)
        return StreamingResponse(
            sse(_with_refusal(chunks, refusal)),
            media_type="text/event-stream",
            headers=SSE_HEADERS,
        )

    return app


# ---------------------------------------------------------------------------------------------
# Running it
# ---------------------------------------------------------------------------------------------


def make_backend(
    backend: str | Backend = "offline", *, model_path: str | None = None, now: Any = None
) -> Backend:
    """``"offline"`` → the course simulator, ``"local"`` → the llama.cpp model, or a ready Backend
    instance.
    """
    if backend == "offline":
        from .simulator import CourseSimulator

        return CourseSimulator(now=now)
    if backend == "local":
        from .local import LocalBackend

        return LocalBackend(model_path)
    if isinstance(backend, str):
        raise ValueError(
            f"不认识的后端 {backend!r}：请用 'offline'（课程模拟器）、'local'（llama.cpp 本地模"
            "型），或者传入一个 Backend 实例。"
        )
    return backend


class OfflineServer(BackgroundServer):
    """The OpenAI-compatible server running in a background thread: ``.base_url`` to give the SDK,
    ``.stop()`` to end it (also a context manager), ``.backend`` what answers."""

    def __init__(
        self,
        backend: Backend,
        host: str = "127.0.0.1",
        port: int = 0,
        *,
        startup_timeout: float = 10.0,
    ):
        self.backend = backend
        super().__init__(
            create_app(backend),
            host,
            port,
            startup_timeout=startup_timeout,
            lifespan="off",
            name="offline-server",
        )
        self.base_url = f"{self.url}/v1"

    def stop(self, timeout: float = 5.0) -> None:
        """Stop uvicorn (bounded wait), then close the backend (the local model frees its memory).
        Safe to call twice.
        """
        super().stop(timeout)
        close = getattr(self.backend, "close", None)
        if callable(close):
            close()

    def __repr__(self) -> str:
        running = "running" if self._thread.is_alive() else "stopped"
        return (
            f"OfflineServer({self.url}/v1,"
            f" backend={getattr(self.backend, 'name', type(self.backend).__name__)!r}, {running})"
        )


_bind = bind  # the name the tests use for the listening socket (see background.bind on IPPROTO_TCP)


def serve(
    port: int = 0,
    host: str = "127.0.0.1",
    backend: str | Backend = "offline",
    *,
    model_path: str | None = None,
    now: Any = None,
    startup_timeout: float = 10.0,
) -> OfflineServer:
    """Start the server in a background thread and return once it accepts connections.

    ``port=0`` picks a free port. ``backend`` is ``"offline"`` (the course simulator, with the clock
    ``now`` if given), ``"local"`` (the llama.cpp model at ``model_path``) or a Backend instance.
    """
    return OfflineServer(
        make_backend(backend, model_path=model_path, now=now),
        host,
        port,
        startup_timeout=startup_timeout,
    )


def serve_forever(
    host: str = "127.0.0.1",
    port: int = 8765,
    backend: str | Backend = "offline",
    model_path: str | None = None,
) -> int:
    """Run the server in the foreground until Ctrl+C (or SIGTERM); print how to point a client at
    it.
    """
    stop = threading.Event()
    if threading.current_thread() is threading.main_thread():
        # Before the server starts: a SIGTERM that arrives as soon as it answers must end it cleanly
        # too.
        signal.signal(signal.SIGTERM, lambda *_: stop.set())
    running = serve(port=port, host=host, backend=backend, model_path=model_path)
    try:
        models = running.backend.list_models()
        label = getattr(running.backend, "name", type(running.backend).__name__)
        if SIMULATOR_MODEL in models and "不是 LLM" not in label:
            label += "（规则引擎，不是 LLM）"
        model = SIMULATOR_MODEL if SIMULATOR_MODEL in models else (models[0] if models else "MODEL")
        print(
            f"handwritten-agent 服务器 · 后端：{label} · 地址：{running.base_url} ·"
            f" 模型：{'、'.join(models)}",
            flush=True,
        )
        print(
            f"export LLM_BASE_URL={running.base_url} LLM_API_KEY=any LLM_MODEL={model}"
            "   # 然后运行 notebook；Ctrl+C 停止服务器",
            flush=True,
        )
        # Deliberately unbounded: this is the foreground server; Ctrl+C or SIGTERM ends it.
        while not stop.wait(0.5):
            pass
    except KeyboardInterrupt:
        pass
    finally:
        running.stop()
    print("服务器已停止", flush=True)
    return 0


@contextmanager
def serve_process(
    backend: str = "offline", *, model_path: str | None = None, startup_timeout: float = 120
) -> Iterator[str]:
    """``python -m handwritten_agent serve --port 0`` as a process of its own; yields its base URL
    once it listens.

    The server as a learner runs it from a terminal, for benchmarks and tests that must not share
    this process (the local model: two llama.cpp models in one process slow each other down). The
    URL is read from the banner ``serve_forever`` prints; the process is stopped when the ``with``
    block ends.
    """
    command = [
        sys.executable,
        "-m",
        "handwritten_agent",
        "serve",
        "--backend",
        backend,
        "--port",
        "0",
    ]
    if model_path:
        command += ["--model", model_path]
    process = subprocess.Popen(
        command,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    assert process.stdout is not None
    output = process.stdout
    try:
        said: list[str] = []
        deadline = (
            time.monotonic() + startup_timeout
        )  # the first start may assemble the local model from its parts
        while time.monotonic() < deadline:
            line = output.readline()
            if not line:  # end of output: the process has exited (or is about to)
                if process.wait(timeout=max(0.1, deadline - time.monotonic())) is not None:
                    break
            said.append(line)
            found = re.search(r"地址：(http://\S+)", line)
            if found:
                # keep reading what it prints, so a full pipe never blocks the server
                threading.Thread(target=lambda: [None for _ in output], daemon=True).start()
                yield found.group(1)
                return
        raise RuntimeError("serve 命令没有打印出它的地址。它的输出是：\n" + "".join(said[-20:]))
    finally:
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=5)
