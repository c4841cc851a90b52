"""Sorts only the top-level keys by hand: nested objects keep their order, so a reordered nested object looks new."""

import json


class RepeatGuard:
    def __init__(self):
        self.seen = set()

    def check(self, name, arguments):
        try:
            value = json.loads(arguments)
            key = (name, str(sorted(value.items())))
        except ValueError:
            key = (name, arguments)
        if key in self.seen:
            return f"工具 {name} 刚才已经用同样的参数调用过了。"
        self.seen.add(key)
        return None


ARGS = (RepeatGuard,)
FAILS_AT = "嵌套对象里的键顺序不同（第二次）"
