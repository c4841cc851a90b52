"""Looks the codes up directly in CNY_PER_UNIT: "美元" or "usd" raise KeyError, so the call fails."""

from handwritten_agent.scenarios.exchange import CNY_PER_UNIT
from handwritten_agent.tools import tool


def build_exchange_tool():
    @tool
    def query_exchange_rate(from_currency: str, to_currency: str) -> dict:
        """查询两种货币之间的汇率：1 单位 from_currency 能换多少 to_currency，例如“100 美元能换多少人民币”。

        Args:
            from_currency: 要换出的货币代码，例如：USD
            to_currency: 要换成的货币代码，例如：CNY
        """
        return {"rate": round(CNY_PER_UNIT[from_currency] / CNY_PER_UNIT[to_currency], 6)}
    return query_exchange_rate


ARGS = (build_exchange_tool,)
FAILS_AT = "中文名"
