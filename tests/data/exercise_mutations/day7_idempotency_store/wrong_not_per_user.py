"""Keys are not kept per user: another user sending the same key gets the first user's run back."""

import json
import threading

from handwritten_agent.service.store import IdempotencyConflict


class IdempotencyStore:
    def __init__(self, ttl, clock):
        self.ttl, self.clock, self.seen, self.lock = ttl, clock, {}, threading.Lock()

    def run_once(self, user_id, key, body, create):
        fingerprint = json.dumps(body, sort_keys=True, ensure_ascii=False)
        with self.lock:
            now = self.clock()
            earlier = self.seen.get(key)
            if earlier and now < earlier[2] + self.ttl:
                if earlier[0] != fingerprint:
                    raise IdempotencyConflict(key)
                return earlier[1], False
            result = create()
            self.seen[key] = (fingerprint, result, now)
            return result, True


FAILS_AT = "不同用户"
ARGS = (IdempotencyStore,)
