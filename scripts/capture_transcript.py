"""Run Day 3's verification cases once on the local model and save the transcripts as data for the
notebook.

    python scripts/capture_transcript.py            # needs `make local` (llama-cpp-python + the
                                                    course model)

The Day 3 notebook prints this file next to the simulator's answers, so learners see what a real
(small) model does with the same tools and the same ``Agent``: its wording, its mistakes, how long
it takes. The notebook never re-runs the model (CI has no model, and a 1.5B model on a busy CPU is
slow), so the file says which model, which llama-cpp-python, which machine (CPU, usable cores, load
at the start) and when it was captured, and keeps every step's model time and token counts: the
notebook prints timings from them and never types one.

Left out: several runs and statistics (the local model's endings over many runs are measured
elsewhere), and providers that need a key.
"""

from __future__ import annotations

import importlib.metadata
import json
import os
import platform
import sys
import time
from datetime import datetime, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "notebooks" / "data" / "day3_local_transcript.json"
FIXED_NOW = datetime(
    2026, 3, 12, 14, 30
)  # the notebook's clock, so the tool results match the simulator's
QUESTIONS = [
    "现在几点了？17 乘以 9 等于多少？",
    "你好，你是谁？",
    "计算 1 除以 0",
    "查询汇率后计算 100 美元能换多少人民币",
]


def cpu_name() -> str:
    """The CPU's model name (Linux), or the platform's processor string."""
    try:
        for line in Path("/proc/cpuinfo").read_text(encoding="utf-8").splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def usable_cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


def load_average() -> float | None:
    try:
        return round(os.getloadavg()[0], 2)
    except (AttributeError, OSError):
        return None


def steps_of(run) -> list[dict]:
    """Each model call of a run: how long it took and the tokens the server counted."""
    steps = []
    for step in run.steps:
        usage = step.reply.usage
        steps.append(
            {
                "index": step.index,
                "model_ms": step.model_ms,
                "prompt_tokens": usage.prompt_tokens if usage else None,
                "completion_tokens": usage.completion_tokens if usage else None,
                "tool_calls": [call.name for call in step.reply.tool_calls],
            }
        )
    return steps


def capture(questions: list[str], max_steps: int) -> dict:
    sys.path.insert(0, str(ROOT))
    from handwritten_agent.agent import DEFAULT_SYSTEM_PROMPT, Agent
    from handwritten_agent.course.offline import model_fetch
    from handwritten_agent.llm import connect
    from handwritten_agent.scenarios import basic_registry

    load_at_start = load_average()
    client = connect("local")
    path = model_fetch.model_path()
    runs = []
    for question in questions:
        started = time.perf_counter()
        run = Agent(client, basic_registry(now=FIXED_NOW), max_steps=max_steps).run(question)
        seconds = round(time.perf_counter() - started, 1)
        runs.append(
            {
                "question": question,
                "stop_reason": run.stop_reason,
                "answer": run.answer,
                "error": run.error,
                "seconds": seconds,
                "steps": steps_of(run),
                "messages": run.messages[1:],
            }
        )  # the system prompt is the package default
        print(
            f"{question} → {run.stop_reason} in {seconds} s: {run.answer or run.error}",
            file=sys.stderr,
        )
    return {
        "model": model_fetch.COURSE_MODEL.label,
        "model_file": path.name,
        "model_sha256": model_fetch.COURSE_MODEL.sha256,
        "served_as": client.model,
        "runtime": f"llama-cpp-python {importlib.metadata.version('llama-cpp-python')}",
        "machine": (
            f"{cpu_name()}（{platform.machine()}），可用 {usable_cores()} 核，Python"
            f" {platform.python_version()}"
        ),
        "load_at_start": load_at_start,
        "load_at_end": load_average(),
        "captured_at": datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "system_prompt": DEFAULT_SYSTEM_PROMPT,
        "max_steps": max_steps,
        "clock": FIXED_NOW.isoformat(timespec="minutes"),
        "runs": runs,
    }


def main(argv: list[str] | None = None) -> int:
    sys.path.insert(0, str(ROOT))
    from handwritten_agent.cli_parser import ChineseParser

    parser = ChineseParser(
        description=(
            "用本地模型把第 3 天的几组验证用例各跑一次，把运行记录存成 notebook 读的数据（需要先"
            " make local）。"
        )
    )
    parser.add_argument(
        "--max-steps", type=int, default=6, help="Agent 的步数上限（默认 6，和 notebook 一样）"
    )
    parser.add_argument(
        "--out", type=Path, default=OUT, help=f"写到哪里（默认 {OUT.relative_to(ROOT)}）"
    )
    args = parser.parse_args(argv)
    data = capture(QUESTIONS, args.max_steps)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(data, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    print(f"已写入 {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
