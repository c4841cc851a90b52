"""Lines → intervals: when each model call and tool call of a run started and ended, in ms from the
run's start.

The timeline picture, the HTML page and the OpenTelemetry export all need the same thing: a list of
intervals with a kind, a label and how they ended. A ``model_call`` line is written when the call
returns, with its ``duration_ms``; a tool's interval runs from its ``tool_call`` line to its
``tool_result`` line.

Left out: nesting (a run's intervals are flat: model, tool, tool, model …).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .reading import TraceRun, parse_ts


@dataclass(frozen=True)
class Interval:
    kind: str  # "model" or "tool"
    label: str  # the model name, or the tool name
    step: int
    start_ms: float  # from the run's first line
    end_ms: float
    status: str  # success / error / repeated / cached / refused / paused / stop reasons
    line: dict[str, Any]
    call: dict[str, Any] | None = None

    @property
    def duration_ms(self) -> float:
        return self.end_ms - self.start_ms


def intervals(run: TraceRun) -> list[Interval]:
    """The model and tool intervals of a run, step by step: the model call first, then its tools in
    call order.
    """
    if not run.lines:
        return []
    origin = run.started_at()
    found: list[Interval] = []
    pending: dict[Any, list[dict[str, Any]]] = {}
    for line in run.lines:
        at = (parse_ts(line["ts"]) - origin) * 1000
        event = line.get("event")
        if event == "model_call":
            duration = float(line.get("duration_ms") or 0.0)
            status = (
                "success"
                if (line.get("tool_calls") or (line.get("finish_reason") not in (None, "length")))
                else "error"
            )
            found.append(
                Interval(
                    "model",
                    str(line.get("model") or "model"),
                    int(line.get("step", 0)),
                    max(0.0, at - duration),
                    at,
                    status,
                    line,
                )
            )
        elif event == "tool_call":
            pending.setdefault(line.get("gen_ai.tool.call.id"), []).append({**line, "_at": at})
        elif event in ("tool_result", "needs_confirmation"):
            waiting = pending.get(line.get("gen_ai.tool.call.id")) or []
            call = waiting.pop(0) if waiting else None
            start = call["_at"] if call else at - float(line.get("tool_duration_ms") or 0.0)
            status = "paused" if event == "needs_confirmation" else str(line.get("status"))
            found.append(
                Interval(
                    "tool",
                    str(line.get("tool")),
                    int(line.get("step", 0)),
                    start,
                    max(at, start),
                    status,
                    line,
                    {k: v for k, v in (call or {}).items() if k != "_at"},
                )
            )
    # in the order things happened: a step's model call, then its tools in call order (timestamps of
    # calls that take no measurable time can tie or even cross by rounding)
    return sorted(
        found,
        key=lambda item: (
            item.step,
            item.kind != "model",
            item.call.get("seq", 0) if item.call else item.line.get("seq", 0),
        ),
    )


def run_span_ms(run: TraceRun) -> float:
    if not run.lines:
        return 0.0
    times = [parse_ts(line["ts"]) for line in run.lines]
    return (max(times) - min(times)) * 1000


__all__ = ["Interval", "intervals", "run_span_ms"]
