"""Turns every value into a string before comparing: 2 and "2" become the same argument."""

import json


class RepeatGuard:
    def __init__(self):
        self.seen = set()

    def check(self, name, arguments):
        try:
            value = {k: str(v) for k, v in json.loads(arguments).items()}
            key = (name, json.dumps(value, sort_keys=True, ensure_ascii=False))
        except ValueError:
            key = (name, arguments)
        if key in self.seen:
            return f"工具 {name} 已经用一样的参数调用过了，这次不再执行。"
        self.seen.add(key)
        return None


ARGS = (RepeatGuard,)
FAILS_AT = "值的类型不同"
