"""Counts per user only (the key leaves out the tool): calls to one tool use up another tool's allowance."""

import json
import re
from handwritten_agent.course.exercises.check.day5 import OFFICE_CLEARANCE_POLICY
from handwritten_agent.messages import ToolCall
from handwritten_agent.permissions import Level, User, approve, reject

class RateLimiter:
    '''每个 (user_id, tool) 在任意 per_seconds 秒的窗口内最多放行 max_calls 次调用，时间由 clock() 给出。'''

    def __init__(self, max_calls: int, per_seconds: float, clock):
        self.max_calls, self.per_seconds, self.clock = max_calls, per_seconds, clock
        self.calls: dict[tuple[str, str], list[float]] = {}

    def allow(self, user_id: str, tool: str) -> bool:
        now = self.clock()
        recent = [t for t in self.calls.get(user_id, []) if t > now - self.per_seconds]
        if len(recent) >= self.max_calls:
            self.calls[user_id] = recent
            return False
        self.calls[user_id] = recent + [now]
        return True


ARGS = (RateLimiter,)
