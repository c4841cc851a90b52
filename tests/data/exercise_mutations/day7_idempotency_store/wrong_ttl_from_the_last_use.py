"""Counts the ttl from the last use, not the first: every repeat pushes the expiry back, so a key
used at 0 s and again at 30 s is still there at 60 s (the task says from the first use)."""

import json
import threading

from handwritten_agent.service.store import IdempotencyConflict


class IdempotencyStore:
    def __init__(self, ttl, clock):
        self.ttl, self.clock = ttl, clock
        self.lock = threading.Lock()
        self.seen = {}

    def run_once(self, user_id, key, body, create):
        fingerprint = json.dumps(body, sort_keys=True, ensure_ascii=False)
        with self.lock:
            now = self.clock()
            earlier = self.seen.get((user_id, key))
            if earlier is not None and now < earlier[2] + self.ttl:
                if earlier[0] != fingerprint:
                    raise IdempotencyConflict(key)
                self.seen[(user_id, key)] = (earlier[0], earlier[1], now)  # used again: refresh
                return earlier[1], False
            result = create()
            self.seen[(user_id, key)] = (fingerprint, result, now)
            return result, True


FAILS_AT = "第 60 秒过期"
ARGS = (IdempotencyStore,)
