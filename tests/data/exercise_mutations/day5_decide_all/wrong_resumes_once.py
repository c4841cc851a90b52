"""Resumes once and returns, even when the resumed run pauses again."""

FAILS_AT = '暂停两次：继续后又暂停，要再决定一轮'

from handwritten_agent.permissions import approve, reject


def drive(agent, result, approve_tools, approver):
    decisions = {r.id: approve(by=approver) if r.tool in approve_tools else reject(f"{r.tool} 不允许") for r in result.pending}
    return agent.resume(result, decisions)


ARGS = (drive,)
