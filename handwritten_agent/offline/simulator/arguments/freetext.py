"""Free text for a query, a message or a topic: the request minus the words that ask for the action.

Left out: summarizing, and telling several free-text parameters apart without quotes.
"""

from __future__ import annotations

import re

from ..text import normalize

_FILLER = re.compile(r"^(?:请|麻烦|帮我|帮忙|给我|替我|你|能不能|可不可以|可以|我想|我要|想)+|"
                     r"^(?:please |can you |could you |would you |i want to |i'd like to )+", re.I)
_TEXT_VERBS = re.compile(r"^(?:搜索一下|搜一下|搜索|查找|查询一下|查询|查一下|查|找一下|找|检索|翻译一下|翻译|search for|search|look up|find|translate)\s*",
                         re.I)


def free_text(segment: str) -> str:
    text = normalize(segment).strip()
    quoted = re.search(r"“([^”]+)”|「([^」]+)」|\"([^\"]+)\"|(?<![\d\s])\s*:(?!\d)\s*(.+)$", text, re.S)
    if quoted:
        return next(group for group in quoted.groups() if group).strip()
    for _ in range(3):
        text = _FILLER.sub("", text).strip()
        text = _TEXT_VERBS.sub("", text).strip()
    text = re.sub(r"[吧吗呢啊。？?！!，,\s]+$", "", text)
    text = re.sub(r"^(?:关于|有关|about)\s*", "", text, flags=re.I).strip(" :：,，")
    return text
