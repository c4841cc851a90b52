"""Correct, in other words and another order: when to use it comes first, the parameters are 卖出/买入
币种 with examples in brackets after 如, the rate returned as text."""

from handwritten_agent.scenarios.exchange import CNY_PER_UNIT, currency_code
from handwritten_agent.tools import ToolError, tool


def build_exchange_tool():
    @tool
    def fx_lookup(sell_currency: str, buy_currency: str) -> str:
        """当用户想知道两种钱怎么换算（比如 200 人民币能换多少日元）时调用：给出 1 单位卖出的币种折合多少买入的币种，即两种货币之间的汇率（示例数据）。

        Args:
            sell_currency: 卖出的币种，代码或中文名都行（如 EUR、欧元）
            buy_currency: 买入的币种，代码或中文名都行（如 JPY、日元）
        """
        sell, buy = currency_code(sell_currency), currency_code(buy_currency)
        if sell is None or buy is None:
            bad = sell_currency if sell is None else buy_currency
            raise ToolError(f"货币“{bad}”不在示例汇率表里。")
        return f"汇率 {CNY_PER_UNIT[sell] / CNY_PER_UNIT[buy]:.6g}"

    return fx_lookup


ARGS = (build_exchange_tool,)
