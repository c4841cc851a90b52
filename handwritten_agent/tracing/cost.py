"""What a run costs: a price table per model, the cost of each model call, totals per run and per
day, a budget, a bill alert.

Cost is computed from the tokens the backend *reported* (``input_tokens`` / ``output_tokens`` of a
``model_call`` line). When a backend reported none, the tokens are ``null`` and so is the cost — an
unknown cost is never written as 0, and totals say how many calls they could not price. The prices
themselves (``Price``, ``PriceTable``, ``DEFAULT_PRICES``) live in ``handwritten_agent.pricing``,
shared with Day 4, and are re-exported here.

**Cached input.** Providers with prompt caching bill the part of the input served from their cache
at a lower price and report it: ``usage.prompt_tokens_details.cached_tokens`` (OpenAI and
compatible) or ``usage.prompt_cache_hit_tokens`` (DeepSeek); the client reads it once, into
``Usage.cached_tokens`` (``llm.replies.usage_of``). The tracer writes it as
``gen_ai.usage.cache_read.input_tokens`` (part of ``input_tokens``, as the OpenTelemetry convention
says), and a price's ``cached_input`` prices it; when a backend does not say, every input token is
billed at the full price (an upper bound).

``Budget`` is a hook of its own (``Agent(..., hooks=[tracer, budget])``): after each model call it
adds the call's cost to the run and the day, and raises ``StopRun("budget", …)`` when a limit is
passed — the loop then ends the run with stop reason ``budget``. That check comes *after* the call
that passes the limit (its tokens are only known then), so a run can overspend by one call. With
``check_before=True`` it also looks *before* each model call: the messages and tool schemas about to
be sent are estimated (``tokens.count_message_tokens``, at the full input price) and the run stops
when that alone would pass the limit — the reply's output tokens are still only known afterwards.
Put the budget after a gate that hides tools, so it estimates what is really sent. A day's spending
is read back from the trace files you name, so a budget holds across processes. ``bill_alert`` is
the other half of the reference articles' advice: not a stop, a message when a day's total (read
from the traces) passes a threshold — run it from cron or a scheduler.

Left out: peak/off-peak prices, cache *write* surcharges (some providers bill them), currency
conversion (a total is per currency), and tokens the backend did not report (use
``tokens.count_message_tokens`` for an estimate, labelled as one).
"""

from __future__ import annotations

import os
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from datetime import date, datetime
from pathlib import Path
from typing import Any

from ..pricing import (
    CACHED_TOKENS,
    CURRENCY_ZH,
    DEFAULT_PRICES,
    Price,
    PriceTable,
)  # noqa: F401 - re-exported
from ..run import StopRun
from ..tokens import count_message_tokens
from .reading import iter_lines, parse_ts


@dataclass
class CostTotal:
    """A sum of model calls: tokens and cost per currency, and how many calls could not be
    counted.
    """

    calls: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    cost: dict[str, float] = field(default_factory=dict)
    cached_input_tokens: int = 0
    """Of ``input_tokens``, those the backend said it served from its cache."""
    unknown_usage: int = 0
    """Calls whose backend reported no token usage (tokens null)."""
    unpriced: int = 0
    """Calls with known tokens but no price for their model."""

    def add(self, line: dict[str, Any], prices: PriceTable | None) -> None:
        self.calls += 1
        if line.get("input_tokens") is None or line.get("output_tokens") is None:
            self.unknown_usage += 1
            return
        self.input_tokens += int(line["input_tokens"])
        self.output_tokens += int(line["output_tokens"])
        self.cached_input_tokens += int(line.get(CACHED_TOKENS) or 0)
        amount, currency = (
            (line.get("cost"), line.get("cost_currency"))
            if prices is None
            else prices.cost_of(line)
        )
        if amount is None or currency is None:
            self.unpriced += 1
        else:
            self.cost[currency] = self.cost.get(currency, 0.0) + float(amount)

    def describe(self) -> str:
        if self.calls and self.unknown_usage == self.calls:
            return f"{self.calls} 次模型调用，后端都没有报告用量：token 和费用未知（null，不是 0）"
        money = (
            "，".join(
                f"{amount:.6f} {CURRENCY_ZH.get(cur, cur)}"
                for cur, amount in sorted(self.cost.items())
            )
            or "0"
        )
        cached = f"（其中缓存命中 {self.cached_input_tokens}）" if self.cached_input_tokens else ""
        text = (
            f"{self.calls} 次模型调用，输入 {self.input_tokens} token{cached}，输出"
            f" {self.output_tokens} token，费用 {money}"
        )
        gaps = []
        if self.unknown_usage:
            gaps.append(f"{self.unknown_usage} 次调用后端没有报告用量")
        if self.unpriced:
            gaps.append(f"{self.unpriced} 次调用的模型不在价格表里")
        return text + (f"（不含：{'；'.join(gaps)}，实际费用只会更高）" if gaps else "")

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def _day(line: dict[str, Any], tz: Any = None) -> str:
    return datetime.fromtimestamp(parse_ts(line["ts"]), tz).date().isoformat()


def cost_report(
    sources: Any, prices: PriceTable | None = None, *, by: str = "run", tz: Any = None
) -> dict[str, CostTotal]:
    """Totals of the ``model_call`` lines in one or more traces, keyed by ``request_id``
    (``by="run"``) or date (``by="day"``).

    With ``prices`` the cost is recomputed from the table (e.g. after you edited it); without, the
    cost the tracer wrote is used. ``sources``: a path, a list of paths, or lines.
    """
    if by not in ("run", "day"):
        raise ValueError(f"by 只能是 'run' 或 'day'，收到的是 {by!r}。")
    totals: dict[str, CostTotal] = defaultdict(CostTotal)
    for line in _all_lines(sources):
        if line.get("event") != "model_call":
            continue
        key = str(line.get("request_id")) if by == "run" else _day(line, tz)
        totals[key].add(line, prices)
    return dict(totals)


def _all_lines(sources: Any) -> Iterable[dict[str, Any]]:
    if isinstance(sources, (str, os.PathLike)):
        yield from iter_lines(sources)
        return
    items = list(sources)
    if items and all(
        isinstance(item, (str, os.PathLike)) and Path(item).exists() for item in items
    ):
        for item in items:
            yield from iter_lines(item)
    else:
        yield from iter_lines(items)


class Budget:
    """Spending limits for a run and for a day, in one currency; exceeding one ends the run with
    ``budget``.

    ``per_day`` counts the day's earlier spending from ``history`` (trace files, e.g. the tracer's
    own file) when the budget is created, plus what is spent from then on. A model call whose cost
    is unknown cannot be counted: with ``unknown="stop"`` it ends the run (the safe choice for a
    real bill), with ``"ignore"`` (the default) it is only recorded as unknown.
    """

    def __init__(
        self,
        per_run: float | None = None,
        per_day: float | None = None,
        currency: str = "CNY",
        *,
        history: Any = None,
        unknown: str = "ignore",
        today: str | None = None,
        prices: PriceTable | None = None,
        model: str | None = None,
        check_before: bool = False,
    ):
        """``prices`` (default ``PriceTable.default()``) prices each call; ``model`` is the model
        asked for, used when a reply does not name the model that answered (and, with
        ``check_before``, to price the estimate before the first reply names it)."""
        if unknown not in ("ignore", "stop"):
            raise ValueError(f"unknown 只能是 'ignore' 或 'stop'，收到的是 {unknown!r}。")
        if per_run is None and per_day is None:
            raise ValueError("Budget 至少要给一个上限：per_run=（每次运行）或 per_day=（每天）。")
        self.per_run, self.per_day, self.currency, self.unknown = (
            per_run,
            per_day,
            currency,
            unknown,
        )
        self.today = today or date.today().isoformat()
        self.spent_today = 0.0
        if history is not None:
            for day, total in cost_report(history, by="day").items():
                if day == self.today:
                    self.spent_today += total.cost.get(currency, 0.0)
        self.spent_run: dict[str, float] = defaultdict(float)
        self.prices = prices if prices is not None else PriceTable.default()
        self.model = model
        self.check_before = check_before
        self._answered_by: str | None = None

    def before_model(
        self, messages: list[dict[str, Any]], tools: list[dict[str, Any]], context: Any
    ) -> None:
        """With ``check_before``: stop before a model call whose estimated input (the messages and
        tool schemas about to be sent) alone would pass a limit.
        """
        if not self.check_before:
            return
        price = self.prices.get(self._answered_by or self.model)
        if price is None or price.currency != self.currency:
            return  # nothing to estimate with; the check after the call still counts what it can
        estimate = count_message_tokens(messages, tools) * price.input / 1_000_000
        unit = CURRENCY_ZH.get(self.currency, self.currency)
        run = str(context.run_id)
        if self.per_run is not None and self.spent_run[run] + estimate > self.per_run:
            raise StopRun(
                "budget",
                f"第 {context.step} 步还没有请求模型：这次要发送的输入估计 {estimate:.6f} {unit}，"
                f"加上本次运行已花的 {self.spent_run[run]:.6f} {unit}，会超过每次运行的预算"
                f" {self.per_run:g} {unit}。请调大 Budget(per_run=...)，或让消息短一些（第 4"
                " 天的记忆窗口）。",
            )
        if self.per_day is not None and self.spent_today + estimate > self.per_day:
            raise StopRun(
                "budget",
                f"第 {context.step} 步还没有请求模型：今天（{self.today}）已花费"
                f" {self.spent_today:.6f} {unit}，"
                f"加上这次输入的估计 {estimate:.6f} {unit} 会超过每天的预算 {self.per_day:g}"
                f" {unit}。",
            )

    def on_event(self, event: Any) -> None:
        """The hook: after every ``model_call``, charge its cost (see ``charge``)."""
        if event.kind != "model_call" or event.reply is None:
            return
        usage = event.reply.usage
        self._answered_by = event.reply.model or self._answered_by
        line = {
            "request_id": event.run_id,
            "step": event.step,
            "model": event.reply.model or self.model,
            "gen_ai.request.model": self.model,
            "input_tokens": usage.prompt_tokens if usage is not None else None,
            "output_tokens": usage.completion_tokens if usage is not None else None,
            CACHED_TOKENS: usage.cached_tokens if usage is not None else None,
        }
        line["cost"], line["cost_currency"] = self.prices.cost_of(line)
        self.charge(line)

    def charge(self, line: dict[str, Any]) -> None:
        """Count one ``model_call`` line; raise ``StopRun("budget", …)`` when a limit is passed."""
        amount, currency = line.get("cost"), line.get("cost_currency")
        unit = CURRENCY_ZH.get(self.currency, self.currency)
        if amount is None or currency != self.currency:
            if self.unknown == "stop":
                raise StopRun(
                    "budget",
                    f"第 {line.get('step')} 步这次模型调用的费用未知（后端没有报告用量，或模型"
                    f" {line.get('model')!r} "
                    f"不在价格表里，或币种不是 {self.currency}），按 Budget(unknown='stop') 停止。"
                    "请把模型加进价格表。",
                )
            return
        run = str(line.get("request_id"))
        self.spent_run[run] += float(amount)
        self.spent_today += float(amount)
        if self.per_run is not None and self.spent_run[run] > self.per_run:
            raise StopRun(
                "budget",
                f"本次运行已花费 {self.spent_run[run]:.6f} {unit}，超过了每次运行的预算"
                f" {self.per_run:g} {unit}"
                f"（第 {line.get('step')} 步之后）。请调大 Budget(per_run=...)，"
                "或让任务少调用几次模型。",
            )
        if self.per_day is not None and self.spent_today > self.per_day:
            raise StopRun(
                "budget",
                f"今天（{self.today}）已花费 {self.spent_today:.6f} {unit}，超过了每天的预算"
                f" {self.per_day:g} {unit}。今天的运行会在第一次模型调用后停止；明天再试，或调大"
                " Budget(per_day=...)。",
            )


def bill_alert(
    sources: Any,
    limit: float,
    currency: str = "CNY",
    *,
    day: str | None = None,
    tz: Any = None,
    prices: PriceTable | None = None,
) -> str | None:
    """The reference articles' daily bill alert: a Chinese message when ``day``'s spending in the
    traces passes ``limit``, else None.

    ``sources`` as for ``cost_report`` (the trace files of every process); ``day`` defaults to
    today. Calls whose cost is unknown are counted and named in the message, because the bill can
    only be higher.
    """
    day = day or datetime.now(tz).date().isoformat()
    total = cost_report(sources, prices, by="day", tz=tz).get(day, CostTotal())
    spent = total.cost.get(currency, 0.0)
    unit = CURRENCY_ZH.get(currency, currency)
    unknown = total.unknown_usage + total.unpriced
    if spent <= limit:
        return None
    gap = f"；另有 {unknown} 次调用的费用未知，实际只会更多" if unknown else ""
    return (
        f"账单告警：{day} 已花费 {spent:.4f} {unit}（{total.calls} 次模型调用），超过了每天的告警线"
        f" {limit:g} {unit}{gap}。"
        '看看 cost_report(..., by="run") 里哪些运行最贵。'
    )


__all__ = [
    "Budget",
    "CACHED_TOKENS",
    "CURRENCY_ZH",
    "CostTotal",
    "DEFAULT_PRICES",
    "Price",
    "PriceTable",
    "bill_alert",
    "cost_report",
]
