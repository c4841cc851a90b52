"""Correct, another style: the decisions of a round built by one dict comprehension, the rounds
counted by a ``for`` over a range with an early return."""

from handwritten_agent.permissions import approve, reject


def drive(agent, result, approve_tools, approver):
    for _ in range(5):
        if result.stop_reason != "needs_confirmation":
            return result
        result = agent.resume(result, {
            request.id: approve(by=approver) if request.tool in approve_tools
            else reject(f"不允许调用 {request.tool}")
            for request in result.pending
        })
    return result


ARGS = (drive,)
