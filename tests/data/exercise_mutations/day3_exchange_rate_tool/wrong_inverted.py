"""Divides the wrong way round: returns how many units of from_currency one to_currency buys."""

from handwritten_agent.scenarios.exchange import CNY_PER_UNIT, currency_code
from handwritten_agent.tools import ToolError, tool


def build_exchange_tool():
    @tool
    def query_exchange_rate(from_currency: str, to_currency: str) -> dict:
        """查询两种货币之间的汇率：1 单位 from_currency 能换多少 to_currency。用户问“100 美元能换多少人民币”时使用。

        Args:
            from_currency: 要换出的货币，例如：USD 或 美元
            to_currency: 要换成的货币，例如：CNY 或 人民币
        """
        a, b = currency_code(from_currency), currency_code(to_currency)
        if a is None or b is None:
            raise ToolError(f"不认识的货币：{from_currency} 或 {to_currency}")
        return {"rate": round(CNY_PER_UNIT[b] / CNY_PER_UNIT[a], 6)}
    return query_exchange_rate


ARGS = (build_exchange_tool,)
FAILS_AT = "美元 → 人民币"
