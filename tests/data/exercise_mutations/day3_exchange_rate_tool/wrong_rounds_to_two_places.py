"""Rounds the rate to 2 decimals: 1 CNY = 0.14 USD, and 1000 CNY comes out 11 dollars off."""

from handwritten_agent.scenarios.exchange import CNY_PER_UNIT, currency_code
from handwritten_agent.tools import ToolError, tool


def build_exchange_tool():
    @tool
    def query_exchange_rate(from_currency: str, to_currency: str) -> float:
        """查询两种货币之间的汇率：1 单位 from_currency 能换多少 to_currency，例如“100 美元能换多少人民币”。

        Args:
            from_currency: 要换出的货币，代码或中文名，例如：USD 或 美元
            to_currency: 要换成的货币，代码或中文名，例如：CNY 或 人民币
        """
        a, b = currency_code(from_currency), currency_code(to_currency)
        if a is None or b is None:
            raise ToolError(f"不认识的货币：{from_currency if a is None else to_currency}")
        return round(CNY_PER_UNIT[a] / CNY_PER_UNIT[b], 2)
    return query_exchange_rate


ARGS = (build_exchange_tool,)
FAILS_AT = "人民币 → 美元"
