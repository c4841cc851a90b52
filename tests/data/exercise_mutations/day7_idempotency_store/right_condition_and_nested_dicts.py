"""Correct, another way: one dict per user, a Condition as the lock, the canonical JSON text itself as the fingerprint, and the expiry time stored instead of the first use."""

import hashlib
import json
import math
import threading
from handwritten_agent.service.store import IdempotencyConflict

import json
import threading


class IdempotencyStore:
    def __init__(self, ttl, clock):
        self.ttl, self.clock = ttl, clock
        self._users = {}
        self._guard = threading.Condition()

    def run_once(self, user_id, key, body, create):
        text = json.dumps(body, sort_keys=True, ensure_ascii=False)
        with self._guard:
            keys = self._users.setdefault(user_id, {})
            found = keys.get(key)
            if found is not None and self.clock() >= found["expires"]:
                found = None
            if found is not None:
                if found["body"] != text:
                    raise IdempotencyConflict(key)
                return found["result"], False
            started = self.clock()
            result = create()
            keys[key] = {"body": text, "result": result, "expires": started + self.ttl}
            return result, True


ARGS = (IdempotencyStore,)
