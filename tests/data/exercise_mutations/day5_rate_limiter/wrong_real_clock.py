"""Ignores the clock it was given and reads time.time()."""

FAILS_AT = '滑动窗口的边界：差 1 秒不行，正好到期可以'

import time


class RateLimiter:
    def __init__(self, max_calls, per_seconds, clock):
        self.max_calls, self.per_seconds = max_calls, per_seconds
        self.calls = {}

    def allow(self, user_id, tool):
        now = time.time()
        recent = [t for t in self.calls.get((user_id, tool), []) if t > now - self.per_seconds]
        if len(recent) >= self.max_calls:
            return False
        self.calls[(user_id, tool)] = recent + [now]
        return True


ARGS = (RateLimiter,)
