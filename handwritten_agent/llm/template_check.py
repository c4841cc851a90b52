"""Does the server's chat template hand the tool schemas to the model at all?

A server can accept ``tools`` and still leave them out of the prompt: the generic function-calling
template of llama-cpp-python's ``python -m llama_cpp.server --chat_format chatml-function-calling``
does, for one. The request succeeds, the model never sees a schema, and it either answers "I cannot
look that up" or fills arguments with format strings. Nothing in the reply says why.

The check is cheap and needs no tokenizer: send one short request twice with ``max_tokens=1``,
once without tools and once with a small tool, and compare ``usage.prompt_tokens``. A template
that renders the schema adds tokens in proportion to its size; one that drops it adds none or a
handful. ``judge(plain, with_tool)`` is that comparison (``course.doctor`` uses it too);
``probe(create, model)`` makes the two requests.

The other half of a template can fail too: the schemas reach the model, the model writes its call
in its own format (Qwen: ``<tool_call>{…}</tool_call>``), and the server hands that back as text
instead of ``tool_calls`` (llama-cpp-python's server with the GGUF's own template does). The client
reads such replies with Day 2's parser (``prompt_tools.calls_written_as_text``); ``TEXT_CALLS_FIX``
is what it tells the learner.

Left out: servers that report no usage (the verdict is then unknown, never "broken"), and judging
whether a template that does render the schema renders it well (the doctor's forced call does).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

PROBE_TOOL: dict[str, Any] = {
    "type": "function",
    "function": {
        "name": "lookup_parcel",
        "description": (
            "按运单号查询一个包裹的状态、所在城市和预计送达日期。Look up one parcel by its"
            " tracking number and return its status, current city and expected delivery date."
        ),
        "parameters": {
            "type": "object",
            "properties": {
                "tracking_number": {"type": "string", "description": "运单号，例如 SF1234567"},
                "notify_phone": {"type": "string", "description": "送达后通知的手机号，可选"},
            },
            "required": ["tracking_number"],
        },
    },
}
PROBE_MESSAGES = [{"role": "user", "content": "你好"}]

MIN_GROWTH_PER_CHAR = 0.1
"""Prompt tokens a rendered schema adds per character of its JSON, at least (a token is at most a
few characters; a template that drops the tools adds none or a handful)."""

TEMPLATE_FIX = (
    "常见原因是 llama-cpp-python 的 python -m llama_cpp.server 用了通用的 --chat_format"
    "（例如 chatml-function-calling），它不使用模型自己的工具模板。"
    "要用原生工具调用，请换用会把工具写进模型自带模板的服务端："
    "课程自己的 python -m handwritten_agent serve --backend local --model 你的.gguf，"
    "llama.cpp 的 llama-server --jinja，或 Ollama / vLLM（开启工具解析）。"
)

TEXT_CALLS_FIX = (
    "要让服务端自己返回 tool_calls，请用带工具解析的启动方式：llama.cpp 的 llama-server --jinja，"
    "vLLM 的 --enable-auto-tool-choice --tool-call-parser hermes，"
    "或课程自己的 python -m handwritten_agent serve --backend local。"
)


@dataclass(frozen=True)
class TemplateVerdict:
    """``reaches``: True (the schema shows up in the prompt), False (it does not), None (unknown:
    no usage reported, or a request failed). ``plain``/``with_tool``: the two prompt token counts.
    """

    reaches: bool | None
    plain: int | None
    with_tool: int | None

    def numbers(self) -> str:
        return f"同一个请求加上一个工具定义后，prompt_tokens 从 {self.plain} 变成 {self.with_tool}"


def judge(
    plain: int | None, with_tool: int | None, tool: dict[str, Any] = PROBE_TOOL
) -> bool | None:
    """Whether a tool of ``tool``'s size reached the prompt, from the two prompt token counts."""
    if not isinstance(plain, int) or not isinstance(with_tool, int):
        return None
    need = int(len(json.dumps(tool, ensure_ascii=False)) * MIN_GROWTH_PER_CHAR)
    return with_tool - plain >= need


def _prompt_tokens(response: Any) -> int | None:
    usage = getattr(response, "usage", None)
    tokens = getattr(usage, "prompt_tokens", None) if usage is not None else None
    return tokens if isinstance(tokens, int) else None


def probe(create: Callable[..., Any], model: str) -> TemplateVerdict:
    """Two one-token requests through ``create`` (``sdk.chat.completions.create``): without and
    with ``PROBE_TOOL``. Any failure makes the verdict unknown; the caller's own request will meet
    and report the same failure.
    """
    counts: list[int | None] = []
    for tools in (None, [PROBE_TOOL]):
        extra = {"tools": tools} if tools else {}
        try:
            response = create(model=model, messages=PROBE_MESSAGES, max_tokens=1, **extra)
        except Exception:  # noqa: BLE001 - a probe never fails the caller
            return TemplateVerdict(None, None, None)
        counts.append(_prompt_tokens(response))
    plain, with_tool = counts
    return TemplateVerdict(judge(plain, with_tool), plain, with_tool)
