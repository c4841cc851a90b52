"""Correct, in another style: the examples in brackets with no "例如" in front, the rate and both codes in a dict."""

from handwritten_agent.scenarios.exchange import CNY_PER_UNIT, currency_code
from handwritten_agent.tools import ToolError, tool


def build_exchange_tool():
    @tool
    def get_fx_rate(sell: str, buy: str) -> dict:
        """查询两种货币之间的汇率（示例数据）：1 单位要换出的货币等于多少要换成的货币。问“100 美元能换多少人民币”时先查汇率。

        Args:
            sell: 要换出的货币（USD / EUR / 美元 / 日元 这样的代码或中文名）
            buy: 要换成的货币（CNY / JPY / 人民币 这样的代码或中文名）
        """
        codes = [currency_code(sell), currency_code(buy)]
        unknown = [text for text, code in zip((sell, buy), codes) if code is None]
        if unknown:
            raise ToolError(f"不认识的货币：{'、'.join(unknown)}。支持：{'、'.join(CNY_PER_UNIT)}")
        return {"from": codes[0], "to": codes[1], "rate": round(CNY_PER_UNIT[codes[0]] / CNY_PER_UNIT[codes[1]], 8)}

    return get_fx_rate


ARGS = (build_exchange_tool,)
