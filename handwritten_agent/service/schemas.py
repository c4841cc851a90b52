"""What the API accepts and answers, as pydantic models: FastAPI validates requests with them and
``/docs`` shows them.

Limits are constraints on the fields (``max_length`` …), so a request that breaks one is a 422 that
names the field, and ``/docs`` shows the limit next to it. Unknown fields are refused
(``extra="forbid"``): a typo such as ``mesage`` is an error, not a silently ignored field.

Left out: pagination (``/v1/confirmations`` answers the whole queue), and versioned schemas
(everything is ``v1``).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

MAX_SESSION_ID_CHARS = 200
MAX_MESSAGE_CHARS = 4000
MAX_REASON_CHARS = 500
MAX_IDEMPOTENCY_KEY_CHARS = 255

RunStatus = Literal["queued", "running", "requires_action", "completed", "failed", "cancelled"]


def _not_blank(value: str) -> str:
    if not value.strip():
        raise ValueError("不能只有空白")
    return value


class RunCreate(BaseModel):
    """``POST /v1/runs``: a message in a session. Send an ``Idempotency-Key`` header to make retries
    safe.
    """

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "examples": [
                {
                    "session_id": "周报",
                    "message": "帮我订明天上午 10 点到 11 点的 room_301 会议室，5 个人开会",
                }
            ]
        },
    )

    session_id: str = Field(
        min_length=1,
        max_length=MAX_SESSION_ID_CHARS,
        description="会话 id，由客户端决定：同一个用户同一个会话的运行共享对话历史",
    )
    message: str = Field(min_length=1, max_length=MAX_MESSAGE_CHARS, description="用户这一轮说的话")

    _blank = field_validator("session_id", "message")(_not_blank)


class DecisionCreate(BaseModel):
    """``POST /v1/runs/{run_id}/confirmations/{request_id}``: 批准 or 拒绝 one waiting call."""

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={"examples": [{"decision": "reject", "reason": "时间还没定"}]},
    )

    decision: Literal["approve", "reject"] = Field(description="approve（批准）或 reject（拒绝）")
    reason: str = Field(
        "", max_length=MAX_REASON_CHARS, description="拒绝的原因（会告诉模型）；批准时可以留空"
    )


class ConfirmationRequestOut(BaseModel):
    """A call waiting for a person: what the confirmation card shows. Personal data and secrets are
    masked.
    """

    id: str
    run_id: str
    tool_call_id: str
    tool: str
    arguments: dict[str, Any] = Field(description="调用参数（已脱敏）")
    arguments_sha256: str
    level: str = Field(description="L2：发起人确认；L3：审批人批准")
    approver_role: str | None = Field(
        None, description="谁来审批：一个角色名；为空时由发起人自己确认"
    )
    summary: str = Field("", description="一句话说明这次调用会做什么")
    reason: str = Field("", description="为什么需要确认")
    provenance: dict[str, Any] | None = Field(
        None, description="这次调用之前读入的外部内容（工具名、调用 id、摘录），没有时为空"
    )
    extra: dict[str, Any] = Field(default_factory=dict)
    user_id: str | None = None
    created_at: float = 0.0


class RunOut(BaseModel):
    """A run: a message, its status, and, when it has one, the answer or the error."""

    id: str
    object: Literal["run"] = "run"
    session_id: str
    message: str
    status: RunStatus
    stop_reason: str | None = Field(
        None, description="final、needs_confirmation、cancelled、error、max_steps、timeout …"
    )
    answer: str | None = None
    error: str | None = None
    pending: list[ConfirmationRequestOut] = Field(
        default_factory=list, description="status 为 requires_action 时等待决定的调用"
    )
    created_at: float
    updated_at: float


class DecisionOut(BaseModel):
    request_id: str
    decision: Literal["approve", "reject"]
    reason: str
    decided_by: str | None = Field(None, description="做出决定的用户名")
    decided_by_id: str = Field(description="做出决定的用户 id：用户名可能看起来相似，id 不会")
    decided_at: float


class DecisionResult(BaseModel):
    run: RunOut
    decision: DecisionOut
    replayed: bool = Field(description="true：同一个人重复提交了同样的决定，这次没有再执行任何东西")


class QueueItem(BaseModel):
    run_id: str
    request: ConfirmationRequestOut
    message: str = Field(description="发起这个运行的那句话")
    requested_by: str | None = Field(None, description="发起人的用户名")
    waiting_since: float


class Queue(BaseModel):
    object: Literal["list"] = "list"
    data: list[QueueItem]


class Me(BaseModel):
    """Who the token belongs to (the web page shows it and decides which buttons to offer)."""

    id: str
    name: str
    role: str


class ErrorDetail(BaseModel):
    type: str = Field(
        description="机器可读的错误类型，例如 invalid_request、not_found、already_decided"
    )
    message: str = Field(description="给人看的中文说明")
    details: Any = Field(None, description="更多信息，例如每个有问题的字段")


class ErrorResponse(BaseModel):
    """Every error has this one shape."""

    error: ErrorDetail


__all__ = [
    "ConfirmationRequestOut",
    "DecisionCreate",
    "DecisionOut",
    "DecisionResult",
    "ErrorDetail",
    "ErrorResponse",
    "MAX_IDEMPOTENCY_KEY_CHARS",
    "MAX_MESSAGE_CHARS",
    "MAX_REASON_CHARS",
    "MAX_SESSION_ID_CHARS",
    "Me",
    "Queue",
    "QueueItem",
    "RunCreate",
    "RunOut",
    "RunStatus",
]
