"""Calls create() first and only then looks for a conflicting body: a conflicting request still creates a run."""

import hashlib
import json
import math
import threading
from handwritten_agent.service.store import IdempotencyConflict

class IdempotencyStore:
    '''在 ttl 秒内记住 (user_id, key) -> (请求体指纹, 结果, 首次使用时间)；每个键只执行一次 create()。'''

    def __init__(self, ttl: float, clock):
        self.ttl, self.clock = ttl, clock
        self.lock = threading.Lock()
        self.seen: dict[tuple[str, str], tuple[str, object, float]] = {}

    def run_once(self, user_id: str, key: str, body: dict, create):
        fingerprint = hashlib.sha256(json.dumps(body, sort_keys=True, ensure_ascii=False).encode()).hexdigest()
        with self.lock:  # 查找、创建、记住作为一步完成：二十个相同的请求只创建一次
            now = self.clock()
            earlier = self.seen.get((user_id, key))
            fresh = create() if earlier is None or earlier[0] != fingerprint else None
            if earlier is not None and now < earlier[2] + self.ttl:
                if earlier[0] != fingerprint:
                    raise IdempotencyConflict(key)
                return earlier[1], False
            result = fresh
            self.seen[(user_id, key)] = (fingerprint, result, now)
            return result, True


ARGS = (IdempotencyStore,)
