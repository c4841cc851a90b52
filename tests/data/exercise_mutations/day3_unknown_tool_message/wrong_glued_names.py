"""Joins the valid names without a separator: "calculatorget_exchange_rate"."""


def unknown_tool_message(name, valid_names):
    if not valid_names:
        return f"工具 {name} 不存在，当前没有任何可用的工具，请直接回答。"
    return f"工具 {name} 不存在，可用的工具：{''.join(valid_names)}。"


ARGS = (unknown_tool_message,)
FAILS_AT = "拼错的工具名"
