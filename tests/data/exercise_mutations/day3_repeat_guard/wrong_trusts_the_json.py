"""json.loads without a fallback: arguments that are not JSON make check() raise."""

import json


class RepeatGuard:
    def __init__(self):
        self.seen = set()

    def check(self, name, arguments):
        key = (name, json.dumps(json.loads(arguments), sort_keys=True))
        if key in self.seen:
            return f"{name} 已经调用过了，请使用之前的结果。"
        self.seen.add(key)
        return None


ARGS = (RepeatGuard,)
FAILS_AT = "参数不是合法 JSON"
