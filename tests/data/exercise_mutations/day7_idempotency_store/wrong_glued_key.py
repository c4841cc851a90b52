"""Wrong: keys entries by user_id + key glued into one string: 张三 + 丰订单-1 is taken for 张三丰 + 订单-1,
so one user gets another user's run back."""

import json
import threading

from handwritten_agent.service.store import IdempotencyConflict


class IdempotencyStore:
    def __init__(self, ttl, clock):
        self.ttl, self.clock = ttl, clock
        self.entries = {}
        self.lock = threading.Lock()

    def run_once(self, user_id, key, body, create):
        fingerprint = json.dumps(body, sort_keys=True, ensure_ascii=False)
        slot = user_id + key
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
