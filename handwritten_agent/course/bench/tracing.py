"""The tracer's overhead per step: the same scripted run with and without a ``Tracer`` among its
hooks.

A run of ``STEPS`` tool steps and a final answer, answered by a ``ScriptedClient`` (no network, no
model), so what is left is the loop, the tool and, on our side, the tracer: building each line,
redacting it and one ``os.write`` per line to a file in a temporary folder. The floor is the same
run with no hooks. Two of our figures: the default tracer (no full messages) and one with
``record_messages=True`` (every model input written and redacted, which grows with the
conversation). The two sides alternate run by run, so a noisy neighbour slows both alike.

Left out: ``fsync=True`` (it measures the disk, not the tracer) and the OpenTelemetry export.
"""

from __future__ import annotations

import tempfile
import time
from datetime import datetime
from pathlib import Path

from .registry import Context, Figure, Stats, benchmark

STEPS = 6
FLOOR_IS = "the same scripted run with no hooks"


def _run_once(tracer, registry) -> float:
    from ...agent import Agent
    from ...scripted import ScriptedClient, call, calls, reply

    script = [
        calls(call("calculator", {"expression": f"{n} * 7"}, id=f"c{n}")) for n in range(STEPS)
    ] + [reply("完成")]
    start = time.perf_counter()
    Agent(
        ScriptedClient(script), registry, max_steps=STEPS + 1, hooks=[tracer] if tracer else []
    ).run("把 0 到 5 各乘以 7")
    return (time.perf_counter() - start) * 1000 / (STEPS + 1)


@benchmark(
    "tracer", title="Tracer overhead per step (JSONL line, redaction, one write per line)", order=20
)
def tracer_overhead(ctx: Context) -> list[Figure]:
    from ...scenarios import basic_registry
    from ...tracing import Redactor, Tracer

    registry = basic_registry(datetime(2026, 3, 12, 14, 30))
    runs = max(10, ctx.n // 2)
    samples: dict[str, list[float]] = {"floor": [], "default": [], "messages": []}
    with tempfile.TemporaryDirectory() as folder:
        redactor = Redactor()
        tracers = {
            "default": Tracer(Path(folder) / "a.jsonl", redactor=redactor),
            "messages": Tracer(Path(folder) / "b.jsonl", redactor=redactor, record_messages=True),
        }
        for _ in range(3):  # warm up imports and caches
            _run_once(None, registry)
            for tracer in tracers.values():
                _run_once(tracer, registry)
        bar = ctx.progress(runs, "tracer")
        for _ in range(runs):
            samples["floor"].append(_run_once(None, registry))
            for name, tracer in tracers.items():
                samples[name].append(_run_once(tracer, registry))
            bar.update(1)
        bar.close()
        for tracer in tracers.values():
            tracer.close()
    floor = Stats.of(samples["floor"])
    return [
        Figure(
            "tracer",
            f"one step of a {STEPS + 1}-step scripted run, Tracer to a file (default fields)",
            "ms",
            Stats.of(samples["default"]),
            floor,
            FLOOR_IS,
            note=f"{runs} runs per side",
        ),
        Figure(
            "tracer",
            f"one step of a {STEPS + 1}-step scripted run, Tracer(record_messages=True)",
            "ms",
            Stats.of(samples["messages"]),
            floor,
            FLOOR_IS,
            note="full messages written and redacted on every model call",
        ),
    ]
