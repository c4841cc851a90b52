"""The set of seen calls is a class attribute, so every guard (every run) shares it."""

import json


class RepeatGuard:
    seen: set = set()

    def check(self, name, arguments):
        try:
            key = (name, json.dumps(json.loads(arguments), sort_keys=True))
        except ValueError:
            key = (name, arguments)
        if key in self.seen:
            return f"{name} 已经用相同的参数调用过了，请直接使用上次的结果。"
        self.seen.add(key)
        return None


ARGS = (RepeatGuard,)
FAILS_AT = "两个 RepeatGuard 互不影响"
