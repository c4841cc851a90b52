"""Drops expired times in a while loop whose body has no effect (the slice is never assigned back):
once the oldest time has expired the loop never ends."""


class RateLimiter:
    def __init__(self, max_calls, per_seconds, clock):
        self.max_calls, self.per_seconds, self.clock = max_calls, per_seconds, clock
        self.times = {}

    def allow(self, user_id, tool):
        now = self.clock()
        times = self.times.setdefault((user_id, tool), [])
        while times and times[0] <= now - self.per_seconds:
            times[1:]  # meant: del times[0]
        if len(times) >= self.max_calls:
            return False
        times.append(now)
        return True


ARGS = (RateLimiter,)
FAILS_AT = "秒内没有结束"
