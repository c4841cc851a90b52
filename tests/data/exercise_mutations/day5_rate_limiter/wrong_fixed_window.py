"""A fixed window (one bucket per int(now // per_seconds)) instead of a sliding one."""

FAILS_AT = '滑动窗口的边界：差 1 秒不行，正好到期可以'


class RateLimiter:
    def __init__(self, max_calls, per_seconds, clock):
        self.max_calls, self.per_seconds, self.clock = max_calls, per_seconds, clock
        self.counts = {}

    def allow(self, user_id, tool):
        bucket = (user_id, tool, int(self.clock() // self.per_seconds))
        if self.counts.get(bucket, 0) >= self.max_calls:
            return False
        self.counts[bucket] = self.counts.get(bucket, 0) + 1
        return True


ARGS = (RateLimiter,)
