"""Drives the run correctly but forgets to return the result."""

FAILS_AT = '一步里两个调用：一个批准、一个拒绝'

from handwritten_agent.permissions import approve, reject


def drive(agent, result, approve_tools, approver):
    for _ in range(5):
        if result.stop_reason != "needs_confirmation":
            break
        result = agent.resume(result, {r.id: approve(by=approver) if r.tool in approve_tools else reject(f"{r.tool} 不允许") for r in result.pending})


ARGS = (drive,)
