"""Refuses a pair of the same currency with a ToolError instead of returning the rate 1."""

import difflib
import json
from handwritten_agent.scenarios.exchange import CNY_PER_UNIT, currency_code
from handwritten_agent.tools import ToolError, ToolRegistry, ToolResult, tool

def build_exchange_tool():
    """用 @tool 定义一个汇率工具并返回它（定义在函数里面，所以你写完之前这一格也能运行）。"""
    @tool
    def query_exchange_rate(from_currency: str, to_currency: str) -> dict:
        """查询两种货币之间的汇率（课程的示例汇率，不是实时行情）：1 单位 from_currency 能换多少 to_currency。用户问“100 美元能换多少人民币”这类问题时，先用它查汇率，再用计算器算金额。

        Args:
            from_currency: 要换出的货币，货币代码或中文名，例如：USD 或 美元
            to_currency: 要换成的货币，货币代码或中文名，例如：CNY 或 人民币
        """
        codes = []
        for text in (from_currency, to_currency):
            code = currency_code(text)
            if code is None:
                raise ToolError(f"不认识的货币“{text}”。支持的货币代码：{', '.join(CNY_PER_UNIT)}。")
            codes.append(code)
        if codes[0] == codes[1]:
            raise ToolError("两种货币相同，不需要换。")
        rate = CNY_PER_UNIT[codes[0]] / CNY_PER_UNIT[codes[1]]
        return {"from": codes[0], "to": codes[1], "rate": round(rate, 6), "note": "示例汇率，不是实时行情"}

    return query_exchange_rate


ARGS = (build_exchange_tool,)
