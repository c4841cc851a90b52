"""Correct, recursively, with the depth as the bound."""

from handwritten_agent.permissions import approve, reject


def drive(agent, result, approve_tools, approver, rounds=5):
    if result.stop_reason != "needs_confirmation" or rounds == 0:
        return result
    decisions = {request.id: (approve(by=approver) if request.tool in approve_tools else reject(f"工具 {request.tool} 未获允许"))
                 for request in result.pending}
    return drive(agent, agent.resume(result, decisions), approve_tools, approver, rounds - 1)


ARGS = (drive,)
