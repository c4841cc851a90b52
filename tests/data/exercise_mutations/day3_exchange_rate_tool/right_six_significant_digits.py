"""Correct, another style: the currencies resolved in a comprehension, an error listing what is
supported, the rate kept to six significant digits with the ``g`` format."""

from handwritten_agent.scenarios.exchange import CNY_PER_UNIT, currency_code
from handwritten_agent.tools import ToolError, tool


def build_exchange_tool():
    @tool
    def query_exchange_rate(from_currency: str, to_currency: str) -> dict:
        """需要把一种货币换算成另一种时使用，例如用户问“500 欧元是多少人民币”：先查汇率，再用计算器乘。返回 1 单位 from_currency 可以换多少 to_currency（课程里的示例汇率）。

        Args:
            from_currency: 换出的货币，代码或中文名都行，例如：EUR 或 欧元
            to_currency: 换入的货币，代码或中文名都行，例如：CNY 或 人民币
        """
        pair = {side: currency_code(text) for side, text in (("from", from_currency), ("to", to_currency))}
        for side, text in (("from", from_currency), ("to", to_currency)):
            if pair[side] is None:
                raise ToolError(f"没有“{text}”这种货币的汇率；可用的货币：{'、'.join(CNY_PER_UNIT)}")
        rate = CNY_PER_UNIT[pair["from"]] / CNY_PER_UNIT[pair["to"]]
        return {"from": pair["from"], "to": pair["to"], "rate": float(f"{rate:.6g}"), "note": "示例汇率"}

    return query_exchange_rate


ARGS = (build_exchange_tool,)
