"""The local model through our server, next to llama-cpp-python called directly on the same prompts.

Ours: the official SDK streaming a chat completion from ``python -m handwritten_agent serve
--backend local``, started as its own process, the way a learner runs it. Floor:
``Llama.create_chat_completion(stream=True)`` in this process, on the same GGUF file with the same
thread count and context size. Both get the same prompts, every prompt new to both (a fresh number
at the start of the system message), so neither side reads a cached prefix. The two sides alternate
prompt by prompt; one warm-up call each (loading the model) is not counted.

- time to first token: from sending the request to the first chunk with text in it;
- tokens/s: completion tokens ÷ the whole request time (prompt reading included), the figure a
  learner waits on. The prompts ask for long answers and ``max_tokens`` caps them, so both sides
  usually produce exactly ``max_tokens`` tokens.

Why two processes: llama.cpp's OpenMP keeps a team of worker threads for every thread that calls it,
and once a process holds more of them than it has CPUs, every team slows down (``model_thread`` has
the story). Two models in one process is not how the server is used, and it cost both sides about a
quarter of their speed on a 2-core machine. Left out: tool calls (the parser's cost is in
``roundtrip``), long contexts, concurrent requests.
"""

from __future__ import annotations

import importlib.util
import secrets
import time
from collections.abc import Callable, Iterable
from typing import Any

from .registry import Context, Figure, Stats, Unavailable, benchmark

MAX_TOKENS = 48
TOPICS = [
    "Python 的列表推导式",
    "HTTP 的状态码",
    "JSON Schema",
    "SQLite 的事务",
    "正则表达式的贪婪匹配",
    "TCP 的三次握手",
    "Git 的分支",
    "Unicode 和 UTF-8",
    "单元测试",
    "异步编程",
]


def _messages(index: int) -> list[dict[str, str]]:
    nonce = secrets.token_hex(
        4
    )  # first in the prompt: no cached prefix beyond the template's first tokens
    topic = TOPICS[index % len(TOPICS)]
    return [
        {"role": "system", "content": f"编号 {nonce}-{index}。你是一个耐心的编程老师。"},
        {"role": "user", "content": f"请详细介绍{topic}，至少写三段。"},
    ]


def _first_and_last(
    start: float, chunks: Iterable[Any], has_text: Callable[[Any], bool]
) -> tuple[float | None, Any]:
    """Seconds from ``start`` (the request sent) to the first chunk with text (None if none), and
    the last chunk.

    ``has_text`` sees every chunk (it may collect them), not only those before the first text.
    """
    first: float | None = None
    last = None
    for chunk in chunks:
        if has_text(chunk) and first is None:
            first = time.perf_counter() - start
        last = chunk
    return first, last


def _through_server(
    client: Any, model: str, messages: list[dict[str, str]]
) -> tuple[float, float, int]:
    start = time.perf_counter()
    stream = client.chat.completions.create(
        model=model,
        messages=messages,
        max_tokens=MAX_TOKENS,
        temperature=0,
        stream=True,
        stream_options={"include_usage": True},
    )
    first, last = _first_and_last(
        start, stream, lambda c: bool(c.choices and c.choices[0].delta.content)
    )
    total = time.perf_counter() - start
    tokens = last.usage.completion_tokens if last is not None and last.usage else 0
    return (first if first is not None else total), total, tokens


def _direct(llm: Any, messages: list[dict[str, str]]) -> tuple[float, float, int]:
    start = time.perf_counter()
    text: list[str] = []
    finish = None

    def has_text(chunk: dict[str, Any]) -> bool:
        nonlocal finish
        choice = chunk["choices"][0]
        finish = choice.get("finish_reason") or finish
        piece = choice["delta"].get("content") or ""
        text.append(piece)
        return bool(piece)

    chunks = llm.create_chat_completion(
        messages=messages, max_tokens=MAX_TOKENS, temperature=0, stream=True
    )
    first, _ = _first_and_last(start, chunks, has_text)
    total = time.perf_counter() - start
    # a reply cut by max_tokens has exactly that many tokens; a shorter one is counted by
    # re-tokenizing it
    tokens = (
        MAX_TOKENS
        if finish == "length"
        else len(llm.tokenize("".join(text).encode(), add_bos=False, special=True))
    )
    return (first if first is not None else total), total, tokens


@benchmark(
    "local", title="local model through our server vs llama-cpp-python called directly", order=30
)
def local_model(ctx: Context) -> list[Figure]:
    if importlib.util.find_spec("llama_cpp") is None:
        raise Unavailable(
            'llama-cpp-python is not installed: `make local` (pip install -e ".[local]", then model'
            " fetch)"
        )
    from ..offline import model_fetch

    if not model_fetch.is_available():
        raise Unavailable(
            "the local model is not fetched: `python -m handwritten_agent model fetch` (or `make"
            " local`)"
        )
    import openai
    from llama_cpp import Llama

    from ..offline.local import DEFAULT_N_CTX, default_threads
    from ..offline.server import serve_process

    threads = default_threads()  # what the server picks on the same machine
    figures: dict[str, dict[str, list[float]]] = {
        side: {"ttft": [], "rate": []} for side in ("ours", "floor")
    }
    with serve_process("local") as base_url:
        with ctx.progress(total=2 * (ctx.prompts + 1), desc="local model") as bar:
            client = openai.OpenAI(base_url=base_url, api_key="bench", max_retries=0, timeout=600)
            direct = Llama(
                model_path=str(model_fetch.fetch(None)),
                n_ctx=DEFAULT_N_CTX,
                n_threads=threads,
                n_threads_batch=threads,
                verbose=False,
            )
            try:
                model = client.models.list().data[0].id
                for index in range(
                    -1, ctx.prompts
                ):  # -1: the warm-up, which loads the model on both sides
                    messages = _messages(index)
                    for side in ("ours", "floor"):
                        ttft, total, tokens = (
                            _through_server(client, model, messages)
                            if side == "ours"
                            else _direct(direct, messages)
                        )
                        if index >= 0:
                            figures[side]["ttft"].append(ttft * 1000)
                            figures[side]["rate"].append(tokens / total if total > 0 else 0.0)
                        bar.update(1)
            finally:
                client.close()
                direct.close()

    note = (
        f"{ctx.prompts} fresh prompts, max_tokens={MAX_TOKENS}, {threads} threads; server in its"
        " own process"
    )
    floor_is = (
        "llama-cpp-python create_chat_completion(stream=True) in the bench's process, same GGUF and"
        " threads"
    )
    return [
        Figure(
            benchmark="local",
            measure="time to first token, SDK streaming",
            unit="ms",
            ours=Stats.of(figures["ours"]["ttft"]),
            floor=Stats.of(figures["floor"]["ttft"]),
            floor_is=floor_is,
            note=note + "; both sides stream as llama.cpp generates",
        ),
        Figure(
            benchmark="local",
            measure="tokens/s, whole request",
            unit="tokens/s",
            ours=Stats.of(figures["ours"]["rate"]),
            floor=Stats.of(figures["floor"]["rate"]),
            floor_is=floor_is,
            higher_is_better=True,
            note=note,
        ),
    ]
