"""Compares tool names case-insensitively and width-insensitively: approve_tools {"Buy"} or {"ｂｕｙ"}
approves buy, though only the exact names given are allowed."""

import unicodedata

from handwritten_agent.permissions import approve, reject


def drive(agent, result, approve_tools, approver):
    allowed = {unicodedata.normalize("NFKC", name).casefold() for name in approve_tools}
    for _ in range(5):
        if result.stop_reason != "needs_confirmation":
            break
        decisions = {
            request.id: approve(by=approver) if request.tool.casefold() in allowed else reject(f"{request.tool} 未获允许")
            for request in result.pending
        }
        result = agent.resume(result, decisions)
    return result


ARGS = (drive,)
FAILS_AT = "名字相近"
