"""Approves without saying who approves: an L3 call is then approved by its own requester, which does not count."""

FAILS_AT = 'L3 调用由审批人批准'

from handwritten_agent.permissions import approve, reject


def drive(agent, result, approve_tools, approver):
    for _ in range(5):
        if result.stop_reason != "needs_confirmation":
            break
        result = agent.resume(result, {r.id: approve() if r.tool in approve_tools else reject(f"{r.tool} 不允许") for r in result.pending})
    return result


ARGS = (drive,)
