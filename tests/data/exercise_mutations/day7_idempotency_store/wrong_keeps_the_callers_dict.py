"""Keeps the caller's dict itself and compares dicts: when the caller changes that dict later, the stored body changes too."""

import threading

from handwritten_agent.service.store import IdempotencyConflict


class IdempotencyStore:
    def __init__(self, ttl, clock):
        self.ttl, self.clock, self.seen, self.lock = ttl, clock, {}, threading.Lock()

    def run_once(self, user_id, key, body, create):
        with self.lock:
            now = self.clock()
            earlier = self.seen.get((user_id, key))
            if earlier and now < earlier[2] + self.ttl:
                if earlier[0] != body:
                    raise IdempotencyConflict(key)
                return earlier[1], False
            result = create()
            self.seen[(user_id, key)] = (body, result, now)
            return result, True


FAILS_AT = "改动那个 dict"
ARGS = (IdempotencyStore,)
