"""``python -m handwritten_agent eval [--model NAME] [--repeat K] [--json PATH] [--only CASE]
[--cases office|extra|all]``.

Runs the ten office cases (``--cases extra``: the twelve extra ones, ``all``: both) against the
model ``.env`` names (the offline simulator when it names none; ``LLM_PROVIDER=local`` for the local
model, as ``make live`` does), each in a fresh office database under a temporary folder, with a
progress bar; prints the score table and writes the report as JSON.

Left out: comparing two reports (diff the JSON files), and failing the command below a score (the
table is for people; a test asserts what CI needs).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from collections.abc import Iterable
from pathlib import Path
from typing import Any

DEFAULT_JSON = "eval.json"
CASE_SETS = ("office", "extra", "all")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--model",
        default=None,
        help="当前后端上的模型名（默认：.env 里配置的那个），例如 course-sim:gullible",
    )
    parser.add_argument(
        "--repeat",
        type=int,
        default=1,
        metavar="K",
        help="每个用例跑几次（pass^K 要求 K 次都通过；默认 1）",
    )
    parser.add_argument(
        "--json", default=DEFAULT_JSON, metavar="PATH", help=f"报告写到这里（默认 {DEFAULT_JSON}）"
    )
    parser.add_argument(
        "--only", action="append", default=[], metavar="CASE", help="只跑这个用例（可以重复给出）"
    )
    parser.add_argument(
        "--cases",
        choices=sorted(CASE_SETS),
        default="office",
        help="用哪组用例：office = 课程的 10 个（默认），extra = 另外 12 个，all = 两组都跑",
    )
    parser.add_argument("--max-steps", type=int, default=8, help="Agent 的步数上限（默认 8）")
    parser.add_argument(
        "--keep",
        default=None,
        metavar="DIR",
        help="把每个用例的办公数据库留在 DIR（默认：临时文件夹）",
    )
    parser.add_argument("--no-progress", action="store_true", help="不显示进度条")
    parser.add_argument(
        "--no-claim-check",
        action="store_true",
        help="不检查“声称做了却没做”的最终回答（默认会把这样的回答退回模型一次）",
    )


def _case_set(name: str) -> list[Any]:
    from .extra_cases import EXTRA_CASES
    from .office_cases import OFFICE_CASES

    return {"office": OFFICE_CASES, "extra": EXTRA_CASES, "all": OFFICE_CASES + EXTRA_CASES}[name]


def _progress(enabled: bool) -> Any:
    if not enabled:
        return None
    from tqdm.auto import tqdm

    def wrap(jobs: Iterable[Any]) -> Iterable[Any]:
        return tqdm(list(jobs), desc="评测", unit="次", file=sys.stderr)

    return wrap


def main(args: argparse.Namespace) -> int:
    from ...llm import connect
    from .engine import evaluate
    from .office_cases import office_world_factory

    if args.repeat < 1 or args.max_steps < 1:
        print("错误：--repeat 和 --max-steps 至少是 1。", file=sys.stderr)
        return 2
    available = _case_set(args.cases)
    cases = [case for case in available if not args.only or case.id in args.only]
    unknown = sorted(set(args.only) - {case.id for case in available})
    if unknown:
        print(
            f"错误：--cases {args.cases} 里没有这些用例：{', '.join(unknown)}。"
            f"可选：{', '.join(case.id for case in available)}",
            file=sys.stderr,
        )
        return 2
    client = connect(model=args.model)  # prints the banner: which backend and model are scored
    with tempfile.TemporaryDirectory(prefix="eval_") as scratch:
        root = Path(args.keep) if args.keep else Path(scratch)
        report = evaluate(
            cases,
            office_world_factory(
                client, root=root, max_steps=args.max_steps, check_claims=not args.no_claim_check
            ),
            repeat=args.repeat,
            model=client.model,
            progress=_progress(not args.no_progress),
        )
    print(report.table())
    failed = [attempt for attempt in report.attempts if not attempt.passed]
    if failed:
        print("\n没通过的原因：")
        for attempt in failed:
            print(f"- {attempt.case}（第 {attempt.repeat + 1} 次）：{'；'.join(attempt.problems)}")
    path = Path(args.json)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(
        json.dumps(report.to_json(), ensure_ascii=False, indent=2, default=str), encoding="utf-8"
    )
    print(f"\n报告已写入：{path}")
    return 0


__all__ = ["DEFAULT_JSON", "add_arguments", "main"]
