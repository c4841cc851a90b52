"""Also sorts every list inside the arguments: ["北京", "上海"] and ["上海", "北京"] become the same call, though a list's order is part of the arguments."""

import difflib
import json
from handwritten_agent.scenarios.exchange import CNY_PER_UNIT, currency_code
from handwritten_agent.tools import ToolError, ToolRegistry, ToolResult, tool

class RepeatGuard:
    """记住一次运行里的每个 (工具, 参数)；重复的调用不再执行，而是得到一条提示。"""

    def __init__(self) -> None:
        self.seen: set[tuple[str, str]] = set()

    def check(self, name: str, arguments: str) -> str | None:
        """新调用返回 None（执行它并记住）；重复调用返回要代替结果发回去的提示。"""
        try:
            def norm(value):
                if isinstance(value, dict):
                    return {k: norm(v) for k, v in value.items()}
                if isinstance(value, list):
                    return sorted((norm(v) for v in value), key=lambda v: json.dumps(v, sort_keys=True))
                return value
            canonical = json.dumps(norm(json.loads(arguments or "{}")), sort_keys=True, ensure_ascii=False)
        except ValueError:
            canonical = arguments  # 不是 JSON：只有完全相同的文本才算同一个调用
        key = (name, canonical)
        if key in self.seen:
            return (f"你已经用完全相同的参数调用过 {name}，结果就在前面的消息里，这次没有再执行。"
                    "请直接使用那个结果，或者换用不同的参数。")
        self.seen.add(key)
        return None


ARGS = (RepeatGuard,)
