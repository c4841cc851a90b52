"""Chinese words a tool's own schema gives for the English words of its names.

A result field named ``free_rooms`` or ``room_id`` is best said in the tool author's words. The
parameters say them: ``room_id`` described as "会议室编号，例如：room_301" gives ``room_id`` → 会议
室编号, and, since ``id`` is 编号, ``room`` → 会议室; ``unit_price`` "单价（元）" gives
``unit_price`` → 单价. ``schema_words`` collects these (a compound name to its label; one word of a
two-word name to what is left of the label once the other word's known Chinese is taken off its end
or start), so ``field_label`` can say ``free_rooms`` as 空闲会议室 instead of "free rooms".

Left out: labels longer than ten characters or not in Chinese, names of three words or more (only
their whole compound is kept), and words the descriptions never pair with a name.
"""

from __future__ import annotations

import json
import re
from functools import lru_cache
from typing import Any

from .arguments import params_of
from .fieldwords import NOISE, WORDS, words_of
from .text import CJK_RANGE, stem

MAX_LABEL = 10


def _known_zh(word: str) -> str:
    entry = WORDS.get(word) or WORDS.get(stem(word))
    return entry[0] if entry else ""


def schema_words(spec: dict[str, Any]) -> dict[str, str]:
    """English word or compound → Chinese, from ``spec``'s parameter names and descriptions (cached
    per spec).
    """
    return dict(
        _schema_words(
            json.dumps(
                spec.get("parameters") or {}, sort_keys=True, ensure_ascii=False, default=str
            )
        )
    )


@lru_cache(maxsize=512)
def _schema_words(parameters_json: str) -> tuple[tuple[str, str], ...]:
    found: dict[str, str] = {}
    for param in params_of({"parameters": json.loads(parameters_json)}):
        label = re.sub(r"[（(].*$", "", param.label()).strip()
        if not label or len(label) > MAX_LABEL or not re.fullmatch(f"[{CJK_RANGE}]+", label):
            continue
        words = [w for w in words_of(param.name) if w not in NOISE]
        if not words:
            continue
        if len(words) > 1 or not _known_zh(
            words[0]
        ):  # a word the table knows keeps its short form (city: 城市)
            found.setdefault("_".join(words), label)
        if len(words) != 2:
            continue
        first, last = words
        tail, head = _known_zh(last), _known_zh(first)
        if tail and label.endswith(tail) and len(label) > len(tail):
            found.setdefault(first, label[: -len(tail)])
            found.setdefault(stem(first), label[: -len(tail)])
        if head and label.startswith(head) and len(label) > len(head):
            found.setdefault(last, label[len(head) :])
            found.setdefault(stem(last), label[len(head) :])
    return tuple(found.items())


__all__ = ["schema_words"]
