"""``ChatClient``: one model call over the official ``openai`` SDK — a normalized result, retries,
errors with the fix.

Left out: choosing the backend and starting the course's own server (``connect``).
"""

from __future__ import annotations

import socket
import ssl
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import asdict, replace
from typing import Any

import openai

from ..config import Settings, _display_url
from ..masking import HIDDEN
from ..messages import ChatResult
from ..reporting import report
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
from .replies import StreamEvent, _StreamAssembler, result_from_completion
from .retry import (
    DEFAULT_BACKOFF,
    DEFAULT_MAX_WAIT,
    RetryNotice,
    is_retryable,
    retry_after_seconds,
    retry_delay,
)
from .template_check import TEMPLATE_FIX, TEXT_CALLS_FIX, TemplateVerdict, probe

# ---------------------------------------------------------------------------------------------
# The client
# ---------------------------------------------------------------------------------------------


class ChatClient:
    """A Chat Completions client for one server and default model. Satisfies ``types.ChatModel``."""

    def __init__(
        self,
        base_url: str,
        api_key: str | None,
        model: str,
        *,
        timeout: float = 60,
        max_retries: int = 3,
        label: str | None = None,
        backoff: float = DEFAULT_BACKOFF,
        max_wait: float = DEFAULT_MAX_WAIT,
        on_retry: Callable[[RetryNotice], None] | None = None,
        sleep: Callable[[float], None] = time.sleep,
        default_headers: Mapping[str, str] | None = None,
        prompt_fallback: bool = True,
        check_template: bool = False,
    ):
        """``prompt_fallback``: when the server refuses native ``tools`` for this model, go on with
        the tools described in the prompt (``prompt_tools.PromptTools``, Day 2's way) instead of
        failing; ``tools_in_prompt`` then stays True for this client. ``check_template``: before
        the first call with tools, ask the server whether its chat template shows the model the
        schemas at all (``template_check``); when it does not, say so and use the prompt too
        (``from_settings`` turns this on for servers a learner runs themselves)."""
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
        # ask streams for usage; False once a server rejected stream_options
        self.stream_usage = True
        self.prompt_fallback = prompt_fallback
        self.tools_in_prompt = False  # True once the server refused native tools (see complete)
        self.check_template = check_template
        self.template: TemplateVerdict | None = None  # the check's verdict, once made
        self.text_calls_read = False  # True once a reply's text calls were read (and said)
        self.streamed_text_calls_said = False  # True once a stream's were (the text was shown)
        self.prompt_stream_said = False  # True once a stream in prompt mode said it comes whole
        # The SDK insists on a key; servers that need none (Ollama, the course's own) accept any
        # text.
        self._sdk = openai.OpenAI(
            base_url=self.base_url,
            api_key=api_key or "no-key",
            timeout=self.timeout,
            max_retries=0,
            default_headers=dict(default_headers or {}),
        )

    @classmethod
    def from_settings(cls, settings: Settings, **kwargs: Any) -> ChatClient:
        """A client for remote settings (or offline/local ones whose server already runs, with
        ``base_url`` set).
        """
        if not settings.base_url or not settings.model:
            raise ValueError(
                f"{settings.backend} 后端的服务器还没有启动。请用 handwritten_agent.llm.connect()："
                "它会启动服务器并返回一个客户端。"
            )
        label = settings.preset.title if settings.preset else None
        # a cloud provider's templates are its own business; a server run by hand may drop tools
        kwargs.setdefault("check_template", not (settings.preset and settings.preset.requires_key))
        return cls(
            settings.base_url,
            settings.api_key,
            settings.model,
            timeout=settings.timeout,
            max_retries=settings.max_retries,
            label=label,
            **kwargs,
        )

    def __repr__(self) -> str:
        return (
            f"ChatClient({self.label!r}, base_url={_display_url(self.base_url)!r},"
            f" model={self.model!r})"
        )

    # -- tools through the prompt, for a model that cannot take them natively ----------------

    def _prompt_tools(self) -> Any:
        from ..prompt_tools import PromptTools  # Day 2's mode, above this module

        return PromptTools(_NativeOnly(self))

    def _switch_to_prompt(self, why: str) -> None:
        self.tools_in_prompt = True
        note = f"{why}从现在起，这个客户端把工具写进系统提示词（Day 2 的方式），工具和运行都不变。"
        if not report("prompt_tools", note=note):  # outside a run nobody else would say it
            print(f"提示：{note}")

    def _check_template(self, model: str) -> None:
        """Once per client (``template_check``): whether the server's template leaves the tool
        schemas out. If it does, say so, and switch to the prompt when ``prompt_fallback`` allows
        (streams too: ``_prompt_stream``).
        """
        if self.check_template and not self.tools_in_prompt and self.template is None:
            self.template = probe(self._sdk.chat.completions.create, model)
            if self.template.reaches is False:
                why = (
                    f"{self.label}的聊天模板没有把工具定义交给模型 {model!r}"
                    f"（{self.template.numbers()}），模型看不到工具。{TEMPLATE_FIX}"
                )
                if self.prompt_fallback:
                    self._switch_to_prompt(why)
                elif not report("prompt_tools", note=why):
                    print(f"提示：{why}")

    def _read_text_calls(
        self,
        result: ChatResult,
        tools: Sequence[dict[str, Any]],
        model: str,
        *,
        streamed: bool = False,
    ) -> ChatResult:
        """A reply that is nothing but tool calls written as text, from a server whose template
        showed the model the tools but whose parser did not read its calls back: the calls, read
        with Day 2's parser (said once per client; for a stream, that its text, already shown, was
        those calls is said once too)."""
        from ..prompt_tools import calls_written_as_text  # Day 2's parser, above this module

        calls = calls_written_as_text(result.content, tools)
        if not calls:
            return result
        notes = []
        if not self.text_calls_read:
            self.text_calls_read = True
            notes.append(
                f"{self.label}没有把模型 {model!r} 写出的工具调用解析成 tool_calls，而是当成文字"
                f"返回了（{(result.content or '').strip()[:60]!r}）：服务端的模板把工具交给了模型，"
                "却不认识模型写调用的格式。课程的客户端用第 2 天的解析器把这些调用读了出来，"
                f"运行照常进行。{TEXT_CALLS_FIX}"
            )
        if streamed and not self.streamed_text_calls_said:
            self.streamed_text_calls_said = True
            notes.append(
                "刚才流式显示出来的那段文字其实是工具调用，不是回答：流式输出没法收回已经显示的"
                "文字，所以它留在屏幕上，运行按工具调用继续。"
            )
        if notes and not report("prompt_tools", note="".join(notes)):
            print(f"提示：{''.join(notes)}")
        return replace(result, content=None, tool_calls=calls, finish_reason="tool_calls")

    # -- the two calls -----------------------------------------------------------------------

    def complete(
        self,
        messages: Sequence[Any],
        tools: Sequence[dict[str, Any]] | None = None,
        *,
        model: str | None = None,
        **options: Any,
    ) -> ChatResult:
        """One non-streaming call. ``options`` go to the API as is (temperature, tool_choice, …)."""
        model = model or self.model
        if tools:
            self._check_template(model)
        if tools and self.tools_in_prompt:
            return self._prompt_tools().complete(messages, tools, model=model, **options)
        params = self._params(messages, tools, model, options)
        try:
            response = self._with_retries(
                lambda: self._sdk.chat.completions.create(**params), model
            )
        except ToolsUnsupported as exc:
            if not (tools and self.prompt_fallback):
                raise
            self._switch_to_prompt(
                f"{self.label}不接受模型 {model!r} 的原生工具调用（{exc.server_message}）："
            )
            return self._prompt_tools().complete(messages, tools, model=model, **options)
        try:
            result = result_from_completion(response)
        except LLMError:
            raise
        except (AttributeError, TypeError) as exc:
            raise LLMError(
                f"{self.label}的回复不是 Chat Completions 格式（读取时出现 {type(exc).__name__}）。"
                "请检查 LLM_BASE_URL 是否指向 OpenAI 兼容接口的根地址（…/v1）。"
            ) from exc
        if tools and self.check_template and not result.tool_calls:
            return self._read_text_calls(result, tools, model)
        return result

    def stream(
        self,
        messages: Sequence[Any],
        tools: Sequence[dict[str, Any]] | None = None,
        *,
        model: str | None = None,
        **options: Any,
    ) -> Iterator[StreamEvent]:
        """A streaming call: events as the reply arrives, then one ``done`` event with the whole
        ``ChatResult``.

        Usage is requested with ``stream_options={"include_usage": True}`` (without it the API
        streams no usage at all, and the reply's ``usage`` is None — unknown, not 0). A server that
        rejects the option with a 400 naming it is asked again without it, and this client stops
        asking (``stream_usage`` becomes False). Pass ``stream_options=None`` to never ask. The
        request is sent when iteration starts.

        With ``check_template``, a reply whose text turns out to be tool calls the server did not
        read (see ``complete``) is read once the stream has ended: its text was already streamed
        as ``content`` events, and cannot be taken back; then come one ``tool_call`` event per
        call, and the ``done`` result holds the calls instead of the text (said once).

        In prompt mode (the server cannot take tools, or its template drops them) the stream
        switches like ``complete`` does, and the reply arrives in one piece (``_prompt_stream``).
        """
        model = model or self.model
        if tools:
            self._check_template(model)
        if tools and self.tools_in_prompt:
            yield from self._prompt_stream(messages, tools, model, options)
            return
        params = self._params(messages, tools, model, options)
        params["stream"] = True
        asked_usage = "stream_options" not in params and self.stream_usage
        if asked_usage:
            params["stream_options"] = {"include_usage": True}
        elif params.get("stream_options", 0) is None:
            del params["stream_options"]
        try:
            sdk_stream = self._with_retries(
                lambda: self._sdk.chat.completions.create(**params), model
            )
        except ToolsUnsupported as exc:
            if not (tools and self.prompt_fallback):
                raise
            self._switch_to_prompt(
                f"{self.label}不接受模型 {model!r} 的原生工具调用（{exc.server_message}）："
            )
            yield from self._prompt_stream(messages, tools, model, options)
            return
        except BadRequest as exc:
            if not (asked_usage and "stream_options" in (exc.server_message or "")):
                raise
            # this server does not know the option: ask without it, now and later
            self.stream_usage = False
            del params["stream_options"]
            sdk_stream = self._with_retries(
                lambda: self._sdk.chat.completions.create(**params), model
            )
        assembler = _StreamAssembler()
        try:
            for chunk in sdk_stream:
                yield from assembler.add(chunk)
        except openai.OpenAIError as exc:
            raise self._translate(exc, model, attempts=1) from exc
        finally:
            sdk_stream.close()
        result = assembler.result()
        if tools and self.check_template and not result.tool_calls:
            # text that was a tool call, now that all of it is here (its pieces were shown)
            result = self._read_text_calls(result, tools, model, streamed=True)
            for index, call in enumerate(result.tool_calls):
                yield StreamEvent(
                    "tool_call", text=call.arguments, index=index, id=call.id, name=call.name
                )
        yield StreamEvent("done", result=result)

    def _prompt_stream(
        self,
        messages: Sequence[Any],
        tools: Sequence[dict[str, Any]],
        model: str,
        options: dict[str, Any],
    ) -> Iterator[StreamEvent]:
        """A stream in prompt mode: the reply arrives in one piece. Whether the model's text is an
        answer or a JSON call is known only once all of it is there, and a call must never be shown
        as an answer, so the whole reply is read first (said once per client)."""
        if not self.prompt_stream_said:
            self.prompt_stream_said = True
            note = (
                "提示词模式下，模型写的是一段文字，要等整段写完才知道它是工具调用还是回答，"
                "所以流式输出会一次给出整段回复，而不是逐字显示。"
            )
            if not report("prompt_tools", note=note):
                print(f"提示：{note}")
        rest = {k: v for k, v in options.items() if k != "stream_options"}
        result = self._prompt_tools().complete(messages, tools, model=model, **rest)
        if result.content:
            yield StreamEvent("content", text=result.content)
        for index, call in enumerate(result.tool_calls):
            yield StreamEvent(
                "tool_call", text=call.arguments, index=index, id=call.id, name=call.name
            )
        yield StreamEvent("done", result=result)

    def models(self) -> list[str]:
        """The model ids the server lists at ``GET /models``."""
        try:
            return [item.id for item in self._sdk.models.list()]
        except openai.OpenAIError as exc:
            raise self._translate(exc, self.model, attempts=1) from exc

    # -- internals ---------------------------------------------------------------------------

    def _params(
        self,
        messages: Sequence[Any],
        tools: Sequence[dict[str, Any]] | None,
        model: str,
        options: dict[str, Any],
    ) -> dict[str, Any]:
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
                wait = retry_delay(
                    attempt - 1, exc.response.headers, backoff=self.backoff, max_wait=self.max_wait
                )
                notice = RetryNotice(
                    attempt=attempt,
                    status=exc.status_code,
                    wait=wait,
                    server_asked=asked,
                    message=_server_message(exc),
                )
                report(
                    "retry", **asdict(notice)
                )  # an event of the run this call is part of, if any
                if self.on_retry is not None:
                    self.on_retry(notice)
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
                f"{where}在 {self.timeout:g} 秒内没有回复（模型 {model!r}）。模型较慢时请在 .env"
                " 里调大 LLM_TIMEOUT"
                "（例如 LLM_TIMEOUT=120），或者检查服务器是不是过载了。"
            )
        if isinstance(exc, openai.APIConnectionError):
            return ConnectionFailed(
                f"连不上{where}：{_connection_reason(exc)}。请检查 .env 里的 LLM_BASE_URL（协议、"
                "主机、端口和 /v1 路径），"
                "并确认服务已经启动：例如 Ollama 要先运行 `ollama serve`，课程自己的服务器是 "
                "`python -m handwritten_agent serve`。"
            )
        if not isinstance(exc, openai.APIStatusError):
            return LLMError(
                f"调用{where}失败（{type(exc).__name__}：{self._mask(str(exc))}）。"
                "请检查 .env 里的 LLM_BASE_URL 和 LLM_MODEL。"
            )

        status = exc.status_code
        said = self._mask(_server_message(exc))
        quoted = said.rstrip(". ")  # for quoting inside our own sentence
        tries = f"共尝试 {attempts} 次"
        common = {"status": status, "server_message": said}
        if status in (401, 403):
            verdict = "拒绝了这个 API 密钥" if status == 401 else "不允许用这个 API 密钥访问"
            return AuthenticationFailed(
                f"{where}{verdict}（HTTP {status}：{quoted}）。请检查 .env 里的"
                " LLM_API_KEY：密钥要完整，不带引号和空格，"
                "而且属于这个服务商（DeepSeek 的密钥在 OpenAI 用不了）；密钥没错的话，"
                "再确认你的账户有权使用这个模型。",
                **common,
            )
        if status == 404:
            return self._not_found(where, model, quoted, common)
        if status == 429:
            return RateLimited(
                f"{where}一直在限流：{tries}，仍然是 HTTP 429（{quoted}）。请等一会儿再试、减少请"
                "求，或者在 .env 里调大 LLM_MAX_RETRIES；一直这样的话，检查账户的额度或余额。",
                **common,
            )
        if status >= 500:
            return ServerError(
                f"{where}返回 HTTP {status}，{tries}都失败了（{quoted}）。问题出在服务端："
                "请稍后再试"
                "（自动重试几次由 .env 里的 LLM_MAX_RETRIES 决定）；如果服务是你自己运行的，请查看"
                "它的日志。",
                **common,
            )
        tools_hint = tools_unsupported_hint(said, model)
        if tools_hint is not None:
            return ToolsUnsupported(
                f"{where}拒绝了这个请求（HTTP {status}）：{quoted}。{tools_hint}", **common
            )
        hint = _parameter_hint(said)
        if hint is None and status == 400:
            hint = "这是请求本身的问题（消息、工具或参数），不是连接问题。"
        return BadRequest(
            f"{where}拒绝了这个请求（HTTP {status}）：{quoted}。{hint or ''}", **common
        )

    def _not_found(
        self, where: str, model: str, quoted: str, common: dict[str, Any]
    ) -> ModelNotFound:
        try:
            available = [
                item.id
                for item in self._sdk.with_options(timeout=min(self.timeout, 5.0)).models.list()
            ]
        except Exception:  # noqa: BLE001 - listing is a courtesy; the 404 is what we report
            available = None
        if available is None:
            return ModelNotFound(
                f"{where}返回 404 Not Found（{quoted}），而且也列不出模型列表。请检查 .env 里的"
                " LLM_BASE_URL："
                "它应该是 API 根地址，通常以 /v1 结尾；然后再检查 LLM_MODEL。",
                **common,
            )
        listed = (
            "、".join(available[:30]) + (" …" if len(available) > 30 else "")
            if available
            else "（没有）"
        )
        return ModelNotFound(
            f"{where}没有名为 {model!r} 的模型（HTTP 404：{quoted}）。请检查 .env 里的"
            " LLM_MODEL（或 model= 参数）。"
            f"这个服务器提供的模型：{listed}。",
            available=available,
            **common,
        )

    def _mask(self, text: str) -> str:
        """Servers sometimes echo the key in an error message; never pass it on."""
        if self._api_key and len(self._api_key) >= 8 and self._api_key in text:
            text = text.replace(self._api_key, self._api_key[:3] + HIDDEN)
        return text


class _NativeOnly:
    """The client itself, for ``PromptTools`` to call without tools (and never back into it)."""

    def __init__(self, client: ChatClient):
        self.client = client

    def complete(self, messages: Sequence[Any], tools: Any = None, **options: Any) -> ChatResult:
        return ChatClient.complete(self.client, messages, None, **options)


def tools_unsupported_hint(said: str, model: str) -> str | None:
    """Why the server refused native tools and what to do, or None if that is not what it said."""
    lowered = said.lower()
    if "does not support tools" in lowered:  # Ollama: the model has no tool template
        return (
            f"模型 {model!r} 在这个服务上不能用原生工具调用：请在 .env 里把 LLM_MODEL 改成"
            "支持工具的模型（Ollama 上例如 qwen2.5:7b 或 llama3.1，先 `ollama pull`）。"
            "在那之前，课程的客户端会改用 Day 2 的提示词方式描述工具。"
        )
    if "enable-auto-tool-choice" in lowered or "tool-call-parser" in lowered:  # vLLM
        return (
            "这个 vLLM 服务启动时没有打开工具调用：用 `vllm serve 模型 --enable-auto-tool-choice"
            " --tool-call-parser hermes`（Qwen 系列用 hermes；其他模型看 vLLM 文档里它的解析器）"
            "重新启动。在那之前，课程的客户端会改用 Day 2 的提示词方式描述工具。"
        )
    return None


def _parameter_hint(said: str) -> str | None:
    """What to change when a (reasoning) model refuses a sampling or length parameter."""
    lowered = said.lower()
    if "max_completion_tokens" in lowered and "max_tokens" in lowered:
        return (
            "这个模型（推理模型，如 o1、o3 系列）不接受 max_tokens：改用 max_completion_tokens，"
            "例如 Agent(model_options={'max_completion_tokens': 2000})。"
        )
    if "unsupported" in lowered and "temperature" in lowered:
        return "这个模型（推理模型）只接受默认的 temperature：去掉 temperature 参数再试。"
    if "unsupported" in lowered and ("top_p" in lowered or "penalty" in lowered):
        return "这个模型（推理模型）不接受这个采样参数：去掉它再试。"
    return None


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
    """Why a connection failed, in Chinese, from the exception chain (never the interpreter's own
    wording).
    """
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
    for needle, reason in (
        ("refused", "连接被拒绝（这个地址和端口上没有程序在监听）"),
        ("name or service not known", "找不到这个主机名（域名写错了，或者没有网络）"),
        ("nodename nor servname", "找不到这个主机名（域名写错了，或者没有网络）"),
        ("getaddrinfo", "找不到这个主机名（域名写错了，或者没有网络）"),
        ("ssl", "TLS/SSL 握手失败（http 和 https 写反了，或者证书有问题）"),
        ("reset", "连接被对方重置"),
        ("unreachable", "网络不可达"),
    ):
        if needle in text:
            return reason
    return f"网络连接失败（{type(seen[-1]).__name__}）"


def _wire_message(message: Any) -> Any:
    """Accept what learners naturally append: dicts, our ChatResult, or the SDK's message object.

    An assistant message with tool calls and no text is sent without ``content``, as the API
    defines it ("required unless tool_calls is specified"): some servers (llama-cpp-python's) reject
    ``"content": null`` with a validation error.
    """
    if isinstance(message, ChatResult):
        message = message.to_message()
    elif hasattr(message, "model_dump") and not isinstance(message, dict):
        return message.model_dump(exclude_none=True)
    if (
        isinstance(message, dict)
        and message.get("role") == "assistant"
        and message.get("tool_calls")
        and "content" in message
        and message["content"] is None
    ):
        return {key: value for key, value in message.items() if key != "content"}
    return message
