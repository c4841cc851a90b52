"""A run as a table of steps: one row per model call, tool call, gate decision and ending.

``steps_table(trace)`` gives the rows as dicts (for a notebook, a DataFrame, or your own view);
``format_steps(trace)`` lays them out for a terminal, counting a Chinese character as two columns
(``python -m handwritten_agent trace show FILE`` prints it).

Left out: colours, paging, and wrapping long cells (they are shortened instead).
"""

from __future__ import annotations

from typing import Any

from ..permissions.audit import DECISIONS_ZH
from ..run import ending_zh
from ..text import shorten, text_table
from .reading import TraceRun, read_trace

COLUMNS = ("步", "类型", "内容", "耗时 ms", "tokens 入/出", "状态")


STATUS_ZH = {
    "success": "成功",
    "error": "失败",
    "cached": "缓存命中",
    "repeated": "重复调用",
    "refused": "未执行",
    "paused": "等待确认",
    "stopped": "提前停止",
}
"""The status words of tool results and run ends, in Chinese (a value not listed is shown as it is
written).
"""

FINISH_ZH = {
    "tool_calls": "要调工具",
    "stop": "说完了",
    "length": "被截断",
    "content_filter": "被过滤",
    "refusal": "拒绝回答",
}
"""A model call's ``finish_reason`` in Chinese; the table shows both, e.g.
``要调工具（tool_calls）`` (the English is what a learner matches against the API)."""


def _finish(value: Any) -> str:
    if not value:
        return ""
    words = FINISH_ZH.get(str(value))
    return f"{words}（{value}）" if words else str(value)


KIND_NAMES = {
    "permission": "权限",
    "cache": "缓存",
    "truncate": "截断",
    "fallback": "换模型",
    "budget": "预算",
    "answer_reviewed": "退回回答",
}
"""Chinese names for event kinds that hooks report (anything else is shown as it is written)."""


def _tokens(line: dict[str, Any]) -> str:
    def one(value: Any) -> str:
        return "null" if value is None else str(value)

    return f"{one(line.get('input_tokens'))}/{one(line.get('output_tokens'))}"


def _ms(value: Any) -> str:
    return f"{value:g}" if isinstance(value, (int, float)) else ""


def run_rows(run: TraceRun, width: int = 60, *, timings: bool = True) -> list[dict[str, str]]:
    """The rows of one run, in the order things happened (``timings=False`` leaves the 耗时 column
    empty).
    """
    rows: list[dict[str, str]] = []
    calls: dict[Any, list[dict[str, Any]]] = {}  # by id, in order: some servers reuse an id
    for line in run.tool_calls:
        calls.setdefault(line.get("gen_ai.tool.call.id"), []).append(line)
    for line in run.lines:
        event, step = line.get("event"), str(line.get("step", ""))
        if event == "model_call":
            asked = "、".join(line.get("tool_calls") or [])
            what = f"{line.get('model')} → " + (f"调用 {asked}" if asked else "给出回答")
            rows.append(
                {
                    "步": step,
                    "类型": "模型",
                    "内容": shorten(what, width),
                    "耗时 ms": _ms(line.get("duration_ms")),
                    "tokens 入/出": _tokens(line),
                    "状态": _finish(line.get("finish_reason")),
                }
            )
        elif event == "tool_result":
            waiting = calls.get(line.get("gen_ai.tool.call.id")) or [{}]
            call = waiting.pop(0) if len(waiting) > 1 else waiting[0]
            arguments = call.get("gen_ai.tool.call.arguments", "")
            what = f"{line.get('tool')}({shorten(arguments, 30)}) → {line.get('output_summary')}"
            rows.append(
                {
                    "步": step,
                    "类型": "工具",
                    "内容": shorten(what, width),
                    "耗时 ms": _ms(line.get("tool_duration_ms")),
                    "tokens 入/出": "",
                    "状态": _status(line.get("status")),
                }
            )
        elif event == "needs_confirmation":
            request = line.get("request") or {}
            rows.append(
                {
                    "步": step,
                    "类型": "待确认",
                    "内容": shorten(request.get("summary") or line.get("tool"), width),
                    "耗时 ms": "",
                    "tokens 入/出": "",
                    "状态": STATUS_ZH["paused"],
                }
            )
        elif event == "retry":
            rows.append(
                {
                    "步": step,
                    "类型": "重试",
                    "内容": shorten(
                        f"HTTP {line.get('http.response.status_code')}，等待"
                        f" {line.get('wait_s')} 秒",
                        width,
                    ),
                    "耗时 ms": "",
                    "tokens 入/出": "",
                    "状态": str(line.get("error.type")),
                }
            )
        elif event == "memory":
            rows.append(
                {
                    "步": step,
                    "类型": "记忆",
                    "内容": (
                        f"{line.get('messages_before')} 条 → {line.get('messages_after')} 条消息"
                    ),
                    "耗时 ms": "",
                    "tokens 入/出": f"{line.get('tokens_before')}→{line.get('tokens_after')}",
                    "状态": "",
                }
            )
        elif event == "run_end":
            detail = line.get("answer") or line.get("error") or ""
            rows.append(
                {
                    "步": step,
                    "类型": "结束",
                    "内容": shorten(
                        ending_zh(line.get("stop_reason")) + (f"：{detail}" if detail else ""),
                        width,
                    ),
                    "耗时 ms": _ms(line.get("duration_ms")),
                    "tokens 入/出": _tokens(line),
                    "状态": _status(line.get("status")),
                }
            )
        elif event not in ("run_start", "tool_call", "final"):  # a gate's own kinds: permission, …
            decision = line.get("decision")
            said = DECISIONS_ZH.get(str(decision), str(decision)) if decision is not None else ""
            more = "：".join(
                str(line[k])
                for k in (("reason",) if line.get("reason") else ("level",)) + ("rule",)
                if line.get(k)
            )
            text = f"{line.get('tool') or ''}：{said}" + (
                f"（{more}）" if more and more != said else ""
            )
            rows.append(
                {
                    "步": step,
                    "类型": KIND_NAMES.get(str(event), str(event)),
                    "内容": shorten(text, width),
                    "耗时 ms": "",
                    "tokens 入/出": "",
                    "状态": said or _status(line.get("status")),
                }
            )
    if not timings:
        for row in rows:
            row["耗时 ms"] = ""
    return rows


def _status(value: Any) -> str:
    return STATUS_ZH.get(str(value), "" if value is None else str(value))


def steps_table(source: Any, width: int = 60) -> list[dict[str, str]]:
    """Rows for every run in ``source`` (a path, ``Trace``, ``TraceRun`` or lines), each with its
    ``request_id``.
    """
    return [
        {"request_id": run.request_id, **row}
        for run in read_trace(source).runs
        for row in run_rows(run, width)
    ]


def format_steps(source: Any, width: int = 60, *, timings: bool = True) -> str:
    """Every run as an aligned text table, with a heading line per run (``timings=False``: without
    the 耗时 column).
    """
    blocks = []
    columns = COLUMNS if timings else tuple(c for c in COLUMNS if c != "耗时 ms")
    for run in read_trace(source).runs:
        rows = run_rows(run, width, timings=timings)
        user = run.user_id if run.user_id is not None else "未记录"
        table = text_table(columns, [[row[c] for c in columns] for row in rows])
        blocks.append(f"运行 {run.request_id}（用户 {user}）\n{table}")
    return "\n\n".join(blocks) if blocks else "（trace 里没有运行）"


__all__ = ["COLUMNS", "FINISH_ZH", "STATUS_ZH", "format_steps", "run_rows", "steps_table"]
