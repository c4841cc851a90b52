"""Rejects with a reason that does not say which tool was refused."""

FAILS_AT = '一步里两个调用：一个批准、一个拒绝'

from handwritten_agent.permissions import approve, reject


def drive(agent, result, approve_tools, approver):
    for _ in range(5):
        if result.stop_reason != "needs_confirmation":
            break
        result = agent.resume(result, {r.id: approve(by=approver) if r.tool in approve_tools else reject("不行") for r in result.pending})
    return result


ARGS = (drive,)
