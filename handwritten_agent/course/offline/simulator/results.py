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

from .vocabulary import expand

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
    r"没有权限|无权|权限不足|不允许|已取消|被取消|已撤销|被撤销|已作废|被作废",
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


def _classify_text(text: str, tool: str = "") -> str | None:
    if _REPEATED.search(text):
        return REPEATED
    if _CONFIRM.search(text):
        return CONFIRM
    denied = _DENIED.search(text)
    if denied and not _own_outcome(denied.group(0), tool):
        return DENIED
    return None


_SUCCESS_FLAGS = ("success", "ok", "succeeded", "successful", "accepted")
_CODE_KEYS = ("status_code", "http_status", "statusCode", "httpStatus", "code", "status")


def _failed_code(value: dict[str, Any]) -> bool:
    """An HTTP-like status code of 400-599 in the result's own fields."""
    for key in _CODE_KEYS:
        code = value.get(key)
        if isinstance(code, str) and code.strip().isdigit():
            code = int(code.strip())
        if isinstance(code, int) and not isinstance(code, bool) and 400 <= code <= 599:
            return True
    return False


def _own_outcome(word: str, tool: str) -> bool:
    """Whether a status word ("cancelled", "已取消") is the outcome of the tool's own action (a
    cancel tool reporting the thing cancelled), read through the synonym groups."""
    if not word or not tool:
        return False
    own = f"{tool} {expand(tool)}".lower()
    return any(member and member in own for member in f"{word} {expand(word)}".lower().split())


def _read_dict(value: dict[str, Any], tool: str = "") -> ResultView:
    status = str(value.get("status", value.get("type", ""))).lower()
    if value.get("repeated") is True or value.get("already_called") is True:
        # an agent's repeated-call guard: the earlier result, sent back with a note
        return ResultView(REPEATED, value.get("data"), _message_of(value.get("note") or value))
    if status in _CONFIRM_STATUSES or any(value.get(key) is True for key in _CONFIRM_FLAGS):
        return ResultView(CONFIRM, value, _message_of(value))
    flags = [value[key] for key in _SUCCESS_FLAGS if isinstance(value.get(key), bool)]
    refused = status in _DENIED_STATUSES or (len(status) <= 12 and bool(_DENIED.search(status)))
    if (refused and not _own_outcome(status, tool)) or (
        value.get("denied") is True or value.get("rejected") is True
    ):
        return ResultView(DENIED, value, _message_of(value))
    if False in flags or _failed_code(value):
        message = _message_of(value.get("error") or value)
        return ResultView(_classify_text(message, tool) or ERROR, None, message)
    if "success" in value:
        if value.get("error") and value.get("data") is None:
            message = _message_of(value.get("error") or value)
            return ResultView(_classify_text(message, tool) or ERROR, None, message)
        data = value.get("data")
        if isinstance(data, dict):
            inner = _read_dict(data, tool)
            if (
                inner.status == CONFIRM
                or inner.status == DENIED
                and (True not in flags or str(data.get("status", "")).lower() in _DENIED_STATUSES)
            ):
                # {"success": true, "data": {"status": "rejected"}}: the call went through, and
                # what it asked for was refused
                return inner
        return ResultView(OK, data)
    if value.get("error") and True not in flags:
        message = _message_of(value["error"])
        return ResultView(_classify_text(message, tool) or ERROR, None, message)
    return ResultView(OK, value)


def read_result(raw: str, tool: str = "") -> ResultView:
    """Sort a tool message's text into ok / error / confirm / denied / repeated.

    Success is read from the result's structure (error fields, ``ok``/``success`` booleans,
    HTTP-like codes); a status word the table does not know is no failure, and a word of
    rejection that is the outcome of the tool's own action (``tool``: its name and description;
    "cancelled" from a cancel tool) is success.
    """
    text = (raw or "").strip()
    try:
        value: Any = json.loads(text)
    except ValueError:
        value = text
    if isinstance(value, dict):
        return _read_dict(value, tool)
    if isinstance(value, str):
        status = _classify_text(value, tool)
        if status:
            return ResultView(status, None, value)
        if _ERROR.search(value):
            return ResultView(ERROR, None, value)
    return ResultView(OK, value)


def tool_text(spec: dict[str, Any]) -> str:
    """A tool's name and description, what ``read_result`` compares a status word with."""
    return f"{spec.get('name', '')} {spec.get('description', '')}"


__all__ = ["tool_text", "OK", "ERROR", "CONFIRM", "DENIED", "REPEATED", "ResultView", "read_result"]
