"""Loops while the run waits, with no upper bound."""

FAILS_AT = '一个永远在等待的运行：有限次之后停下'

from handwritten_agent.permissions import approve, reject


def drive(agent, result, approve_tools, approver):
    while result.stop_reason == "needs_confirmation":
        decisions = {r.id: approve(by=approver) if r.tool in approve_tools else reject(f"{r.tool} 不允许") for r in result.pending}
        result = agent.resume(result, decisions)
    return result


ARGS = (drive,)
