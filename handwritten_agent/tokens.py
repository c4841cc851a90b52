"""Token counting without a tokenizer: an estimate, calibrated against a real one.

Every model splits text into tokens with its own tokenizer, and a budget ("this request must stay
under 4,000 tokens") needs a count before the request is sent. Shipping every provider's tokenizer
is out of the question, so the course estimates from the kinds of characters in the text:

- a Chinese character is about half a token (common words like 天气 or 北京 are one token each);
- an English word is about one token, a long one a little more;
- every digit is its own token (Qwen's tokenizers split numbers into digits);
- ASCII punctuation often merges with its neighbours (``": "`` is one token), so it counts less than
  one token a character; Chinese punctuation is a whole token each, and so is a space before a digit
  or a Chinese character;
- every message costs a few tokens of framing (``<|im_start|>user`` … ``<|im_end|>``), a tool call
  or a tool result a few more, and offering tools adds a fixed preamble plus each tool's JSON
  schema.

The weights were fitted on a fixed corpus (Chinese, English, mixed, JSON, numbers, code, and whole
requests from the course's conversations) against the local course model's tokenizer, Qwen2.5,
through llama.cpp — see ``handwritten_agent.memory.calibration``, which keeps the corpus and the
measured counts as data (``course.offline.calibrate`` measures them again). On its 66 entries the
estimate is off by 4.3% on average; the worst single error is 25% (one token off on a four-token
question); the 24 whole requests are within 1.2% when tools are offered and within 7.1% without
(the figures are printed by ``python -m handwritten_agent.course.offline.calibrate`` and pinned by
``tests/test_tokens.py``). Other tokenizers (OpenAI's, DeepSeek's) differ from Qwen's by a few
percent on English and more on Chinese, so treat the number as an estimate with that margin:
budget below the real limit.

Left out: exact counts for any particular model, images, and the tokens a provider adds that the
request does not show (hidden system prompts, reasoning tokens).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from functools import lru_cache
from typing import Any

from .messages import message_text

# Weights per character class, fitted on the calibration corpus (course.offline.calibrate --fit) and
# rounded.
CJK_CHAR = 0.58
CJK_PUNCT = 1.15
WORD = 1.0
LONG_WORD_LETTER = 0.13  # each letter of an English word beyond the fifth
DIGIT = 1.05
PUNCT = 0.4
NEWLINE = 0.75
SPACE = 1.0
OTHER = 1.0

# Framing, measured on whole requests rendered with the chat template (Qwen's ChatML-style markers).
MESSAGE_OVERHEAD = 5  # <|im_start|>role\n … <|im_end|>\n
TOOL_CALL_OVERHEAD = 12  # \n<tool_call>\n{"name": "…", "arguments": …}\n</tool_call>
TOOL_RESULT_OVERHEAD = 8  # \n<tool_response>\n … \n</tool_response>
TOOLS_OVERHEAD = 75  # the preamble that introduces the tools and the call format
PER_TOOL = 2  # the line each tool's schema takes
# a JSON schema tokenizes denser than prose ("type", "string", '": "' are one token each)
TOOL_SCHEMA_FACTOR = 0.91
REPLY_PRIMING = 3  # <|im_start|>assistant\n, where the model's reply begins

_WORD = re.compile(r"[A-Za-z]+")
_LOOSE_SPACE = re.compile(
    r" (?![A-Za-z ])"
)  # a space before a letter joins the word's token; elsewhere it often is one


_CLASSES = {  # character classes, counted with one regex each (fast on long tool results)
    "cjk": re.compile(r"[\u3400-\u9fff\uf900-\ufaff\U00020000-\U0002ffff]"),
    "cjk_punct": re.compile(r"[\u3000-\u303f\uff00-\uffef\u2010-\u206f]"),
    "digits": re.compile(r"\d"),
    "punct": re.compile(r"[!-/:-@\[-`{-~]"),
    "newlines": re.compile(r"\n"),
    "other": re.compile(
        r"[^\x00-\x7f\u3400-\u9fff\uf900-\ufaff\U00020000-\U0002ffff\u3000-\u303f\uff00-\uffef\u"
        r"2010-\u206f\s\d]"
    ),
}


def text_features(text: str) -> dict[str, float]:
    """Counts of the character classes the estimate weighs (the calibration fits one weight per
    key).
    """
    words = _WORD.findall(text)
    counts = {name: float(len(pattern.findall(text))) for name, pattern in _CLASSES.items()}
    counts["words"] = float(len(words))
    counts["long_word_letters"] = float(sum(max(0, len(word) - 5) for word in words))
    counts["spaces"] = float(len(_LOOSE_SPACE.findall(text)))
    return counts


_WEIGHTS = {
    "cjk": CJK_CHAR,
    "cjk_punct": CJK_PUNCT,
    "words": WORD,
    "long_word_letters": LONG_WORD_LETTER,
    "digits": DIGIT,
    "punct": PUNCT,
    "newlines": NEWLINE,
    "spaces": SPACE,
    "other": OTHER,
}


def estimate_tokens(text: str | None) -> int:
    """Estimate the number of tokens in ``text`` (0 for empty or ``None``)."""
    if not text:
        return 0
    return _estimate(text)


@lru_cache(maxsize=4096)
def _estimate(text: str) -> int:  # memory policies count the same messages again and again
    features = text_features(text)
    return max(1, round(sum(_WEIGHTS[name] * value for name, value in features.items())))


def count_message_tokens(
    messages: Iterable[dict[str, Any]], tools: Iterable[dict[str, Any]] | None = None
) -> int:
    """Estimate the prompt tokens of a whole request: messages, their framing, and the tool schemas
    offered.

    This is the course's one token count (``memory.count_tokens`` is this function); the simulator's
    ``usage`` reports it too. It is an **estimate**: against the local model's Qwen tokenizer it is
    off by about 1% on the course's requests with tools, up to about 7% without, and up to 25% on a
    single short text (see the module docstring); other providers' tokenizers differ by a few
    percent more.
    """
    total = REPLY_PRIMING
    for message in messages:
        total += MESSAGE_OVERHEAD + estimate_tokens(message_text(message))
        for call in message.get("tool_calls") or []:
            function = (call.get("function") or {}) if isinstance(call, dict) else {}
            arguments = function.get("arguments")
            if not isinstance(arguments, str):
                arguments = json.dumps(arguments, ensure_ascii=False)
            total += (
                TOOL_CALL_OVERHEAD
                + estimate_tokens(str(function.get("name", "")))
                + estimate_tokens(arguments)
            )
        if message.get("role") == "tool":
            total += TOOL_RESULT_OVERHEAD
    tools = list(tools or [])
    if tools:
        total += TOOLS_OVERHEAD + sum(
            round(TOOL_SCHEMA_FACTOR * estimate_tokens(json.dumps(tool, ensure_ascii=False)))
            + PER_TOOL
            for tool in tools
        )
    return total


__all__ = ["count_message_tokens", "estimate_tokens", "text_features"]
