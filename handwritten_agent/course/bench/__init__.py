"""Benchmarks: each figure measured in one run next to its floor, printed as a table and written as
JSON.

    python -m handwritten_agent bench                  # everything available here (make bench)
    python -m handwritten_agent bench --only roundtrip --n 50 --json out.json

- ``registry``   ``@benchmark``, ``Figure``, ``Stats``, ``Context``, ``Unavailable``, ``discover()``
- ``runner``     runs the chosen benchmarks in order and collects a ``Report``
- ``report``     the machine description, the Markdown tables, the JSON file
- ``roundtrip``  the offline simulator through the SDK vs a bare FastAPI + uvicorn app
- ``local``      the local model through our server vs llama-cpp-python called directly
- ``notebooks``  ``pytest --nbval`` time per notebook vs a one-cell notebook
- ``service``    50 concurrent runs through the Day 7 service (HTTP + SSE) vs the same runs
                 in-process

To add a benchmark, write one function ``fn(ctx) -> list[Figure]`` decorated with
``@benchmark("name", title=...)`` in a module of this package; it is found by ``discover()``.
Timings are noisy, so none of this runs in ``make test`` (a test only checks that the command
works). Left out: history across runs, plots, and pass/fail thresholds.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .registry import (
    BENCHMARKS,
    Benchmark,
    Context,
    Figure,
    Stats,
    Unavailable,
    benchmark,
    discover,
)
from .report import Report, table
from .runner import find_root, run

__all__ = [
    "BENCHMARKS",
    "Benchmark",
    "Context",
    "Figure",
    "Report",
    "Stats",
    "Unavailable",
    "add_arguments",
    "benchmark",
    "discover",
    "main",
    "run",
    "table",
]

DEFAULT_JSON = "bench.json"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--only",
        action="append",
        default=[],
        metavar="NAME",
        help="只跑这个基准（可以重复；--list 列出名字）",
    )
    parser.add_argument("--n", type=int, default=100, help="往返测试每一边的请求数（默认 100）")
    parser.add_argument("--runs", type=int, default=1, help="每个 notebook 整体跑几次（默认 1）")
    parser.add_argument(
        "--prompts", type=int, default=5, help="本地模型每一边用几条新提示（默认 5）"
    )
    parser.add_argument(
        "--json", default=DEFAULT_JSON, metavar="PATH", help=f"结果写到这里（默认 {DEFAULT_JSON}）"
    )
    parser.add_argument(
        "--root", default=None, help="含 notebooks/ 的课程目录（默认：从当前目录向上找）"
    )
    parser.add_argument("--no-progress", action="store_true", help="不显示进度条")
    parser.add_argument("--list", action="store_true", help="列出所有基准后退出")


def main(args: argparse.Namespace) -> int:
    if args.list:
        for bench in discover():
            print(f"{bench.name:<12} {bench.title}")
        return 0
    if min(args.n, args.runs, args.prompts) < 1:
        print("error: --n, --runs and --prompts must be at least 1", file=sys.stderr)
        return 2
    root = find_root(Path(args.root) if args.root else None)
    if args.root and root is None:
        print(f"error: {args.root} has no notebooks/ folder", file=sys.stderr)
        return 2
    ctx = Context(
        n=args.n,
        runs=args.runs,
        prompts=args.prompts,
        root=root,
        show_progress=False if args.no_progress else None,
    )
    try:
        report = run(ctx, only=args.only)
    except ValueError as exc:  # an unknown --only name
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(table(report))
    path = Path(args.json)
    report.write_json(path)
    print(f"\nwritten: {path}")
    return 0
