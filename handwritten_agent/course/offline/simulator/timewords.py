"""Colloquial time words as data: parts of the day, and day words too vague to name a date.

``PARTS_OF_DAY`` maps a part of the day to the hours it can mean: "晚上七点" is 19:00 because 19
lies in the evening and 7 does not; "晚上一点" fits neither reading, so the time is left unread
and the user is asked. A part of the day that fixes one hour by custom (中午 → 12:00) has a
default; the others have none ("后天一早" names no hour, so a tool that needs one asks).
``VAGUE_DAYS`` are words that place a request in time without naming one day ("这周末" is
Saturday or Sunday, "过两天" any of several): a date is never defaulted to today beside them.

Grow the tables here; ``dates`` reads them.

Left out: regional readings of the small hours ("夜里两点" is taken as 02:00 of the day named).
"""

from __future__ import annotations

# part of the day → ranges of hours [start, end) it can mean, and the hour it means alone (if any)
PARTS_OF_DAY: dict[str, tuple[tuple[tuple[int, int], ...], int | None]] = {
    "凌晨": (((0, 7),), None),
    "大清早": (((4, 11),), None),
    "清早": (((4, 11),), None),
    "一早": (((4, 11),), None),
    "一大早": (((4, 11),), None),
    "早上": (((4, 12),), None),
    "早晨": (((4, 12),), None),
    "早起": (((4, 11),), None),
    "上午": (((5, 13),), None),
    "中午": (((11, 15),), 12),
    "午后": (((12, 19),), None),
    "下午": (((12, 20),), None),
    "傍晚": (((16, 21),), None),
    "晚上": (((17, 24),), None),
    "晚间": (((17, 24),), None),
    "夜里": (((19, 24), (0, 5)), None),
    "夜间": (((19, 24), (0, 5)), None),
    "半夜": (((22, 24), (0, 5)), None),
    "深夜": (((21, 24), (0, 5)), None),
    "今晚": (((17, 24),), None),
    "明晚": (((17, 24),), None),
    "昨晚": (((17, 24),), None),
    "今早": (((4, 12),), None),
    "明早": (((4, 12),), None),
    "明晨": (((4, 12),), None),
    "早": (((4, 12),), None),  # only right before a time: "早八点", "明儿早上"
    "晚": (((17, 24),), None),  # only right before a time: "晚八点"
    "morning": (((4, 12),), None),
    "afternoon": (((12, 20),), None),
    "evening": (((17, 24),), None),
    "tonight": (((17, 24),), None),
    "noon": (((11, 15),), 12),
    "am": (((0, 13),), None),
    "pm": (((12, 24),), None),
}

# parts of the day read only when a time follows them at once (too common as plain characters)
BOUND_PARTS = frozenset({"早", "晚", "am", "pm"})

# a day word that names no single day
VAGUE_DAYS: tuple[str, ...] = (
    "周末",
    "月底",
    "月初",
    "月中",
    "年底",
    "年初",
    "过两天",
    "过几天",
    "过些天",
    "过阵子",
    "改天",
    "回头",
    "这几天",
    "近几天",
    "最近",
    "哪天",
    "某天",
    "节后",
    "节前",
    "下个月",
    "下月",
    "weekend",
    "some day",
    "later this week",
    "next week",
)

# a week named without its day ("下周"、"下下周"): vague unless a weekday follows
WEEK_WITHOUT_DAY = r"(?:下下|下个?|这个?|本|上个?)\s*(?:周|星期|礼拜)(?![一二三四五六日天末])"
