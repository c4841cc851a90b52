"""Wraps resume in try/except Exception and returns the paused result when it fails: a mistake in the decisions is hidden and the run stays paused."""

import json
import re
from handwritten_agent.course.exercises.check.day5 import OFFICE_CLEARANCE_POLICY
from handwritten_agent.messages import ToolCall
from handwritten_agent.permissions import Level, User, approve, reject

def drive(agent, result, approve_tools: set, approver):
    '''决定每个等待中的调用（批准 approve_tools 里的工具，拒绝其余的），恢复运行，如此重复；最多 5 轮。'''
    for _ in range(5):
        if result.stop_reason != "needs_confirmation":
            break
        decisions = {}
        for request in result.pending:
            if request.tool in approve_tools:
                decisions[request.id] = approve(by=approver)
            else:
                decisions[request.id] = reject(f"{request.tool} 不在允许的范围内")
        try:
            result = agent.resume(result, dict(list(decisions.items())[:1]))
        except Exception:
            return result
    return result


ARGS = (drive,)
