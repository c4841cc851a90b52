"""The benchmark command works: it measures with a tiny N, prints the table and writes valid JSON.

The figures themselves are not checked against thresholds (timings are noisy; `make bench` is for
that), only that each one was measured on both sides, the right number of times.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from handwritten_agent.course.bench import (
    BENCHMARKS,
    Context,
    Figure,
    Stats,
    Unavailable,
    benchmark,
    discover,
    run,
    table,
)
from handwritten_agent.course.bench import local as local_bench
from handwritten_agent.course.bench.notebooks import course_notebooks
from handwritten_agent.course.cli import main


def test_bench_command_measures_both_sides_and_writes_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "results" / "bench.json"
    code = main(["bench", "--only", "roundtrip", "--n", "3", "--json", str(out), "--no-progress"])
    printed = capsys.readouterr().out
    assert code == 0
    data = json.loads(out.read_text(encoding="utf-8"))
    figures = [f for f in data["figures"] if f["benchmark"] == "roundtrip"]
    assert {f["measure"].split(",")[0] for f in figures} == {
        "GET /v1/models",
        "chat completion with 2 tools",
    }
    assert len(figures) == 3
    for figure in figures:
        for side in ("ours", "floor"):
            assert figure[side]["n"] == 3
            assert 0 < figure[side]["median"] <= figure[side]["p95"]
        assert figure["unit"] == "ms"
    assert data["machine"]["python"] and data["machine"]["cpus_usable"] >= 1
    assert data["settings"]["n"] == 3 and data["skipped"] == {}
    assert "| chat completion with 2 tools, SDK, non-streaming |" in printed
    assert f"written: {out}" in printed


def test_unknown_benchmark_name_is_an_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(
        ["bench", "--only", "no_such_bench", "--json", str(tmp_path / "x.json"), "--no-progress"]
    )
    assert code == 2
    assert "roundtrip" in capsys.readouterr().err  # the message lists the real names
    assert not (tmp_path / "x.json").exists()


def test_every_benchmark_module_is_discovered() -> None:
    names = [b.name for b in discover()]
    assert {"roundtrip", "local", "nbval", "service"} <= set(names)
    assert names.index("roundtrip") < names.index("nbval")  # whole notebooks run last


def test_an_unavailable_benchmark_is_reported_as_skipped_with_its_reason() -> None:
    @benchmark("test_unavailable", title="needs something absent")
    def needs_gpu(ctx: Context) -> list[Figure]:
        raise Unavailable("no GPU here: install one")

    try:
        report = run(Context(n=1), only=["test_unavailable"])
    finally:
        del BENCHMARKS["test_unavailable"]
    assert report.figures == []
    assert report.skipped == {"test_unavailable": "no GPU here: install one"}
    assert "**test_unavailable**: skipped: no GPU here: install one" in table(report)


def test_local_benchmark_says_how_to_install_when_llama_cpp_is_missing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(local_bench.importlib.util, "find_spec", lambda name, *a: None)
    report = run(Context(n=1), only=["local"])
    assert "make local" in report.skipped["local"] and report.figures == []


def test_two_benchmarks_cannot_share_a_name() -> None:
    discover()
    with pytest.raises(ValueError, match="roundtrip"):
        benchmark("roundtrip", title="again")(lambda ctx: [])


def test_stats_are_median_and_nearest_rank_p95() -> None:
    stats = Stats.of(float(v) for v in range(100, 0, -1))
    assert (stats.n, stats.median, stats.p95) == (100, 50.5, 95.0)
    assert Stats.of([7.0]) == Stats(n=1, median=7.0, p95=7.0)
    assert Stats.of([1.0, 2.0, 30.0]).p95 == 30.0
    with pytest.raises(ValueError):
        Stats.of([])


def test_course_notebooks_are_notebooks_then_solutions(tmp_path: Path) -> None:
    for name in (
        "solutions/day1_solutions.ipynb",
        "notebooks/day2.ipynb",
        "notebooks/day1.ipynb",
        "exercises/day1.ipynb",
    ):
        (tmp_path / name).parent.mkdir(exist_ok=True)
        (tmp_path / name).write_text("{}")
    assert [p.relative_to(tmp_path).as_posix() for p in course_notebooks(tmp_path)] == [
        "notebooks/day1.ipynb",
        "notebooks/day2.ipynb",
        "solutions/day1_solutions.ipynb",
    ]


class _FakeLlama:
    """Streams a reply the way llama-cpp-python's create_chat_completion(stream=True) does."""

    def __init__(self, pieces: list[str], finish: str):
        self.pieces, self.finish = pieces, finish

    def create_chat_completion(self, **kwargs: object):
        yield {"choices": [{"delta": {"role": "assistant"}, "finish_reason": None}]}
        for piece in self.pieces:
            yield {"choices": [{"delta": {"content": piece}, "finish_reason": None}]}
        yield {"choices": [{"delta": {}, "finish_reason": self.finish}]}

    def tokenize(self, data: bytes, **kwargs: object) -> list[int]:
        return list(range(len(data.decode().split())))  # one token per word, enough to count


def test_direct_llama_call_counts_every_token_not_only_the_first() -> None:
    ttft, total, tokens = local_bench._direct(_FakeLlama(["one ", "two ", "three"], "stop"), [])
    assert tokens == 3 and 0 <= ttft <= total
    _, _, tokens = local_bench._direct(_FakeLlama(["x "] * 5, "length"), [])
    assert tokens == local_bench.MAX_TOKENS  # cut by max_tokens: exactly that many were generated


def test_service_benchmark_runs_both_sides_to_the_end(tmp_path: Path) -> None:
    out = tmp_path / "bench.json"
    assert (
        main(["bench", "--only", "service", "--n", "3", "--json", str(out), "--no-progress"]) == 0
    )
    figures = json.loads(out.read_text(encoding="utf-8"))["figures"]
    from handwritten_agent.course import postgres

    # SQLite always; PostgreSQL with one replica and with two where its server is installed
    services = 1 if postgres.missing() else 3
    assert [f["benchmark"] for f in figures] == ["service", "service"] * services
    assert "SQLite" in figures[0]["measure"]
    if services == 3:
        assert "2 replicas" in figures[4]["measure"]
    for figure in figures[::2]:  # each service: both sides ran every run, five rounds of three
        assert figure["ours"]["n"] == figure["floor"]["n"] == 15 and "ratio p50" in figure["note"]
        assert "per round p50 ratio median" in figure["note"]
        if Path("/proc/self/stat").exists():  # both sides' CPU time is readable here
            said = re.search(r"CPU per round: service ([\d.]+) s, floor ([\d.]+) s", figure["note"])
            assert said and float(said.group(1)) > 0 and float(said.group(2)) > 0, figure["note"]
