"""The two memory benchmarks run and measure both sides (their figures are not checked: timings are
noisy).
"""

from __future__ import annotations

from handwritten_agent.course.bench import Context, discover, run


def test_memory_benchmarks_are_registered_and_measure_both_sides():
    assert {"memory_trim", "memory_recall"} <= {b.name for b in discover()}
    report = run(Context(n=1, show_progress=False), only=["memory_trim", "memory_recall"])
    figures = [f for f in report.figures if f.benchmark.startswith("memory_")]
    assert len(figures) == 3
    for figure in figures:
        assert figure.ours.n == 5 and figure.floor is not None and figure.ours.median > 0
    recall = [f for f in figures if f.benchmark == "memory_recall"]
    assert "10000 memories searched" in recall[0].note and "100 memories searched" in recall[1].note
