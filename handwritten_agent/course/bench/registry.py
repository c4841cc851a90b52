"""The benchmark registry: named functions that each return figures, every figure beside its floor.

A benchmark is a function ``fn(ctx) -> list[Figure]`` registered with ``@benchmark("name", ...)`` in
a module of this package; ``discover()`` imports every such module, so adding a benchmark is adding
one function (in a new module, or an existing one). A benchmark that cannot run here (an extra not
installed, no model file, no notebooks folder) raises ``Unavailable`` with a line that says what is
missing.

A *floor* is the same measurement on the simplest thing that does the same job — a bare FastAPI app
replaying the same bytes, llama-cpp-python called directly, an empty notebook — so a figure reads as
"ours costs this much more than the least it could cost here", not as an absolute number that
depends on the machine.

Left out: statistics beyond median and p95, warm-up heuristics (each benchmark warms up itself), and
comparing against earlier runs (the JSON file is there for that).
"""

from __future__ import annotations

import importlib
import pkgutil
import statistics
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from tqdm.auto import tqdm

# Modules of this package that hold machinery, not benchmarks
_NOT_BENCHMARKS = {"registry", "report", "runner"}


class Unavailable(Exception):
    """Raised by a benchmark that cannot run on this machine; the message says what is missing."""


@dataclass(frozen=True)
class Stats:
    """Median and 95th percentile of ``n`` samples (one sample: both are that sample)."""

    n: int
    median: float
    p95: float

    @classmethod
    def of(cls, samples: Iterable[float]) -> Stats:
        values = sorted(samples)
        if not values:
            raise ValueError("Stats.of needs at least one sample")
        # nearest-rank percentile: the smallest sample with at least 95% of the samples at or below
        # it
        rank = max(1, -(-95 * len(values) // 100))
        return cls(n=len(values), median=statistics.median(values), p95=values[rank - 1])


@dataclass(frozen=True)
class Figure:
    """One measured quantity of ours next to the same quantity measured on its floor, in one run."""

    benchmark: str
    measure: str  # what was measured, e.g. "chat completion with 2 tools, SDK, non-streaming"
    unit: str  # "ms", "s", "tokens/s"
    ours: Stats
    floor: Stats | None  # None only when there is no meaningful floor
    floor_is: str  # what the floor is, e.g. "bare FastAPI+uvicorn app replaying the same bytes"
    higher_is_better: bool = False
    note: str = ""

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class Context:
    """What every benchmark is given: repetitions, the course folder, and a progress-bar factory."""

    n: int = 100  # repetitions of a fast measurement (one HTTP round trip)
    runs: int = 1  # repetitions of a slow one (a whole notebook)
    prompts: int = 5  # fresh prompts per side for a model that generates text
    root: Path | None = None  # the course folder (with notebooks/ and solutions/), if found
    show_progress: bool | None = None  # None: only when stderr is a terminal
    extra: dict[str, Any] = field(default_factory=dict)

    def progress(self, total: int, desc: str) -> tqdm:
        return tqdm(
            total=total, desc=desc, unit="step", leave=False, disable=_disabled(self.show_progress)
        )


def _disabled(show: bool | None) -> bool | None:
    return (
        None if show is None else not show
    )  # tqdm: disable=None hides the bar when not on a terminal


@dataclass(frozen=True)
class Benchmark:
    name: str
    title: str
    run: Callable[[Context], list[Figure]]
    order: int = 50  # lower runs first; slow ones (whole notebooks) go last


BENCHMARKS: dict[str, Benchmark] = {}


def benchmark(
    name: str, *, title: str, order: int = 50
) -> Callable[[Callable[[Context], list[Figure]]], Callable[[Context], list[Figure]]]:
    """Register ``fn(ctx) -> list[Figure]`` under ``name`` (unique)."""

    def register(fn: Callable[[Context], list[Figure]]) -> Callable[[Context], list[Figure]]:
        if name in BENCHMARKS and BENCHMARKS[name].run is not fn:
            raise ValueError(
                f"two benchmarks are named {name!r}: {BENCHMARKS[name].run.__module__} and"
                f" {fn.__module__}"
            )
        BENCHMARKS[name] = Benchmark(name=name, title=title, run=fn, order=order)
        return fn

    return register


def discover() -> list[Benchmark]:
    """Import every benchmark module of this package; the registered benchmarks in running order.

    A module whose subject is not in the package yet (it imports a ``handwritten_agent`` module that
    does not exist) registers nothing and is left out; any other import error is a bug and
    propagates.
    """
    package = importlib.import_module(__package__)
    for info in pkgutil.iter_modules(package.__path__):
        if info.name in _NOT_BENCHMARKS or info.name.startswith("_"):
            continue
        try:
            importlib.import_module(f"{__package__}.{info.name}")
        except ModuleNotFoundError as exc:
            if not (exc.name or "").startswith("handwritten_agent"):
                raise
    return sorted(BENCHMARKS.values(), key=lambda b: (b.order, b.name))
