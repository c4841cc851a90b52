"""Dates and times of day in the user's words, against an injected clock.

``find_dates`` reads 今天/明天/后天/昨天/大后天, today/tomorrow/yesterday, weekdays (周五, 下周一,
next Monday), full dates (2024-06-15, 2024年6月15日) and month-day dates (6月15日, June 15).
``find_times`` reads 15:00, 下午3点, 3点半, 十点一刻, 3pm; a bare "4点" right after "下午3点" stays
in the afternoon. Both return values with their spans, in order of appearance.

Parts of the day (一早, 傍晚, 晚八点) come from ``timewords``: an hour is read within its part
of the day, and one the part cannot hold ("晚上一点") is left unread. ``vague_day`` finds a day
word that names no single day (这周末, 过两天, 下周), beside which no date is defaulted.

``find_duration`` reads how long something lasts ("开一个半小时", "半个钟头", "90 分钟"), so an end
time can follow from a start time.

Left out: time zones, offsets from now ("两小时后"), months and years relative to now ("下个月").
"""

from __future__ import annotations

import re
from datetime import date, timedelta

from .lexicon import RELATIVE_DAYS, TITLES
from .text import find_word, parse_chinese_number
from .timewords import BOUND_PARTS, PARTS_OF_DAY, VAGUE_DAYS, WEEK_WITHOUT_DAY

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
        r"(下下|下个?|这个?|本|上个?)?\s*(?:周|星期|礼拜)([一二三四五六日天])"
        rf"(?!{'|'.join(TITLES)})",  # "周五教练" names a person
        text,
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


_PARTS = sorted(PARTS_OF_DAY, key=len, reverse=True)
_PART = "|".join(re.escape(p) for p in _PARTS if p.isascii() is False)
_FREE_PART = re.compile("|".join(re.escape(p) for p in _PARTS if p not in BOUND_PARTS))
# an hour in digits or Chinese numerals; a numeral right after 周/星期/礼拜 is the weekday
# ("周一五点")
_NUMBER = r"\d{1,2}|(?<![周期拜])[一二两三四五六七八九十]{1,3}"


def _small_number(text: str) -> int | None:
    if text.isdigit():
        return int(text)
    value = parse_chinese_number(text)
    return int(value) if value is not None else None


def _in_part(hour: int, part: str) -> int | None:
    """``hour`` (as said, 0–24) read within ``part`` of the day: 7 in 晚上 → 19; None when
    neither reading fits ("晚上一点")."""
    ranges = PARTS_OF_DAY[part][0]
    for candidate in (hour, hour + 12 if hour < 12 else (hour + 12) % 24):
        if any(low <= candidate < high for low, high in ranges):
            return candidate % 24
    return None


def _part_before(text: str, start: int) -> str | None:
    """A part of the day said shortly before a time in the same clause ("后天晚上，七点")."""
    window = re.split(r"[。；;！!？?\n]", text[max(0, start - 8) : start])[-1]
    found = _FREE_PART.findall(window)
    return found[-1] if found else None


def find_parts(text: str) -> list[tuple[str, Span]]:
    """Parts of the day named in ``text`` ("一早", "傍晚", "明晚"), in order."""
    return [(m[0], m.span()) for m in _FREE_PART.finditer(text)]


def default_hour(part: str) -> int | None:
    """The hour a part of the day means alone, when custom fixes one (中午 → 12)."""
    return PARTS_OF_DAY[part][1]


def find_times(text: str) -> list[tuple[tuple[int, int], Span]]:
    """Times of day in ``text`` as (hour, minute), in order; 下午3点 → (15, 0); a bare "4点" after a
    pm time stays pm; a time its part of the day cannot hold ("晚上一点") is left unread.
    """
    return [(hm, span) for hm, span, _ in _read_times(text)]


def ambiguous_times(text: str) -> list[Span]:
    """Spans of hours said with no part of the day that could be night or day ("明天 3 点":
    03:00 or 15:00; "7 点": 07:00 or 19:00); a tool that needs the exact time asks."""
    return [span for _, span, bare in _read_times(text) if bare is True]


def morning_by_default(text: str) -> list[Span]:
    """Spans of hours 8–11 said with no part of the day ("明天 9 点"): read as morning, which is
    right unless that morning has already passed (then it may mean the evening: ask)."""
    return [
        span
        for (hour, _), span, bare in _read_times(text)
        if bare is None and hour in MORNING_BY_DEFAULT
    ]


BARE_HOURS = range(1, 8)  # "3点" / "7点" alone: 03:00 or 15:00, 07:00 or 19:00 — never guessed
MORNING_BY_DEFAULT = range(8, 12)  # "9点" alone: 09:00, unless 09:00 today is past


def _read_times(text: str) -> list[tuple[tuple[int, int], Span, bool | None]]:
    """(hour, minute), span, and whether the hour was said bare: True for an hour that could be
    night or day, None for one said with no part of the day that reads as morning (9点), False
    otherwise."""
    hits: list[tuple[int, int, int, int, str | None]] = []
    for match in re.finditer(r"(?<!\d)([01]?\d|2[0-3])\s*:\s*([0-5]\d)(?!\d)", text):
        hits.append((match.start(), match.end(), int(match[1]), int(match[2]), "clock"))
    for match in re.finditer(
        rf"({_PART})?\s*({_NUMBER})\s*[点點時时](?!间|候|刻钟)"
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
        hour = int(match[1]) % 12 + (12 if match[3] == "pm" else 0)
        hits.append((match.start(), match.end(), hour, int(match[2] or 0), "en"))
    hits.sort()
    found: list[tuple[tuple[int, int], Span, bool | None]] = []
    end = -1
    last_part: str | None = None
    for start, stop, hour, minute, part in hits:
        if start < end:
            continue
        end = stop
        if part in ("en", "clock"):
            found.append(((hour, minute), (start, stop), False))
            continue
        part = part or _part_before(text, start)
        if part is None and last_part and _in_part(hour, last_part) is not None:
            part = last_part  # "下午3点到4点": the 4 stays in the afternoon
        if part is not None:
            read = _in_part(hour, part)
            if read is None:
                continue  # "晚上一点": neither 01:00 nor 13:00 is in the evening; ask
            hour = read
        last_part = part
        bare = part is None and hour in BARE_HOURS
        found.append(
            ((hour % 24, minute), (start, stop), None if part is None and not bare else bare)
        )
    return found


_DURATION = re.compile(
    r"(?<![每第])(?:(\d+(?:\.\d+)?|[一二两三四五六七八九十]{1,3})\s*个?\s*(半)?\s*(?:小时|钟头|钟点)"
    r"(?:\s*(\d{1,2}|[一二三四五六七八九十]{1,3})\s*分钟?)?|(半)\s*个?\s*(?:小时|钟头)"
    r"|(\d{2,3}|[一二三四五六七八九十]{2,4})\s*分钟)"
    r"(?!\s*(?:[以之]?[后前内]|一次|一班))"
)


def find_duration(text: str) -> int | None:
    """How long something lasts, in minutes, when the text says it once ("开一个小时",
    "一个半钟头", "半小时", "90 分钟"); None for none, for two different ones, and for an offset
    from now ("两小时后", "提前一小时").
    """
    found: set[int] = set()
    for match in _DURATION.finditer(text):
        if re.search(r"提前|早|晚|推迟|延后|过", text[max(0, match.start() - 2) : match.start()]):
            continue  # "提前一小时", "晚半小时": an offset, not a length
        if match[4]:
            found.add(30)
        elif match[5]:
            minutes = _small_number(match[5])
            if minutes:
                found.add(minutes)
        else:
            hours = (
                float(match[1]) if re.fullmatch(r"[\d.]+", match[1]) else _small_number(match[1])
            )
            if not hours:
                continue
            extra = _small_number(match[3]) if match[3] else 0
            found.add(round(hours * 60) + (30 if match[2] else 0) + (extra or 0))
    return found.pop() if len(found) == 1 else None


_VAGUE = re.compile("|".join(re.escape(w) for w in VAGUE_DAYS) + "|" + WEEK_WITHOUT_DAY, re.I)


def vague_day(text: str) -> str | None:
    """A day word that names no single day ("这周末", "过两天", "下周"), or None."""
    match = _VAGUE.search(text)
    return match[0] if match else None
