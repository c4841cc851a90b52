"""Both parameters have the same description: a model cannot tell the currency to convert from the one to convert to."""

from handwritten_agent.scenarios.exchange import CNY_PER_UNIT, currency_code
from handwritten_agent.tools import ToolError, tool


def build_exchange_tool():
    @tool
    def query_exchange_rate(from_currency: str, to_currency: str) -> dict:
        """查询两种货币之间的汇率（示例汇率）：1 单位 from_currency 能换多少 to_currency。用户问“100 美元能换多少人民币”这类问题时，先用它查汇率，再用计算器算金额。

        Args:
            from_currency: 货币代码或中文名，例如：USD 或 人民币
            to_currency: 货币代码或中文名，例如：USD 或 人民币
        """
        codes = []
        for text in (from_currency, to_currency):
            code = currency_code(text)
            if code is None:
                raise ToolError(
                    f"不认识的货币“{text}”。支持的货币代码：{', '.join(CNY_PER_UNIT)}。"
                )
            codes.append(code)
        rate = CNY_PER_UNIT[codes[0]] / CNY_PER_UNIT[codes[1]]
        return {"from": codes[0], "to": codes[1], "rate": round(rate, 6)}

    return query_exchange_rate


FAILS_AT = "描述"
ARGS = (build_exchange_tool,)
