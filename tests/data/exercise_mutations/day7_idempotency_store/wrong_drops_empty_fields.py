"""Leaves empty and false fields out of the fingerprint (`{k: v for k, v in body.items() if v}`):
a retry that sets a flag to false, or empties a list, is not seen as a different request."""

import hashlib
import json
import threading

from handwritten_agent.service.store import IdempotencyConflict


class IdempotencyStore:
    def __init__(self, ttl, clock):
        self.ttl, self.clock, self.seen, self.lock = ttl, clock, {}, threading.Lock()

    def run_once(self, user_id, key, body, create):
        kept = {k: v for k, v in body.items() if v}
        fingerprint = hashlib.sha256(json.dumps(kept, sort_keys=True, ensure_ascii=False).encode()).hexdigest()
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
