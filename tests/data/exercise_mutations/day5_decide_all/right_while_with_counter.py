"""Correct, another way: a while loop with its own round counter and the decisions built in one dict comprehension."""

import json
import re
from handwritten_agent.course.exercises.check.day5 import OFFICE_CLEARANCE_POLICY
from handwritten_agent.messages import ToolCall
from handwritten_agent.permissions import Level, User, approve, reject

def drive(agent, result, approve_tools, approver):
    rounds = 0
    while result.stop_reason == "needs_confirmation" and rounds < 5:
        rounds += 1
        result = agent.resume(result, {
            request.id: approve(by=approver) if request.tool in approve_tools
            else reject(f"这次不允许调用 {request.tool}")
            for request in result.pending
        })
    return result


ARGS = (drive,)
