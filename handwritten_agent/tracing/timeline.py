"""The timeline picture of a run: model calls and tool calls as bars over time, problems marked
(matplotlib).

One row for the model and one per tool; each bar spans a call, labelled with its step. Colours say
how a call ended — a tool that failed is red with an ``x``, one answered without running (a repeat,
a cache hit, a refusal) is grey, a call waiting for confirmation is orange — and a vertical line
marks the end of the run with its stop reason.

Labels are Chinese (``plotting.use_chinese_font`` picks a CJK font the machine has; without one the
Chinese characters show as boxes, and the notebook says in words what the picture shows). Each bar
carries its step number, and a legend below the axis explains every colour and mark the picture uses
(``LEGEND``: the same words as the HTML page's).

Left out: several runs on one time axis (draw one figure per run), and interactivity.
"""

from __future__ import annotations

from typing import Any

from .reading import as_run, parse_ts
from .spans import intervals, run_span_ms

COLOURS = {
    "success": "#4c78a8",
    "error": "#e45756",
    "repeated": "#bab0ac",
    "cached": "#bab0ac",
    "refused": "#bab0ac",
    "paused": "#f58518",
}
MODEL_COLOUR = "#54a24b"
RETRY_COLOUR = "#e45756"
LEGEND = {
    "model": (MODEL_COLOUR, "模型调用"),
    "success": (COLOURS["success"], "工具成功"),
    "error": (COLOURS["error"], "工具失败（✕）"),
    "skipped": (COLOURS["repeated"], "工具没有真正执行（重复、缓存命中、被拒绝）"),
    "paused": (COLOURS["paused"], "等待确认"),
    "retry": (RETRY_COLOUR, "▼ 模型请求被重试（429/5xx）"),
    "end": ("#333333", "虚线：运行结束，旁边是 stop_reason"),
}
"""What each colour and mark means, for the picture's legend and the HTML page."""


def legend_keys(bars: list[Any], retries: int, ended: bool) -> list[str]:
    """The legend entries a picture of these bars needs, in ``LEGEND``'s order."""
    found = {
        (
            "model"
            if bar.kind == "model"
            else ("skipped" if bar.status in ("repeated", "cached", "refused") else bar.status)
        )
        for bar in bars
    }
    if retries:
        found.add("retry")
    if ended:
        found.add("end")
    return [key for key in LEGEND if key in found]


def timeline(
    source: Any, request_id: str | None = None, *, ax: Any = None, width: float = 9.0
) -> Any:
    """Draw one run's timeline; returns the matplotlib ``Figure`` (or draws into ``ax``)."""
    import matplotlib.pyplot as plt

    from ..plotting import use_chinese_font

    use_chinese_font()
    run = as_run(source, request_id)
    bars = intervals(run)
    rows = ["模型"] + sorted({bar.label for bar in bars if bar.kind == "tool"})
    if ax is None:
        figure, ax = plt.subplots(figsize=(width, 0.6 * len(rows) + 2.1))
    else:
        figure = ax.figure
    total = max([run_span_ms(run)] + [bar.end_ms for bar in bars] + [1.0])
    for bar in bars:
        row = 0 if bar.kind == "model" else rows.index(bar.label)
        colour = MODEL_COLOUR if bar.kind == "model" else COLOURS.get(bar.status, "#72b7b2")
        length = max(bar.duration_ms, total * 0.004)  # a 0 ms repeat stays visible
        ax.barh(
            row,
            length,
            left=bar.start_ms,
            height=0.5,
            color=colour,
            edgecolor="black",
            linewidth=0.4,
        )
        ax.text(
            bar.start_ms + length / 2,
            row,
            f"{bar.step}",
            ha="center",
            va="center",
            fontsize=7,
            color="white" if length > total * 0.04 else "black",
        )
        if bar.status == "error":
            ax.plot(bar.end_ms, row + 0.32, marker="x", color="#b00020", markersize=8, mew=2)
    origin = run.started_at()
    for retry in run.of("retry"):  # a 429/5xx the client waited out: a triangle on the model row
        ax.plot(
            (parse_ts(retry["ts"]) - origin) * 1000,
            -0.32,
            marker="v",
            color=RETRY_COLOUR,
            markersize=6,
        )
    end = run.end
    if end is not None:
        ax.axvline(total, color="#333333", linestyle="--", linewidth=1)
        ax.text(total, -0.62, f"{end.get('stop_reason')} ", ha="right", va="center", fontsize=8)
    ax.set_yticks(range(len(rows)), rows)
    ax.set_ylim(
        len(rows) - 0.5, -0.8
    )  # top to bottom, with room above the model row for the retry marks and the stop reason
    ax.set_xlabel("距运行开始的毫秒数（条上的数字是第几步）")
    ax.set_xlim(0, total * 1.02)
    ax.set_title(
        f"{run.request_id} · {len(run.model_calls)} 次模型调用 · {len(run.tool_results)} "
        "个工具结果",
        fontsize=10,
    )
    ax.grid(axis="x", alpha=0.3)
    _legend(ax, legend_keys(bars, len(run.of("retry")), end is not None))
    figure.tight_layout()
    return figure


def _legend(ax: Any, keys: list[str]) -> None:
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    handles = []
    for key in keys:
        colour, label = LEGEND[key]
        if key == "retry":
            handles.append(
                Line2D([], [], marker="v", linestyle="", color=colour, label=label.lstrip("▼ "))
            )
        elif key == "end":
            handles.append(
                Line2D([], [], linestyle="--", color=colour, label=label.replace("虚线：", ""))
            )
        else:
            handles.append(Patch(facecolor=colour, edgecolor="black", linewidth=0.4, label=label))
    if handles:
        ax.legend(
            handles=handles,
            loc="upper center",
            bbox_to_anchor=(0.5, -0.28),
            ncol=min(3, len(handles)),
            fontsize=8,
            frameon=False,
        )


def save_timeline(source: Any, path: str, request_id: str | None = None) -> str:
    """Draw and save the picture (PNG or SVG by the file name); returns the path."""
    import matplotlib.pyplot as plt

    figure = timeline(source, request_id)
    figure.savefig(path, dpi=120)
    plt.close(figure)
    return path


__all__ = [
    "COLOURS",
    "LEGEND",
    "MODEL_COLOUR",
    "RETRY_COLOUR",
    "legend_keys",
    "save_timeline",
    "timeline",
]
