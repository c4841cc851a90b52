"""Truncates the window with int(): a window of 1.5 seconds becomes 1, so a call 1.25 seconds after
the first is already outside it."""

from collections import defaultdict, deque


class RateLimiter:
    def __init__(self, max_calls, per_seconds, clock):
        self.max_calls, self.per_seconds, self.clock = max_calls, int(per_seconds), clock
        self.times = defaultdict(deque)

    def allow(self, user_id, tool):
        now, times = self.clock(), self.times[(user_id, tool)]
        while times and times[0] <= now - self.per_seconds:
            times.popleft()
        if len(times) >= self.max_calls:
            return False
        times.append(now)
        return True


FAILS_AT = "窗口不是整数秒"
ARGS = (RateLimiter,)
