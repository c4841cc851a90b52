"""Finding named values in the user's words: enum values, currencies, ids by pattern, cities, people.

Every finder returns ``[(value, span)]`` in order of appearance, so a caller can tell which
mention came first and which words surround it.

Left out: fuzzy spelling, and names outside the lexicon's lists (cities, surnames).
"""

from __future__ import annotations

import re
from typing import Any

from ..lexicon import CITIES, CURRENCIES, ENUM_SYNONYMS, NAME_STOPPERS, SURNAMES
from ..text import CJK_RANGE, find_numbers, find_word, normalize
from .params import Param

Span = tuple[int, int]



def enum_words(param: Param, value: Any) -> list[str]:
    words = [str(value)]
    if isinstance(value, str):
        words += list(ENUM_SYNONYMS.get(value.lower(), ()))
        words.append(value.replace("_", " "))
        description = normalize(param.description)
        v = re.escape(value)
        cjk = f"[{CJK_RANGE}]{{1,6}}"
        for pattern in (rf"['\"‘“]?{v}['\"’”]?\s*[(:=]\s*({cjk})", rf"{v}['\"’”]?\s*(?:表示|代表|即|为|是|means)\s*({cjk})",
                        rf"({cjk})\s*[(]\s*['\"‘“]?{v}"):
            for match in re.finditer(pattern, description):
                word = match.group(1).rstrip("的")
                if word and word not in ("默认", "格式", "可选", "取值"):
                    words.append(word)
    return [w for w in dict.fromkeys(words) if w]


def find_enum(param: Param, text: str) -> list[tuple[Any, Span]]:
    hits: list[tuple[int, int, Any]] = []  # (start, -length, value)
    for value in param.enum or []:
        if isinstance(value, bool):
            continue
        if isinstance(value, (int, float)):
            for number in find_numbers(text):
                if number.value == value:
                    hits.append((number.start, -(number.end - number.start), value))
            continue
        for word in enum_words(param, value):
            index = find_word(text, word)
            if index >= 0:
                hits.append((index, -len(word), value))
    hits.sort(key=lambda h: (h[0], h[1]))
    found: list[tuple[Any, Span]] = []
    covered_until = -1
    for start, neg_len, value in hits:
        if start < covered_until:
            continue  # "后天" inside "大后天" already taken by the longer word
        covered_until = start - neg_len
        if value not in [v for v, _ in found]:
            found.append((value, (start, start - neg_len)))
    return found


_CURRENCY_WORD = {name: code for code, names in CURRENCIES.items() for name in names}
_CURRENCY_CODES = re.compile(r"(?<![A-Za-z])(?:" + "|".join(CURRENCIES) + r")(?![A-Za-z])")
_CURRENCY_NAMES = re.compile("|".join(
    rf"(?<![a-z]){re.escape(name)}(?![a-z])" if name.isascii() else re.escape(name)
    for name in sorted(_CURRENCY_WORD, key=len, reverse=True)))


def find_currencies(text: str) -> list[tuple[str, Span]]:
    hits: list[tuple[int, int, str]] = [(m.start(), m.end(), m.group(0)) for m in _CURRENCY_CODES.finditer(text)]
    hits += [(m.start(), m.end(), _CURRENCY_WORD[m.group(0)]) for m in _CURRENCY_NAMES.finditer(text.lower())]
    hits.sort(key=lambda h: (h[0], -(h[1] - h[0])))
    found: list[tuple[str, Span]] = []
    end = -1
    for start, stop, code in hits:
        if start < end:
            continue
        end = stop
        if code not in [c for c, _ in found]:
            found.append((code, (start, stop)))
    return found


def find_pattern(regex: re.Pattern[str], text: str, upper: bool) -> list[tuple[str, Span]]:
    found: list[tuple[str, Span]] = []
    for match in regex.finditer(text):
        value = match.group(0).upper() if upper else match.group(0)
        if value not in [v for v, _ in found]:
            found.append((value, match.span()))
    return found


def find_cities(text: str, english: bool) -> list[tuple[str, Span]]:
    hits = []
    for zh, en in CITIES.items():
        for word in (zh, en):
            index = find_word(text, word)
            if index >= 0:
                hits.append((index, index + len(word), en if english else zh))
    hits.sort()
    found: list[tuple[str, Span]] = []
    for start, stop, value in hits:
        if value not in [v for v, _ in found]:
            found.append((value, (start, stop)))
    return found


_NAME_LEAD = frozenset("给查问帮让和跟找向叫请把对与")


def find_people(text: str) -> list[tuple[str, Span]]:
    preferred, others = [], []
    for index, ch in enumerate(text):
        if ch not in SURNAMES:
            continue
        second = text[index + 1:index + 2]
        if not second or not re.fullmatch(f"[{CJK_RANGE}]", second) or second in NAME_STOPPERS:
            continue
        third = text[index + 2:index + 3]
        length = 3 if third and re.fullmatch(f"[{CJK_RANGE}]", third) and third not in NAME_STOPPERS else 2
        before = text[index - 1:index] if index else ""
        entry = (text[index:index + length], (index, index + length))
        (preferred if not before or not re.fullmatch(f"[{CJK_RANGE}]", before) or before in _NAME_LEAD else others).append(entry)
    return preferred + others
