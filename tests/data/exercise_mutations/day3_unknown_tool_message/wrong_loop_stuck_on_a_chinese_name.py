"""Builds the list of names in a ``while`` loop that skips names it cannot put in backticks — a
Chinese name — with ``continue`` before the index moves on: with a Chinese tool name the loop never
ends."""

FAILS_AT = "秒内没有结束"


def unknown_tool_message(name, valid_names):
    if not valid_names:
        return f"工具 `{name}` 不存在，当前没有任何可用的工具，请直接回答。"
    shown, i = [], 0
    while i < len(valid_names):
        valid = valid_names[i]
        if not valid.isascii():
            continue
        shown.append(f"`{valid}`")
        i += 1
    return f"工具 `{name}` 不存在。可用的工具有：{', '.join(shown)}。"


ARGS = (unknown_tool_message,)
