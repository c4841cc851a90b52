"""Returns False (not None) for a new call."""

import json


class RepeatGuard:
    def __init__(self):
        self.seen = set()

    def check(self, name, arguments):
        try:
            key = (name, json.dumps(json.loads(arguments), sort_keys=True))
        except ValueError:
            key = (name, arguments)
        if key in self.seen:
            return f"{name} 已经用相同的参数调用过了，请直接使用之前的结果。"
        self.seen.add(key)
        return False


ARGS = (RepeatGuard,)
FAILS_AT = "第一次调用"
