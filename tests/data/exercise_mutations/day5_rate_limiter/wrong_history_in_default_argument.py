"""Takes the call history as a default argument of ``__init__`` (``calls={}``): made once, so every
limiter shares it and a new limiter starts with another limiter's calls (a shared mutable default)."""


class RateLimiter:
    def __init__(self, max_calls, per_seconds, clock, calls={}):
        self.max_calls, self.per_seconds, self.clock = max_calls, per_seconds, clock
        self.calls = calls

    def allow(self, user_id, tool):
        now = self.clock()
        recent = [t for t in self.calls.get((user_id, tool), []) if t > now - self.per_seconds]
        if len(recent) >= self.max_calls:
            self.calls[(user_id, tool)] = recent
            return False
        self.calls[(user_id, tool)] = recent + [now]
        return True


ARGS = (RateLimiter,)
