"""The Day 4 picture: tokens sent per model call, one line per memory policy.

``tokens_per_call(conversation_factory, texts, tools)`` runs the same user messages through a fresh
``Conversation`` per policy and records what every model call was sent (from the ``model_call``
events, so it is exactly the request, counted with ``count_tokens``). ``plot_tokens_per_call`` draws
the lines with matplotlib, the budget as a dashed line. ``plot_call_logs`` draws the same from
``caching.CallLog``s, where the summarizer's own calls are recorded too: they appear as crosses.

Chinese labels need a font with Chinese glyphs; ``plotting.use_chinese_font()`` picks a common one
(Noto Sans CJK, WenQuanYi, PingFang, Microsoft YaHei, SimHei …) and the labels fall back to English
when there is none, instead of drawing empty boxes.

Left out: interactive plots, and saving the figure (``fig.savefig(path)`` does that).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..plotting import chinese_font, use_chinese_font
from ..tokens import count_message_tokens


def tokens_per_call(
    make_conversation: Callable[[], Any], texts: list[str], tools: list[dict[str, Any]] | None
) -> list[int]:
    """Tokens of every model call while ``texts`` are asked, one after the other, in a fresh
    conversation.
    """
    counts: list[int] = []
    conversation = make_conversation()
    previous = conversation.on_event

    def record(event: Any) -> None:
        if event.kind == "model_call":
            counts.append(count_message_tokens(event.messages, tools))
        if previous is not None:
            previous(event)

    conversation.on_event = record
    for text in texts:
        conversation.ask(text)
    return counts


def _label(label: Any, zh: bool) -> str:
    """A ``(中文, English)`` pair read in the language the fonts allow; a string as it is."""
    return (label[0] if zh else label[1]) if isinstance(label, tuple) else str(label)


def _budget_line(ax: Any, budget: int | None, zh: bool) -> None:
    if budget is not None:
        label = ("预算" if zh else "budget") + f" {budget}"
        ax.axhline(budget, linestyle="--", color="grey", linewidth=1, label=label)


def plot_tokens_per_call(
    series: dict[Any, list[int]], *, budget: int | None = None, title: str | None = None
) -> Any:
    """A matplotlib figure with one line per policy.

    ``series`` maps a label — a string, or a ``(中文, English)`` pair used by whichever the fonts
    allow — to the tokens of each model call.
    """
    import matplotlib.pyplot as plt

    zh = use_chinese_font() is not None
    fig, ax = plt.subplots(figsize=(8, 4.2), dpi=100)
    for label, counts in series.items():
        label = _label(label, zh)
        ax.plot(
            range(1, len(counts) + 1), counts, marker="o", markersize=3, linewidth=1.6, label=label
        )
    _budget_line(ax, budget, zh)
    ax.set_xlabel("第几次请求模型" if zh else "model call")
    ax.set_ylabel("每次请求的 token 数（估算）" if zh else "tokens per request (estimate)")
    ax.set_title(
        title
        or (
            "每次请求发送的 token：不管理 / 滑动窗口 / 摘要压缩"
            if zh
            else "tokens sent per model call"
        )
    )
    ax.grid(alpha=0.3)
    ax.legend()
    fig.tight_layout()
    return fig


def plot_call_logs(
    logs: dict[Any, Any], *, budget: int | None = None, title: str | None = None
) -> Any:
    """A matplotlib figure from ``CallLog``s: per policy, the input tokens of every call in order —
    the agent's calls as a line, the calls without tools (the summarizer's) as crosses. Labels as in
    ``plot_tokens_per_call``.
    """
    import matplotlib.pyplot as plt

    zh = use_chinese_font() is not None
    fig, ax = plt.subplots(figsize=(9, 4.6), dpi=100)
    crosses = False
    for label, log in logs.items():
        label = _label(label, zh)
        agent = [
            (i, call.input_tokens or 0) for i, call in enumerate(log.calls, 1) if call.has_tools
        ]
        summaries = [
            (i, call.input_tokens or 0) for i, call in enumerate(log.calls, 1) if not call.has_tools
        ]
        (line,) = ax.plot(
            [i for i, _ in agent],
            [t for _, t in agent],
            marker="o",
            markersize=2.5,
            linewidth=1.4,
            label=label,
        )
        if summaries:
            crosses = True
            ax.scatter(
                [i for i, _ in summaries],
                [t for _, t in summaries],
                marker="x",
                s=36,
                color=line.get_color(),
                zorder=3,
            )
    if crosses:
        ax.scatter(
            [], [], marker="x", color="grey", label="× 写摘要的请求" if zh else "× summary request"
        )
    _budget_line(ax, budget, zh)
    ax.set_xlabel("第几次请求模型（包括写摘要）" if zh else "model call (summaries included)")
    ax.set_ylabel("这次请求的输入 token 数" if zh else "input tokens of the call")
    ax.set_title(
        title
        or (
            "每次请求的输入 token：各种记忆策略"
            if zh
            else "input tokens per call, per memory policy"
        )
    )
    ax.grid(alpha=0.3)
    ax.legend(fontsize=9)
    fig.tight_layout()
    return fig


__all__ = ["chinese_font", "plot_call_logs", "plot_tokens_per_call", "tokens_per_call"]
