"""Looks the tool up in the allowed names joined into one text (``request.tool in ",".join(...)``): a
tool whose name is part of an allowed one (``send`` in ``send_email``) is approved too."""

from handwritten_agent.permissions import approve, reject


def drive(agent, result, approve_tools, approver):
    allowed = ",".join(sorted(approve_tools))
    for _ in range(5):
        if result.stop_reason != "needs_confirmation":
            break
        decisions = {}
        for request in result.pending:
            if request.tool in allowed:
                decisions[request.id] = approve(by=approver)
            else:
                decisions[request.id] = reject(f"{request.tool} 不在允许的范围内")
        result = agent.resume(result, decisions)
    return result


ARGS = (drive,)
