"""The date the conversation says it is: "今天是 2026-03-12" in a system prompt sets the simulator's
"today".

A real model has no clock: an application that wants "明天" to mean a particular day writes today's
date into the system prompt, and the model reads it there. The simulator honours the same sentence,
so a prompt that states the date gets the same dates from the simulator as from a model — whatever
the machine's clock says. Only system and developer messages count (a user saying "今天是…" is
talking, not configuring), and the last such statement wins. A time of day in the same sentence ("今
天是2026-03-12 14:30", "Today is 2026-03-12, 14:30") is used too; without one the clock's time is
kept.

Recognised: 今天是/今天/今日/当前日期/当前时间 (是|为|：) followed by 2026-03-12, 2026/3/12 or
2026年3月12日; "Today is", "Today's date is", "The current date is" followed by 2026-03-12 or
March 12, 2026.

Left out: time zones, and dates written in words only ("三月十二日").
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import date, datetime
from typing import Any

from ....messages import message_text

_MONTHS = {
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

_LEAD_ZH = r"(?:今天|今日|当前日期|当前时间|现在)\s*(?:是|为|：|:)?\s*"
_LEAD_EN = r"(?:today(?:'s date)?|the current date|the date today|current date)\s*(?:is|:)\s*"
_NUMERIC = r"(\d{4})\s*(?:[-/.]|年)\s*(\d{1,2})\s*(?:[-/.]|月)\s*(\d{1,2})\s*[日号]?"
_TIME = (
    r"(?:[\s,，T]*(?:[（(][^）)]{0,8}[）)])?[\s,，"
    r";；]*(?:现在是?|当前时间是?|时间是?|北京时间|(?:and )?(?:it is |the time is |now )?)?\s*"
    r"(\d{1,2})\s*[:：]\s*(\d{2}))?"
)
_PATTERNS = [
    re.compile(_LEAD_ZH + _NUMERIC + _TIME),
    re.compile(_LEAD_EN + _NUMERIC + _TIME, re.IGNORECASE),
    re.compile(
        _LEAD_EN
        + r"(?:[a-z]+day,?\s*)?("
        + "|".join(_MONTHS)
        + r")\s+(\d{1,2})(?:st|nd|rd|th)?,?\s*(\d{4})"
        + _TIME,
        re.IGNORECASE,
    ),
]


def _moment(
    match: re.Match[str], english_month: bool
) -> tuple[date, tuple[int, int] | None] | None:
    groups = match.groups()
    try:
        if english_month:
            day = date(int(groups[2]), _MONTHS[groups[0].lower()], int(groups[1]))
        else:
            day = date(int(groups[0]), int(groups[1]), int(groups[2]))
    except ValueError:
        return None
    hour, minute = groups[3], groups[4]
    if hour is not None and minute is not None and int(hour) < 24 and int(minute) < 60:
        return day, (int(hour), int(minute))
    return day, None


def stated_now(messages: Iterable[dict[str, Any]], clock: datetime) -> datetime:
    """``clock`` moved to the date (and time, if given) that the latest system/developer message
    states; else ``clock``.
    """
    found: tuple[date, tuple[int, int] | None] | None = None
    for message in messages:
        if not isinstance(message, dict) or message.get("role") not in ("system", "developer"):
            continue
        text = message_text(message)
        for index, pattern in enumerate(_PATTERNS):
            for match in pattern.finditer(text):
                moment = _moment(match, english_month=index == 2)
                if moment is not None:
                    found = moment
    if found is None:
        return clock
    day, time_of_day = found
    hour, minute = time_of_day if time_of_day is not None else (clock.hour, clock.minute)
    return clock.replace(year=day.year, month=day.month, day=day.day, hour=hour, minute=minute)


__all__ = ["stated_now"]
