"""The HTTP API: runs, their events over SSE, confirmations, idempotency keys — FastAPI on top of
``Store`` and ``RunManager``.

    GET  /                                         the web page (``static/index.html``): ask, watch,
                                                   decide
    GET  /v1/me                                    who the token belongs to
    POST /v1/runs                                  {session_id, message} + Idempotency-Key → a run
    GET  /v1/runs/{id}                             the run
    GET  /v1/runs/{id}/events                      Server-Sent Events; Last-Event-ID resumes after
                                                   that event
    POST /v1/runs/{id}/cancel                      stop it
    POST /v1/runs/{id}/confirmations/{request_id}  {decision: approve|reject, reason} → the run
                                                   resumes when all are decided
    GET  /v1/confirmations                         the requests this user may approve (an approver's
                                                   queue)

Written the way FastAPI users write it: request and response bodies are pydantic models
(``schemas``, limits as field constraints), the bearer token is a security dependency
(``Token``), and errors keep one shape (``errors``), so ``/docs`` shows every endpoint with
its schemas and lets a person authorize with a token and try each one. ``python -m handwritten_agent
users add`` creates a user and prints the token. A user never sees another user's runs: those ids
answer 404, exactly like ids that do not exist.

Idempotency (the IETF ``Idempotency-Key`` draft, as Stripe does it): the same key with the same body
returns the same run and executes nothing again — also when the requests arrive together; the same
key with another body is 422; while the first request's run is still going, the same run comes back
in its current state (with ``Idempotent-Replayed: true``) rather than 409. Keys expire after
``ServiceSettings.idempotency_ttl`` seconds.

Decisions: the owner confirms an L2 request; an L3 request is approved by someone with the role it
names, and may be rejected by its owner too (withdrawn). Sending the same decision again is answered
with the first (``replayed``); a different decision, or a decision by someone else, on a decided
request is 409 "已经由…决定".

Errors are JSON in one shape, ``{"error": {"type", "message", "details"}}``: 400 malformed JSON or
an unusable ``Last-Event-ID``, 401 no or bad token, 403 not yours to decide, 404 unknown run, 409 a
decision the run is not waiting for or already decided, 413 body too large, 422 a field missing or
wrong (with which), never a stack trace.

The SSE stream starts with ``retry:``, sends the run's events as they are stored (``id`` = the
event's number; a write in this process wakes the stream at once, one by another process is seen
within ``sse_poll_seconds`` on SQLite and at once on PostgreSQL, through ``NOTIFY``), a keep-alive
comment when idle, and, once the run has finished or
waits for a decision, an ``end`` event (``{"status", "stop_reason"}``, no id) and closes: a client
that sees ``end`` stops, one whose stream was cut reconnects with ``Last-Event-ID`` and gets exactly
the events after that id. The browser's ``EventSource`` cannot send an ``Authorization`` header, so
the web page reads the stream with ``fetch``.

No endpoint calls the store on the event loop: each does its database work — the token's user
and its own reads and writes together — in one trip to the thread pool (``as_user``), so a request
waiting on SQLite's write lock (held by another process under ``uvicorn --workers N``) never stops
the event loop; the SSE stream (``sse``) reads the store in a worker thread too. (A plain ``def``
endpoint would be safe as well, but FastAPI hands it, its ``def`` dependencies and its response
check to the pool separately: three hand-overs, each waiting for the GIL while runs execute.)
Every answer carries security headers (``security``: a CSP with ``frame-ancestors 'none'``,
``nosniff``, no referrer), and ``/docs`` serves Swagger UI's files from the installed
``fastapi-offline`` package, so it works with no network. An approver sees a run's texts masked
(``masking.mask_text``), as the confirmation card shows them.

``create_app`` only wires the parts (store, run manager, middleware, error handlers); each group
of endpoints is registered by a function of its own (``add_page_routes``, ``add_run_routes``,
``add_confirmation_routes``, ``add_event_routes``), in the order ``/docs`` lists them.

Left out: pagination of runs, webhooks, and rate limiting per token (put a gateway in front).
"""

from __future__ import annotations

import json
import re
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from importlib import resources
from typing import Annotated, Any, TypeVar

from fastapi import Depends, FastAPI, Header, Request, Response
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import HTMLResponse, StreamingResponse
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from fastapi_offline import FastAPIOffline

from ..confirmation import may_decide, who_decides
from ..masking import mask_text
from .errors import APIError, CatchAll, GuardedBody, error_response, install_error_handlers
from .runner import RunManager
from .schemas import (
    MAX_IDEMPOTENCY_KEY_CHARS,
    DecisionCreate,
    DecisionResult,
    ErrorResponse,
    Me,
    Queue,
    RunCreate,
    RunOut,
)
from .security import SecurityHeaders
from .settings import ServiceSettings
from .sse import Wakeups, stream_events
from .store import TERMINAL, IdempotencyConflict, Store, User, body_fingerprint

T = TypeVar("T")

bearer = HTTPBearer(
    auto_error=False,
    bearerFormat="hat_…",
    description=(
        "用户的令牌：`python -m handwritten_agent users add 名字 --role 角色` 创建用户时打印一次。"
    ),
)

LAST_EVENT_ID = re.compile(r"[0-9]{1,18}")
"""A usable ``Last-Event-ID``: ASCII digits that fit a 64-bit integer (event ids are 1, 2, 3 …)."""

DECISION_ZH = {"approve": "批准", "reject": "拒绝"}

NOT_AUTHENTICATED = (
    "缺少令牌：请在请求头里加上 Authorization: Bearer <令牌>"
    "（用 python -m handwritten_agent users add 创建用户时会打印令牌）。"
)


def _user_for(store: Store, token: str) -> User:
    user = store.user_for_token(token)
    if user is None:
        raise APIError(
            401,
            "unauthorized",
            "令牌无效（或这个用户已被删除）。",
            headers={"WWW-Authenticate": "Bearer"},
        )
    return user


async def bearer_token(
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)],
) -> str:
    """The security dependency: the request's bearer token, or a 401 when there is none. It reads
    no database (so it runs on the event loop); ``as_user`` looks the token's user up.
    """
    token = credentials.credentials.strip() if credentials is not None else ""
    if not token:
        raise APIError(
            401, "unauthorized", NOT_AUTHENTICATED, headers={"WWW-Authenticate": "Bearer"}
        )
    return token


Token = Annotated[str, Depends(bearer_token)]
"""Put ``token: Token`` in an endpoint's parameters: FastAPI checks that there is one (and
``/docs`` offers to authorize); ``as_user`` turns it into the user.
"""


async def as_user(store: Store, token: str, work: Callable[[User], T]) -> T:
    """``work(user)`` for the token's user (a 401 if none), in **one** trip to the thread pool: the
    token lookup and the endpoint's own database calls block, so they never run on the event loop,
    and doing them together costs one hand-over between threads instead of one per step (each
    waits for the GIL while the run workers hold it).
    """
    return await run_in_threadpool(lambda: work(_user_for(store, token)))


def public_run(run: dict[str, Any], viewer: User | None = None) -> dict[str, Any]:
    """What the API shows of a run (no internal state, no owner id). A ``viewer`` who is not the
    run's owner (an approver) sees its texts with secrets and personal data masked, as the
    confirmation card shows them.
    """
    shown = {
        "id": run["id"],
        "object": "run",
        "session_id": run["session_id"],
        "message": run["message"],
        "status": run["status"],
        "stop_reason": run["stop_reason"],
        "answer": run["answer"],
        "error": run["error"],
        "pending": run["pending"],
        "created_at": run["created_at"],
        "updated_at": run["updated_at"],
    }
    if viewer is not None and viewer.id != run["user_id"]:
        shown.update(
            {
                key: mask_text(shown[key])
                for key in ("message", "answer", "error")
                if isinstance(shown[key], str)
            }
        )
    return shown


ERRORS: dict[int | str, dict[str, Any]] = {
    status: {"model": ErrorResponse, "description": description}
    for status, description in (
        (400, "请求体不是合法的 JSON"),
        (401, "没有令牌或令牌无效"),
        (404, "没有这个运行（或它属于别的用户）"),
        (413, "请求体太大"),
        (422, "字段缺失或不符合要求"),
    )
}


def _errors(*statuses: int, **more: str) -> dict[int | str, dict[str, Any]]:
    chosen = {status: ERRORS[status] for status in statuses}
    chosen.update(
        {
            int(status[1:]): {"model": ErrorResponse, "description": text}
            for status, text in more.items()
        }
    )
    return chosen


def create_app(
    settings: ServiceSettings | None = None,
    *,
    store: Store | None = None,
    manager: RunManager | None = None,
) -> FastAPI:
    """The service for ``settings`` (database — a SQLite path or a ``postgresql://`` URL —, model,
    limits). ``store``/``manager`` may be given by tests.
    """
    settings = settings or ServiceSettings()
    store = store or Store(settings.db_path)
    if manager is None:
        from .agents import default_agent_factory, make_decision

        manager = RunManager(
            store,
            default_agent_factory(settings),
            make_decision,
            workers=settings.workers,
            lease_seconds=settings.lease_seconds,
            heartbeat_seconds=settings.heartbeat_seconds,
        )
    # /docs serves Swagger UI's files from the installed package (fastapi-offline), not a CDN: it
    # works offline
    app = FastAPIOffline(
        title="手写 Agent · 办公助手服务",
        version="1",
        docs_url="/docs",
        redoc_url=None,
        lifespan=_lifespan,
        description=(
            "Day 7 的办公助手服务。点右上角 **Authorize**，填入 `users add` 打印的令牌（只填令牌本"
            "身），就可以在这里试每一个接口。网页版在 [/](/)。"
        ),
    )
    app.state.store, app.state.manager, app.state.settings = store, manager, settings
    wakeups = Wakeups(store.marks, every=settings.sse_poll_seconds)
    store.watch(wakeups)
    install_error_handlers(app)
    app.add_middleware(GuardedBody, max_bytes=settings.max_body_bytes)
    app.add_middleware(SecurityHeaders)  # around every endpoint and GuardedBody's refusals
    app.add_middleware(CatchAll)  # added last: the outermost of ours, around everything else
    manager.recover()
    # the routes, in the order /docs lists them
    add_page_routes(app)
    add_run_routes(app, store, settings)
    add_confirmation_routes(app, store)
    add_event_routes(app, store, settings, wakeups)
    return app


@asynccontextmanager
async def _lifespan(app: FastAPI) -> AsyncIterator[None]:
    yield
    # runs already started finish in their threads; nothing new starts
    app.state.manager.shutdown(wait=False)


def _own_run(store: Store, run_id: str, user: User) -> dict[str, Any]:
    """The user's run, or a 404 (also for another user's run: its id is not revealed)."""
    run = store.get_run(run_id, user)
    if run is None:
        raise APIError(404, "not_found", f"没有这个运行：{run_id}。")
    return run


def add_page_routes(app: FastAPI) -> None:
    """``/`` (the web page), its icon, and ``/v1/me``."""

    @app.get("/", include_in_schema=False)
    def page() -> HTMLResponse:
        return HTMLResponse(
            resources.files(__package__).joinpath("static/index.html").read_text(encoding="utf-8")
        )

    @app.get("/favicon.ico", include_in_schema=False)
    def favicon() -> Response:
        icon = resources.files(__package__).joinpath("static/favicon.svg").read_bytes()
        return Response(
            icon, media_type="image/svg+xml", headers={"Cache-Control": "max-age=86400"}
        )

    @app.get("/v1/me", response_model=Me, responses=_errors(401), summary="令牌属于谁")
    async def me(token: Token) -> dict[str, Any]:
        user = await as_user(app.state.store, token, lambda user: user)
        return {"id": user.id, "name": user.name, "role": user.role}


def add_run_routes(app: FastAPI, store: Store, settings: ServiceSettings) -> None:
    """Start a run (with an idempotency key), read it, cancel it."""

    @app.post(
        "/v1/runs",
        response_model=RunOut,
        status_code=201,
        responses={
            200: {"model": RunOut, "description": "同一个幂等键、同样的请求体：返回原来的运行"},
            **_errors(400, 401, 413, 422),
        },
        summary="发一条消息，开始一个运行",
    )
    async def create_run(
        body: RunCreate,
        token: Token,
        response: Response,
        idempotency_key: Annotated[
            str | None,
            Header(
                alias="Idempotency-Key",
                min_length=1,
                max_length=MAX_IDEMPOTENCY_KEY_CHARS,
                description="重试同一个请求时带上同一个键：不会重复执行",
            ),
        ] = None,
    ) -> dict[str, Any]:
        def create(user: User) -> tuple[dict[str, Any], bool]:
            return store.create_run(
                user,
                body.session_id,
                body.message,
                idempotency_key=idempotency_key,
                body_hash=body_fingerprint(body.model_dump()),
                ttl=settings.idempotency_ttl,
                worker=app.state.manager.worker,  # the lease is taken with the insert
            )

        try:
            run, created = await as_user(store, token, create)
        except IdempotencyConflict:
            raise APIError(
                422,
                "idempotency_key_reused",
                "这个 Idempotency-Key 已经用于另一个不同内容的请求：每个新请求请用新的键。",
            ) from None
        if created:
            app.state.manager.submit(run["id"], leased=True)
        else:
            response.status_code = 200
            response.headers["Idempotent-Replayed"] = "true"
        return public_run(run)

    @app.get(
        "/v1/runs/{run_id}",
        response_model=RunOut,
        responses=_errors(401, 404),
        summary="一个运行的当前状态",
    )
    async def get_run(run_id: str, token: Token) -> dict[str, Any]:
        return public_run(await as_user(store, token, lambda user: _own_run(store, run_id, user)))

    @app.post(
        "/v1/runs/{run_id}/cancel",
        response_model=RunOut,
        responses=_errors(401, 404),
        summary="取消一个运行",
    )
    async def cancel_run(run_id: str, token: Token) -> dict[str, Any]:
        def cancel(user: User) -> dict[str, Any]:
            run = _own_run(store, run_id, user)
            return run if run["status"] in TERMINAL else app.state.manager.cancel(run)

        return public_run(await as_user(store, token, cancel))


def add_confirmation_routes(app: FastAPI, store: Store) -> None:
    """Decide a waiting call; list the requests waiting for this user."""

    @app.post(
        "/v1/runs/{run_id}/confirmations/{request_id}",
        response_model=DecisionResult,
        responses=_errors(
            400,
            401,
            404,
            413,
            422,
            e403="这个请求要由别的角色审批",
            e409="运行没有在等这个决定，或它已经由别人决定",
        ),
        summary="批准或拒绝一个等待确认的调用",
    )
    async def decide(
        run_id: str, request_id: str, body: DecisionCreate, token: Token
    ) -> dict[str, Any]:
        def decide_as(user: User) -> dict[str, Any]:
            run = store.get_run(run_id)
            asked = store.requests_of(run_id).get(request_id) if run is not None else None
            if run is None or not (
                run["user_id"] == user.id or (asked is not None and _may_see(user, asked))
            ):
                raise APIError(404, "not_found", f"没有这个运行：{run_id}。")
            earlier = store.decisions(run_id).get(request_id)
            if earlier is not None:
                return _decided_before(store, run, earlier, body, user)
            waiting = {p["id"]: p for p in run["pending"]}.get(request_id)
            if run["status"] != "requires_action" or waiting is None:
                raise APIError(
                    409,
                    "not_waiting",
                    f"运行 {run_id} 没有在等待确认请求 {request_id}（当前状态：{run['status']}）。",
                )
            if not _may_decide(user, run, waiting, body.decision):
                raise APIError(
                    403,
                    "forbidden",
                    f"你（{user.name}，角色“{user.role}”）"
                    f"不能{DECISION_ZH.get(body.decision, '决定')}"
                    f"这个请求：{who_decides(waiting.get('approver_role'))}"
                    "（发起人可以拒绝，但不能批准自己的 L3 请求）。",
                )
            decision, new = store.record_decision(
                run_id, request_id, body.decision, body.reason, user.id
            )
            if not new:  # someone decided in the same instant
                return _decided_before(store, run, decision, body, user)
            app.state.manager.decide(run, request_id)
            return {
                "run": public_run(store.get_run(run_id) or run, user),
                "decision": _public_decision(store, decision),
                "replayed": False,
            }

        return await as_user(store, token, decide_as)

    @app.get(
        "/v1/confirmations",
        response_model=Queue,
        responses=_errors(401),
        summary="等我决定的确认请求",
    )
    async def confirmations(token: Token) -> dict[str, Any]:
        """The confirmation requests this user may approve: L3 approvals for their role, and their
        own runs' L2 confirmations.
        """

        def queue(user: User) -> dict[str, Any]:
            waiting = []
            for run in store.runs_with_status("requires_action"):
                decided = store.decisions(run["id"])
                for pending in run["pending"]:
                    if pending["id"] not in decided and _may_decide(user, run, pending, "approve"):
                        owner = store.user(run["user_id"])
                        waiting.append(
                            {
                                "run_id": run["id"],
                                "request": pending,
                                "message": mask_text(run["message"]),
                                "requested_by": owner.name if owner else None,
                                "waiting_since": run["updated_at"],
                            }
                        )
            return {"object": "list", "data": waiting}

        return await as_user(store, token, queue)


def _decided_before(
    store: Store, run: dict[str, Any], earlier: dict[str, Any], body: DecisionCreate, user: User
) -> dict[str, Any]:
    if (
        earlier["decided_by"] == user.id and earlier["decision"] == body.decision
    ):  # the same decision again: a retry
        return {
            "run": public_run(store.get_run(run["id"]) or run, user),
            "decision": _public_decision(store, earlier),
            "replayed": True,
        }
    decider = store.user(earlier["decided_by"])
    who = (
        f"{decider.name}（{decider.id}）" if decider is not None else earlier["decided_by"]
    )  # names may look alike; ids do not
    raise APIError(
        409,
        "already_decided",
        f"这个确认请求已经由 {who}"
        f" 决定（{DECISION_ZH.get(earlier['decision'], earlier['decision'])}），"
        "不能再改。",
        {"decision": _public_decision(store, earlier)},
    )


def _public_decision(store: Store, decision: dict[str, Any]) -> dict[str, Any]:
    decider = store.user(decision["decided_by"])
    return {
        "request_id": decision["request_id"],
        "decision": decision["decision"],
        "reason": decision["reason"],
        "decided_by": decider.name if decider is not None else None,
        "decided_by_id": decision["decided_by"],
        "decided_at": decision["decided_at"],
    }


def add_event_routes(
    app: FastAPI, store: Store, settings: ServiceSettings, wakeups: Wakeups
) -> None:
    """A run's events over Server-Sent Events, resumable with ``Last-Event-ID``."""

    @app.get(
        "/v1/runs/{run_id}/events",
        response_class=StreamingResponse,
        summary="运行的事件流（Server-Sent Events）",
        responses={
            200: {
                "content": {"text/event-stream": {}},
                "description": "事件流：每个事件有 id、event、data；最后一个是 end",
            },
            **_errors(401, 404),
            400: {"model": ErrorResponse, "description": "Last-Event-ID 不可用"},
        },
    )
    async def events(
        run_id: str,
        token: Token,
        request: Request,
        last_event_id: Annotated[
            str | None,
            Header(alias="Last-Event-ID", description="断线重连时带上收到的最后一个事件的 id"),
        ] = None,
    ) -> StreamingResponse:
        await as_user(store, token, lambda user: _own_run(store, run_id, user))
        after = 0
        if last_event_id is not None and last_event_id.strip():
            if not LAST_EVENT_ID.fullmatch(last_event_id.strip()):
                raise APIError(
                    400,
                    "invalid_last_event_id",
                    "Last-Event-ID 应该是收到的最后一个事件的 id（不超过 18 位的数字），"
                    f"收到的是 {json.dumps(last_event_id[:40], ensure_ascii=True)}。"
                    "不带它重新连接，会从头收到全部事件。",
                )
            after = int(last_event_id.strip())
        return StreamingResponse(
            stream_events(store, settings, wakeups, request, run_id, after),
            media_type="text/event-stream",
            headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
        )


def from_environment() -> FastAPI:
    """The app for ``uvicorn --factory handwritten_agent.service.app:from_environment --workers N``:
    every worker process builds its own, on the database ``HANDWRITTEN_AGENT_DB`` names (default
    ``var/service.sqlite3``).
    """
    import os

    path = os.environ.get("HANDWRITTEN_AGENT_DB", "").strip()
    return create_app(ServiceSettings(db_path=path) if path else ServiceSettings())


def _may_see(user: User, request: dict[str, Any]) -> bool:
    """An approver sees the requests that name their role (decided or not); the owner sees all of
    their own.
    """
    return bool(request.get("approver_role")) and user.role == request["approver_role"]


def _may_decide(user: User, run: dict[str, Any], request: dict[str, Any], decision: str) -> bool:
    """The one rule (``confirmation.may_decide``): the owner confirms an L2 request; the role an L3
    request names approves it, never its requester; the requester may reject (withdraw) their own.
    """
    return may_decide(
        user,
        approve=decision == "approve",
        level=request.get("level"),
        approver_role=request.get("approver_role"),
        requester_id=run["user_id"],
    )


__all__ = [
    "APIError",
    "Token",
    "as_user",
    "bearer_token",
    "create_app",
    "error_response",
    "from_environment",
    "public_run",
]
