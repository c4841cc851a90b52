"""Permissions (Day 5): levels L0–L3, a policy per role, a gate in front of every tool call, pauses
for a person's decision.

    from handwritten_agent.permissions import Level, Policy, User, approve, reject

    policy = Policy({"行政助理": {"tools": [...], "levels": {"send_notification_email": "L3"}}},
    approver_role="行政主管") agent = Agent(client, registry, hooks=[PolicyGate(policy, User("u1",
    role="行政助理"))])
    paused = agent.run("帮我订 room_301 …")               # stop_reason == "needs_confirmation"
    done = agent.resume(paused, {paused.pending[0].id: approve()})

- ``levels``     ``Level`` and the reference articles' table (L0 hidden … L3 approval;
                 yellow/red/black tiers)
- ``decisions``  ``User``, ``Decision``, ``approve()``, ``reject(reason)``
- ``policy``     ``Policy`` (roles, whitelists, level overrides, rate and bulk limits, masking) and
                 its verdicts
- ``gate``       ``PolicyGate``: the policy applied by the agent's loop, approvals bound to the
                 arguments
- ``audit``      ``AuditLog``: every decision in SQLite, written before the tool runs
- ``display``    text tables

Masking itself is ``handwritten_agent.masking``; the confirmation card is
``handwritten_agent.widgets``.

Left out: authentication (who the user is comes from the caller; Day 7's service reads a bearer
token), and policies stored outside Python.
"""

from __future__ import annotations

from .audit import AuditLog, format_audit
from .decisions import Decision, User, approve, reject
from .gate import REJECTED, PolicyGate
from .levels import LEVELS, Level, level_table
from .policy import Policy, RateLimit, RoleRules, Verdict, count_targets

__all__ = [
    "AuditLog",
    "Decision",
    "LEVELS",
    "Level",
    "Policy",
    "PolicyGate",
    "REJECTED",
    "RateLimit",
    "RoleRules",
    "User",
    "Verdict",
    "approve",
    "count_targets",
    "format_audit",
    "level_table",
    "reject",
]
