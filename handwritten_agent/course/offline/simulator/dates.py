"""Dates and times of day in the user's words, against an injected clock.

``find_dates`` reads 今天/明天/后天/昨天/大后天, today/tomorrow/yesterday, weekdays (周五, 下周一,
next Monday), full dates (2024-06-15, 2024年6月15日) and month-day dates (6月15日, June 15).
``find_times`` reads 15:00, 下午3点, 3点半, 十点一刻, 3pm; a bare "4点" right after "下午3点" stays
in the afternoon. Both return values with their spans, in order of appearance.

Left out: time zones, durations ("两小时后"), months and years relative to now ("下个月").
"""

from __future__ import annotations

import re
from datetime import date, timedelta

from .lexicon import RELATIVE_DAYS
from .text import find_word, parse_chinese_number

Span = tuple[int, int]

_WEEKDAYS_ZH = {"一": 0, "二": 1, "三": 2, "四": 3, "五": 4, "六": 5, "日": 6, "天": 6}
_WEEKDAYS_EN = {
    "monday": 0,
    "tuesday": 1,
    "wednesday": 2,
    "thursday": 3,
    "friday": 4,
    "saturday": 5,
    "sunday": 6,
}
_MONTHS_EN = {
    m: i + 1
    for i, m in enumerate(
        [
            "january",
            "february",
            "march",
            "april",
            "may",
            "june",
            "july",
            "august",
            "september",
            "october",
            "november",
            "december",
        ]
    )
}


def find_dates(text: str, today: date) -> list[tuple[date, Span]]:
    """Dates mentioned in ``text``, in order: relative words, weekdays and explicit dates."""
    hits: list[tuple[int, int, date]] = []
    low = text.lower()
    for word, offset in RELATIVE_DAYS:
        index = find_word(low, word)
        while index >= 0:
            hits.append((index, index + len(word), today + timedelta(days=offset)))
            index = find_word(low, word, index + len(word))
    for match in re.finditer(
        r"(?<!\d)(\d{4})\s*[-/.年]\s*(\d{1,2})\s*[-/.月]\s*(\d{1,2})\s*[日号]?", text
    ):
        try:
            hits.append(
                (match.start(), match.end(), date(int(match[1]), int(match[2]), int(match[3])))
            )
        except ValueError:
            pass
    for match in re.finditer(
        r"(?<![\d年/-])(\d{1,2}|[一二三四五六七八九十]{1,3})\s*月\s*(\d{1,2}|[一二三四五六七八九十"
        r"]{1,3})\s*[日号]",
        text,
    ):
        month, day = (
            int(g) if g.isdigit() else int(parse_chinese_number(g) or 0)
            for g in (match[1], match[2])
        )
        try:
            hits.append((match.start(), match.end(), date(today.year, month, day)))
        except ValueError:
            pass
    for match in re.finditer(
        r"(下下|下个?|这个?|本|上个?)?\s*(?:周|星期|礼拜)([一二三四五六日天])", text
    ):
        target = _WEEKDAYS_ZH[match[2]]
        monday = today - timedelta(days=today.weekday())
        shift = {"下": 7, "下个": 7, "下下": 14, "上": -7, "上个": -7}.get(
            (match[1] or "").strip(), 0
        )
        day = monday + timedelta(days=target + shift)
        if not match[1] and day < today:
            day += timedelta(days=7)
        hits.append((match.start(), match.end(), day))
    for match in re.finditer(
        r"\b(next |this |on )?(monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b", low
    ):
        target = _WEEKDAYS_EN[match[2]]
        ahead = (target - today.weekday()) % 7
        if match[1] == "next ":
            ahead = ahead or 7
        hits.append((match.start(), match.end(), today + timedelta(days=ahead)))
    for match in re.finditer(
        r"\b"
        r"(january|february|march|april|may|june|july|august|september|october|november|december)\s"
        r"+(\d{1,2})(?:st|nd|rd|th)?\b",
        low,
    ):
        try:
            hits.append(
                (match.start(), match.end(), date(today.year, _MONTHS_EN[match[1]], int(match[2])))
            )
        except ValueError:
            pass
    hits.sort(key=lambda h: (h[0], -(h[1] - h[0])))
    found: list[tuple[date, Span]] = []
    end = -1
    for start, stop, day in hits:
        if start < end:
            continue
        end = stop
        found.append((day, (start, stop)))
    return found


_PERIOD_SHIFT = {
    "下午": 12,
    "晚上": 12,
    "傍晚": 12,
    "今晚": 12,
    "中午": 0,
    "上午": 0,
    "早上": 0,
    "早晨": 0,
    "凌晨": 0,
    "pm": 12,
    "am": 0,
}


def _small_number(text: str) -> int | None:
    if text.isdigit():
        return int(text)
    value = parse_chinese_number(text)
    return int(value) if value is not None else None


def find_times(text: str) -> list[tuple[tuple[int, int], Span]]:
    """Times of day in ``text`` as (hour, minute), in order; 下午3点 → (15, 0); a bare "4点" after a
    pm time stays pm.
    """
    hits: list[tuple[int, int, int, int, str | None]] = []
    for match in re.finditer(r"(?<!\d)([01]?\d|2[0-3])\s*:\s*([0-5]\d)(?!\d)", text):
        hits.append((match.start(), match.end(), int(match[1]), int(match[2]), None))
    for match in re.finditer(
        r"(上午|下午|晚上|傍晚|中午|早上|早晨|凌晨|今晚)?\s*(\d{1,2}|[一二两三四五六七八九十"
        r"]{1,3})\s*[点時时](?!间|候|刻钟)"
        r"(?:\s*(半|一刻|三刻|(\d{1,2}|[一二三四五六七八九十]{1,3})(?:\s*分|(?!\s*[\d个位名人间台张"
        r"把件份次天元块岁号楼层])))"
        r")?",
        text,
    ):  # "10 点 10 个人" is ten o'clock and ten people, not 10:10
        hour = _small_number(match[2])
        if hour is None or hour > 24:
            continue
        minute = (
            30
            if match[3] == "半"
            else (
                15
                if match[3] == "一刻"
                else 45
                if match[3] == "三刻"
                else (_small_number(match[4]) or 0)
                if match[4]
                else 0
            )
        )
        hits.append((match.start(), match.end(), hour, minute, match[1]))
    for match in re.finditer(r"\b(\d{1,2})(?::([0-5]\d))?\s*(am|pm)\b", text.lower()):
        hits.append((match.start(), match.end(), int(match[1]), int(match[2] or 0), match[3]))
    hits.sort()
    found: list[tuple[tuple[int, int], Span]] = []
    end = -1
    last_period: str | None = None
    last_hour = -1
    for start, stop, hour, minute, period in hits:
        if start < end:
            continue
        end = stop
        period = period or (
            last_period
            if last_period in ("下午", "晚上", "傍晚", "今晚", "pm") and hour + 12 > last_hour
            else None
        )
        if period and _PERIOD_SHIFT.get(period) == 12 and hour < 12:
            hour += 12
        if period in ("中午",) and hour < 6:
            hour += 12
        if period == "am" and hour == 12:
            hour = 0
        last_period, last_hour = period, hour
        found.append(((hour % 24, minute), (start, stop)))
    return found
