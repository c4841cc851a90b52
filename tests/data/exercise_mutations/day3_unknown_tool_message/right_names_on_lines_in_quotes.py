"""Correct, another style: each available name on its own line in 「」, the unknown name quoted the
same way, no guess."""


def unknown_tool_message(name, valid_names):
    if len(valid_names) == 0:
        return f"找不到名为「{name}」的工具。当前没有任何可用的工具，请直接回答。"
    lines = "\n".join(f"「{valid}」" for valid in valid_names)
    return f"找不到名为「{name}」的工具，它不存在。能用的工具有下面这些，请换用其中一个：\n{lines}"


ARGS = (unknown_tool_message,)
