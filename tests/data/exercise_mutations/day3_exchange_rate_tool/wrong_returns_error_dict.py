"""For an unknown currency returns {"error": …} as a normal result instead of raising ToolError."""

from handwritten_agent.scenarios.exchange import CNY_PER_UNIT, currency_code
from handwritten_agent.tools import tool


def build_exchange_tool():
    @tool
    def query_exchange_rate(from_currency: str, to_currency: str) -> dict:
        """查询两种货币之间的汇率：1 单位 from_currency 能换多少 to_currency，例如“100 美元能换多少人民币”。

        Args:
            from_currency: 要换出的货币，代码或中文名，例如：USD 或 美元
            to_currency: 要换成的货币，代码或中文名，例如：CNY 或 人民币
        """
        a, b = currency_code(from_currency), currency_code(to_currency)
        if a is None or b is None:
            return {"error": "不支持的货币"}
        return {"from": a, "to": b, "rate": round(CNY_PER_UNIT[a] / CNY_PER_UNIT[b], 6)}
    return query_exchange_rate


ARGS = (build_exchange_tool,)
FAILS_AT = "不认识的货币"
