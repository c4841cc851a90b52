"""Always returns the price in yuan of from_currency, ignoring to_currency (right only when converting to CNY)."""

from handwritten_agent.scenarios.exchange import CNY_PER_UNIT, currency_code
from handwritten_agent.tools import ToolError, tool


def build_exchange_tool():
    @tool
    def query_exchange_rate(from_currency: str, to_currency: str) -> dict:
        """查询汇率：1 单位 from_currency 能换多少 to_currency，例如“100 美元能换多少人民币”。

        Args:
            from_currency: 要换出的货币，例如：USD 或 美元
            to_currency: 要换成的货币，例如：CNY 或 人民币
        """
        code = currency_code(from_currency)
        if code is None:
            raise ToolError(f"不认识的货币“{from_currency}”")
        return {"from": code, "to": to_currency, "rate": CNY_PER_UNIT[code]}
    return query_exchange_rate


ARGS = (build_exchange_tool,)
FAILS_AT = "人民币 → 美元"
