"""Correct, the simplest way: one lock for every key held through look-up, create() and remember
(a slow create() makes other keys wait, but nothing is created twice)."""

import hashlib
import json
import threading

from handwritten_agent.service.store import IdempotencyConflict


class IdempotencyStore:
    def __init__(self, ttl, clock):
        self.ttl, self.clock = ttl, clock
        self.lock = threading.Lock()
        self.seen = {}

    def run_once(self, user_id, key, body, create):
        fingerprint = hashlib.sha256(json.dumps(body, sort_keys=True, ensure_ascii=False).encode()).hexdigest()
        with self.lock:
            now = self.clock()
            earlier = self.seen.get((user_id, key))
            if earlier is not None and now < earlier[2] + self.ttl:
                if earlier[0] != fingerprint:
                    raise IdempotencyConflict(key)
                return earlier[1], False
            result = create()
            self.seen[(user_id, key)] = (fingerprint, result, now)
            return result, True


ARGS = (IdempotencyStore,)
