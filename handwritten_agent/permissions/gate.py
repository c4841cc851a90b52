"""The permission gate: the policy applied, in code, in front of every tool call of a run.

``Agent(client, registry, hooks=[PolicyGate(policy, user)])`` puts it in front of every call; it is a hook
(``hooks.py``) and the loop asks it three things:

- ``visible_tools(tools, context)`` before every model call: only the tools this user's role may see are
  sent, so the model cannot even name the others;
- ``check_call(call, context)`` before every tool call: the policy's verdict (deny → ask → allow). A denied
  call is answered with the reason, without running; an allowed one runs; one that needs a person
  raises ``NeedsConfirmation`` with a ``ConfirmationRequest`` — the run pauses. When the run is
  resumed, ``check_call`` is asked again with the decision, and verifies it: the request must be one this
  gate issued, for this run, this ``tool_call_id`` and these exact arguments (sha256 of the canonical
  JSON); the decision must be an ``approve()``/``reject()`` by someone allowed to make it (the user
  for L2, the approver role for L3); and a request is decided once — the second use of an approval
  is answered "already done" and the tool does not run again. Anything else keeps the call waiting;
- ``after_call(call, result, context)`` after a call ran: personal data in the result is masked
  before the model sees it (``Policy.masking``).

Every decision is written to the audit log (``Policy.audit``) when it is made — before the tool runs —
and reported as a ``permission`` event of the run.

Left out: deciding on behalf of someone (delegation), approvals that expire, and a second approver.
"""

from __future__ import annotations

from typing import Any

from ..confirmation import ConfirmationRequest, arguments_sha256, request_id, summarize
from ..masking import mask_text, mask_value
from ..hooks import HookContext
from ..run import NeedsConfirmation
from ..tools import Tool, ToolResult
from ..messages import parse_arguments, ToolCall
from ..text import shorten
from .decisions import Decision, User
from .levels import Level
from .policy import Policy, Verdict

REJECTED = "用户拒绝了此操作：{reason}"


class PolicyGate:
    """One user's session under one policy (see the module docstring)."""

    def __init__(self, policy: Policy, user: User | None):
        if not isinstance(policy, Policy):
            raise TypeError(f"policy 要是 permissions.Policy，收到的是 {type(policy).__name__}。")
        self.policy, self.user = policy, user
        self._visible: list[Tool] | None = None

    # ------------------------------------------------------------------ the three questions

    def visible_tools(self, tools: list[Tool], context: HookContext) -> list[Tool]:
        self._visible = self.policy.visible(self.user, tools)
        return self._visible

    def check_call(self, call: ToolCall, context: HookContext) -> ToolResult | None:
        if context.request is not None:
            return self._decided(call, context)
        return self._first_time(call, context)

    def after_call(self, call: ToolCall, result: ToolResult, context: HookContext) -> ToolResult:
        rules = self.policy.masking
        return ToolResult(result.success, mask_value(result.data, rules), mask_text(result.error) if result.error else None,
                          result.exception)

    # ------------------------------------------------------------------ a call seen for the first time

    def _verdict(self, call: ToolCall, context: HookContext) -> Verdict:
        names = [tool.name for tool in self._visible] if self._visible is not None else []
        return self.policy.decide(self.user, call, context.tool, visible_names=names)

    def _first_time(self, call: ToolCall, context: HookContext) -> ToolResult | None:
        verdict = self._verdict(call, context)
        if verdict.effect == "deny":
            self._write(verdict.code, call, context, verdict.level, reason=verdict.reason)
            return ToolResult.fail(verdict.reason)
        if verdict.effect == "ask":
            raise NeedsConfirmation(self._ask(call, context, verdict))
        self._write("allowed", call, context, verdict.level, reason=verdict.reason)
        return None

    def _ask(self, call: ToolCall, context: HookContext, verdict: Verdict) -> ConfirmationRequest:
        shown = self._masked_arguments(call)
        fingerprint = arguments_sha256(call)
        request = ConfirmationRequest(
            id=request_id(context.run_id, call.id, fingerprint), run_id=context.run_id, tool_call_id=call.id, tool=call.name,
            arguments=shown, arguments_sha256=fingerprint, level=str(verdict.level), approver_role=verdict.approver_role,
            summary=summarize(context.tool, shown), user_id=getattr(self.user, "id", None), reason=verdict.reason,
            created_at=self.policy.clock(), extra={"targets": verdict.targets} if verdict.targets is not None else {})
        self.policy.audit.issue(request, getattr(self.user, "id", None))
        self._write("asked", call, context, verdict.level, reason=verdict.reason, request=request)
        return request

    # ------------------------------------------------------------------ a call resumed with a decision

    def _decided(self, call: ToolCall, context: HookContext) -> ToolResult | None:
        request, decision = context.request, context.decision
        fingerprint = arguments_sha256(call)
        issued = self.policy.audit.issued(getattr(request, "id", ""))
        bound = (issued is not None and issued["run_id"] == context.run_id == getattr(request, "run_id", None)
                 and issued["tool_call_id"] == call.id == getattr(request, "tool_call_id", None)
                 and issued["tool"] == call.name and issued["arguments_sha256"] == fingerprint == getattr(request, "arguments_sha256", None))
        if not bound:
            # Not the call (or not the arguments) this request was issued for: the decision does not apply.
            self._write("approval_mismatch", call, context, None, request=request,
                        reason="这个决定对应的运行、调用或参数与正在等待的调用不一致（或这个确认请求不是本关卡发出的），不能使用")
            return self._first_time(call, context)
        level = Level.of(issued["level"])
        if not isinstance(decision, Decision):
            self._write("invalid_decision", call, context, level, request=request,
                        reason=f"收到的决定是 {type(decision).__name__}: {shorten(decision, 60)}，不是 approve() 或 reject(...)")
            raise NeedsConfirmation(request)
        if decision.arguments_sha256 is not None and decision.arguments_sha256 != fingerprint:
            self._write("approval_mismatch", call, context, level, request=request, decided_by=decision.by,
                        reason="这个决定是针对另一组参数做出的")
            raise NeedsConfirmation(request)

        earlier = self.policy.audit.settled(request.id)
        if earlier is not None:
            return self._already(call, context, level, request, earlier)
        decider = decision.by or self.user
        if not self._may_decide(decider, decision, level, issued["approver_role"]):
            self._write("not_authorized", call, context, level, request=request, decided_by=decider,
                        reason=f"{decider} 不能{'批准' if decision.approved else '拒绝'}这个 {level.value} 操作（{request.who_decides}）")
            raise NeedsConfirmation(request)

        if not decision.approved:
            if not self.policy.audit.settle(request.id, "reject", getattr(decider, "id", None), decision.reason):
                return self._already(call, context, level, request, self.policy.audit.settled(request.id) or {})
            self._write("rejected", call, context, level, request=request, decided_by=decider, reason=decision.reason)
            return ToolResult.fail(REJECTED.format(reason=decision.reason))

        verdict = self._verdict(call, context)  # the deny rules again: the role, the arguments, the rate limit may have changed
        if verdict.effect == "deny":
            self._write(verdict.code, call, context, level, request=request, reason=verdict.reason)
            return ToolResult.fail(verdict.reason)
        if not self.policy.audit.settle(request.id, "approve", getattr(decider, "id", None), decision.reason):
            return self._already(call, context, level, request, self.policy.audit.settled(request.id) or {})
        self._write("approved" if level == Level.L3 else "confirmed", call, context, level, request=request, decided_by=decider,
                    reason=decision.reason or ("审批通过" if level == Level.L3 else "用户已确认"))
        return None

    def _may_decide(self, decider: Any, decision: Decision, level: Level, approver_role: str | None) -> bool:
        if not isinstance(decider, User):
            return False
        starter = self.user is not None and decider.id == self.user.id
        approver = decider.role in {role for role in (approver_role, self.policy.approver_role) if role}
        if decision.approved and level == Level.L3:
            return decider.role == (approver_role or self.policy.approver_role)
        return starter or approver

    def _already(self, call: ToolCall, context: HookContext, level: Level, request: Any, earlier: dict[str, Any]) -> ToolResult:
        self._write("approval_reused", call, context, level, request=request,
                    reason=f"这个确认请求已经有过决定（{earlier.get('verdict')}，决定人 {earlier.get('decided_by')}），不会再执行")
        if earlier.get("verdict") == "approve":
            return ToolResult.fail(f"这个操作已经按批准执行过一次（批准人 {earlier.get('decided_by')}），同一个批准不会再执行第二次。")
        return ToolResult.fail(REJECTED.format(reason=earlier.get("reason") or "未说明原因"))

    # ------------------------------------------------------------------ writing it down

    def _masked_arguments(self, call: ToolCall) -> dict[str, Any]:
        try:
            arguments = parse_arguments(call.arguments)
        except ValueError:
            return {"_raw": mask_text(shorten(call.arguments, 200))}
        return mask_value(arguments, self.policy.masking)

    def _write(self, decision: str, call: ToolCall, context: HookContext, level: Level | None, *, reason: str = "",
               request: Any = None, decided_by: Any = None) -> None:
        """Write the decision to the audit log now, then report it as a ``permission`` event of the run."""
        user = self.user
        self.policy.audit.record(
            decision, ts=self.policy.clock(), run_id=context.run_id, step=context.step, tool_call_id=call.id, user_id=getattr(user, "id", None),
            role=getattr(user, "role", None), tool=call.name, level=str(level) if level is not None else None,
            decided_by=getattr(decided_by, "id", None), decided_role=getattr(decided_by, "role", None), reason=mask_text(reason),
            arguments=self._masked_arguments(call), arguments_sha256=arguments_sha256(call), request_id=getattr(request, "id", None))
        context.report("permission", decision=decision, tool=call.name, level=str(level) if level is not None else None,
                       reason=mask_text(reason), decided_by=getattr(decided_by, "id", None), request_id=getattr(request, "id", None))

    def __repr__(self) -> str:
        return f"PolicyGate(user={self.user}, policy={self.policy!r})"


__all__ = ["PolicyGate", "REJECTED"]
