"""Rough token counting without a tokenizer.

Real tokenizers differ per model; for budgeting and for the simulator's ``usage`` a stable estimate
is enough: one token per CJK character, about four characters per token for other text, and a few
tokens of overhead per message. Left out: exact counts for any particular model.
"""

from __future__ import annotations

import json
import math
from typing import Any, Iterable

MESSAGE_OVERHEAD = 4


def _is_cjk(ch: str) -> bool:
    code = ord(ch)
    return 0x3400 <= code <= 0x9FFF or 0xF900 <= code <= 0xFAFF or 0x3000 <= code <= 0x303F or 0xFF00 <= code <= 0xFFEF


def estimate_tokens(text: str | None) -> int:
    """Estimate the number of tokens in ``text``."""
    if not text:
        return 0
    cjk = sum(1 for ch in text if _is_cjk(ch))
    other = len(text) - cjk
    return cjk + math.ceil(other / 4)


def count_message_tokens(messages: Iterable[dict[str, Any]], tools: Iterable[dict[str, Any]] | None = None) -> int:
    """Estimate the prompt tokens of a whole request (messages plus tool schemas)."""
    total = 0
    for message in messages:
        total += MESSAGE_OVERHEAD
        content = message.get("content")
        if isinstance(content, str):
            total += estimate_tokens(content)
        elif content is not None:
            total += estimate_tokens(json.dumps(content, ensure_ascii=False))
        for call in message.get("tool_calls") or []:
            total += estimate_tokens(json.dumps(call, ensure_ascii=False))
    for tool in tools or []:
        total += estimate_tokens(json.dumps(tool, ensure_ascii=False))
    return total
