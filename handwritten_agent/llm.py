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

Left out: async, multiple choices (``n > 1``), the Responses API, and retrying a stream that already
produced output (a half-delivered answer cannot be un-shown).
"""

from __future__ import annotations

import atexit
import dataclasses
import email.utils
import math
import socket
import ssl
import threading
import time
from dataclasses import dataclass
from typing import Any, Callable, Iterator, Literal, Mapping, Sequence

import openai

from .config import PRESETS, SIMULATOR_MODEL, ConfigError, Settings, _display_url, read_variables, resolve
from .messages import ChatResult, ToolCall, Usage

DEFAULT_BACKOFF = 0.5  # seconds before the first retry; doubles each time
DEFAULT_MAX_WAIT = 20.0  # no single wait between attempts is longer than this
OFFLINE_API_KEY = "offline-no-key-needed"  # the course's own server accepts any key


# ---------------------------------------------------------------------------------------------
# Errors
# ---------------------------------------------------------------------------------------------

class LLMError(Exception):
    """A model call failed. The message says what went wrong and how to fix it."""

    def __init__(self, message: str, *, status: int | None = None, server_message: str | None = None):
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


# ---------------------------------------------------------------------------------------------
# Results and stream events
# ---------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class StreamEvent:
    """One piece of a streamed reply.

    ``kind`` is ``content`` (``text`` is new answer text), ``reasoning`` (``text`` is new
    reasoning_content), ``tool_call`` (a piece of tool call ``index``: ``id`` and ``name`` on its first
    piece, ``text`` the next piece of its argument JSON) or ``done`` (``result`` is the whole reply).
    """

    kind: Literal["content", "reasoning", "tool_call", "done"]
    text: str = ""
    index: int = 0
    id: str | None = None
    name: str | None = None
    result: ChatResult | None = None


def result_from_completion(response: Any) -> ChatResult:
    """Reduce an SDK ``ChatCompletion`` to a ``ChatResult`` (tool-call arguments kept as raw text)."""
    if not response.choices:
        raise LLMError(f"服务器的回复里没有任何 choice（模型 {response.model!r}），不符合 Chat Completions 格式。"
                       "请检查 LLM_BASE_URL 是否指向 OpenAI 兼容接口的根地址（…/v1）。")
    choice = response.choices[0]
    message = choice.message
    calls = [ToolCall(id=call.id or "", name=call.function.name or "", arguments=call.function.arguments or "")
             for call in (message.tool_calls or []) if getattr(call, "function", None) is not None]
    return ChatResult(content=message.content, tool_calls=calls, finish_reason=choice.finish_reason,
                      usage=_usage(response.usage), model=response.model or "", raw=response,
                      reasoning_content=_reasoning(message))


def _usage(usage: Any) -> Usage | None:
    if usage is None:
        return None
    return Usage(prompt_tokens=usage.prompt_tokens or 0, completion_tokens=usage.completion_tokens or 0)


def _reasoning(message_or_delta: Any) -> str | None:
    """DeepSeek sends ``reasoning_content``; some other servers call it ``reasoning``."""
    for name in ("reasoning_content", "reasoning"):
        value = getattr(message_or_delta, name, None)
        if isinstance(value, str):
            return value
    return None


class _StreamAssembler:
    """Builds the ``ChatResult`` from ``chat.completion.chunk``s while turning each into events."""

    def __init__(self) -> None:
        self.content: list[str] = []
        self.reasoning: list[str] = []
        self.saw_content = False
        self.calls: dict[int, dict[str, Any]] = {}
        self.finish_reason: str | None = None
        self.usage: Usage | None = None
        self.model = ""
        self.chunks: list[Any] = []

    def add(self, chunk: Any) -> Iterator[StreamEvent]:
        self.chunks.append(chunk)
        self.model = chunk.model or self.model
        if getattr(chunk, "usage", None) is not None:
            self.usage = _usage(chunk.usage)
        for choice in chunk.choices or []:
            if choice.index != 0:
                continue
            delta = choice.delta
            if delta is not None:
                reasoning = _reasoning(delta)
                if reasoning:
                    self.reasoning.append(reasoning)
                    yield StreamEvent("reasoning", text=reasoning)
                if delta.content is not None:
                    self.saw_content = True
                    if delta.content:
                        self.content.append(delta.content)
                        yield StreamEvent("content", text=delta.content)
                for piece in delta.tool_calls or []:
                    call = self.calls.setdefault(piece.index, {"id": "", "name": "", "arguments": []})
                    new_id = piece.id if piece.id and not call["id"] else None
                    function = piece.function
                    new_name = function.name if function is not None and function.name and not call["name"] else None
                    arguments = (function.arguments or "") if function is not None else ""
                    call["id"] = call["id"] or (piece.id or "")
                    call["name"] = call["name"] or (new_name or "")
                    call["arguments"].append(arguments)
                    yield StreamEvent("tool_call", text=arguments, index=piece.index, id=new_id, name=new_name)
            if choice.finish_reason:
                self.finish_reason = choice.finish_reason

    def result(self) -> ChatResult:
        calls = [ToolCall(id=c["id"], name=c["name"], arguments="".join(c["arguments"]))
                 for _, c in sorted(self.calls.items())]
        content = "".join(self.content) if (self.content or self.saw_content) else None
        if content == "" and calls:
            content = None  # as in the non-streaming message of a tool-call-only reply
        return ChatResult(content=content, tool_calls=calls, finish_reason=self.finish_reason, usage=self.usage,
                          model=self.model, raw=self.chunks,
                          reasoning_content="".join(self.reasoning) if self.reasoning else None)


# ---------------------------------------------------------------------------------------------
# Retries
# ---------------------------------------------------------------------------------------------

def is_retryable(status: int) -> bool:
    """Only "try again later" answers are retried: 429 and 5xx. A 4xx will fail the same way again."""
    return status == 429 or status >= 500


def retry_after_seconds(headers: Mapping[str, str] | None) -> float | None:
    """What the server asks us to wait: ``retry-after-ms``, else ``Retry-After`` (seconds or an HTTP date)."""
    if not headers:
        return None
    lowered = {key.lower(): value for key, value in headers.items()}
    for name, divisor in (("retry-after-ms", 1000.0), ("retry-after", 1.0)):
        text = lowered.get(name)
        if text is None:
            continue
        try:
            value = float(text) / divisor
        except ValueError:
            value = _seconds_until(text) if name == "retry-after" else None
        if value is not None and math.isfinite(value) and value >= 0:
            return value
    return None


def _seconds_until(http_date: str) -> float | None:
    try:
        moment = email.utils.parsedate_to_datetime(http_date)
    except (TypeError, ValueError):
        return None
    return max(0.0, moment.timestamp() - time.time())


def retry_delay(retry: int, headers: Mapping[str, str] | None = None, *, backoff: float = DEFAULT_BACKOFF,
                max_wait: float = DEFAULT_MAX_WAIT) -> float:
    """Seconds to wait before retry number ``retry`` (0 = the first retry).

    The server's ``Retry-After`` wins; otherwise ``backoff * 2**retry``. Never more than ``max_wait``.
    No random jitter: the same failure always waits the same time, which keeps lessons and tests
    reproducible (a fleet of clients would add jitter to avoid retrying in lockstep).
    """
    asked = retry_after_seconds(headers)
    wait = asked if asked is not None else backoff * (2 ** retry)
    return max(0.0, min(wait, max_wait))


@dataclass(frozen=True)
class RetryNotice:
    """Passed to ``on_retry`` before each wait."""

    attempt: int  # the attempt that failed, 1-based
    status: int
    wait: float  # seconds about to be slept
    server_asked: float | None  # what Retry-After asked for, if anything
    message: str


# ---------------------------------------------------------------------------------------------
# The client
# ---------------------------------------------------------------------------------------------

class ChatClient:
    """A Chat Completions client for one server and default model. Satisfies ``types.ChatModel``."""

    def __init__(self, base_url: str, api_key: str | None, model: str, *, timeout: float = 60,
                 max_retries: int = 3, label: str | None = None, backoff: float = DEFAULT_BACKOFF,
                 max_wait: float = DEFAULT_MAX_WAIT, on_retry: Callable[[RetryNotice], None] | None = None,
                 sleep: Callable[[float], None] = time.sleep, default_headers: Mapping[str, str] | None = None):
        if max_retries < 0:
            raise ValueError(f"max_retries 必须是 0 或更大的整数，收到的是 {max_retries}。")
        self.base_url = base_url.rstrip("/")
        self.model = model
        self.timeout = float(timeout)
        self.max_retries = max_retries
        self.label = label or "服务器"
        self.backoff = backoff
        self.max_wait = max_wait
        self.on_retry = on_retry
        self._sleep = sleep
        self._api_key = api_key
        self.stream_usage = True  # ask streams for usage; False once a server rejected stream_options
        # The SDK insists on a key; servers that need none (Ollama, the course's own) accept any text.
        self._sdk = openai.OpenAI(base_url=self.base_url, api_key=api_key or "no-key", timeout=self.timeout,
                                  max_retries=0, default_headers=dict(default_headers or {}))

    @classmethod
    def from_settings(cls, settings: Settings, **kwargs: Any) -> "ChatClient":
        """A client for remote settings (or offline/local ones whose server already runs, with ``base_url`` set)."""
        if not settings.base_url or not settings.model:
            raise ValueError(f"{settings.backend} 后端的服务器还没有启动。请用 handwritten_agent.llm.connect()："
                             "它会启动服务器并返回一个客户端。")
        label = settings.preset.title if settings.preset else None
        return cls(settings.base_url, settings.api_key, settings.model, timeout=settings.timeout,
                   max_retries=settings.max_retries, label=label, **kwargs)

    def __repr__(self) -> str:
        return f"ChatClient({self.label!r}, base_url={_display_url(self.base_url)!r}, model={self.model!r})"

    # -- the two calls -----------------------------------------------------------------------

    def complete(self, messages: Sequence[Any], tools: Sequence[dict[str, Any]] | None = None, *,
                 model: str | None = None, **options: Any) -> ChatResult:
        """One non-streaming call. ``options`` go to the API as is (temperature, tool_choice, …)."""
        model = model or self.model
        params = self._params(messages, tools, model, options)
        response = self._with_retries(lambda: self._sdk.chat.completions.create(**params), model)
        try:
            return result_from_completion(response)
        except LLMError:
            raise
        except (AttributeError, TypeError) as exc:
            raise LLMError(f"{self.label}的回复不是 Chat Completions 格式（读取时出现 {type(exc).__name__}）。"
                           "请检查 LLM_BASE_URL 是否指向 OpenAI 兼容接口的根地址（…/v1）。") from exc

    def stream(self, messages: Sequence[Any], tools: Sequence[dict[str, Any]] | None = None, *,
               model: str | None = None, **options: Any) -> Iterator[StreamEvent]:
        """A streaming call: events as the reply arrives, then one ``done`` event with the whole ``ChatResult``.

        Usage is requested with ``stream_options={"include_usage": True}`` (without it the API streams no
        usage at all, and the reply's ``usage`` is None — unknown, not 0). A server that rejects the option
        with a 400 naming it is asked again without it, and this client stops asking (``stream_usage``
        becomes False). Pass ``stream_options=None`` to never ask. The request is sent when iteration starts.
        """
        model = model or self.model
        params = self._params(messages, tools, model, options)
        params["stream"] = True
        asked_usage = "stream_options" not in params and self.stream_usage
        if asked_usage:
            params["stream_options"] = {"include_usage": True}
        elif params.get("stream_options", 0) is None:
            del params["stream_options"]
        try:
            sdk_stream = self._with_retries(lambda: self._sdk.chat.completions.create(**params), model)
        except BadRequest as exc:
            if not (asked_usage and "stream_options" in (exc.server_message or "")):
                raise
            self.stream_usage = False  # this server does not know the option: ask without it, now and later
            del params["stream_options"]
            sdk_stream = self._with_retries(lambda: self._sdk.chat.completions.create(**params), model)
        assembler = _StreamAssembler()
        try:
            for chunk in sdk_stream:
                yield from assembler.add(chunk)
        except openai.OpenAIError as exc:
            raise self._translate(exc, model, attempts=1) from exc
        finally:
            sdk_stream.close()
        yield StreamEvent("done", result=assembler.result())

    def models(self) -> list[str]:
        """The model ids the server lists at ``GET /models``."""
        try:
            return [item.id for item in self._sdk.models.list()]
        except openai.OpenAIError as exc:
            raise self._translate(exc, self.model, attempts=1) from exc

    # -- internals ---------------------------------------------------------------------------

    def _params(self, messages: Sequence[Any], tools: Sequence[dict[str, Any]] | None, model: str,
                options: dict[str, Any]) -> dict[str, Any]:
        params: dict[str, Any] = {"model": model, "messages": [_wire_message(m) for m in messages]}
        if tools:
            params["tools"] = list(tools)
        params.update(options)
        return params

    def _with_retries(self, call: Callable[[], Any], model: str) -> Any:
        attempts = self.max_retries + 1
        for attempt in range(1, attempts + 1):  # bounded: 1 + max_retries attempts
            try:
                return call()
            except openai.APIStatusError as exc:
                if not is_retryable(exc.status_code) or attempt == attempts:
                    raise self._translate(exc, model, attempts=attempt) from exc
                asked = retry_after_seconds(exc.response.headers)
                wait = retry_delay(attempt - 1, exc.response.headers, backoff=self.backoff, max_wait=self.max_wait)
                if self.on_retry is not None:
                    self.on_retry(RetryNotice(attempt=attempt, status=exc.status_code, wait=wait, server_asked=asked,
                                              message=_server_message(exc)))
                self._sleep(wait)
            except openai.OpenAIError as exc:
                raise self._translate(exc, model, attempts=attempt) from exc
        raise AssertionError("unreachable: the last attempt returns or raises")

    def _translate(self, exc: openai.OpenAIError, model: str, *, attempts: int) -> LLMError:
        """The SDK exception as one of ours, with a message that says what to fix."""
        url = _display_url(self.base_url)
        where = f"{self.label}（{url}）"
        if isinstance(exc, openai.APITimeoutError):
            return RequestTimeout(
                f"{where}在 {self.timeout:g} 秒内没有回复（模型 {model!r}）。模型较慢时请在 .env 里调大 LLM_TIMEOUT"
                "（例如 LLM_TIMEOUT=120），或者检查服务器是不是过载了。")
        if isinstance(exc, openai.APIConnectionError):
            return ConnectionFailed(
                f"连不上{where}：{_connection_reason(exc)}。请检查 .env 里的 LLM_BASE_URL（协议、主机、端口和 /v1 路径），"
                "并确认服务已经启动：例如 Ollama 要先运行 `ollama serve`，课程自己的服务器是 "
                "`python -m handwritten_agent serve`。")
        if not isinstance(exc, openai.APIStatusError):
            return LLMError(f"调用{where}失败（{type(exc).__name__}：{self._mask(str(exc))}）。"
                            "请检查 .env 里的 LLM_BASE_URL 和 LLM_MODEL。")

        status = exc.status_code
        said = self._mask(_server_message(exc))
        quoted = said.rstrip(". ")  # for quoting inside our own sentence
        tries = f"共尝试 {attempts} 次"
        common = {"status": status, "server_message": said}
        if status in (401, 403):
            verdict = "拒绝了这个 API 密钥" if status == 401 else "不允许用这个 API 密钥访问"
            return AuthenticationFailed(
                f"{where}{verdict}（HTTP {status}：{quoted}）。请检查 .env 里的 LLM_API_KEY：密钥要完整，不带引号和空格，"
                "而且属于这个服务商（DeepSeek 的密钥在 OpenAI 用不了）；密钥没错的话，再确认你的账户有权使用这个模型。",
                **common)
        if status == 404:
            return self._not_found(where, model, quoted, common)
        if status == 429:
            return RateLimited(
                f"{where}一直在限流：{tries}，仍然是 HTTP 429（{quoted}）。请等一会儿再试、减少请求，"
                "或者在 .env 里调大 LLM_MAX_RETRIES；一直这样的话，检查账户的额度或余额。", **common)
        if status >= 500:
            return ServerError(
                f"{where}返回 HTTP {status}，{tries}都失败了（{quoted}）。问题出在服务端：请稍后再试"
                "（自动重试几次由 .env 里的 LLM_MAX_RETRIES 决定）；如果服务是你自己运行的，请查看它的日志。", **common)
        hint = ""
        if "does not support tools" in said:
            hint = (f"模型 {model!r} 在这个服务上不能调用工具：请在 .env 里把 LLM_MODEL 改成支持工具的模型"
                    "（Ollama 上例如 qwen2.5:7b 或 llama3.1，先 `ollama pull`）。")
        elif status == 400:
            hint = "这是请求本身的问题（消息、工具或参数），不是连接问题。"
        return BadRequest(f"{where}拒绝了这个请求（HTTP {status}）：{quoted}。{hint}", **common)

    def _not_found(self, where: str, model: str, quoted: str, common: dict[str, Any]) -> ModelNotFound:
        try:
            available = [item.id for item in self._sdk.with_options(timeout=min(self.timeout, 5.0)).models.list()]
        except Exception:  # noqa: BLE001 - listing is a courtesy; the 404 is what we report
            available = None
        if available is None:
            return ModelNotFound(
                f"{where}返回 404 Not Found（{quoted}），而且也列不出模型列表。请检查 .env 里的 LLM_BASE_URL："
                "它应该是 API 根地址，通常以 /v1 结尾；然后再检查 LLM_MODEL。", **common)
        listed = "、".join(available[:30]) + (" …" if len(available) > 30 else "") if available else "（没有）"
        return ModelNotFound(
            f"{where}没有名为 {model!r} 的模型（HTTP 404：{quoted}）。请检查 .env 里的 LLM_MODEL（或 model= 参数）。"
            f"这个服务器提供的模型：{listed}。", available=available, **common)

    def _mask(self, text: str) -> str:
        """Servers sometimes echo the key in an error message; never pass it on."""
        if self._api_key and len(self._api_key) >= 8 and self._api_key in text:
            text = text.replace(self._api_key, self._api_key[:3] + "***")
        return text


def _server_message(exc: openai.APIStatusError) -> str:
    body = exc.body
    if isinstance(body, dict) and isinstance(body.get("message"), str):
        return body["message"]
    if isinstance(body, str) and body.strip():
        return body.strip()[:500]
    try:
        text = exc.response.text.strip()
    except Exception:  # noqa: BLE001 - a streamed response may not be readable
        text = ""
    return text[:500] or exc.response.reason_phrase or "（没有说明）"


def _connection_reason(exc: BaseException) -> str:
    """Why a connection failed, in Chinese, from the exception chain (never the interpreter's own wording)."""
    seen: list[BaseException] = []
    link: BaseException | None = exc
    while link is not None and link not in seen and len(seen) < 10:
        seen.append(link)
        link = link.__cause__ or link.__context__
    for link in seen:
        if isinstance(link, ConnectionRefusedError):
            return "连接被拒绝（这个地址和端口上没有程序在监听）"
        if isinstance(link, socket.gaierror):
            return "找不到这个主机名（域名写错了，或者没有网络）"
        if isinstance(link, ssl.SSLError):
            return "TLS/SSL 握手失败（http 和 https 写反了，或者证书有问题）"
    text = " ".join(str(link) for link in seen).lower()
    for needle, reason in (("refused", "连接被拒绝（这个地址和端口上没有程序在监听）"),
                           ("name or service not known", "找不到这个主机名（域名写错了，或者没有网络）"),
                           ("nodename nor servname", "找不到这个主机名（域名写错了，或者没有网络）"),
                           ("getaddrinfo", "找不到这个主机名（域名写错了，或者没有网络）"),
                           ("ssl", "TLS/SSL 握手失败（http 和 https 写反了，或者证书有问题）"),
                           ("reset", "连接被对方重置"),
                           ("unreachable", "网络不可达")):
        if needle in text:
            return reason
    return f"网络连接失败（{type(seen[-1]).__name__}）"


def _wire_message(message: Any) -> Any:
    """Accept what learners naturally append: dicts, our ChatResult, or the SDK's message object."""
    if isinstance(message, ChatResult):
        return message.to_message()
    if hasattr(message, "model_dump") and not isinstance(message, dict):
        return message.model_dump(exclude_none=True)
    return message


# ---------------------------------------------------------------------------------------------
# connect(): the one call notebooks make
# ---------------------------------------------------------------------------------------------

_servers: dict[tuple[str, str | None], Any] = {}
_servers_lock = threading.Lock()


def shared_server(backend: str = "offline", model_path: str | None = None) -> Any:
    """The one in-process server per backend (and model file) in this process, started on first use and
    stopped at interpreter exit. It has ``.base_url``; do not ``stop()`` it yourself."""
    key = (backend, model_path)
    with _servers_lock:
        server = _servers.get(key)
        if server is None:
            from .course.offline import serve

            server = serve(backend=backend, model_path=model_path)
            if not _servers:
                atexit.register(_stop_shared_servers)
            _servers[key] = server
        return server




def _stop_shared_servers() -> None:
    with _servers_lock:
        for server in _servers.values():
            server.stop()
        _servers.clear()


def _settings_for(backend: str | None, settings: Settings | None) -> Settings:
    if backend is not None and backend not in ("offline", "local", "remote"):
        raise ValueError(f"backend={backend!r} 不是 'offline'、'local'、'remote' 之一（不传或传 None 就按 .env 决定）。")
    if settings is None:
        values, env_file = read_variables()
        if backend in ("offline", "local"):
            # An explicit backend wins over any endpoint in .env; only timeout/retries still apply.
            keep = ["LLM_TIMEOUT", "LLM_MAX_RETRIES"]
            if backend == "local" and values.get("LLM_PROVIDER", "").lower() == "local":
                keep.append("LLM_MODEL")
            values = {name: values[name] for name in keep if name in values}
            values["LLM_PROVIDER"] = backend
        settings = resolve(values, env_file=env_file)
    elif backend in ("offline", "local") and settings.backend != backend:
        settings = Settings(backend=backend, model=SIMULATOR_MODEL if backend == "offline" else None,  # type: ignore[arg-type]
                            timeout=settings.timeout, max_retries=settings.max_retries, env_file=settings.env_file)
    if backend == "remote" and settings.backend != "remote":
        raise ConfigError("LLM_BASE_URL", "connect('remote') 需要一个服务：请在 .env 里把 LLM_PROVIDER 设为一个预设"
                          f"（{'、'.join(PRESETS)}），或者设置 LLM_BASE_URL 和 LLM_MODEL。")
    return settings


def connect(backend: str | None = None, *, model: str | None = None, quiet: bool = False,
            settings: Settings | None = None) -> ChatClient:
    """A ready ``ChatClient`` for the active backend, with its banner line printed (unless ``quiet``).

    ``backend=None`` follows ``.env`` / the environment (see ``config``); ``"offline"`` always uses the
    course simulator, even when ``.env`` names a provider — for cells that need its fixed behaviour;
    ``"local"`` the embedded llama.cpp model; ``"remote"`` the provider in ``.env``. ``model``
    overrides the default model, e.g. ``connect("offline", model="course-sim:rate_limit")``.
    """
    settings = _settings_for(backend, settings)
    if settings.backend == "offline":
        server = shared_server("offline")
        settings = dataclasses.replace(settings, base_url=server.base_url, model=model or settings.model or SIMULATOR_MODEL)
        client = ChatClient(server.base_url, OFFLINE_API_KEY, settings.model, timeout=settings.timeout,
                            max_retries=settings.max_retries, label="离线课程模拟器")
    elif settings.backend == "local":
        server = shared_server("local", settings.model)
        served = server.backend.list_models()
        chosen = model or (served[0] if served else "local")
        settings = dataclasses.replace(settings, base_url=server.base_url, model=chosen)
        client = ChatClient(server.base_url, OFFLINE_API_KEY, chosen, timeout=settings.timeout,
                            max_retries=settings.max_retries, label="本地 llama.cpp 模型")
    else:
        if model:
            settings = dataclasses.replace(settings, model=model)
        client = ChatClient.from_settings(settings)
    if not quiet:
        print(settings.banner())
    return client
