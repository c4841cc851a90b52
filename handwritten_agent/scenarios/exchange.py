"""An exchange-rate tool on fixed sample rates, labelled as such in every result.

Rates are stored as "how many yuan one unit buys" and any pair is derived from them, so adding a
currency is one line. Currency names in Chinese (美元、人民币 …) are accepted as well as ISO codes.

Left out: live rates, dates, fees, amounts (multiplying is the calculator's job — the compound task
"查询汇率后计算 100 美元能换多少人民币" needs both tools).
"""

from __future__ import annotations

from typing import Any

from ..tools import ToolError, tool

SAMPLE_NOTE = "示例汇率，不是实时行情"

CNY_PER_UNIT: dict[str, float] = {
    "CNY": 1.0,
    "USD": 7.2,
    "EUR": 7.8,
    "GBP": 9.1,
    "JPY": 0.048,
    "HKD": 0.92,
}
"""Sample rates: yuan per one unit of each currency."""

DISPLAY_NAMES: dict[str, str] = {
    "CNY": "人民币",
    "USD": "美元",
    "EUR": "欧元",
    "GBP": "英镑",
    "JPY": "日元",
    "HKD": "港币",
}

NAMES: dict[str, str] = {
    "人民币": "CNY",
    "元": "CNY",
    "rmb": "CNY",
    "美元": "USD",
    "美金": "USD",
    "欧元": "EUR",
    "英镑": "GBP",
    "日元": "JPY",
    "日币": "JPY",
    "港币": "HKD",
    "港元": "HKD",
    "港币元": "HKD",
}


def currency_code(text: str) -> str | None:
    """The ISO code for ``text`` ("usd", "美元" …), or None when the currency is not in the
    sample.
    """
    cleaned = text.strip()
    code = NAMES.get(cleaned.lower(), NAMES.get(cleaned, cleaned.upper()))
    return code if code in CNY_PER_UNIT else None


@tool
def get_exchange_rate(base: str, target: str) -> dict[str, Any]:
    """查询两种货币之间的汇率（示例汇率），即 1 单位 base 货币能换多少 target 货币，
    例如“美元兑人民币的汇率是多少”。

    Args:
        base: 要换出的货币，货币代码或中文名称，例如：USD 或 美元
        target: 要换成的货币，货币代码或中文名称，例如：CNY 或 人民币
    """
    codes = {}
    for role, text in (("base", base), ("target", target)):
        code = currency_code(text)
        if code is None:
            known = "、".join(f"{code}（{name}）" for code, name in DISPLAY_NAMES.items())
            raise ToolError(f"不认识的货币“{text}”（参数 {role}）。支持的货币：{known}。")
        codes[role] = code
    rate = float(f"{CNY_PER_UNIT[codes['base']] / CNY_PER_UNIT[codes['target']]:.6g}")
    return {
        "base": codes["base"],
        "target": codes["target"],
        "rate": rate,
        "meaning": f"1 {codes['base']} = {rate} {codes['target']}",
        "note": SAMPLE_NOTE,
    }
