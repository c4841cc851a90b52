"""The description says nothing about what the tool does ("处理数据。"): read without its name, nothing tells a model it gives exchange rates."""

from handwritten_agent.scenarios.exchange import CNY_PER_UNIT, currency_code
from handwritten_agent.tools import ToolError, tool


def build_exchange_tool():
    @tool
    def query_exchange_rate(from_currency: str, to_currency: str) -> dict:
        """处理数据，返回结果。

        Args:
            from_currency: 要换出的货币，货币代码或中文名，例如：USD 或 美元
            to_currency: 要换成的货币，货币代码或中文名，例如：CNY 或 人民币
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
