"""What a tool result says: ok, error, waiting for confirmation, denied, or a repeated call.

A tool result may be plain text, any JSON, or the course's envelope ``{"success", "data",
"error"}``. ``read_result`` sorts it into one of five statuses — ok, error, confirm (waiting for the
user's confirmation), denied (rejected or not allowed) and repeated (the agent's repeated-call guard
said the call was already made) — keeping the data (when ok) or the message (otherwise), so the
answer can relay each honestly: an error is never turned into a number, a pending confirmation is
explained, a rejection is reported as not done.

Left out: reading the *meaning* of the data (``facts`` does that) and results in formats other than
text and JSON.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

OK, ERROR, CONFIRM, DENIED, REPEATED = "ok", "error", "confirm", "denied", "repeated"

_REPEATED = re.compile(
    r"already (?:been )?(?:called|made|executed|ran|run|done|requested)|already have"
    r" (?:this|that|the) result|"
    r"repeated (?:tool )?call|same call|identical call|duplicate"
    r" call|重复调用|重复的调用|已经调用|已调用过|"
    r"已经执行过|已经查询过|已经有(?:了)?(?:这个|该)?结果|调用过(?:了)?(?:这个|该)?工具",
    re.I,
)
_CONFIRM = re.compile(
    r"need_confirmation|needs? confirmation|requires? (?:user )?confirmation|awaiting (?:user"
    r" )?confirmation|"
    r"pending (?:confirmation|approval)|needs?"
    r" approval|需要(?:你|您|用户)?(?:的)?(?:二次)?确认|请确认|待确认|等待确认|"
    r"需要审批|等待审批|待审批|等待批准",
    re.I,
)
_DENIED = re.compile(
    r"\bdenied\b|\brejected\b|\brefused\b|not approved|permission|forbidden|not"
    r" allowed|拒绝|驳回|未获批准|"
    r"没有权限|无权|权限不足|不允许|已取消|被取消",
    re.I,
)
_ERROR = re.compile(
    r"^\s*(?:error|错误|出错|失败|exception|traceback)|error:|错误[:：]|出错|计算失败|执行失败|调用"
    r"失败|异常[:：]",
    re.I,
)
_CONFIRM_STATUSES = {
    "need_confirmation",
    "needs_confirmation",
    "pending_confirmation",
    "confirmation_required",
    "awaiting_confirmation",
    "pending_approval",
    "need_approval",
    "needs_approval",
    "confirmation_request",
}
_CONFIRM_FLAGS = (
    "need_confirmation",
    "needs_confirmation",
    "requires_confirmation",
    "confirmation_required",
    "pending_confirmation",
    "needs_approval",
    "requires_approval",
    "awaiting_confirmation",
)
_DENIED_STATUSES = {
    "denied",
    "rejected",
    "refused",
    "forbidden",
    "cancelled",
    "canceled",
    "not_approved",
}


@dataclass(frozen=True)
class ResultView:
    status: str  # ok | error | confirm | denied | repeated
    value: Any = None  # the data, when ok
    message: str = ""  # the error / confirmation / rejection text


def _message_of(value: Any) -> str:
    if isinstance(value, dict):
        for key in ("message", "error", "reason", "detail", "tips", "summary", "msg"):
            if value.get(key):
                return _message_of(value[key])
        return json.dumps(value, ensure_ascii=False)
    return str(value).strip()


def _classify_text(text: str) -> str | None:
    if _REPEATED.search(text):
        return REPEATED
    if _CONFIRM.search(text):
        return CONFIRM
    if _DENIED.search(text):
        return DENIED
    return None


def _read_dict(value: dict[str, Any]) -> ResultView:
    status = str(value.get("status", value.get("type", ""))).lower()
    if value.get("repeated") is True or value.get("already_called") is True:
        # an agent's repeated-call guard: the earlier result, sent back with a note
        return ResultView(REPEATED, value.get("data"), _message_of(value.get("note") or value))
    if status in _CONFIRM_STATUSES or any(value.get(key) is True for key in _CONFIRM_FLAGS):
        return ResultView(CONFIRM, value, _message_of(value))
    if status in _DENIED_STATUSES or value.get("denied") is True or value.get("rejected") is True:
        return ResultView(DENIED, value, _message_of(value))
    if "success" in value:
        if value.get("success") is False or (value.get("error") and value.get("data") is None):
            message = _message_of(value.get("error") or value)
            return ResultView(_classify_text(message) or ERROR, None, message)
        data = value.get("data")
        if isinstance(data, dict):
            inner = _read_dict(data)
            if inner.status in (CONFIRM, DENIED):
                return inner
        return ResultView(OK, data)
    if value.get("error"):
        message = _message_of(value["error"])
        return ResultView(_classify_text(message) or ERROR, None, message)
    return ResultView(OK, value)


def read_result(raw: str) -> ResultView:
    """Sort a tool message's text into ok / error / confirm / denied / repeated."""
    text = (raw or "").strip()
    try:
        value: Any = json.loads(text)
    except ValueError:
        value = text
    if isinstance(value, dict):
        return _read_dict(value)
    if isinstance(value, str):
        status = _classify_text(value)
        if status:
            return ResultView(status, None, value)
        if _ERROR.search(value):
            return ResultView(ERROR, None, value)
    return ResultView(OK, value)


__all__ = ["OK", "ERROR", "CONFIRM", "DENIED", "REPEATED", "ResultView", "read_result"]
