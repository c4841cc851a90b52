"""Remembers only the previous call: a repeat after something else in between is run again."""

import json


class RepeatGuard:
    def __init__(self):
        self.last = None

    def check(self, name, arguments):
        try:
            key = (name, json.dumps(json.loads(arguments), sort_keys=True))
        except ValueError:
            key = (name, arguments)
        repeated, self.last = key == self.last, key
        return f"{name} 已经调用过了，请使用之前的结果。" if repeated else None


ARGS = (RepeatGuard,)
FAILS_AT = "隔了几次"
