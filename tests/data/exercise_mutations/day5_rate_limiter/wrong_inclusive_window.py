"""Keeps calls exactly per_seconds old in the window (>= instead of >): off by one at the boundary."""

FAILS_AT = '滑动窗口的边界：差 1 秒不行，正好到期可以'


class RateLimiter:
    def __init__(self, max_calls, per_seconds, clock):
        self.max_calls, self.per_seconds, self.clock = max_calls, per_seconds, clock
        self.calls = {}

    def allow(self, user_id, tool):
        now = self.clock()
        recent = [t for t in self.calls.get((user_id, tool), []) if t >= now - self.per_seconds]
        if len(recent) >= self.max_calls:
            return False
        self.calls[(user_id, tool)] = recent + [now]
        return True


ARGS = (RateLimiter,)
