"""Wrong: normalises the idempotency key (NFKC, lower-case): ORDER, order and ｏｒｄｅｒ — three keys — share one entry."""

import json
import threading
import unicodedata

from handwritten_agent.service.store import IdempotencyConflict


class IdempotencyStore:
    def __init__(self, ttl, clock):
        self.ttl, self.clock = ttl, clock
        self.entries = {}
        self.lock = threading.Lock()

    def run_once(self, user_id, key, body, create):
        fingerprint = json.dumps(body, sort_keys=True, ensure_ascii=False)
        slot = (user_id, unicodedata.normalize("NFKC", key).lower())
        with self.lock:
            entry = self.entries.get(slot)
            if entry is not None and self.clock() < entry[2]:
                if entry[0] != fingerprint:
                    raise IdempotencyConflict(key)
                return entry[1], False
            started = self.clock()
            result = create()
            self.entries[slot] = (fingerprint, result, started + self.ttl)
            return result, True


ARGS = (IdempotencyStore,)
FAILS_AT = "新的存储"
