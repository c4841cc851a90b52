"""Lists every valid tool but never says which name was wrong."""


def unknown_tool_message(name, valid_names):
    if not valid_names:
        return "当前没有任何可用的工具，请直接回答用户。"
    return f"这个工具不存在。可用的工具只有：{', '.join(valid_names)}。"


ARGS = (unknown_tool_message,)
FAILS_AT = "拼错的工具名"
