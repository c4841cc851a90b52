"""Correct, another way: one lock per (user, key), so creating for one key does not hold up the others; sha256 fingerprints."""

import hashlib
import json
import threading

from handwritten_agent.service.store import IdempotencyConflict


class IdempotencyStore:
    def __init__(self, ttl, clock):
        self.ttl, self.clock = ttl, clock
        self.entries = {}
        self.locks = {}
        self.guard = threading.Lock()

    def _lock(self, slot):
        with self.guard:
            return self.locks.setdefault(slot, threading.Lock())

    def run_once(self, user_id, key, body, create):
        digest = hashlib.sha256(json.dumps(body, sort_keys=True, ensure_ascii=False).encode()).hexdigest()
        slot = (user_id, key)
        with self._lock(slot):
            entry = self.entries.get(slot)
            if entry is not None and self.clock() >= entry["expires"]:
                entry = None
            if entry is not None:
                if entry["digest"] != digest:
                    raise IdempotencyConflict(key)
                return entry["result"], False
            started = self.clock()
            result = create()
            self.entries[slot] = {"digest": digest, "result": result, "expires": started + self.ttl}
            return result, True


ARGS = (IdempotencyStore,)
