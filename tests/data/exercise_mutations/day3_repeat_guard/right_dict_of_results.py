"""Correct, in another style: a dict keyed by (name, canonical arguments) instead of a set."""

import json


class RepeatGuard:
    def __init__(self):
        self.calls = {}

    def check(self, name, arguments):
        try:
            canonical = json.dumps(json.loads(arguments), sort_keys=True, ensure_ascii=False)
        except json.JSONDecodeError:
            canonical = arguments
        count = self.calls.get((name, canonical), 0)
        self.calls[(name, canonical)] = count + 1
        return None if count == 0 else f"工具 {name} 刚才已经用一样的参数调用过，这次不再执行。"


ARGS = (RepeatGuard,)
