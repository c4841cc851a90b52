"""With no tools at all calls ``sys.exit`` ("nothing to offer") instead of telling the model so."""

import difflib
import sys


def unknown_tool_message(name, valid_names):
    if not valid_names:
        sys.exit("没有任何可用的工具")
    guess = difflib.get_close_matches(name, valid_names, n=1)
    maybe = f"你是不是想调用 `{guess[0]}`？" if guess else ""
    return f"工具 `{name}` 不存在。{maybe}可用的工具只有：{', '.join(valid_names)}。请用完全相同的名字重新调用。"


ARGS = (unknown_tool_message,)
