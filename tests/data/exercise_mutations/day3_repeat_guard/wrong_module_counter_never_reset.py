"""Wrong: counts calls per key in a module-level dict that no new guard resets: a new run's first call
is taken for a repeat of the previous run's."""

import json

_counts = {}


class RepeatGuard:
    def __init__(self):
        self.mine = set()

    def check(self, name, arguments):
        try:
            canonical = json.dumps(json.loads(arguments), sort_keys=True, ensure_ascii=False)
        except json.JSONDecodeError:
            canonical = arguments
        key = (name, canonical)
        _counts[key] = _counts.get(key, 0) + 1
        if _counts[key] > 1 and (key in self.mine or len(self.mine) > 0):
            return f"工具 {name} 已经用相同的参数调用过了，结果就在上面。"
        self.mine.add(key)
        return None


ARGS = (RepeatGuard,)
FAILS_AT = "新的 RepeatGuard"
