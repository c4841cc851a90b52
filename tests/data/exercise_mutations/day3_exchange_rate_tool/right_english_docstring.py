"""Correct, in English: the description and the parameter notes are English (with a Chinese example
request), parameters named source/target, the rate under "rate" with a note."""

from handwritten_agent.scenarios.exchange import CNY_PER_UNIT, currency_code
from handwritten_agent.tools import ToolError, tool


def build_exchange_tool():
    @tool
    def convert_currency_rate(source: str, target: str) -> dict:
        """Look up the exchange rate between two currencies (sample rates, not live). Use it when the user asks how much of one currency an amount of another buys, e.g. “100 美元能换多少人民币”.

        Args:
            source: the currency paid, as a code or a Chinese name, e.g. USD or 美元
            target: the currency wanted in return, as a code or a Chinese name, e.g. CNY or 人民币
        """
        found = {text: currency_code(text) for text in (source, target)}
        for text, code in found.items():
            if code is None:
                raise ToolError(f"认不出货币“{text}”，请改用这些代码之一：{'、'.join(CNY_PER_UNIT)}")
        rate = CNY_PER_UNIT[found[source]] / CNY_PER_UNIT[found[target]]
        return {"rate": float(f"{rate:.8g}"), "note": "sample rate"}

    return convert_currency_rate


ARGS = (build_exchange_tool,)
