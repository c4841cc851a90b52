"""Sorts valid_names in place to list them alphabetically, changing the caller's list."""


def unknown_tool_message(name, valid_names):
    if not valid_names:
        return f"工具 {name} 不存在，当前没有任何可用的工具，请直接回答用户。"
    valid_names.sort()
    return f"工具 {name} 不存在。可用的工具（按字母排序）：{', '.join(valid_names)}。"


ARGS = (unknown_tool_message,)
FAILS_AT = "拼错的工具名"
