"""Right in every way but one: no lock, so twenty requests arriving together all find the key missing and create twenty runs."""

import json

from handwritten_agent.service.store import IdempotencyConflict


class IdempotencyStore:
    def __init__(self, ttl, clock):
        self.ttl, self.clock, self.seen = ttl, clock, {}

    def run_once(self, user_id, key, body, create):
        fingerprint = json.dumps(body, sort_keys=True, ensure_ascii=False)
        now = self.clock()
        earlier = self.seen.get((user_id, key))
        if earlier and now < earlier[2] + self.ttl:
            if earlier[0] != fingerprint:
                raise IdempotencyConflict(key)
            return earlier[1], False
        result = create()
        self.seen[(user_id, key)] = (fingerprint, result, now)
        return result, True


FAILS_AT = "20 个相同的请求"
ARGS = (IdempotencyStore,)
