"""Prices per model: what a million tokens cost, one ``Price`` per model and a ``PriceTable`` of
them.

One home for prices, read by Day 4 (what a memory policy costs over many conversations, with cached
input) and Day 6 (the cost of each traced model call, budgets). Prices are per million tokens, in
the currency each model is billed in, with the date they were read and where; the table that ships
(``DEFAULT_PRICES``) is a starting point: ``PriceTable.default().save("prices.json")`` writes it to
a file you edit, and ``PriceTable.load("prices.json")`` reads your version.

Left out: peak/off-peak prices, cache *write* surcharges, currency conversion, and reading prices
from a provider's page (they change: check before you budget).
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass
from datetime import date
from pathlib import Path
from typing import Any

_DEEPSEEK = (
    "DeepSeek 的价格页 https://api-docs.deepseek.com/quick_start/pricing"
    " 的一份存档（两个模型名背后都是 DeepSeek-V3.2，"
    "每百万 token：输入 0.28 美元、缓存命中的输入 0.028 美元、输出 0.42 美元）。"
    "线上的页面可能更新：其他资料说 2026 年换了"
    "新的模型名（deepseek-v4-flash 等），做预算之前先核对。"
)
DEFAULT_PRICES: dict[str, dict[str, Any]] = {
    "deepseek-chat": {
        "input": 0.28,
        "cached_input": 0.028,
        "output": 0.42,
        "currency": "USD",
        "read_on": "2026-12-01",
        "source": _DEEPSEEK,
    },
    "deepseek-reasoner": {
        "input": 0.28,
        "cached_input": 0.028,
        "output": 0.42,
        "currency": "USD",
        "read_on": "2026-12-01",
        "source": _DEEPSEEK,
    },
    "course-sim": {
        "input": 2.0,
        "cached_input": 0.5,
        "output": 8.0,
        "currency": "CNY",
        "read_on": "2026-12-01",
        "source": "假想价格：离线模拟器不花钱，这个编出来的价格只为演示费用和预算",
    },
}
"""Per million tokens. A model missing here has an unknown cost (null), never 0: add yours with
``PriceTable.set``.
"""
CACHED_TOKENS = "gen_ai.usage.cache_read.input_tokens"
"""The line field with the input tokens served from the provider's cache (part of ``input_tokens``;
null when not reported).
"""
CURRENCY_ZH = {"CNY": "元", "USD": "美元"}


@dataclass(frozen=True)
class Price:
    """The price of one model: per million input and output tokens."""

    input: float
    output: float
    currency: str = "CNY"
    read_on: str = ""
    source: str = ""
    cached_input: float | None = None
    """Per million input tokens served from the provider's cache; None: the provider has no such
    price (full input price).
    """

    def cost(
        self, input_tokens: int | None, output_tokens: int | None, cached_tokens: int | None = None
    ) -> float | None:
        """The cost of one call; ``cached_tokens`` (part of ``input_tokens``) at ``cached_input``
        when both are known.
        """
        if input_tokens is None or output_tokens is None:
            return None
        cached = min(max(int(cached_tokens or 0), 0), input_tokens)
        rate = self.cached_input if self.cached_input is not None else self.input
        return (
            (input_tokens - cached) * self.input + cached * rate + output_tokens * self.output
        ) / 1_000_000


class PriceTable:
    """Prices by model name. A name not found exactly is tried without a ``:suffix``
    (``course-sim:slow`` → ``course-sim``).
    """

    def __init__(self, prices: dict[str, Price] | None = None):
        self.prices: dict[str, Price] = dict(prices or {})

    @classmethod
    def default(cls) -> PriceTable:
        """The table that ships with the course (see ``DEFAULT_PRICES``)."""
        return cls.from_dict(DEFAULT_PRICES, "DEFAULT_PRICES")

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> PriceTable:
        """A table from a JSON file written by ``save`` (and edited by you)."""
        data = json.loads(Path(path).read_text(encoding="utf-8"))
        return cls.from_dict(data.get("models", data), str(path))

    @classmethod
    def from_dict(cls, models: dict[str, Any], path: str = "价格表") -> PriceTable:
        table = cls()
        for name, entry in models.items():
            if name.startswith("_"):
                continue
            try:
                cached = entry.get("cached_input")
                table.prices[name] = Price(
                    float(entry["input"]),
                    float(entry["output"]),
                    str(entry.get("currency", "CNY")),
                    str(entry.get("read_on", "")),
                    str(entry.get("source", "")),
                    None if cached is None else float(cached),
                )
            except (KeyError, TypeError, ValueError) as exc:
                raise ValueError(
                    f"价格表 {path} 里模型 {name!r} 的条目不对：需要 input 和 output（每百万 token"
                    " 的价格，数字），"
                    f"可选 cached_input、currency、read_on、source。收到的是 {entry!r}。"
                ) from exc
        return table

    def save(self, path: str | os.PathLike[str]) -> None:
        models = {name: asdict(price) for name, price in self.prices.items()}
        Path(path).write_text(
            json.dumps({"models": models}, ensure_ascii=False, indent=2) + "\n", encoding="utf-8"
        )

    def set(
        self,
        model: str,
        input: float,
        output: float,
        currency: str = "CNY",
        read_on: str | None = None,
        source: str = "",
        cached_input: float | None = None,
    ) -> None:
        """Add or change a model's price (per million tokens); ``read_on`` defaults to today."""
        self.prices[model] = Price(
            float(input),
            float(output),
            currency,
            read_on or date.today().isoformat(),
            source,
            None if cached_input is None else float(cached_input),
        )

    def get(self, model: str | None) -> Price | None:
        if not model:
            return None
        return self.prices.get(model) or self.prices.get(model.split(":", 1)[0])

    def cost_of(self, line: dict[str, Any]) -> tuple[float | None, str | None]:
        """(cost, currency) of one ``model_call`` line; (None, …) when its tokens or its model's
        price are unknown.
        """
        price = self.get(line.get("gen_ai.request.model") or line.get("model")) or self.get(
            line.get("model")
        )
        if price is None:
            return None, None
        return (
            price.cost(
                line.get("input_tokens"), line.get("output_tokens"), line.get(CACHED_TOKENS)
            ),
            price.currency,
        )

    def __contains__(self, model: str) -> bool:
        return self.get(model) is not None

    def __repr__(self) -> str:
        return f"PriceTable({', '.join(self.prices)})"


__all__ = ["CACHED_TOKENS", "CURRENCY_ZH", "DEFAULT_PRICES", "Price", "PriceTable"]
