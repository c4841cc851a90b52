"""Marks the key as pending before create() and lets a repeat wait until the result arrives, but a
create() that raises leaves the pending mark behind: the client's retry waits forever (the check
must stop it and say so)."""

import hashlib
import json
import threading
import time

from handwritten_agent.service.store import IdempotencyConflict

_PENDING = object()


class IdempotencyStore:
    def __init__(self, ttl, clock):
        self.ttl, self.clock = ttl, clock
        self.entries = {}
        self.lock = threading.Lock()

    def run_once(self, user_id, key, body, create):
        digest = hashlib.sha256(json.dumps(body, sort_keys=True, ensure_ascii=False).encode()).hexdigest()
        slot = (user_id, key)
        with self.lock:
            entry = self.entries.get(slot)
            if entry is not None and self.clock() >= entry["expires"]:
                entry = None
            mine = entry is None
            if mine:
                entry = {"digest": digest, "result": _PENDING, "expires": self.clock() + self.ttl}
                self.entries[slot] = entry
        if mine:
            entry["result"] = create()  # when create() raises, the pending entry stays
            return entry["result"], True
        if entry["digest"] != digest:
            raise IdempotencyConflict(key)
        while entry["result"] is _PENDING:  # waits for the first request's create()
            time.sleep(0.01)
        return entry["result"], False


FAILS_AT = "秒内没有结束"
ARGS = (IdempotencyStore,)
