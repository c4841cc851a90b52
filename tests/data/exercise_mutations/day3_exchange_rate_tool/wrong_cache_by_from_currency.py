"""Caches results in a module global under from_currency only: the next question from the same currency to another one gets the first answer's rate."""

from handwritten_agent.scenarios.exchange import CNY_PER_UNIT, currency_code
from handwritten_agent.tools import ToolError, tool


_RATES = {}  # from_currency -> the rate found, to save looking it up again


def build_exchange_tool():
    @tool
    def query_exchange_rate(from_currency: str, to_currency: str) -> dict:
        """查询两种货币之间的汇率（示例汇率）：1 单位 from_currency 能换多少 to_currency。用户问“100 美元能换多少人民币”这类问题时，先用它查汇率，再用计算器算金额。

        Args:
            from_currency: 要换出的货币，货币代码或中文名，例如：USD 或 美元
            to_currency: 要换成的货币，货币代码或中文名，例如：CNY 或 人民币
        """
        if from_currency in _RATES:
            return _RATES[from_currency]
        codes = []
        for text in (from_currency, to_currency):
            code = currency_code(text)
            if code is None:
                raise ToolError(
                    f"不认识的货币“{text}”。支持的货币代码：{', '.join(CNY_PER_UNIT)}。"
                )
            codes.append(code)
        rate = CNY_PER_UNIT[codes[0]] / CNY_PER_UNIT[codes[1]]
        _RATES[from_currency] = {"from": codes[0], "to": codes[1], "rate": round(rate, 6)}
        return _RATES[from_currency]

    return query_exchange_rate


FAILS_AT = "直接调用工具"
ARGS = (build_exchange_tool,)
