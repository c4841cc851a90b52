"""Decides and resumes five times in a row without looking at stop_reason: once the run has finished, resuming it raises."""

from handwritten_agent.permissions import approve, reject


def drive(agent, result, approve_tools, approver):
    for _ in range(5):
        decisions = {request.id: approve(by=approver) if request.tool in approve_tools else reject(f"{request.tool} 不允许")
                     for request in result.pending}
        result = agent.resume(result, decisions)
    return result


ARGS = (drive,)
FAILS_AT = "一步里两个调用"
