"""Records every call, also the refused ones: a user who keeps trying is locked out for longer."""

FAILS_AT = '被拒绝的调用不计数'


class RateLimiter:
    def __init__(self, max_calls, per_seconds, clock):
        self.max_calls, self.per_seconds, self.clock = max_calls, per_seconds, clock
        self.calls = {}

    def allow(self, user_id, tool):
        now = self.clock()
        recent = [t for t in self.calls.get((user_id, tool), []) if t > now - self.per_seconds]
        self.calls[(user_id, tool)] = recent + [now]
        return len(recent) < self.max_calls


ARGS = (RateLimiter,)
