"""Who is acting, and what a person decided about a paused call: ``User``, ``Decision``,
``approve()``, ``reject()``.

A decision is data, not a callback: ``{request.id: approve()}`` goes to ``Agent.resume``, and
``to_dict``/``from_dict`` let a web service (Day 7) receive it as JSON. A decision may name who made
it (``by``); without it, it is the decision of the user who started the run. It may also carry the
fingerprint of the arguments it was made for (``arguments_sha256``, set by the confirmation card),
so it cannot be applied to other arguments. Whether the decider may decide is the gate's business
(``PolicyGate``), not this module's.

Left out: signatures and identity checks (who clicked is whoever the caller says; Day 7's service
takes it from a bearer token), and decisions that expire.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any, Literal

APPROVE, REJECT = "approve", "reject"


@dataclass(frozen=True)
class User:
    """Who a session acts for. The role picks the policy's rules; the id keys rate limits and the
    audit log.
    """

    id: str
    role: str
    name: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "role": self.role, "name": self.name}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> User:
        return cls(str(data["id"]), str(data["role"]), str(data.get("name", "")))

    def __str__(self) -> str:
        return f"{self.name or self.id}（{self.role}）"


@dataclass(frozen=True)
class Decision:
    """A person's decision about one confirmation request."""

    verdict: Literal["approve", "reject"]
    reason: str = ""
    by: User | None = None
    """Who decided; None means the user who started the run."""
    arguments_sha256: str | None = None
    """When set, the decision holds only for the arguments with this fingerprint."""
    at: float = field(default_factory=time.time)

    @property
    def approved(self) -> bool:
        return self.verdict == APPROVE

    def to_dict(self) -> dict[str, Any]:
        return {
            "verdict": self.verdict,
            "reason": self.reason,
            "by": self.by.to_dict() if self.by else None,
            "arguments_sha256": self.arguments_sha256,
            "at": self.at,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Decision:
        verdict = data.get("verdict")
        if verdict not in (APPROVE, REJECT):
            raise ValueError(f'决定只能是 "approve" 或 "reject"，收到的是 {verdict!r}。')
        by = data.get("by")
        return cls(
            verdict,
            str(data.get("reason") or ""),
            User.from_dict(by) if by else None,
            data.get("arguments_sha256"),
            float(data.get("at") or time.time()),
        )


def approve(
    by: User | None = None, *, note: str = "", arguments_sha256: str | None = None
) -> Decision:
    """批准：the paused call may run (once). ``by`` is who approves; an L3 call needs someone with
    the approver role.
    """
    return Decision(APPROVE, note, by, arguments_sha256)


def reject(
    reason: str = "", by: User | None = None, *, arguments_sha256: str | None = None
) -> Decision:
    """拒绝：the call is not run; the model is told "用户拒绝了此操作：<reason>"."""
    return Decision(REJECT, reason.strip() or "未说明原因", by, arguments_sha256)


__all__ = ["APPROVE", "Decision", "REJECT", "User", "approve", "reject"]
