"""Run the registered benchmarks in order, one after another, and collect a ``Report``.

A benchmark that raises ``Unavailable`` is listed as skipped with its reason; any other exception is
a failure of the run (a benchmark that cannot measure must not print a table as if it had). Left
out: running benchmarks in parallel (they would measure each other).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path

from .registry import Context, Unavailable, discover
from .report import Report, machine


def find_root(start: Path | None = None) -> Path | None:
    """The course folder: ``start`` (default: the current folder) or the folder this package was
    installed from.
    """
    candidates = [start or Path.cwd(), Path(__file__).resolve().parents[3]]
    return next((path for path in candidates if (path / "notebooks").is_dir()), None)


def run(ctx: Context, only: Sequence[str] = ()) -> Report:
    benchmarks = discover()
    known = {b.name for b in benchmarks}
    unknown = [name for name in only if name not in known]
    if unknown:
        raise ValueError(
            f"unknown benchmark {', '.join(unknown)}; there are: {', '.join(sorted(known))}"
        )
    chosen = [b for b in benchmarks if not only or b.name in only]
    report = Report(
        started=datetime.now().astimezone().isoformat(timespec="seconds"),
        machine=machine(),
        settings={"n": ctx.n, "runs": ctx.runs, "prompts": ctx.prompts, "only": list(only)},
    )
    for bench in chosen:
        report.titles[bench.name] = bench.title
        start = time.perf_counter()
        try:
            report.figures += bench.run(ctx)
        except Unavailable as why:
            report.skipped[bench.name] = str(why)
        report.seconds[bench.name] = round(time.perf_counter() - start, 1)
    return report
