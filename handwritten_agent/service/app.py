"""The HTTP API: runs, their events over SSE, confirmations, idempotency keys — FastAPI on top of ``Store`` and ``RunManager``.

    POST /v1/runs                                  {session_id, message} + Idempotency-Key → a run
    GET  /v1/runs/{id}                             the run
    GET  /v1/runs/{id}/events                      Server-Sent Events; Last-Event-ID resumes after that event
    POST /v1/runs/{id}/cancel                      stop it
    POST /v1/runs/{id}/confirmations/{request_id}  {decision: approve|reject, reason} → the run resumes when all are decided
    GET  /v1/confirmations                         the requests this user may decide (an approver's queue)

Every request carries ``Authorization: Bearer <token>`` (``python -m handwritten_agent users add``). A
user never sees another user's runs: those ids answer 404, exactly like ids that do not exist.

Idempotency (the IETF ``Idempotency-Key`` draft, as Stripe does it): the same key with the same body
returns the same run and executes nothing again — also when the requests arrive together; the same key
with another body is 422; while the first request's run is still going, the same run comes back in its
current state (with ``Idempotent-Replayed: true``) rather than 409. Keys expire after
``ServiceSettings.idempotency_ttl`` seconds.

Errors are JSON in one shape, ``{"error": {"type", "message", "details"}}``: 400 malformed JSON, 401
no or bad token, 404 unknown run, 409 a decision the run is not waiting for, 413 body too large, 422
a field missing or wrong (with which), never a stack trace.

The SSE stream sends the run's events as they are stored and ends when the run is finished or waits
for a decision; reconnecting with ``Last-Event-ID`` gets exactly the events after that id.

Left out: pagination of runs, webhooks, and rate limiting per token (put a gateway in front).
"""

from __future__ import annotations

import asyncio
import json
import time
from contextlib import asynccontextmanager
from typing import Any, AsyncIterator

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, StreamingResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from .runner import RunManager
from ..jsontext import describe_json_error, loads_bounded
from .settings import ServiceSettings
from .store import TERMINAL, IdempotencyConflict, Store, User, body_fingerprint


class APIError(Exception):
    def __init__(self, status: int, type_: str, message: str, details: Any = None, headers: dict[str, str] | None = None):
        super().__init__(message)
        self.status, self.type, self.message, self.details, self.headers = status, type_, message, details, headers


def _error(status: int, type_: str, message: str, details: Any = None, headers: dict[str, str] | None = None) -> JSONResponse:
    body: dict[str, Any] = {"type": type_, "message": message}
    if details is not None:
        body["details"] = details
    return JSONResponse({"error": body}, status_code=status, headers=headers)


def current_user(request: Request) -> User:
    """The user behind the request's bearer token (``app.state.store``), or a 401 ``APIError``. Every endpoint starts here."""
    header = request.headers.get("authorization", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise APIError(401, "unauthorized", "缺少令牌：请在请求头里加上 Authorization: Bearer <令牌>（用 python -m handwritten_agent users add 创建）。",
                       headers={"WWW-Authenticate": "Bearer"})
    user = request.app.state.store.user_for_token(token.strip())
    if user is None:
        raise APIError(401, "unauthorized", "令牌无效。", headers={"WWW-Authenticate": "Bearer"})
    return user


def public_run(run: dict[str, Any]) -> dict[str, Any]:
    """What the API shows of a run (no internal state, no owner id)."""
    return {"id": run["id"], "object": "run", "session_id": run["session_id"], "message": run["message"], "status": run["status"],
            "stop_reason": run["stop_reason"], "answer": run["answer"], "error": run["error"], "pending": run["pending"],
            "created_at": run["created_at"], "updated_at": run["updated_at"]}


def create_app(settings: ServiceSettings | None = None, *, store: Store | None = None, manager: RunManager | None = None) -> FastAPI:
    """The service for ``settings`` (database path, model, limits). ``store``/``manager`` may be given by tests."""
    settings = settings or ServiceSettings()
    store = store or Store(settings.db_path)
    if manager is None:
        from .agents import default_agent_factory, make_decision

        manager = RunManager(store, default_agent_factory(settings), make_decision, workers=settings.workers,
                             lease_seconds=settings.lease_seconds, heartbeat_seconds=settings.heartbeat_seconds)
    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        yield
        manager.shutdown(wait=False)  # runs already started finish in their threads; nothing new starts

    app = FastAPI(title="手写 Agent · 办公助手服务", version="1", docs_url="/docs", redoc_url=None, lifespan=lifespan)
    app.state.store, app.state.manager, app.state.settings = store, manager, settings
    manager.recover()

    @app.exception_handler(APIError)
    async def _api_error(request: Request, exc: APIError) -> JSONResponse:
        return _error(exc.status, exc.type, exc.message, exc.details, exc.headers)

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        message = {404: "没有这个地址。", 405: "这个地址不支持该方法。"}.get(exc.status_code, str(exc.detail))
        return _error(exc.status_code, "not_found" if exc.status_code == 404 else "http_error", message)

    @app.exception_handler(Exception)
    async def _internal(request: Request, exc: Exception) -> JSONResponse:
        return _error(500, "internal_error", f"服务内部错误：{type(exc).__name__}。请查看服务日志。")

    async def read_json(request: Request) -> Any:
        declared = request.headers.get("content-length")
        if declared and declared.isdigit() and int(declared) > settings.max_body_bytes:
            raise APIError(413, "body_too_large", f"请求体太大：上限是 {settings.max_body_bytes} 字节。")
        body = b""
        async for chunk in request.stream():  # also bounded when no Content-Length was sent
            body += chunk
            if len(body) > settings.max_body_bytes:
                raise APIError(413, "body_too_large", f"请求体太大：上限是 {settings.max_body_bytes} 字节。")
        try:
            return loads_bounded(body or b"null")
        except (ValueError, UnicodeDecodeError) as exc:
            reason = (f"{describe_json_error(exc.msg)}，在第 {exc.pos} 个字符附近" if isinstance(exc, json.JSONDecodeError)
                      else str(exc))  # our own words, never the interpreter's (they differ between Python versions)
            raise APIError(400, "invalid_json", f"请求体不是合法的 JSON（{reason}）。") from exc

    def fields(body: Any, spec: dict[str, tuple[type, bool, int]]) -> dict[str, Any]:
        """Check a JSON object against ``{name: (type, required, max_length)}``; 422 lists every problem."""
        if not isinstance(body, dict):
            raise APIError(422, "invalid_request", "请求体必须是一个 JSON 对象。")
        problems = [{"field": name, "problem": "缺少这个字段"} for name, (_, required, _) in spec.items() if required and name not in body]
        for name, value in body.items():
            if name not in spec:
                problems.append({"field": name, "problem": "不认识这个字段"})
                continue
            kind, _, limit = spec[name]
            if not isinstance(value, kind) or isinstance(value, bool):
                problems.append({"field": name, "problem": f"应该是 {kind.__name__}"})
            elif isinstance(value, str) and not value.strip():
                problems.append({"field": name, "problem": "不能为空"})
            elif isinstance(value, str) and len(value) > limit:
                problems.append({"field": name, "problem": f"最多 {limit} 个字符"})
        if problems:
            raise APIError(422, "invalid_request", "请求的字段有问题：" + "；".join(f"{p['field']} {p['problem']}" for p in problems), problems)
        return body

    def own_run(run_id: str, user: User) -> dict[str, Any]:
        run = store.get_run(run_id, user)
        if run is None:
            raise APIError(404, "not_found", f"没有这个运行：{run_id}。")
        return run

    @app.post("/v1/runs")
    async def create_run(request: Request) -> JSONResponse:
        user = current_user(request)
        body = fields(await read_json(request), {"session_id": (str, True, 200), "message": (str, True, settings.max_message_chars)})
        key = request.headers.get("idempotency-key")
        if key is not None and not (0 < len(key) <= 255):
            raise APIError(422, "invalid_request", "Idempotency-Key 的长度必须在 1 到 255 个字符之间。")
        try:
            run, created = store.create_run(user, body["session_id"], body["message"], idempotency_key=key,
                                            body_hash=body_fingerprint(body), ttl=settings.idempotency_ttl)
        except IdempotencyConflict:
            raise APIError(422, "idempotency_key_reused", "这个 Idempotency-Key 已经用于另一个不同内容的请求：每个新请求请用新的键。") from None
        if created:
            app.state.manager.submit(run["id"])
            return JSONResponse(public_run(run), status_code=201)
        return JSONResponse(public_run(run), status_code=200, headers={"Idempotent-Replayed": "true"})

    @app.get("/v1/runs/{run_id}")
    async def get_run(run_id: str, request: Request) -> JSONResponse:
        return JSONResponse(public_run(own_run(run_id, current_user(request))))

    @app.post("/v1/runs/{run_id}/cancel")
    async def cancel_run(run_id: str, request: Request) -> JSONResponse:
        run = own_run(run_id, current_user(request))
        if run["status"] in TERMINAL:
            return JSONResponse(public_run(run))
        return JSONResponse(public_run(app.state.manager.cancel(run)))

    @app.post("/v1/runs/{run_id}/confirmations/{request_id}")
    async def decide(run_id: str, request_id: str, request: Request) -> JSONResponse:
        user = current_user(request)
        body = fields(await read_json(request), {"decision": (str, True, 20), "reason": (str, False, 500)})
        if body["decision"] not in ("approve", "reject"):
            raise APIError(422, "invalid_request", "decision 只能是 approve 或 reject。", [{"field": "decision", "problem": "只能是 approve 或 reject"}])
        run = store.get_run(run_id)
        if run is None:
            raise APIError(404, "not_found", f"没有这个运行：{run_id}。")
        pending = {p["id"]: p for p in run["pending"]}
        earlier = store.decisions(run_id).get(request_id)
        if earlier is not None:  # deciding twice is idempotent: the first decision stands
            if earlier["decided_by"] != user.id and run["user_id"] != user.id:
                raise APIError(404, "not_found", f"没有这个运行：{run_id}。")
            return JSONResponse({"run": public_run(run), "decision": _public_decision(earlier), "replayed": True})
        request_info = pending.get(request_id)
        may_decide = request_info is not None and _may_decide(user, run, request_info)
        if run["user_id"] != user.id and not may_decide:
            raise APIError(404, "not_found", f"没有这个运行：{run_id}。")
        if run["status"] != "requires_action" or request_info is None:
            raise APIError(409, "not_waiting", f"运行 {run_id} 没有在等待确认请求 {request_id}（当前状态：{run['status']}）。")
        if not may_decide:
            role = request_info.get("approver_role")
            raise APIError(403, "forbidden", f"这个操作需要角色“{role}”来审批，你的角色是“{user.role}”。")
        decision, new = store.record_decision(run_id, request_id, body["decision"], body.get("reason", ""), user.id)
        if new:
            app.state.manager.decide(run, request_id)
        return JSONResponse({"run": public_run(store.get_run(run_id) or run), "decision": _public_decision(decision), "replayed": not new})

    @app.get("/v1/confirmations")
    async def confirmations(request: Request) -> JSONResponse:
        """The confirmation requests waiting for this user: L3 approvals for their role, and their own runs' L2 confirmations."""
        user = current_user(request)
        waiting = []
        for run in store.runs_with_status("requires_action"):
            decided = store.decisions(run["id"])
            for pending in run["pending"]:
                if pending["id"] not in decided and _may_decide(user, run, pending):
                    owner = store.user(run["user_id"])
                    waiting.append({"run_id": run["id"], "request": pending, "message": run["message"],
                                    "requested_by": owner.name if owner else None, "waiting_since": run["updated_at"]})
        return JSONResponse({"object": "list", "data": waiting})

    @app.get("/v1/runs/{run_id}/events")
    async def events(run_id: str, request: Request) -> StreamingResponse:
        user = current_user(request)
        own_run(run_id, user)
        last = request.headers.get("last-event-id", "0").strip()
        after = int(last) if last.isdigit() else 0

        async def stream() -> AsyncIterator[str]:
            seen, idle_since = after, time.monotonic()
            while time.monotonic() - idle_since < settings.sse_max_idle:  # bounded: a stream with nothing new ends
                if await request.is_disconnected():
                    return
                batch = store.events_after(run_id, seen)
                for item in batch:
                    if seen != after and await request.is_disconnected():  # the client left mid-batch: write no more
                        return
                    seen = item["id"]
                    yield f"id: {item['id']}\nevent: {item['event']}\ndata: {json.dumps(item['data'], ensure_ascii=False, default=str)}\n\n"
                if batch:
                    idle_since = time.monotonic()
                    continue
                run = store.get_run(run_id)
                if run is None or (run["status"] in (*TERMINAL, "requires_action") and not store.events_after(run_id, seen, limit=1)):
                    return
                await asyncio.sleep(settings.sse_poll_seconds)
            yield ": 很久没有新事件，连接先关闭；带上 Last-Event-ID 重新连接即可继续。\n\n"

        return StreamingResponse(stream(), media_type="text/event-stream", headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})

    return app


def from_environment() -> FastAPI:
    """The app for ``uvicorn --factory handwritten_agent.service.app:from_environment --workers N``: every worker
    process builds its own, on the database ``HANDWRITTEN_AGENT_DB`` names (default ``var/service.sqlite3``)."""
    import os

    path = os.environ.get("HANDWRITTEN_AGENT_DB", "").strip()
    return create_app(ServiceSettings(db_path=path) if path else ServiceSettings())


def _may_decide(user: User, run: dict[str, Any], request: dict[str, Any]) -> bool:
    """The role the request names decides; a request that names none is decided by the run's owner."""
    role = request.get("approver_role")
    return user.role == role if role else user.id == run["user_id"]


def _public_decision(decision: dict[str, Any]) -> dict[str, Any]:
    return {"request_id": decision["request_id"], "decision": decision["decision"], "reason": decision["reason"], "decided_at": decision["decided_at"]}


__all__ = ["APIError", "create_app", "current_user", "from_environment", "public_run"]
