"""A confirmation request: what a paused tool call shows the person who must decide (the seeds' ``confirmation_request``).

The loop (``agent.py``) only needs an ``id`` and ``to_dict``/``from_dict`` to pause a run, store it as
JSON and resume it; the permission gate (``permissions``, Day 5) fills in the rest. The request is
bound to one call of one run and to the exact arguments it shows (``arguments_sha256`` of the
canonical arguments), so an approval cannot be replayed for another call or other arguments.

Left out: who is allowed to decide and how a decision is recorded (``permissions``), and how the
request is shown (``widgets`` in a notebook, an HTTP endpoint on Day 7).
"""

from __future__ import annotations

import hashlib
from dataclasses import asdict, dataclass, field
from typing import Any

from .types import ToolCall, canonical_arguments


def arguments_sha256(call: ToolCall) -> str:
    """The fingerprint an approval is bound to: sha256 of the tool name and its canonical arguments."""
    return hashlib.sha256(f"{call.name}\x00{canonical_arguments(call.arguments)}".encode()).hexdigest()


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
    """Who may decide: None means the user who started the run; a role name means someone with that role."""
    summary: str = ""
    """One line of Chinese saying what will happen, e.g. "将向 z***@example.com 发送邮件《会议通知》"."""
    extra: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ConfirmationRequest:
        known = {name: data[name] for name in cls.__dataclass_fields__ if name in data}
        return cls(**known)


__all__ = ["ConfirmationRequest", "arguments_sha256"]
