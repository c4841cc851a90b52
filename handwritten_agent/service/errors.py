"""One error shape for everything that goes wrong, and the guards that run before FastAPI reads a
body.

Every error is ``{"error": {"type", "message", "details"}}`` with a Chinese ``message`` in our own
words, never the interpreter's (its wording changes between Python versions and means nothing to a
user):

- ``APIError(status, type, message)`` raised anywhere in an endpoint or a dependency;
- pydantic's validation errors (``RequestValidationError``) become 422 ``invalid_request`` with one
  ``{"field", "problem"}`` per problem, in Chinese (at most ``MAX_LISTED_ERRORS`` of them, inputs
  never echoed) — or 400 ``invalid_json`` for a body that is not JSON;
- Starlette's 404/405 for unknown paths and methods;
- anything unexpected becomes a 500 *response* (``CatchAll``), logged with its traceback: the
  exception does not reach uvicorn, so the client's keep-alive connection stays usable for its next
  requests.

``GuardedBody`` reads a request body before FastAPI does, and refuses, with the same shape: a body
larger than ``max_bytes`` (413, also when no ``Content-Length`` was sent), bytes that are not UTF-8
or not JSON (400), JSON nested deeper than ``types.MAX_JSON_DEPTH`` or with an integer of more than
``MAX_INT_DIGITS`` digits (400), and text with a lone UTF-16 surrogate such as ``"\\ud800"`` (422
naming the field: it cannot be stored or sent on as UTF-8). Then it hands the body on unchanged, as
JSON whatever its ``Content-Type`` said (JSON is the API's only body format; ``curl -d`` sends a
form type, and FastAPI versions differ on a missing one).

Left out: rate limiting and request timeouts (a gateway's job), and localized messages in other
languages.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Awaitable, Callable
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.datastructures import Headers
from starlette.exceptions import HTTPException as StarletteHTTPException

from ..jsontext import describe_json_error, loads_bounded

logger = logging.getLogger("handwritten_agent.service")

MAX_INT_DIGITS = 100
"""An integer in a request body with more digits than this is refused (no field of the API needs
more than a few).
"""

BODY_METHODS = ("POST", "PUT", "PATCH", "DELETE")


class APIError(Exception):
    """An error the API answers with: HTTP status, a machine-readable type, a Chinese message,
    optional details.
    """

    def __init__(
        self,
        status: int,
        type_: str,
        message: str,
        details: Any = None,
        headers: dict[str, str] | None = None,
    ):
        super().__init__(message)
        self.status, self.type, self.message, self.details, self.headers = (
            status,
            type_,
            message,
            details,
            headers,
        )


def error_response(
    status: int,
    type_: str,
    message: str,
    details: Any = None,
    headers: dict[str, str] | None = None,
) -> JSONResponse:
    body: dict[str, Any] = {"type": type_, "message": message}
    if details is not None:
        body["details"] = details
    return JSONResponse({"error": body}, status_code=status, headers=headers)


# --------------------------------------------------------------------- validation errors in Chinese


MAX_LISTED_ERRORS = 10
"""A 422 lists at most this many problems (and says how many more there were): a body with thousands
of unknown fields gets a short answer, not every field echoed back."""

MAX_SHOWN_CHARS = 80
"""A field name or problem longer than this is cut (a client's key names are not echoed at any
length).
"""


def _shorten(text: str) -> str:
    return text if len(text) <= MAX_SHOWN_CHARS else text[: MAX_SHOWN_CHARS - 1] + "…"


def _field(location: tuple[Any, ...] | list[Any]) -> str:
    parts = [str(part) for part in location if part not in ("body",)]
    return ".".join(parts) or "（请求体）"


def _problem(error: dict[str, Any]) -> str:
    kind, context = error.get("type", ""), error.get("ctx") or {}
    if kind == "missing":
        return "缺少这个字段"
    if kind == "extra_forbidden":
        return "不认识这个字段"
    if kind in ("string_type", "string_sub_type"):
        return "应该是字符串"
    if kind == "string_too_short":
        return "不能为空"
    if kind == "string_too_long":
        return f"最多 {context.get('max_length')} 个字符"
    if kind == "literal_error":
        return f"只能是 {context.get('expected', '').replace(' or ', ' 或 ')}"
    if kind in ("model_attributes_type", "dict_type", "model_type"):
        return "应该是一个 JSON 对象"
    if kind == "value_error":
        return str(context.get("error") or error.get("msg", "")).removeprefix("Value error, ")
    return f"不符合要求（{kind}）"


def _validation_error(exc: RequestValidationError) -> JSONResponse:
    errors = list(exc.errors())
    if any(error.get("type") == "json_invalid" for error in errors):
        return error_response(400, "invalid_json", "请求体不是合法的 JSON。")
    if any(tuple(error.get("loc", ())) == ("body",) for error in errors):
        return error_response(
            422,
            "invalid_request",
            "请求体必须是一个 JSON 对象（Content-Type: application/json）。",
            [{"field": "（请求体）", "problem": _problem(errors[0])}],
        )
    problems = [
        {"field": _shorten(_field(error.get("loc", ()))), "problem": _shorten(_problem(error))}
        for error in errors[:MAX_LISTED_ERRORS]
    ]
    message = "请求的字段有问题：" + "；".join(f"{p['field']} {p['problem']}" for p in problems)
    if len(errors) > len(problems):
        message += f"；还有 {len(errors) - len(problems)} 处错误未列出"
    return error_response(422, "invalid_request", message, problems)


def install_error_handlers(app: FastAPI) -> None:
    """Register the handlers that give every error the one shape (see the module docstring)."""

    @app.exception_handler(APIError)
    async def _api_error(request: Request, exc: APIError) -> JSONResponse:
        return error_response(exc.status, exc.type, exc.message, exc.details, exc.headers)

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        return _validation_error(exc)

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        message = {404: "没有这个地址。", 405: "这个地址不支持该方法。"}.get(
            exc.status_code, str(exc.detail)
        )
        return error_response(
            exc.status_code, "not_found" if exc.status_code == 404 else "http_error", message
        )


# ---------------------------------------------------------------- the body, before FastAPI reads it


def lone_surrogate(value: Any, path: str = "") -> str | None:
    """The path of the first string (or key) in a JSON value that holds a lone UTF-16 surrogate, or
    None.
    """
    if isinstance(value, str):
        return path or "（请求体）" if re.search("[\ud800-\udfff]", value) else None
    if isinstance(value, dict):
        for key, item in value.items():
            where = f"{path}.{key}" if path else str(key)
            if re.search("[\ud800-\udfff]", str(key)):
                return where.encode("utf-8", "backslashreplace").decode()
            found = lone_surrogate(item, where)
            if found:
                return found
    if isinstance(value, list):
        for index, item in enumerate(value):
            found = lone_surrogate(item, f"{path}.{index}" if path else str(index))
            if found:
                return found
    return None


def _bounded_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_INT_DIGITS:
        raise ValueError(f"JSON 里的整数太长（超过 {MAX_INT_DIGITS} 位）")
    return int(text)


def check_json_body(body: bytes) -> JSONResponse | None:
    """None when ``body`` is usable JSON text; otherwise the error response that says why."""
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as exc:
        return error_response(
            400,
            "invalid_json",
            f"请求体不是合法的 JSON（不是 UTF-8 编码的文本，问题在第 {exc.start + 1} "
            "个字节附近）。",
        )
    try:
        value = loads_bounded(text, parse_int=_bounded_int)
    except json.JSONDecodeError as exc:
        return error_response(
            400,
            "invalid_json",
            f"请求体不是合法的 JSON（{describe_json_error(exc)}，在第 {exc.pos} 个字符附近）。",
        )
    except ValueError as exc:  # raised by loads_bounded or _bounded_int: our own words
        reason = str(exc) if re.search("[\u4e00-\u9fff]", str(exc)) else "数字或嵌套超出了限制"
        return error_response(400, "invalid_json", f"请求体不是合法的 JSON（{reason}）。")
    where = lone_surrogate(value)
    if where is not None:
        problem = "含有单独的 UTF-16 代理项（例如 \\ud800），不是合法的 Unicode 文本"
        return error_response(
            422,
            "invalid_request",
            f"请求的字段有问题：{where} {problem}",
            [{"field": where, "problem": problem}],
        )
    return None


class GuardedBody:
    """ASGI middleware: the body limits of the module docstring, checked before any endpoint
    runs.
    """

    def __init__(self, app: Any, max_bytes: int):
        self.app, self.max_bytes = app, max_bytes

    async def __call__(
        self,
        scope: dict[str, Any],
        receive: Callable[[], Awaitable[dict]],
        send: Callable[[dict], Awaitable[None]],
    ) -> None:
        if scope["type"] != "http" or scope["method"] not in BODY_METHODS:
            await self.app(scope, receive, send)
            return
        too_large = error_response(
            413, "body_too_large", f"请求体太大：上限是 {self.max_bytes} 字节。"
        )
        declared = Headers(scope=scope).get("content-length", "")
        if declared.isascii() and declared.isdigit() and int(declared) > self.max_bytes:
            await too_large(scope, receive, send)
            return
        body, more = bytearray(), True
        while more:  # bounded by max_bytes, also when no Content-Length was sent
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            body += message.get("body", b"")
            more = message.get("more_body", False)
            if len(body) > self.max_bytes:
                await too_large(scope, receive, send)
                return
        problem = check_json_body(bytes(body)) if body.strip() else None
        if problem is not None:
            await problem(scope, receive, send)
            return
        # JSON is the API's only body format: read it as JSON whatever Content-Type says (curl -d
        # sends a form type)
        if body.strip():
            headers = [
                (name, value) for name, value in scope["headers"] if name.lower() != b"content-type"
            ]
            scope = {**scope, "headers": [*headers, (b"content-type", b"application/json")]}
        delivered = False

        async def replay() -> dict:
            nonlocal delivered
            if not delivered:
                delivered = True
                return {"type": "http.request", "body": bytes(body), "more_body": False}
            return await receive()  # later calls: disconnects

        await self.app(scope, replay, send)


class CatchAll:
    """ASGI middleware: an unexpected exception becomes a logged 500 in the one shape, and goes no
    further.
    """

    def __init__(self, app: Any):
        self.app = app

    async def __call__(
        self,
        scope: dict[str, Any],
        receive: Callable[[], Awaitable[dict]],
        send: Callable[[dict], Awaitable[None]],
    ) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def tracked(message: dict) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, receive, tracked)
        except Exception as exc:  # noqa: BLE001 - the point: no exception reaches the server and drops the connection
            logger.exception("%s %s failed", scope.get("method"), scope.get("path"))
            if not started:
                await error_response(
                    500, "internal_error", f"服务内部错误：{type(exc).__name__}。请查看服务日志。"
                )(scope, receive, send)


__all__ = [
    "APIError",
    "CatchAll",
    "GuardedBody",
    "MAX_INT_DIGITS",
    "check_json_body",
    "error_response",
    "install_error_handlers",
    "lone_surrogate",
]
