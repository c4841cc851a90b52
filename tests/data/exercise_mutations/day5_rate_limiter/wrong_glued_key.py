"""Wrong: keys the count by user_id + tool glued into one string: 张三 + 查询天气 and 张三查 + 询天气 collide."""

from collections import defaultdict


class RateLimiter:
    def __init__(self, max_calls, per_seconds, clock):
        self.max_calls, self.per_seconds, self.clock = max_calls, per_seconds, clock
        self.times = defaultdict(list)

    def allow(self, user_id, tool):
        now = self.clock()
        key = user_id + tool
        self.times[key] = [t for t in self.times[key] if t > now - self.per_seconds]
        if len(self.times[key]) >= self.max_calls:
            return False
        self.times[key].append(now)
        return True


ARGS = (RateLimiter,)
FAILS_AT = "新的限流器"
