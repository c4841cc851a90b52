"""Correct, another style: the canonical JSON text itself as the fingerprint (no hash), one
``RLock``, each entry a small dataclass."""

import json
import threading
from dataclasses import dataclass

from handwritten_agent.service.store import IdempotencyConflict


@dataclass
class _Entry:
    body: str
    result: object
    since: float


class IdempotencyStore:
    def __init__(self, ttl, clock):
        self.ttl, self.clock = ttl, clock
        self._guard = threading.RLock()
        self._entries = {}

    def run_once(self, user_id, key, body, create):
        text = json.dumps(body, sort_keys=True, ensure_ascii=False)
        with self._guard:
            now = self.clock()
            entry = self._entries.get((user_id, key))
            if entry is not None and now - entry.since < self.ttl:
                if entry.body != text:
                    raise IdempotencyConflict(key)
                return entry.result, False
            made = create()
            self._entries[(user_id, key)] = _Entry(text, made, now)
            return made, True


ARGS = (IdempotencyStore,)
