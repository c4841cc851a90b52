"""Shows at most three names "to keep it short"."""


def unknown_tool_message(name, valid_names):
    if not valid_names:
        return f"工具 {name} 不存在，当前没有任何可用的工具。"
    shown = ", ".join(valid_names[:3])
    return f"工具 {name} 不存在。可用的工具有：{shown}" + (" 等。" if len(valid_names) > 3 else "。")


ARGS = (unknown_tool_message,)
FAILS_AT = "很多工具"
