"""A confirmation request: what a paused tool call shows the person who must decide (the
reference articles' ``confirmation_request``).

The loop (``agent.py``) only needs an ``id`` and ``to_dict``/``from_dict`` to pause a run, store it
as JSON and resume it; the permission gate (``permissions``, Day 5) fills in the rest. The request
is bound to one call of one run and to the exact arguments it shows (``arguments_sha256`` of the
canonical arguments), so an approval cannot be replayed for another call or other arguments.

``summarize`` writes the one-line Chinese summary of the effect ("将向 z***@example.com 发送邮件《会
议通知》"): from the tool's ``summary`` option (a format string over the arguments, or a function),
or, for a tool without one, from its description and arguments.

Who may decide a request is stated here once (``may_decide``, ``who_decides``): the gate, the
Day 7 service and the notebook cards all ask it. An L2 request is confirmed (or rejected) by the
person who made it; an L3 request names an approver role and is approved by someone with that role
who is not the requester — the requester may only reject (withdraw) it, even when they hold the
role.

Left out: how a decision is recorded (``permissions``), and how the request is shown (``widgets`` in
a notebook, an HTTP endpoint on Day 7).
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import asdict, dataclass, field
from typing import Any

from .messages import ToolCall
from .text import shorten


def arguments_sha256(call: ToolCall) -> str:
    """The fingerprint an approval is bound to: sha256 of the tool name and its canonical
    arguments.
    """
    return hashlib.sha256(call.key.encode()).hexdigest()


def request_id(run_id: str, tool_call_id: str, fingerprint: str) -> str:
    """A stable id for the request of one call of one run with these arguments: asking again gives
    the same id.
    """
    return (
        "req_"
        + hashlib.sha256(f"{run_id}\x00{tool_call_id}\x00{fingerprint}".encode()).hexdigest()[:16]
    )


def _is_l3(level: Any) -> bool:
    return str(getattr(level, "value", level)).upper() == "L3"


def may_decide(
    decider: Any, *, approve: bool, level: Any, approver_role: str | None, requester_id: str | None
) -> bool:
    """Whether ``decider`` (anything with ``id`` and ``role``) may approve (``approve=True``) or
    reject a request of ``level`` that names ``approver_role`` and was made by ``requester_id``.

    A request that names an approver role (an L3 request always does; one without a role may not be
    approved at L3): someone with that role approves it, but never the requester; the requester or
    the role may reject it. A request that names none: only the requester confirms or rejects it.
    """
    if decider is None or getattr(decider, "id", None) is None:
        return False
    requester = requester_id is not None and decider.id == requester_id
    if approver_role:
        if approve:
            return getattr(decider, "role", None) == approver_role and not requester
        return requester or getattr(decider, "role", None) == approver_role
    if approve and _is_l3(level):
        return False  # an L3 approval always needs a role that is not the requester's own word
    return requester


def who_decides(approver_role: str | None) -> str:
    """The rule of ``may_decide`` in Chinese, for a card, a 403 answer or an audit row."""
    if approver_role:
        return f"需要「{approver_role}」审批"
    return "由发起人确认"


@dataclass
class ConfirmationRequest:
    """One call waiting for a person's decision."""

    id: str
    run_id: str
    tool_call_id: str
    tool: str
    arguments: dict[str, Any]
    """As shown to the person deciding (personal data masked)."""
    arguments_sha256: str
    level: str = "L2"
    approver_role: str | None = None
    """Who may decide: None means the user who started the run; a role name means someone with that
    role.
    """
    summary: str = ""
    """One line of Chinese saying what will happen, e.g. "将向 z***@example.com 发送邮件《会议通知》
    ".
    """
    extra: dict[str, Any] = field(default_factory=dict)
    user_id: str | None = None
    """Who started the run (and asked for the call)."""
    reason: str = ""
    """Why a person must decide, e.g. "这次调用涉及 120 个对象，超过批量上限 5，升级为 L3"."""
    created_at: float = 0.0
    provenance: dict[str, Any] | None = None
    """The untrusted tool result that came into the run before this call (``tool``,
    ``tool_call_id``, ``excerpt``, ``count`` of such results), or None: the card shows it, so the
    person sees what may have asked for the call."""

    @property
    def provenance_line(self) -> str:
        """Where the call may have come from, in Chinese, for the card ("" when no untrusted result
        preceded it).
        """
        if not self.provenance:
            return ""
        source = self.provenance
        more = (
            f"（这次运行一共读入了 {source['count']} 段外部内容，这是最近的一段）"
            if source.get("count", 1) > 1
            else ""
        )
        return (
            f"这个调用之前，运行读入了外部内容：{source.get('tool')} 的结果（调用"
            f" {source.get('tool_call_id')}）写着"
            f"「{source.get('excerpt', '')}」{more}。模型可能是照着这段外部文字发出这个调用的，"
            "不一定是发起人的意思。"
        )

    @property
    def who_decides(self) -> str:
        """Who may decide, in Chinese (``who_decides``)."""
        return who_decides(self.approver_role)

    def may_decide(self, decider: Any, *, approve: bool) -> bool:
        """Whether ``decider`` may approve (or reject) this request (``may_decide``)."""
        return may_decide(
            decider,
            approve=approve,
            level=self.level,
            approver_role=self.approver_role,
            requester_id=self.user_id,
        )

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ConfirmationRequest:
        known = {name: data[name] for name in cls.__dataclass_fields__ if name in data}
        return cls(**known)


def _purpose(description: str) -> str:
    first = re.split(r"[。！？!?\n]", description.strip(), maxsplit=1)[0]
    return re.split(r"[，,；;（(]", first, maxsplit=1)[0].strip() or first


def summarize(tool: Any, arguments: dict[str, Any]) -> str:
    """One Chinese line for the effect of calling ``tool`` with (already masked) ``arguments``.

    A tool may say it itself: ``@tool(summary="将向 {to_address} 发送邮件《{subject}》")`` or a
    function of the arguments. Otherwise: "将执行「<the description's first clause>」（name）：
    key=value，…".
    """
    template = getattr(tool, "metadata", {}).get("summary") if tool is not None else None
    try:
        if callable(template):
            return shorten(str(template(arguments)), 200)
        if isinstance(template, str):
            return shorten(
                template.format(**{k: shorten(v, 60) for k, v in arguments.items()}), 200
            )
    except (KeyError, IndexError, ValueError, TypeError):
        pass  # a template that does not fit these arguments: fall back to the plain description
    name = getattr(tool, "name", "") or "?"
    shown = "，".join(f"{key}={shorten(value, 40)}" for key, value in arguments.items())
    what = _purpose(getattr(tool, "description", "") or "")
    head = f"将执行「{what}」（{name}）" if what else f"将调用 {name}"
    return shorten(f"{head}：{shown}" if shown else head, 200)


__all__ = [
    "ConfirmationRequest",
    "arguments_sha256",
    "may_decide",
    "request_id",
    "summarize",
    "who_decides",
]
