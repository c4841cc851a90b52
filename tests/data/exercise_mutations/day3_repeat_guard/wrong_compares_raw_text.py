"""Keys calls by the raw argument text: the same arguments written in another order or spacing count as new."""


class RepeatGuard:
    def __init__(self):
        self.seen = set()

    def check(self, name, arguments):
        if (name, arguments) in self.seen:
            return f"{name} 已经调用过了，请使用之前的结果。"
        self.seen.add((name, arguments))
        return None


ARGS = (RepeatGuard,)
FAILS_AT = "参数顺序和空格不同"
