"""Who may do what: a ``Policy`` per role — whitelist, level overrides, rate and bulk limits,
masking — and its verdicts.

A policy is data the gate reads; it never runs a tool. For one call by one user, ``Policy.decide``
returns a ``Verdict`` — ``deny``, ``ask`` or ``allow`` — checking the rules in that order and
failing closed:

1. **deny** — the user's role has no rules; the tool does not exist; the role cannot see it (not in
   the whitelist, or L0); the arguments are not a JSON object or break the schema; the user has used
   up the tool's rate limit (e.g. 10 calls an hour, counted in the audit log);
2. **ask** — the level for this role is L2 (the user confirms) or L3 (someone with the approver role
   approves). A bulk limit raises a call to L3 when it touches more than N recipients/rows — alone,
   or added to what the same run, or the same user within ``bulk_window`` seconds, already touched
   with that tool (so 24 calls of 5 do not get around a limit of 5); a tool's ``needs_confirmation``
   (True, or a predicate on the arguments) raises it to at least L2;
3. **allow** — L1: it runs.

Anything unexpected while deciding (a target counter that raises, …) is a ``deny``: a call is never
executed because a check could not be made.

The role table is reference article 003's point that a tool's level is metadata, not code: the same
``send_notification_email`` is L3 for an assistant and L1 for an administrator, and a role whose
whitelist leaves a tool out never even sees it.

Left out: rules on argument values beyond the bulk limit (write them as ``needs_confirmation``
predicates on the tool), time-of-day rules, and policies loaded from files.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from ..masking import DEFAULT_RULES, MaskingRules, find_personal_data
from ..messages import ToolCall, parse_arguments
from ..text import text_table
from ..tools import Tool, ToolRegistry, validation_errors
from .audit import AuditLog
from .decisions import User
from .levels import Level

Effect = Literal["allow", "ask", "deny"]


@dataclass
class RoleRules:
    """One role's rules: which tools it sees (``tools``: a whitelist; None = every tool but L0) and
    per-tool levels.
    """

    tools: Collection[str] | None = None
    levels: Mapping[str, Level | str | int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if isinstance(self.tools, str):
            raise TypeError(f"tools 要是工具名的列表，例如 [{self.tools!r}]，不是一个字符串。")
        self.tools = None if self.tools is None else frozenset(self.tools)
        self.levels = {str(name): Level.of(level) for name, level in dict(self.levels).items()}

    def level_for(self, tool: Tool) -> Level | None:
        """This role's level for ``tool``, or None when the role cannot see it (not whitelisted, or
        L0).
        """
        if self.tools is not None and tool.name not in self.tools:
            return None
        level = self.levels.get(tool.name, tool.level)
        return None if level == Level.L0 else Level.of(level)


@dataclass(frozen=True)
class RateLimit:
    """At most ``max_calls`` calls of a tool by one user in any ``per_seconds`` window."""

    max_calls: int
    per_seconds: float = 3600.0

    def describe(self) -> str:
        units = {3600.0: "每小时", 60.0: "每分钟", 86400.0: "每天"}
        window = units.get(float(self.per_seconds), f"每 {self.per_seconds:g} 秒")
        return f"{window}最多 {self.max_calls} 次"


@dataclass(frozen=True)
class Verdict:
    """What the policy says about one call. ``code`` is the audit decision (``asked`` for
    ``ask``).
    """

    effect: Effect
    code: str
    level: Level | None
    reason: str
    """For ``deny``: the Chinese text the model reads. For ``ask``: why a person must decide."""
    approver_role: str | None = None
    targets: int | None = None


def count_targets(tool: Tool, arguments: dict[str, Any]) -> int:
    """How many recipients/rows a call touches: the tool's own ``targets`` counter if it has one,
    else the longest list argument, or the number of email addresses / phone numbers in one text
    argument (at least 1).
    """
    counter = tool.metadata.get("targets")
    if callable(counter):
        return int(counter(arguments))
    counts = [1]
    for value in arguments.values():
        if isinstance(value, (list, tuple)):
            counts.append(len(value))
        elif isinstance(value, str):
            counts.append(sum(1 for item in find_personal_data(value, ("email", "phone"))))
    return max(counts)


def _window_text(seconds: float) -> str:
    return {3600.0: " 1 小时内", 86400.0: " 1 天内", 60.0: " 1 分钟内"}.get(
        float(seconds), f" {seconds:g} 秒内"
    )


def _rate_limit(value: RateLimit | int | tuple[int, float]) -> RateLimit:
    if isinstance(value, RateLimit):
        return value
    if isinstance(value, int):
        return RateLimit(value)
    return RateLimit(int(value[0]), float(value[1]))


class Policy:
    """Rules per role, limits, masking, and where decisions are written (``audit``).

    ``roles`` maps a role name to ``RoleRules`` (or a dict ``{"tools": [...], "levels": {...}}``).
    ``rate_limits`` maps a tool name (or ``"*"`` for every tool) to a ``RateLimit``, ``(max_calls,
    per_seconds)`` or an int (per hour). ``bulk_limits`` maps a tool name to the most targets a call
    may touch before it needs an approver, counted per call, per run and per user in any
    ``bulk_window`` seconds (default an hour). ``approver_role`` is the role that approves L3 calls.
    ``audit`` is an ``AuditLog`` or a path to its SQLite file (default: in memory — give a file when
    a paused run is resumed in another process). ``clock`` gives the time for rate limits
    (injectable for tests).
    """

    def __init__(
        self,
        roles: Mapping[str, RoleRules | Mapping[str, Any]],
        *,
        rate_limits: Mapping[str, Any] | None = None,
        bulk_limits: Mapping[str, int] | None = None,
        masking: MaskingRules | None = None,
        approver_role: str = "审批人",
        audit: AuditLog | str | Path | None = None,
        clock: Callable[[], float] = time.time,
        bulk_window: float = 3600.0,
    ):
        self.roles: dict[str, RoleRules] = {}
        for name, rules in roles.items():
            self.roles[str(name)] = (
                rules if isinstance(rules, RoleRules) else RoleRules(**dict(rules))
            )
        self.rate_limits = {
            str(tool): _rate_limit(limit) for tool, limit in (rate_limits or {}).items()
        }
        self.bulk_limits = {str(tool): int(limit) for tool, limit in (bulk_limits or {}).items()}
        self.bulk_window = float(bulk_window)
        self.masking = masking or DEFAULT_RULES
        self.approver_role = approver_role
        self.audit = audit if isinstance(audit, AuditLog) else AuditLog(audit or ":memory:")
        self.clock = clock

    # ------------------------------------------------------------------ what a role sees

    def rules_for(self, user: User | None) -> RoleRules | None:
        role = getattr(user, "role", None)
        return self.roles.get(role) if isinstance(role, str) else None

    def level_for(self, user: User | None, tool: Tool) -> Level | None:
        """The level of ``tool`` for this user's role, or None when the role cannot see it."""
        rules = self.rules_for(user)
        return rules.level_for(tool) if rules is not None else None

    def visible(self, user: User | None, registry: Iterable[Tool]) -> list[Tool]:
        """The tools this user's role may see, in registry order: the only ones sent to the
        model.
        """
        return [tool for tool in registry if self.level_for(user, tool) is not None]

    def rate_limit_for(self, tool_name: str) -> RateLimit | None:
        return self.rate_limits.get(tool_name) or self.rate_limits.get("*")

    # ------------------------------------------------------------------ deciding

    def decide(
        self,
        user: User | None,
        call: ToolCall,
        tool: Tool | None,
        *,
        visible_names: Collection[str] = (),
        run_id: str | None = None,
    ) -> Verdict:
        """deny → ask → allow for one call of run ``run_id``, failing closed (see the module
        docstring).
        """
        try:
            return self._decide(user, call, tool, visible_names, run_id)
        except Exception as exc:  # noqa: BLE001 - a check that cannot be made must not let the call through
            return Verdict(
                "deny",
                "error",
                None,
                f"权限检查出错（{type(exc).__name__}: {exc}），为安全起见没有执行这个调用。",
            )

    def _decide(
        self,
        user: User | None,
        call: ToolCall,
        tool: Tool | None,
        visible_names: Collection[str],
        run_id: str | None,
    ) -> Verdict:
        rules = self.rules_for(user)
        if rules is None:
            who = f"角色 {getattr(user, 'role', None)!r}" if user is not None else "未指定用户"
            return Verdict(
                "deny",
                "denied",
                None,
                f"{who} 在权限策略里没有规则，任何工具都不能调用。请在 Policy(roles=...)"
                " 里为这个角色写规则。",
            )
        available = "、".join(visible_names) or "（没有）"
        if tool is None:
            return Verdict(
                "deny", "denied", None, f"没有名为 {call.name!r} 的工具。可用的工具：{available}。"
            )
        level = rules.level_for(tool)
        if level is None:
            return Verdict(
                "deny",
                "denied",
                Level.L0,
                f"当前角色（{user.role}）不能使用工具 {tool.name}，这次调用没有执"
                f"行。"  # type: ignore[union-attr]
                f"可用的工具：{available}。",
            )
        try:
            arguments = parse_arguments(call.arguments)
        except ValueError as exc:
            return Verdict("deny", "invalid_arguments", level, f"工具 {tool.name} 的{exc}")
        problems = validation_errors(tool.parameters, arguments)
        if problems:
            return Verdict(
                "deny",
                "invalid_arguments",
                level,
                f"工具 {tool.name} 的参数不符合要求：{'；'.join(problems)}。"
                "请修正参数后再调用一次。",
            )
        limit = self.rate_limit_for(tool.name)
        if limit is not None:
            used = self.audit.count_granted(user.id, tool.name, self.clock() - limit.per_seconds)  # type: ignore[union-attr]
            if used >= limit.max_calls:
                return Verdict(
                    "deny",
                    "rate_limited",
                    level,
                    f"调用太频繁：工具 {tool.name} 对同一用户{limit.describe()}，"
                    f"这段时间里已经用了 {used} 次。这次没有执行，请稍后再试。",
                )

        reasons: list[str] = []
        effective = level
        wants = (
            tool.needs_confirmation(arguments)
            if callable(tool.needs_confirmation)
            else tool.needs_confirmation
        )
        if wants and effective < Level.L2:
            effective = Level.L2
            reasons.append("这个工具要求确认")
        targets = None
        bulk = self.bulk_limits.get(tool.name)
        if bulk is not None:
            targets = count_targets(tool, arguments)
            if targets > bulk and effective < Level.L3:
                effective = Level.L3
                reasons.append(f"这次调用涉及 {targets} 个对象，超过批量上限 {bulk}，升级为 L3")
            elif effective < Level.L3:
                earlier = self._targets_so_far(user, tool.name, run_id)  # type: ignore[arg-type]
                if earlier + targets > bulk:
                    effective = Level.L3
                    reasons.append(
                        f"这次调用涉及 {targets} 个对象，加上之前已经执行的 {earlier}"
                        f" 个（本次运行或你最近{_window_text(self.bulk_window)}），共"
                        f" {earlier + targets} 个，超过批量上限 {bulk}，升级为 L3"
                    )
        if effective == Level.L3:
            return Verdict(
                "ask",
                "asked",
                effective,
                "；".join(reasons) or "L3 高风险操作，需要审批",
                self.approver_role,
                targets,
            )
        if effective == Level.L2:
            return Verdict(
                "ask",
                "asked",
                effective,
                "；".join(reasons) or "L2 操作，需要发起人确认",
                None,
                targets,
            )
        return Verdict("allow", "allowed", effective, "L1：直接执行", None, targets)

    def _targets_so_far(self, user: User, tool_name: str, run_id: str | None) -> int:
        """Targets already touched with this tool: the larger of this run's total and this user's
        total in the window.
        """
        in_window = self.audit.sum_targets(
            tool_name, user_id=user.id, since=self.clock() - self.bulk_window
        )
        in_run = self.audit.sum_targets(tool_name, run_id=run_id) if run_id else 0
        return max(in_window, in_run)

    # ------------------------------------------------------------------ showing

    def table(self, registry: ToolRegistry, roles: Collection[str] | None = None) -> str:
        """Tool × role: each role's level for each tool ("—" where the role cannot see it), plus
        limits.
        """
        names = list(roles or self.roles)
        rows = []
        for tool in registry:
            row = [tool.name, Level.of(tool.level).value]
            row += [(self.roles[name].level_for(tool) or "—") for name in names]
            limits = []
            if self.rate_limit_for(tool.name):
                limits.append(self.rate_limit_for(tool.name).describe())  # type: ignore[union-attr]
            if tool.name in self.bulk_limits:
                limits.append(
                    f"超过 {self.bulk_limits[tool.name]} 个对象升为"
                    f" L3（{_window_text(self.bulk_window).strip()}累计）"
                )
            row.append("；".join(limits))
            rows.append([str(cell) for cell in row])
        return text_table(["工具", "默认级别", *names, "限制"], rows)

    def __repr__(self) -> str:
        return (
            f"Policy(roles={list(self.roles)}, approver_role={self.approver_role!r},"
            f" audit={self.audit!r})"
        )


__all__ = ["Effect", "Policy", "RateLimit", "RoleRules", "Verdict", "count_targets"]
