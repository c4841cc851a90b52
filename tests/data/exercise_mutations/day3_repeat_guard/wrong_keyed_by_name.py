"""Keys calls by tool name only: the same tool with new arguments is refused."""


class RepeatGuard:
    def __init__(self):
        self.seen = set()

    def check(self, name, arguments):
        if name in self.seen:
            return f"{name} 已经调用过了，请使用之前的结果。"
        self.seen.add(name)
        return None


ARGS = (RepeatGuard,)
FAILS_AT = "字符串里的空格不同"
