"""Strips the called name before writing it (name.strip()): the message no longer shows the name exactly as the model wrote it, trailing space included."""

import difflib
import json
from handwritten_agent.scenarios.exchange import CNY_PER_UNIT, currency_code
from handwritten_agent.tools import ToolError, ToolRegistry, ToolResult, tool

def unknown_tool_message(name: str, valid_names: list[str]) -> str:
    """模型调用不存在的工具时读到的内容：有效的工具名，以及一个猜测。"""
    name = name.strip()
    if not valid_names:
        return f"工具 `{name}` 不存在，而且当前没有任何可用的工具。请不要再调用工具，直接用文字回答用户。"
    guess = difflib.get_close_matches(name, valid_names, n=1)
    maybe = f"你是不是想调用 `{guess[0]}`？" if guess else ""
    return f"工具 `{name}` 不存在。{maybe}可用的工具只有：{', '.join(valid_names)}。请从中选择，用完全相同的名字重新调用。"


ARGS = (unknown_tool_message,)
