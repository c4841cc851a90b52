"""Remembers every decision by the tool call's id in a module global and reuses it: a later run whose
call has the same id (a model's call ids are only unique within one run) gets the old decision."""

from handwritten_agent.permissions import approve, reject

_DECIDED = {}


def drive(agent, result, approve_tools, approver):
    for _ in range(5):
        if result.stop_reason != "needs_confirmation":
            break
        for request in result.pending:
            if request.tool_call_id not in _DECIDED:
                _DECIDED[request.tool_call_id] = approve(by=approver) if request.tool in approve_tools else reject(f"{request.tool} 未获允许")
        result = agent.resume(result, {request.id: _DECIDED[request.tool_call_id] for request in result.pending})
    return result


ARGS = (drive,)
FAILS_AT = "又一次"
