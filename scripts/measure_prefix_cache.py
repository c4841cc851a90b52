"""Prompt tokens the local model evaluates, with and without its prefix cache.

Three conversations take turns (as Day 7's workers and the evaluation interleave them), each with
the office assistant's system prompt and tools and three user turns, each turn adding a lookup's
rows (about 600 tokens) to its conversation; every reply is cut at a few tokens, so the time is
mostly reading prompts. Printed per setting: requests, prompt tokens, tokens
read from a cached prefix, tokens evaluated, and the wall time.

    .venv/bin/python scripts/measure_prefix_cache.py
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from handwritten_agent.course.offline.backend import ChatRequest  # noqa: E402
from handwritten_agent.course.offline.local import CACHE_BYTES, LocalBackend  # noqa: E402
from handwritten_agent.scenarios.office import OfficeScenario  # noqa: E402

TURNS = [
    ["明天下午有空的会议室吗？", "那就订最小的那间", "顺便告诉我预订编号"],
    ["客户 C007 的手机号是多少？", "他最近一次下单是什么时候？", "好的，谢谢"],
    ["帮我申请采购两台显示器", "每台 1299 元", "提交吧"],
]


ROWS = [
    "；".join(f"{kind}{n:03d}：{place}，{n % 7 + 4} 人，{8 + n % 9}:00 空闲" for n in range(40))
    for kind, place in (("room_", "三楼东"), ("room_", "五楼西"), ("room_", "二楼南"))
]


def measure(cache_bytes: int) -> dict[str, float]:
    backend = LocalBackend(cache_bytes=cache_bytes, prefix_folder=None)  # this process only
    tools = OfficeScenario.create().registry("E001").schemas()
    system = {"role": "system", "content": "你是公司的办公助手，按工具的说明调用工具。"}
    histories = [[system] for _ in TURNS]
    started = time.perf_counter()
    totals = {"requests": 0, "prompt": 0, "cached": 0}
    for turn in range(3):
        for history, turns in zip(histories, TURNS):
            history.append({"role": "user", "content": turns[turn]})
            reply = backend.complete(
                ChatRequest(
                    model="local", messages=list(history), tools=tools, max_tokens=4, temperature=0
                )
            )
            # what an agent's turn adds to its conversation: a lookup's rows, then the answer
            history.append({"role": "assistant", "content": "我先查一下：" + ROWS[turn]})
            history.append({"role": "assistant", "content": reply.content or "好的。"})
            totals["requests"] += 1
            totals["prompt"] += reply.prompt_tokens
            totals["cached"] += reply.cached_tokens
    backend.close()
    return {
        **totals,
        "evaluated": totals["prompt"] - totals["cached"],
        "seconds": round(time.perf_counter() - started, 1),
    }


def main() -> None:
    for label, size in (
        ("不留前缀缓存（只有上一条）", 0),
        (f"前缀缓存 {CACHE_BYTES >> 20} MiB", CACHE_BYTES),
    ):
        r = measure(size)
        print(
            f"{label}：{r['requests']} 次请求，提示 {r['prompt']} token，"
            f"从缓存读 {r['cached']}，实际计算 {r['evaluated']}，用时 {r['seconds']} 秒"
        )


if __name__ == "__main__":
    main()
