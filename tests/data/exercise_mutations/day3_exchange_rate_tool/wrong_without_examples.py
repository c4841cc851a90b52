"""Parameter descriptions without an example: the model cannot tell whether to write USD or 美元."""

from handwritten_agent.scenarios.exchange import CNY_PER_UNIT, currency_code
from handwritten_agent.tools import ToolError, tool


def build_exchange_tool():
    @tool
    def query_exchange_rate(from_currency: str, to_currency: str) -> dict:
        """查询两种货币之间的汇率：1 单位 from_currency 能换多少 to_currency。

        Args:
            from_currency: 要换出的货币
            to_currency: 要换成的货币
        """
        a, b = currency_code(from_currency), currency_code(to_currency)
        if a is None or b is None:
            raise ToolError(f"不认识的货币：{from_currency} 或 {to_currency}")
        return {"rate": round(CNY_PER_UNIT[a] / CNY_PER_UNIT[b], 6)}
    return query_exchange_rate


ARGS = (build_exchange_tool,)
FAILS_AT = "例子"
