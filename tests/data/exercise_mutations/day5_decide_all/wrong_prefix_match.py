"""Approves a tool when its name starts with an allowed name: approve_tools {"send"} lets send_sms
through, though only the exact names given are allowed."""

from handwritten_agent.permissions import approve, reject


def drive(agent, result, approve_tools, approver):
    for _ in range(5):
        if result.stop_reason != "needs_confirmation":
            break
        decisions = {}
        for request in result.pending:
            if any(request.tool.startswith(name) for name in approve_tools):
                decisions[request.id] = approve(by=approver)
            else:
                decisions[request.id] = reject(f"{request.tool} 不在允许的范围内")
        result = agent.resume(result, decisions)
    return result


ARGS = (drive,)
FAILS_AT = "名字相近"
