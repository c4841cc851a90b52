"""Lists only the names difflib finds close to the wrong one, not all valid names."""

import difflib


def unknown_tool_message(name, valid_names):
    if not valid_names:
        return f"工具 {name} 不存在，当前没有任何可用的工具。"
    close = difflib.get_close_matches(name, valid_names, n=3, cutoff=0.6)
    return f"工具 {name} 不存在。你可以试试：{', '.join(close) or '（没有相近的名字）'}。"


ARGS = (unknown_tool_message,)
FAILS_AT = "拼错的工具名"
