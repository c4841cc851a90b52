"""A benchmark run as data, as Markdown tables (one per benchmark) and as a JSON file.

Left out: plots, and comparing two runs (load two JSON files for that).
"""

from __future__ import annotations

import json
import os
import platform
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from typing import Any

from .registry import Figure, Stats

PACKAGES = ("openai", "httpx", "fastapi", "uvicorn", "starlette", "nbval", "llama_cpp_python")


@dataclass
class Report:
    started: str  # ISO time the run started
    machine: dict[str, Any]
    settings: dict[str, Any]  # n, runs, prompts, selection
    titles: dict[str, str] = field(default_factory=dict)
    figures: list[Figure] = field(default_factory=list)
    skipped: dict[str, str] = field(default_factory=dict)  # benchmark -> why it did not run
    seconds: dict[str, float] = field(
        default_factory=dict
    )  # benchmark -> wall time of the benchmark itself

    def as_dict(self) -> dict[str, Any]:
        return {
            "started": self.started,
            "machine": self.machine,
            "settings": self.settings,
            "titles": self.titles,
            "figures": [figure.as_dict() for figure in self.figures],
            "skipped": self.skipped,
            "seconds": self.seconds,
        }

    def write_json(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(
            json.dumps(self.as_dict(), ensure_ascii=False, indent=2) + "\n", encoding="utf-8"
        )


def _cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def _memory_gib() -> float | None:
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal:"):
                return round(int(line.split()[1]) / 1024 / 1024, 1)
    except (OSError, ValueError, IndexError):
        pass
    return None


def machine() -> dict[str, Any]:
    """What the figures depend on: CPU, how many of its cores this process may use, memory, OS,
    versions.
    """
    try:
        usable = len(os.sched_getaffinity(0))
    except AttributeError:  # macOS and Windows
        usable = os.cpu_count()
    versions = {}
    for name in PACKAGES:
        try:
            versions[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            continue
    try:
        load = round(
            os.getloadavg()[0], 1
        )  # other programs' work slows both sides; worth knowing when reading
    except (AttributeError, OSError):
        load = None
    return {
        "cpu": _cpu_model(),
        "cpus": os.cpu_count(),
        "cpus_usable": usable,
        "memory_gib": _memory_gib(),
        "os": platform.platform(terse=True),
        "python": platform.python_version(),
        "load_1min": load,
        "packages": versions,
    }


def machine_line(info: dict[str, Any]) -> str:
    memory = f", {info['memory_gib']} GiB" if info.get("memory_gib") else ""
    load = f", load {info['load_1min']} at the start" if info.get("load_1min") is not None else ""
    return (
        f"{info['cpu']}, {info['cpus_usable']} of {info['cpus']} CPUs usable{memory}, {info['os']},"
        f" Python {info['python']}{load}"
    )


def _number(value: float, unit: str) -> str:
    if unit == "ms":
        text = f"{value:.2f}" if value < 10 else f"{value:.1f}" if value < 100 else f"{value:.0f}"
    else:
        text = f"{value:.1f}" if value < 100 else f"{value:.0f}"
    return f"{text} {unit}"


def _cells(stats: Stats | None, unit: str) -> tuple[str, str]:
    if stats is None:
        return "—", "—"
    return _number(stats.median, unit), (_number(stats.p95, unit) if stats.n > 1 else "—")


def _versus(figure: Figure) -> str:
    """What ours adds to the floor (a time), or how many times the floor it reaches (a rate)."""
    if figure.floor is None:
        return "—"
    if figure.higher_is_better:
        return (
            f"{figure.ours.median / figure.floor.median:.2f}×" if figure.floor.median > 0 else "—"
        )
    difference = figure.ours.median - figure.floor.median
    return ("+" if difference >= 0 else "−") + _number(abs(difference), figure.unit)


def table(report: Report) -> str:
    """Markdown: one table per benchmark that ran, then a line per benchmark that did not."""
    blocks = []
    by_benchmark: dict[str, list[Figure]] = {}
    for figure in report.figures:
        by_benchmark.setdefault(figure.benchmark, []).append(figure)
    for name, figures in by_benchmark.items():
        # the floor most rows share is said once above the table; a row with another floor says it
        # in its note
        floors = [figure.floor_is for figure in figures]
        shared = max(set(floors), key=floors.count)
        lines = [f"**{name}**: {report.titles.get(name, '')} ({report.seconds.get(name, 0):.0f} s)"]
        lines.append(f"floor: {shared}")
        notes = {figure.note for figure in figures}
        common_note = notes.pop() if len(notes) == 1 else ""
        if common_note:
            lines.append(common_note)
        lines = ["  \n".join(lines)]  # Markdown hard line breaks
        lines += [
            "",
            "| measure | ours p50 | ours p95 | floor p50 | floor p95 | vs floor (p50) | note |",
            "|---|---:|---:|---:|---:|---:|---|",
        ]
        for figure in figures:
            ours, floor = _cells(figure.ours, figure.unit), _cells(figure.floor, figure.unit)
            note = "" if common_note else figure.note
            if figure.floor_is != shared:
                note = f"floor: {figure.floor_is}; {note}" if note else f"floor: {figure.floor_is}"
            if figure.higher_is_better:
                note = f"higher is better; {note}" if note else "higher is better"
            lines.append(
                f"| {figure.measure} | {ours[0]} | {ours[1]} | {floor[0]} | {floor[1]} |"
                f" {_versus(figure)} | {note} |"
            )
        blocks.append("\n".join(lines))
    for name, reason in report.skipped.items():
        blocks.append(f"**{name}**: skipped: {reason}")
    header = f"Machine: {machine_line(report.machine)} · run {report.started}"
    return "\n\n".join([header, *blocks])
