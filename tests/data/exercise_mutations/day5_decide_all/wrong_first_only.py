"""Decides only the first pending request (resume then refuses: every pending call needs a decision)."""

FAILS_AT = '一步里两个调用：一个批准、一个拒绝'

from handwritten_agent.permissions import approve, reject


def drive(agent, result, approve_tools, approver):
    for _ in range(5):
        if result.stop_reason != "needs_confirmation":
            break
        request = result.pending[0]
        decision = approve(by=approver) if request.tool in approve_tools else reject(f"{request.tool} 不允许")
        result = agent.resume(result, {request.id: decision})
    return result


ARGS = (drive,)
