"""Keeps the calls seen as one long text and looks a new call up with ``in``: a call to ``get``
counts as a repeat of an earlier call to ``forget`` with the same arguments (a substring match where
the task means the exact name)."""

import json


class RepeatGuard:
    def __init__(self):
        self.history = ""

    def check(self, name, arguments):
        try:
            canonical = json.dumps(json.loads(arguments or "{}"), sort_keys=True, ensure_ascii=False)
        except ValueError:
            canonical = arguments
        key = f"{name}({canonical})"
        if key in self.history:
            return f"你已经用完全相同的参数调用过 {name}，结果就在前面的消息里，这次没有再执行。"
        self.history += key + "\n"
        return None


ARGS = (RepeatGuard,)
