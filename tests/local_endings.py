"""How the local model's Agent runs end: the Day 3 verification cases and the exchange-rate task,
several times.

    LLM_PROVIDER=local .venv/bin/python tests/local_endings.py --runs 5 --out endings.jsonl

Each case runs with the package ``Agent`` and ``scenarios.basic_registry()`` (the clock fixed at
2026-03-12 14:30, as in the Day 3 notebook) against ``serve(backend="local")``: ``--runs`` times
greedily (temperature 0, what the notebooks do) and ``--runs`` times sampled (temperature 0.7, seeds
1..N), and every ending is put in one of these classes:

- ``correct``: a final answer that answers the question (the checks are in ``CASES``: the facts the
  tools return must be in it — 14:30 and 153; 720 yuan; for 1/0 that it cannot be computed;
  for the greeting, an answer given without calling a tool);
- ``wrong``: a final answer that misses one of those facts (or a greeting answered by calling
  tools);
- ``markup``: a final answer containing chat-template markup (``<tools>``, ``<tool_call>``,
  ``<|…|>``);
- ``xml``: a final answer containing other XML-like tags the model made up (``<function name=…>``);
- ``empty``: the run ended with ``stop_reason=error`` because the model's reply was empty;
- ``max_steps`` / ``timeout`` / ``error``: the other stop reasons.

Not a test (it takes 20–60 minutes on 2 cores and measures a model, not the code): the figures go in
the README and the change log. Only public names are used, so the same script measures an older
checkout (``PYTHONPATH=old/checkout``).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from collections import Counter
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any

from handwritten_agent.agent import Agent
from handwritten_agent.course.offline import serve
from handwritten_agent.llm import ChatClient
from handwritten_agent.scenarios import basic_registry

TEMPLATE_MARKUP = re.compile(r"</?(?:tools|tool_call|tool_response)>|<\|[^|<>\s]+\|>")
XML_TAG = re.compile(r"</?[A-Za-z_][\w-]*(?:\s[^<>]*)?/?>")
ENDINGS = ("correct", "wrong", "markup", "xml", "empty", "max_steps", "timeout", "error")


def _time_and_product(answer: str, calls: list[str]) -> bool:
    return "153" in answer and bool(
        re.search(r"14\s*[:：点]\s*30|下午\s*(?:2|两)\s*[:：点]\s*(?:30|半)|两点半", answer)
    )


def _no_tool(answer: str, calls: list[str]) -> bool:
    return not calls


def _division_by_zero(answer: str, calls: list[str]) -> bool:
    says_zero = bool(re.search(r"0|零", answer))
    says_impossible = bool(
        re.search(r"不能|无法|不可|没有|错误|无意义|未定义|undefined|error", answer, re.IGNORECASE)
    )
    return says_zero and says_impossible and not re.search(r"=\s*(?:inf|∞|\d)", answer)


def _exchange(answer: str, calls: list[str]) -> bool:
    return bool(re.search(r"720(?![\d])", answer.replace(",", "")))


CASES: dict[str, tuple[str, Callable[[str, list[str]], bool]]] = {
    "time_and_product": ("现在几点了？17 乘以 9 等于多少？", _time_and_product),
    "greeting": ("你好，你是谁？", _no_tool),
    "divide_by_zero": ("计算 1 除以 0", _division_by_zero),
    "exchange": ("查询美元兑人民币的汇率，然后计算 100 美元能换多少人民币", _exchange),
}


def ending(row: dict[str, Any]) -> str:
    """The class of one run's ending, from its recorded row (so old recordings can be classified
    again).
    """
    answer = row.get("answer") or ""
    if row["stop_reason"] == "final":
        if TEMPLATE_MARKUP.search(answer):
            return "markup"
        if XML_TAG.search(answer):
            return (  # markup the model made up (``<function name=…>``), not the chat template's
                "xml"
            )
        return "correct" if CASES[row["case"]][1](answer, row["calls"]) else "wrong"
    if row["stop_reason"] == "error" and re.search(r"empty reply|空回复", row.get("error") or ""):
        return "empty"
    return row["stop_reason"]


def table(rows: list[dict[str, Any]]) -> str:
    counts: dict[tuple[str, str, str], Counter[str]] = {}
    for row in rows:
        counts.setdefault((row.get("label", ""), row["case"], row["setting"]), Counter())[
            ending(row)
        ] += 1
    lines = [
        f"| checkout | case | setting | {' | '.join(ENDINGS)} |",
        "|---|---|---|" + "---|" * len(ENDINGS),
    ]
    for (label, name, setting), counter in counts.items():
        lines.append(
            f"| {label} | {name} | {setting} | "
            + " | ".join(str(counter.get(kind, 0)) for kind in ENDINGS)
            + " |"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--out", type=Path, default=None, help="append one JSON line per run here")
    parser.add_argument("--label", default="", help="a name for this checkout in the output")
    parser.add_argument("--cases", nargs="*", default=list(CASES))
    parser.add_argument(
        "--table",
        nargs="*",
        type=Path,
        default=None,
        help="run nothing: print the table of these recorded JSONL files",
    )
    args = parser.parse_args(argv)
    if args.table is not None:
        print(
            table(
                [
                    json.loads(line)
                    for path in args.table
                    for line in path.read_text(encoding="utf-8").splitlines()
                ]
            )
        )
        return 0

    server = serve(backend="local")
    client = ChatClient(server.base_url, "local", "qwen2.5-coder-1.5b", max_retries=0, timeout=600)
    settings = [("greedy", {}, i) for i in range(args.runs)] + [
        ("t=0.7", {"temperature": 0.7, "seed": i + 1}, i) for i in range(args.runs)
    ]
    rows: list[dict[str, Any]] = []
    try:
        for name in args.cases:
            question = CASES[name][0]
            for setting, options, index in settings:
                agent = Agent(
                    client,
                    basic_registry(now=datetime(2026, 3, 12, 14, 30)),
                    max_steps=6,
                    model_options=options,
                )
                started = time.perf_counter()
                run = agent.run(question)
                row: dict[str, Any] = {
                    "label": args.label,
                    "case": name,
                    "setting": setting,
                    "run": index,
                    "stop_reason": run.stop_reason,
                    "answer": run.answer,
                    "error": run.error,
                    "steps": len(run.steps),
                    "calls": [f"{r.call.name}({r.call.arguments})" for r in run.tool_calls],
                    "seconds": round(time.perf_counter() - started, 1),
                }
                row["ending"] = ending(row)
                rows.append(row)
                print(json.dumps(row, ensure_ascii=False), flush=True)
                if args.out:
                    with args.out.open("a", encoding="utf-8") as handle:
                        handle.write(json.dumps(row, ensure_ascii=False) + "\n")
    finally:
        server.stop()
    print("\n" + table(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
