"""A mutable default argument: every guard made without arguments shares the same set."""

import json


class RepeatGuard:
    def __init__(self, seen=set()):
        self.seen = seen

    def check(self, name, arguments):
        try:
            key = (name, json.dumps(json.loads(arguments), sort_keys=True))
        except ValueError:
            key = (name, arguments)
        if key in self.seen:
            return f"{name} 已经用相同的参数调用过了。"
        self.seen.add(key)
        return None


ARGS = (RepeatGuard,)
FAILS_AT = "两个 RepeatGuard 互不影响"
