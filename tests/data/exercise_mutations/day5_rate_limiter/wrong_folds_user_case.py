"""Wrong: lower-cases the user id (and folds full-width letters) before counting — Alice, alice and ａｌｉｃｅ
are three users, yet share one count."""

import unicodedata
from collections import defaultdict, deque


class RateLimiter:
    def __init__(self, max_calls, per_seconds, clock):
        self.max_calls, self.per_seconds, self.clock = max_calls, per_seconds, clock
        self.times = defaultdict(deque)

    def allow(self, user_id, tool):
        user = unicodedata.normalize("NFKC", user_id).casefold()
        now, times = self.clock(), self.times[(user, tool)]
        while times and times[0] <= now - self.per_seconds:
            times.popleft()
        if len(times) >= self.max_calls:
            return False
        times.append(now)
        return True


ARGS = (RateLimiter,)
FAILS_AT = "新的限流器"
