"""Measuring the token corpus again: the real counts of the local course model's tokenizer.

``handwritten_agent.memory.calibration`` keeps the corpus and the measured counts as data and
compares the estimate with them; this module makes the counts. It loads the GGUF model's vocabulary
and chat template through llama.cpp (no weights), counts every text and renders every request
exactly as the local backend does, and writes the counts back into the corpus file::

    python -m handwritten_agent.course.offline.calibrate         # measure, write, print the error
    python -m handwritten_agent.course.offline.calibrate --fit   # also print weights for tokens.py
    python -m handwritten_agent.course.offline.calibrate --rebuild-requests  # record requests first

Left out: any tokenizer but the course model's.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from ...memory.calibration import (
    CORPUS_PATH,
    TOKENIZER,
    corpus_errors,
    error_summary,
    fit_text_weights,
    load_corpus,
)


class QwenCounter:
    """Real counts from the GGUF's own tokenizer and chat template (vocabulary only: no weights are
    loaded).
    """

    def __init__(self, model_path: str | None = None):
        from llama_cpp import Llama
        from llama_cpp.llama_chat_format import Jinja2ChatFormatter

        from . import model_fetch
        from .local import _template_messages

        path = Path(model_path) if model_path else model_fetch.model_path()
        if not path.exists():
            raise FileNotFoundError(
                f"没有找到模型文件 {path}：先运行 `python -m handwritten_agent model fetch`。"
            )
        self._llm = Llama(model_path=str(path), vocab_only=True, verbose=False)
        template = self._llm.metadata["tokenizer.chat_template"]
        eos = self._llm.detokenize([self._llm.token_eos()], special=True).decode(
            "utf-8", errors="replace"
        )
        self._formatter = Jinja2ChatFormatter(template=template, eos_token=eos, bos_token="")
        self._template_messages = _template_messages

    def text(self, text: str) -> int:
        return len(self._llm.tokenize(text.encode("utf-8"), add_bos=False, special=False))

    def request(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]] | None) -> int:
        prompt = self._formatter(
            messages=self._template_messages(messages),
            tools=tools or None,
            tool_choice="auto" if tools else None,
        ).prompt
        return len(self._llm.tokenize(prompt.encode("utf-8"), add_bos=False, special=True))


def measure(corpus: dict[str, Any], counter: QwenCounter) -> dict[str, Any]:
    for item in corpus["texts"]:
        item["real_tokens"] = counter.text(item["text"])
    for item in corpus["requests"]:
        item["real_tokens"] = counter.request(item["messages"], item.get("tools"))
    corpus["tokenizer"] = TOKENIZER
    return corpus


def record_requests() -> list[dict[str, Any]]:
    """Requests the course really sends: each model call of some Day 3/4 conversations on the
    simulator.

    A model call sees the history up to the assistant message it produced, so every assistant
    message of a finished conversation marks one request: the messages before it, with the tools
    offered.
    """
    from datetime import datetime

    from ...agent import Agent
    from ...llm import connect
    from ...memory.conversation import Conversation
    from ...memory.longterm import LongTermMemory
    from ...memory.summary import Summarizer
    from ...scenarios import basic_registry

    client = connect("offline", quiet=True)
    registry = basic_registry(now=datetime(2026, 3, 12, 14, 30))
    tools = registry.schemas()
    requests: list[dict[str, Any]] = []

    def cut(
        history: list[dict[str, Any]], offered: list[dict[str, Any]] | None, every: int = 1
    ) -> None:
        points = [i for i, m in enumerate(history) if m["role"] == "assistant"]
        requests.extend({"messages": history[:i], "tools": offered} for i in points[::every])

    for question in [
        "现在几点了？17 乘以 9 等于多少？",
        "北京明天天气怎么样？",
        "100 美元能换多少人民币？",
        "你好，你是谁？",
        "计算 1 除以 0",
        "What's the weather in Shanghai tomorrow?",
    ]:
        cut(Agent(client, registry).run(question).messages, tools)
    conversation = Conversation(
        client,
        registry,
        long_term=LongTermMemory(":memory:"),
        user_id="calibration",
        memory=Summarizer(client, 700),
    )
    for text in [
        "北京明天天气怎么样？",
        "那上海呢？",
        "我的预算上限是 5000 元，酒店每晚不超过 600 元。",
        "17 乘以 9 等于多少？",
        "刚才那个结果乘以 2",
        "请记住：我对花生过敏",
        "我们定在 3 月 20 日出发，记得提醒我提交报销单。",
        "我对什么过敏？",
        "100 美元能换多少人民币？",
        "我的预算上限是多少？",
    ]:
        conversation.ask(text)
    history = conversation.transcript
    cut(history, conversation.registry.schemas(), every=2)
    cut(history[: len(history) // 2], None, every=3)
    return [{"id": f"request_{i:02d}", **item} for i, item in enumerate(requests)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m handwritten_agent.course.offline.calibrate",
        description="用本地模型的分词器量一量 token 估算的误差。",
    )
    parser.add_argument("--model", default=None, help="GGUF 文件（默认：课程模型）")
    parser.add_argument(
        "--rebuild-requests", action="store_true", help="先从离线模拟器重新录下那些请求"
    )
    parser.add_argument("--fit", action="store_true", help="打印各文本特征的最小二乘权重")
    parser.add_argument("--dry-run", action="store_true", help="只测量和报告，不写语料文件")
    args = parser.parse_args(argv)
    corpus = load_corpus()
    if args.rebuild_requests:
        corpus["requests"] = record_requests()
    try:
        counter = QwenCounter(args.model)
    except (ImportError, FileNotFoundError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    measure(corpus, counter)
    if not args.dry_run:
        CORPUS_PATH.write_text(
            json.dumps(corpus, ensure_ascii=False, indent=1) + "\n", encoding="utf-8"
        )
    rows = corpus_errors(corpus)
    for kind in sorted({r.kind for r in rows}):
        part = error_summary([r for r in rows if r.kind == kind])
        print(
            f"{kind:14} n={part['count']:3}  mean |error| {part['mean_abs']:6.1%}  max"
            f" {part['max_abs']:6.1%}  bias {part['bias']:+6.1%}"
        )
    total = error_summary(rows)
    print(
        f"{'all':14} n={total['count']:3}  mean |error| {total['mean_abs']:6.1%}  max"
        f" {total['max_abs']:6.1%}  bias {total['bias']:+6.1%}"
    )
    if args.fit:
        print("text weights:", {k: round(v, 3) for k, v in fit_text_weights(corpus).items()})
    return 0


if __name__ == "__main__":
    sys.exit(main())
