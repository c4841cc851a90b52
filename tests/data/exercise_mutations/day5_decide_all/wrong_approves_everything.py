"""Approves every pending call, ignoring approve_tools."""

FAILS_AT = '一步里两个调用：一个批准、一个拒绝'

from handwritten_agent.permissions import approve


def drive(agent, result, approve_tools, approver):
    for _ in range(5):
        if result.stop_reason != "needs_confirmation":
            break
        result = agent.resume(result, {r.id: approve(by=approver) for r in result.pending})
    return result


ARGS = (drive,)
