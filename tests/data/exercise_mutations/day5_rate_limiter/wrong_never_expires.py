"""Counts calls forever: no window at all."""

FAILS_AT = '滑动窗口的边界：差 1 秒不行，正好到期可以'


class RateLimiter:
    def __init__(self, max_calls, per_seconds, clock):
        self.max_calls = max_calls
        self.counts = {}

    def allow(self, user_id, tool):
        if self.counts.get((user_id, tool), 0) >= self.max_calls:
            return False
        self.counts[(user_id, tool)] = self.counts.get((user_id, tool), 0) + 1
        return True


ARGS = (RateLimiter,)
