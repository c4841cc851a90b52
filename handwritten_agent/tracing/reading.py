"""Reading a trace back: lines from a JSONL file, grouped into runs, with the questions a reader
asks of a run.

A trace is what ``Tracer`` wrote: one JSON object per line, each with ``event``, ``request_id`` (the
run) and ``step``. ``read_trace`` accepts a path, an open file, or lines already in memory. A last
line cut short by a crash is skipped with a ``TraceWarning``; a damaged line in the middle is
skipped the same way (the rest of the file is still worth reading).

Left out: indexes for large files (a trace is read whole), and merging traces of several processes
by time (their lines are simply read in file order).
"""

from __future__ import annotations

import json
import os
import warnings
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any


class TraceWarning(UserWarning):
    """A line of a trace file could not be read (cut short by a crash, or damaged)."""


def parse_ts(value: Any) -> float:
    """A line's ``ts`` (ISO 8601 with offset, or epoch seconds) as epoch seconds."""
    if isinstance(value, (int, float)):
        return float(value)
    return datetime.fromisoformat(str(value)).timestamp()


def iter_lines(
    source: str | os.PathLike[str] | Iterable[str] | Iterable[dict[str, Any]],
) -> Iterator[dict[str, Any]]:
    """The records of a trace, in file order; unreadable lines are skipped with a
    ``TraceWarning``.
    """
    if isinstance(source, (str, os.PathLike)):
        path = Path(source)
        with path.open(encoding="utf-8", errors="replace") as handle:
            yield from _records(handle, str(path))
        return
    yield from _records(source, "<lines>")


def _records(lines: Iterable[Any], where: str) -> Iterator[dict[str, Any]]:
    pending: tuple[int, str] | None = None
    for number, raw in enumerate(lines, start=1):
        if isinstance(raw, dict):
            yield raw
            continue
        if pending is not None:  # the bad line was not the last one: damaged in the middle
            warnings.warn(
                f"{where} 第 {pending[0]} 行不是完整的 JSON，已跳过：{pending[1][:80]!r}",
                TraceWarning,
                stacklevel=3,
            )
            pending = None
        text = raw.strip()
        if not text:
            continue
        try:
            record = json.loads(text)
        except json.JSONDecodeError:
            pending = (number, text)
            continue
        if isinstance(record, dict):
            yield record
    if pending is not None:
        warnings.warn(
            f"{where} 最后一行（第 {pending[0]} 行）不完整，已跳过：写入时进程可能被中断了。前面的"
            f" {pending[0] - 1} 行完好。",
            TraceWarning,
            stacklevel=3,
        )


@dataclass
class TraceRun:
    """The lines of one run (one ``request_id``), in the order they were written — a resumed run
    included.
    """

    request_id: str
    lines: list[dict[str, Any]] = field(default_factory=list)

    def of(self, *events: str) -> list[dict[str, Any]]:
        return [line for line in self.lines if line.get("event") in events]

    @property
    def start(self) -> dict[str, Any] | None:
        return next(iter(self.of("run_start")), None)

    @property
    def end(self) -> dict[str, Any] | None:
        """The last ``run_end`` line (a paused run that was resumed has two: the pause and the real
        end).
        """
        ends = self.of("run_end")
        return ends[-1] if ends else None

    @property
    def ends(self) -> list[dict[str, Any]]:
        return self.of("run_end")

    @property
    def stop_reason(self) -> str | None:
        return self.end.get("stop_reason") if self.end else None

    @property
    def model_calls(self) -> list[dict[str, Any]]:
        return self.of("model_call")

    @property
    def tool_calls(self) -> list[dict[str, Any]]:
        return self.of("tool_call")

    @property
    def tool_results(self) -> list[dict[str, Any]]:
        return self.of("tool_result")

    @property
    def answer(self) -> str | None:
        final = self.of("final")
        return final[-1].get("answer") if final else None

    @property
    def user_id(self) -> Any:
        return self.lines[0].get("user_id") if self.lines else None

    def started_at(self) -> float:
        return min(parse_ts(line["ts"]) for line in self.lines) if self.lines else 0.0


@dataclass
class Trace:
    """Every line of a trace file, and the same lines grouped by run."""

    lines: list[dict[str, Any]]
    runs: list[TraceRun]

    def run(self, request_id: str | None = None) -> TraceRun:
        """The run with this ``request_id``, or the only/last run when none is named."""
        if not self.runs:
            raise ValueError(
                "这个 trace 里没有任何运行（没有带 request_id 的行）。请确认 Tracer 已经作为"
                " Agent(on_event=...) 传入。"
            )
        if request_id is None:
            return self.runs[-1]
        for run in self.runs:
            if run.request_id == request_id:
                return run
        raise ValueError(
            f"trace 里没有 request_id={request_id!r}"
            f" 的运行；有的是：{', '.join(r.request_id for r in self.runs)}。"
        )

    def __iter__(self) -> Iterator[TraceRun]:
        return iter(self.runs)

    def __len__(self) -> int:
        return len(self.runs)


def group_runs(lines: Iterable[dict[str, Any]]) -> list[TraceRun]:
    runs: dict[str, TraceRun] = {}
    for line in lines:
        request_id = line.get("request_id")
        if request_id is None:
            continue
        runs.setdefault(str(request_id), TraceRun(str(request_id))).lines.append(line)
    return list(runs.values())


def read_trace(
    source: str | os.PathLike[str] | Iterable[str] | Iterable[dict[str, Any]] | Trace,
) -> Trace:
    """A trace from a path, an open file, lines of text, or records already in memory."""
    if isinstance(source, Trace):
        return source
    if isinstance(source, TraceRun):
        return Trace(list(source.lines), [source])
    lines = list(iter_lines(source))
    return Trace(lines, group_runs(lines))


def as_run(source: Any, request_id: str | None = None) -> TraceRun:
    """A ``TraceRun`` from whatever names one: a run, a trace, a path, or lines."""
    if isinstance(source, TraceRun):
        return source
    return read_trace(source).run(request_id)


__all__ = [
    "Trace",
    "TraceRun",
    "TraceWarning",
    "as_run",
    "group_runs",
    "iter_lines",
    "parse_ts",
    "read_trace",
]
