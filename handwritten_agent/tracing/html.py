"""A run as one self-contained HTML page: the table of steps, the timeline, the findings, every
line.

Everything is inside the file — styles in a ``<style>`` element, the timeline as inline SVG drawn
here, no scripts, fonts, images or links to anything outside — so the page opens offline, can be
attached to an issue or mailed, and shows exactly what the trace holds (already redacted). Every
text from the trace is HTML-escaped.

Left out: interactivity (each line's JSON is in a ``<details>`` element), and several runs on one
axis.
"""

from __future__ import annotations

import html
import json
from typing import Any

from .cost import CURRENCY_ZH
from .diagnose import diagnose
from .reading import TraceRun, parse_ts, read_trace
from .spans import intervals, run_span_ms
from .table import COLUMNS, run_rows
from .timeline import COLOURS, LEGEND, MODEL_COLOUR, RETRY_COLOUR, legend_keys

STYLE = """
body{font-family:system-ui,-apple-system,"PingFang SC","Microsoft YaHei","Noto Sans CJK SC",
  sans-serif;margin:2em;color:#222}
h1{font-size:1.4em}h2{font-size:1.15em;margin-top:1.6em}
table{border-collapse:collapse;font-size:.9em}
td,th{border:1px solid #ccc;padding:.3em .6em;text-align:left;vertical-align:top}
th{background:#f3f3f3}
.error{color:#b00020}.warning{color:#a15c00}.info{color:#555}
pre{background:#f7f7f7;padding:.6em;overflow-x:auto;font-size:.8em}
details{margin:.2em 0}summary{cursor:pointer}.meta{color:#666;font-size:.9em}
td:nth-child(1),td:nth-child(2),td:nth-child(6){white-space:nowrap}
"""


def _e(value: Any) -> str:
    return html.escape("" if value is None else str(value))


def svg_timeline(run: TraceRun, width: int = 900) -> str:
    """The timeline as an inline SVG (the same picture as ``timeline``, drawn without
    matplotlib).
    """
    bars = intervals(run)
    rows = ["模型"] + sorted({bar.label for bar in bars if bar.kind == "tool"})
    left, row_height, top = 150, 26, 20
    total = max([run_span_ms(run)] + [bar.end_ms for bar in bars] + [1.0])
    scale = (width - left - 20) / total
    keys = legend_keys(bars, len(run.of("retry")), run.end is not None)
    height = top + row_height * len(rows) + 30 + 20 * len(keys)
    parts = [
        f'<svg width="{width}" height="{height}" role="img" aria-label="时间线：'
        '模型调用和工具调用">'
    ]
    for index, name in enumerate(rows):
        y = top + index * row_height
        parts.append(
            f'<text x="{left - 8}" y="{y + 16}" text-anchor="end" font-size="12">{_e(name)}</text>'
        )
        parts.append(
            f'<line x1="{left}" y1="{y + row_height}" x2="{width - 20}" y2="{y + row_height}"'
            ' stroke="#eee"/>'
        )
    for bar in bars:
        row = 0 if bar.kind == "model" else rows.index(bar.label)
        colour = MODEL_COLOUR if bar.kind == "model" else COLOURS.get(bar.status, "#72b7b2")
        x, w = left + bar.start_ms * scale, max(bar.duration_ms * scale, 2)
        y = top + row * row_height + 4
        tip = f"第 {bar.step} 步 {bar.label} {bar.duration_ms:.1f} ms {bar.status}"
        parts.append(
            f'<rect x="{x:.1f}" y="{y}" width="{w:.1f}" height="{row_height - 8}" fill="{colour}"'
            f' stroke="#333" stroke-width="0.5"><title>{_e(tip)}</title></rect>'
        )
        if bar.status == "error":
            parts.append(
                f'<text x="{x + w + 2:.1f}" y="{y + 13}" fill="#b00020" font-size="14"'
                ' font-weight="bold">✕</text>'
            )
    origin = run.started_at()
    for retry in run.of("retry"):
        x = left + (parse_ts(retry["ts"]) - origin) * 1000 * scale
        parts.append(
            f'<text x="{x:.1f}" y="{top + 2}" text-anchor="middle" fill="{RETRY_COLOUR}"'
            ' font-size="11">▼</text>'
        )
    axis_bottom = top + row_height * len(rows) + 30
    end = run.end
    if end is not None:
        x = left + total * scale
        parts.append(
            f'<line x1="{x:.1f}" y1="{top}" x2="{x:.1f}" y2="{axis_bottom - 24}" stroke="#333"'
            ' stroke-dasharray="4 3"/>'
        )
        parts.append(
            f'<text x="{x:.1f}" y="{axis_bottom - 10}" text-anchor="end"'
            f' font-size="12">{_e(end.get("stop_reason"))} · {total:.0f} ms</text>'
        )
    for index, key in enumerate(keys):  # the legend: every colour and mark used above
        colour, label = LEGEND[key]
        y = axis_bottom + 6 + index * 20
        if key in ("retry", "end"):
            mark = "▼" if key == "retry" else "┆"
            parts.append(
                f'<text x="{left}" y="{y + 11}" fill="{colour}" font-size="12">{mark}</text>'
            )
            label = label.lstrip("▼ ").replace("虚线：", "虚线：")
        else:
            parts.append(
                f'<rect x="{left}" y="{y}" width="14" height="12" fill="{colour}" stroke="#333"'
                ' stroke-width="0.5"/>'
            )
        parts.append(f'<text x="{left + 20}" y="{y + 11}" font-size="12">{_e(label)}</text>')
    parts.append("</svg>")
    return "".join(parts)


def run_html(run: TraceRun) -> str:
    rows = run_rows(run, width=120)
    table = "<table><tr>" + "".join(f"<th>{_e(c)}</th>" for c in COLUMNS) + "</tr>"
    table += (
        "".join(
            "<tr>" + "".join(f"<td>{_e(row[c])}</td>" for c in COLUMNS) + "</tr>" for row in rows
        )
        + "</table>"
    )
    findings = diagnose(run)
    found = (
        "<ul>"
        + "".join(
            f'<li class="{_e(f.severity)}">第 {f.step} 步 ·'
            f" <b>{_e(f.title)}</b>：{_e(f.detail)}<br>→ {_e(f.advice)}</li>"
            for f in findings
        )
        + "</ul>"
        if findings
        else "<p>没有发现问题。</p>"
    )
    lines = "".join(
        f"<details><summary>{_e(line.get('seq'))} · {_e(line.get('event'))} · 第"
        f" {_e(line.get('step'))} 步</summary>"
        f"<pre>{_e(json.dumps(line, ensure_ascii=False, indent=2, default=str))}</pre></details>"
        for line in run.lines
    )
    end = run.end or {}
    unit = CURRENCY_ZH.get(str(end.get("cost_currency")), end.get("cost_currency") or "")
    cost = "未知" if end.get("cost") is None else f"{end.get('cost')} {unit}"
    meta = (
        f'<p class="meta">运行 {_e(run.request_id)} · 用户'
        f" {_e(run.user_id if run.user_id is not None else '未记录')} · 以"
        f" {_e(end.get('stop_reason'))} 结束 · tokens 入/出"
        f" {_e(end.get('input_tokens'))}/{_e(end.get('output_tokens'))} · 费用 {_e(cost)}</p>"
    )
    return (
        "<h2>运行"
        f" {_e(run.request_id)}</h2>{meta}<h3>时间线</h3>{svg_timeline(run)}<h3>步骤</h3>{table}"
        f"<h3>诊断</h3>{found}<h3>每一行</h3>{lines}"
    )


def to_html(source: Any, title: str = "Agent 运行记录") -> str:
    """The whole page for every run in ``source`` (a path, a ``Trace``, a ``TraceRun``, or
    lines).
    """
    trace = read_trace(source)
    body = "".join(run_html(run) for run in trace.runs) or "<p>trace 里没有运行。</p>"
    return (
        '<!DOCTYPE html>\n<html lang="zh-CN"><head><meta'
        f' charset="utf-8"><title>{_e(title)}</title><style>{STYLE}</style></head>'
        f"<body><h1>{_e(title)}</h1><p class='meta'>{len(trace.runs)} 次运行，{len(trace.lines)}"
        f" 行。</p>{body}</body></html>\n"
    )


def write_html(source: Any, path: str, title: str = "Agent 运行记录") -> str:
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(to_html(source, title))
    return path


__all__ = ["STYLE", "run_html", "svg_timeline", "to_html", "write_html"]
