"""Tells a code from a Chinese name with `\w{3}`, which also matches three Chinese characters: 人民币 or 港币元 is taken for a code and rejected."""

import re

from handwritten_agent.scenarios.exchange import CNY_PER_UNIT, NAMES
from handwritten_agent.tools import ToolError, tool


def build_exchange_tool():
    @tool
    def query_exchange_rate(from_currency: str, to_currency: str) -> dict:
        """查询两种货币之间的汇率（示例汇率）：1 单位 from_currency 能换多少 to_currency。用户问“100 美元能换多少人民币”这类问题时，先用它查汇率，再用计算器算金额。

        Args:
            from_currency: 要换出的货币，货币代码或中文名，例如：USD 或 美元
            to_currency: 要换成的货币，货币代码或中文名，例如：CNY 或 人民币
        """
        codes = []
        for text in (from_currency, to_currency):
            text = text.strip()
            code = (
                text.upper() if re.fullmatch(r"\w{3}", text) else NAMES.get(text)
            )  # \w also matches 汉字
            code = code if code in CNY_PER_UNIT else None
            if code is None:
                raise ToolError(
                    f"不认识的货币“{text}”。支持的货币代码：{', '.join(CNY_PER_UNIT)}。"
                )
            codes.append(code)
        rate = CNY_PER_UNIT[codes[0]] / CNY_PER_UNIT[codes[1]]
        return {"from": codes[0], "to": codes[1], "rate": round(rate, 6)}

    return query_exchange_rate


FAILS_AT = "Agent"
ARGS = (build_exchange_tool,)
