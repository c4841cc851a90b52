"""Removes each tool from approve_tools once used (changing the caller's set)."""

FAILS_AT = '一步里两个调用：一个批准、一个拒绝'

from handwritten_agent.permissions import approve, reject


def drive(agent, result, approve_tools, approver):
    for _ in range(5):
        if result.stop_reason != "needs_confirmation":
            break
        decisions = {}
        for request in result.pending:
            if request.tool in approve_tools:
                decisions[request.id] = approve(by=approver)
                approve_tools.discard(request.tool)
            else:
                decisions[request.id] = reject(f"{request.tool} 不允许")
        result = agent.resume(result, decisions)
    return result


ARGS = (drive,)
