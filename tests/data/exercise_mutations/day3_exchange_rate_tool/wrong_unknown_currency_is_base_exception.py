"""Reports an unknown currency with its own error class derived from ``BaseException``: the registry
catches ``Exception`` only, so instead of a failed result for the model the whole run dies."""

from handwritten_agent.scenarios.exchange import CNY_PER_UNIT, currency_code
from handwritten_agent.tools import tool


class UnknownCurrency(BaseException):
    pass


def build_exchange_tool():
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
                raise UnknownCurrency(f"不认识的货币“{text}”。支持的货币代码：{', '.join(CNY_PER_UNIT)}。")
            codes.append(code)
        rate = CNY_PER_UNIT[codes[0]] / CNY_PER_UNIT[codes[1]]
        return {"from": codes[0], "to": codes[1], "rate": round(rate, 6), "note": "示例汇率，不是实时行情"}

    return query_exchange_rate


ARGS = (build_exchange_tool,)
