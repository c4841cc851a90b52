"""Canonicalises by deleting every space and sorting nothing: "1 + 1" and "1+1" look the same, key order still matters."""


class RepeatGuard:
    def __init__(self):
        self.seen = set()

    def check(self, name, arguments):
        key = (name, arguments.replace(" ", ""))
        if key in self.seen:
            return f"{name} 已经调用过了，请使用之前的结果。"
        self.seen.add(key)
        return None


ARGS = (RepeatGuard,)
FAILS_AT = "参数顺序和空格不同"
