"""Correct, another style: a ``defaultdict`` of allowed times that is never pruned; each call counts
the allowed times still inside the window."""

from collections import defaultdict


class RateLimiter:
    def __init__(self, max_calls, per_seconds, clock):
        self.max_calls, self.per_seconds, self.clock = max_calls, per_seconds, clock
        self.allowed = defaultdict(list)

    def allow(self, user_id, tool):
        now = self.clock()
        times = self.allowed[(user_id, tool)]
        if sum(1 for t in times if now - t < self.per_seconds) >= self.max_calls:
            return False
        times.append(now)
        return True


ARGS = (RateLimiter,)
