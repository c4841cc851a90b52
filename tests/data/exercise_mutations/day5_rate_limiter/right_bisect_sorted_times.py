"""Correct, another way: one sorted list of times per (user, tool) and bisect to count the recent ones (the old ones stay, never counted)."""

import json
import re
from handwritten_agent.course.exercises.check.day5 import OFFICE_CLEARANCE_POLICY
from handwritten_agent.messages import ToolCall
from handwritten_agent.permissions import Level, User, approve, reject

import bisect


class RateLimiter:
    def __init__(self, max_calls, per_seconds, clock):
        self.max_calls, self.per_seconds, self.clock = max_calls, per_seconds, clock
        self.times = {}

    def allow(self, user_id, tool):
        now = self.clock()
        times = self.times.setdefault((user_id, tool), [])
        recent = len(times) - bisect.bisect_right(times, now - self.per_seconds)
        if recent >= self.max_calls:
            return False
        bisect.insort(times, now)
        return True


ARGS = (RateLimiter,)
