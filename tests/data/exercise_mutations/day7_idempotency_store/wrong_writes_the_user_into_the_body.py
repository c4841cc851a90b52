"""Ties the fingerprint to the user by writing ``body["user_id"] = user_id`` into the caller's dict:
it changes the request body the caller still holds (mutating the caller's input)."""

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
        body["user_id"] = user_id
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
