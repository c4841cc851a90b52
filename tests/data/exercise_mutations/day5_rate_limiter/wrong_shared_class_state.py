"""Keeps the counts in a class attribute: every limiter shares them."""

FAILS_AT = '不同用户、不同工具分开计数'


class RateLimiter:
    calls = {}

    def __init__(self, max_calls, per_seconds, clock):
        self.max_calls, self.per_seconds, self.clock = max_calls, per_seconds, clock

    def allow(self, user_id, tool):
        now = self.clock()
        recent = [t for t in self.calls.get((user_id, tool), []) if t > now - self.per_seconds]
        if len(recent) >= self.max_calls:
            return False
        self.calls[(user_id, tool)] = recent + [now]
        return True


ARGS = (RateLimiter,)
