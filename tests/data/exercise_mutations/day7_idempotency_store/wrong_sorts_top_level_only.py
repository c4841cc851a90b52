"""Builds the fingerprint by sorting only the top-level fields (`sorted(body.items())`): the same
body whose nested object lists its fields in another order is taken for a different one."""

import threading

from handwritten_agent.service.store import IdempotencyConflict


class IdempotencyStore:
    def __init__(self, ttl, clock):
        self.ttl, self.clock, self.seen, self.lock = ttl, clock, {}, threading.Lock()

    def run_once(self, user_id, key, body, create):
        fingerprint = repr(sorted(body.items()))
        with self.lock:
            now = self.clock()
            earlier = self.seen.get((user_id, key))
            if earlier and now < earlier[2] + self.ttl:
                if earlier[0] != fingerprint:
                    raise IdempotencyConflict(key)
                return earlier[1], False
            result = create()
            self.seen[(user_id, key)] = (fingerprint, result, now)
            return result, True


FAILS_AT = "指纹"
ARGS = (IdempotencyStore,)
