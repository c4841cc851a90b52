"""A fixed window that starts at the first call and restarts per_seconds later: right after a restart the calls of
the end of the previous window are forgotten (0, 9, 10, 10.5 s with 2 per 10 s lets the fourth call through)."""


class RateLimiter:
    def __init__(self, max_calls, per_seconds, clock):
        self.max_calls, self.per_seconds, self.clock = max_calls, per_seconds, clock
        self.windows = {}

    def allow(self, user_id, tool):
        now = self.clock()
        start, count = self.windows.get((user_id, tool), (now, 0))
        if now >= start + self.per_seconds:
            start, count = now, 0
        if count >= self.max_calls:
            return False
        self.windows[(user_id, tool)] = (start, count + 1)
        return True


ARGS = (RateLimiter,)
FAILS_AT = "滑动窗口不是固定窗口"
