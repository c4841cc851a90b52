"""Wrong: lower-cases the canonical arguments (and folds full-width letters with NFKC), so "Beijing",
"beijing" and "Ｂｅｉｊｉｎｇ" count as the same call — the model never gets the other city's result."""

import json
import unicodedata


class RepeatGuard:
    def __init__(self):
        self.seen = set()

    def check(self, name, arguments):
        try:
            canonical = json.dumps(json.loads(arguments), sort_keys=True, ensure_ascii=False)
        except json.JSONDecodeError:
            canonical = arguments
        key = (name, unicodedata.normalize("NFKC", canonical).casefold())
        if key in self.seen:
            return f"工具 {name} 已经用相同的参数调用过了，结果就在上面。"
        self.seen.add(key)
        return None


ARGS = (RepeatGuard,)
FAILS_AT = "中文的工具名和参数"
