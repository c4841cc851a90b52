"""Wraps the SDK's own (English) message in a Chinese prefix: no variable named."""


def explain_error(exc):
    return f"调用模型出错了：{exc}"


ARGS = (explain_error,)
FAILS_AT = "401"
