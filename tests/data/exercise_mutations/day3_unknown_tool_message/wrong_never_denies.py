"""Lists every valid name but never says that the called name is not a tool."""


def unknown_tool_message(name, valid_names):
    if not valid_names:
        return f"你调用了 {name}。当前没有任何可用的工具，请直接回答。"
    return f"你调用了 {name}。可用的工具有：{', '.join(valid_names)}，请重新选择。"


ARGS = (unknown_tool_message,)
FAILS_AT = "拼错的工具名"
