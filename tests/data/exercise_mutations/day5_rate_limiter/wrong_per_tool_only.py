"""Counts per tool only: one user's calls use up everyone's quota."""

FAILS_AT = '不同用户、不同工具分开计数'


class RateLimiter:
    def __init__(self, max_calls, per_seconds, clock):
        self.max_calls, self.per_seconds, self.clock = max_calls, per_seconds, clock
        self.calls = {}

    def allow(self, user_id, tool):
        now = self.clock()
        recent = [t for t in self.calls.get(tool, []) if t > now - self.per_seconds]
        if len(recent) >= self.max_calls:
            return False
        self.calls[tool] = recent + [now]
        return True


ARGS = (RateLimiter,)
