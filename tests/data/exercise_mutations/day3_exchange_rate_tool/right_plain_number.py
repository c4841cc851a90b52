"""Correct, in another style: parameters named base/quote, the rate returned as a plain number, a table of names."""

from handwritten_agent.scenarios.exchange import CNY_PER_UNIT, currency_code
from handwritten_agent.tools import ToolError, tool


def build_exchange_tool():
    @tool
    def lookup_fx_rate(base: str, quote: str) -> float:
        """查汇率（课程示例数据）：返回 1 单位 base 货币可以兑换多少 quote 货币。遇到“多少美元能换多少人民币”这类换算问题，先调用它拿到汇率。

        Args:
            base: 换出的货币，可以写代码或中文名，比如 USD、美元
            quote: 换成的货币，可以写代码或中文名，比如 CNY、人民币
        """
        source, target = currency_code(base), currency_code(quote)
        for text, code in ((base, source), (quote, target)):
            if code is None:
                raise ToolError(f"认不出货币“{text}”，请用这些代码之一：{'、'.join(CNY_PER_UNIT)}")
        return float(f"{CNY_PER_UNIT[source] / CNY_PER_UNIT[target]:.6g}")

    return lookup_fx_rate


ARGS = (build_exchange_tool,)
