"""Normalises the user id and tool name with NFKC before counting: a user typed in full width
(``ＡＢ``) shares the limit of ``AB`` (the key must be the names exactly as given)."""

import unicodedata


class RateLimiter:
    def __init__(self, max_calls, per_seconds, clock):
        self.max_calls, self.per_seconds, self.clock = max_calls, per_seconds, clock
        self.calls = {}

    def allow(self, user_id, tool):
        key = (unicodedata.normalize("NFKC", user_id), unicodedata.normalize("NFKC", tool))
        now = self.clock()
        recent = [t for t in self.calls.get(key, []) if t > now - self.per_seconds]
        if len(recent) >= self.max_calls:
            self.calls[key] = recent
            return False
        self.calls[key] = recent + [now]
        return True


ARGS = (RateLimiter,)
