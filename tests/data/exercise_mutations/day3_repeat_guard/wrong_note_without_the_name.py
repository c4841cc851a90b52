"""Returns True for a repeat instead of a note the model can read."""

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
            return True
        self.seen.add(key)
        return None


ARGS = (RepeatGuard,)
FAILS_AT = "完全相同的第二次调用"
