"""Colloquial times scored over several "now" values and three tool sets.

Each request names a day (今儿, 明早, 大后天, 下下周三 …) and a part of the day with or without an
hour (一早八点, 晚八点, 傍晚, 中午 …), in varied wording. The expected reading is computed here from
the calendar, independently of the simulator: a moment already past relative to "now", a part of
the day with no hour where the tool needs one, a day word that names no single day (这周末, 过两天,
下周), an hour its part of the day cannot hold (晚上一点) and a bare hour that could be night or
day (3 点) must make no side effect (the simulator asks); everything else must be booked for exactly
that date and time.

The tool sets: the gym and the venue of ``test_simulator_generated`` (one "YYYY-MM-DD HH:MM"
field; a date and a time field) and a courier desk described in English whose time field is ISO
8601 with a "T". ``python -m tests.test_simulator_times`` prints the table.

Left out: times in English words ("tomorrow morning"), durations ("两小时后").
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any

import pytest

from handwritten_agent.course.offline.simulator import CourseSimulator
from tests.simkit import fn, run_request
from tests.test_simulator_generated import GYM, VENUE, i, s

COURIER = [
    fn(
        "schedule_pickup",
        "Schedule a parcel pickup by a courier at a given time",
        {
            "address": s("pickup address, e.g. 3号楼前台"),
            "pickup_time": s("pickup time in ISO format, e.g. 2026-03-01T09:30"),
            "parcels": i("number of parcels"),
        },
        ["address", "pickup_time", "parcels"],
    ),
    fn(
        "track_parcel",
        "Look up where a parcel is by its tracking number, e.g. SF1234567",
        {"tracking_no": s("tracking number like SF1234567")},
        ["tracking_no"],
    ),
]
TOOLSETS = {"gym": GYM, "venue": VENUE, "courier": COURIER}
NOWS = [
    datetime(2026, 3, 12, 14, 30),  # Thursday afternoon
    datetime(2026, 3, 14, 7, 0),  # Saturday early morning
    datetime(2026, 3, 15, 22, 45),  # Sunday late evening
    datetime(2026, 12, 31, 9, 0),  # the last day of a year
]


def _monday(now: datetime) -> date:
    return now.date() - timedelta(days=now.weekday())


# a day word → the date it names, given now (None: names no single day)
DAYS: dict[str, Any] = {
    "今儿": lambda n: n.date(),
    "今天": lambda n: n.date(),
    "明儿": lambda n: n.date() + timedelta(1),
    "明天": lambda n: n.date() + timedelta(1),
    "后天": lambda n: n.date() + timedelta(2),
    "大后天": lambda n: n.date() + timedelta(3),
    "下周一": lambda n: _monday(n) + timedelta(7),
    "下下周三": lambda n: _monday(n) + timedelta(16),
    "这周五": lambda n: _monday(n) + timedelta(4),
    "下礼拜二": lambda n: _monday(n) + timedelta(8),
}
VAGUE_DAYS = ["这周末", "下周末", "过两天", "月底", "下周", "改天"]
# a part of the day with an hour → (hour, minute); None: the part cannot hold the hour
HOURS: dict[str, tuple[int, int] | None] = {
    "一早八点": (8, 0),
    "早上七点半": (7, 30),
    "上午十点": (10, 0),
    "中午十二点": (12, 0),
    "中午一点": (13, 0),
    "下午两点": (14, 0),
    "下午三点一刻": (15, 15),
    "傍晚六点": (18, 0),
    "晚上七点": (19, 0),
    "晚八点": (20, 0),
    "夜里十点": (22, 0),
    "晚上 9 点半": (21, 30),
    "晚上一点": None,
    "下午十点": None,
    "3 点": None,  # 03:00 or 15:00: asked
    "五点半": None,
}
NO_HOUR = ["一早", "早上", "下午", "傍晚", "晚上"]
# compound words that name a day and a part of it at once
COMPOUND: dict[str, tuple[int, tuple[int, int] | None]] = {
    "明早八点": (1, (8, 0)),
    "明晚七点": (1, (19, 0)),
    "今晚九点": (0, (21, 0)),
    "明早": (1, None),
    "明晚": (1, None),
    "今晚": (0, None),
}

# wording per tool set: {when} is the time phrase; EXPECTED reads (moment, request)
FORMS = {
    "gym": [
        "{when}帮我定个瑜伽课，俩人",
        "瑜伽课{when}的，3 个人，给排上",
        "{when}约一节瑜伽课 2 人",
    ],
    "venue": ["{when}占一下篮球场，6 个人", "篮球场{when}帮我预留，四个人", "{when}订篮球场 俩人"],
    "courier": ["{when}让快递来3号楼前台取件，2 个包裹", "3号楼前台有 3 个包裹，{when}上门取一下"],
}
EXPECTED = {
    "gym": lambda m, n: ("book_class", {"course": "瑜伽", "start": m.strftime("%Y-%m-%d %H:%M")}),
    "venue": lambda m, n: (
        "yuliu_changdi",
        {
            "venue": "羽毛球馆" if "羽毛球馆" in n else "篮球场",
            "date": m.strftime("%Y-%m-%d"),
            "time": m.strftime("%H:%M"),
        },
    ),
    "courier": lambda m, n: (
        "schedule_pickup",
        {"address": "3号楼前台", "pickup_time": m.strftime("%Y-%m-%dT%H:%M")},
    ),
}
READ_ONLY = {"track_parcel"}


@dataclass
class TimeCase:
    toolset: str
    now: datetime
    request: str
    moment: datetime | None  # None: the phrase fixes no moment; the simulator must not act

    @property
    def expected(self) -> tuple[str, dict[str, Any]] | None:
        if self.moment is None or self.moment < self.now:
            return None
        return EXPECTED[self.toolset](self.moment, self.request)


def phrases(now: datetime) -> list[tuple[str, datetime | None]]:
    out: list[tuple[str, datetime | None]] = []
    for (day, when), (part, hm) in itertools.product(DAYS.items(), HOURS.items()):
        moment = datetime.combine(when(now), datetime.min.time())
        out.append((f"{day}{part}", moment.replace(hour=hm[0], minute=hm[1]) if hm else None))
    for day, part in itertools.product(["后天", "明儿", "下周一", "大后天"], NO_HOUR):
        out.append((f"{day}{part}", None))
    for day, part in itertools.product(VAGUE_DAYS, ["下午三点", "上午十点", "晚上七点"]):
        out.append((f"{day}{part}", None))
    for word, (offset, hm) in COMPOUND.items():
        day = now.date() + timedelta(offset)
        moment = datetime.combine(day, datetime.min.time())
        out.append((word, moment.replace(hour=hm[0], minute=hm[1]) if hm else None))
    return out


def cases() -> list[TimeCase]:
    out: list[TimeCase] = []
    for n, now in enumerate(NOWS):
        for k, (phrase, moment) in enumerate(phrases(now)):
            if (k + n) % 3:  # a third of the phrasings per "now", a different third each time
                continue
            toolset = list(TOOLSETS)[(k // 3) % 3]
            form = FORMS[toolset][(k // 9 + n) % len(FORMS[toolset])]
            out.append(TimeCase(toolset, now, form.format(when=phrase), moment))
    return out


CASES = cases()
# ten paraphrases written after the rules, never used while building them (now: NOWS[0], Thursday)
FRESH = [
    TimeCase("venue", NOWS[0], "明儿一大早七点给我留个篮球场，5 个人", datetime(2026, 3, 13, 7)),
    TimeCase("venue", NOWS[0], "周六早上九点半订羽毛球馆，俩人", datetime(2026, 3, 14, 9, 30)),
    TimeCase("venue", NOWS[0], "后儿晚上八点半帮我占篮球场 十个人", datetime(2026, 3, 14, 20, 30)),
    TimeCase("venue", NOWS[0], "这周日下午四点，篮球场，6 人，帮我订上", datetime(2026, 3, 15, 16)),
    TimeCase("gym", NOWS[0], "下个礼拜三中午约个瑜伽课，2 人", datetime(2026, 3, 18, 12)),
    TimeCase("gym", NOWS[0], "大后天傍晚帮我订瑜伽课 3 人", None),
    TimeCase("venue", NOWS[0], "周末找个时间打篮球，4 个人，帮我订场", None),
    TimeCase("gym", NOWS[0], "今天早上八点订瑜伽课 2 人", datetime(2026, 3, 12, 8)),
    TimeCase("gym", NOWS[0], "明晚九点一刻预订瑜伽课 俩人", datetime(2026, 3, 13, 21, 15)),
    TimeCase("venue", NOWS[0], "下周五晚上一点订篮球场 4 人", None),
]
_SIMULATORS = {now: CourseSimulator(now=now) for now in NOWS}


def run(case: TimeCase) -> tuple[list[tuple[str, dict[str, Any]]], str]:
    return run_request(_SIMULATORS[case.now], TOOLSETS[case.toolset], case.request)


def score(case: TimeCase, calls: list[tuple[str, dict[str, Any]]], answer: str) -> str:
    """handled | asked | declined | wrong."""
    effects = [(name, args) for name, args in calls if name not in READ_ONLY]
    wanted = case.expected
    if wanted is None:
        if effects:
            return "wrong"
        return "asked" if "？" in answer or "?" in answer else "declined"
    if not effects:
        return "asked" if "？" in answer or "?" in answer else "declined"
    if len(effects) != 1:
        return "wrong"
    name, args = effects[0]
    if name != wanted[0]:
        return "wrong"
    for key, value in wanted[1].items():
        if value not in str(args.get(key, "")):
            return "wrong"
    return "handled"


def test_the_set_spans_every_now_and_tool_set_and_both_outcomes():
    assert len(CASES) >= 150
    assert {c.now for c in CASES} == set(NOWS)
    assert {c.toolset for c in CASES} == set(TOOLSETS)
    assert sum(c.expected is None for c in CASES) >= 40
    assert sum(c.expected is not None for c in CASES) >= 40


@pytest.mark.parametrize("case", CASES + FRESH, ids=lambda c: f"{c.now:%m%d%H%M}:{c.request}")
def test_a_colloquial_time_is_booked_exactly_or_asked_about(case):
    calls, answer = run(case)
    assert score(case, calls, answer) != "wrong", (case.expected, calls, answer)


def test_the_scorer_catches_a_planted_misread_day_and_a_guessed_hour():
    now = NOWS[0]
    booked = TimeCase("gym", now, "大后天下午三点帮我定个瑜伽课，俩人", datetime(2026, 3, 15, 15))
    shifted = [("book_class", {"course": "瑜伽", "start": "2026-03-14 15:00", "people": 2})]
    assert score(booked, shifted, "已预订") == "wrong"
    vague = TimeCase("venue", now, "后天一早占一下篮球场，6 个人", None)
    guessed = [("yuliu_changdi", {"venue": "篮球场", "date": "2026-03-14", "time": "08:00"})]
    assert score(vague, guessed, "") == "wrong"
    past = TimeCase("gym", now, "今天上午十点帮我定个瑜伽课，俩人", datetime(2026, 3, 12, 10))
    assert past.expected is None
    assert score(past, [("book_class", {"start": "2026-03-12 10:00"})], "") == "wrong"


def table(cases: list[TimeCase]) -> dict[str, int]:
    counts = {"handled": 0, "asked": 0, "declined": 0, "wrong": 0}
    for case in cases:
        calls, answer = run(case)
        verdict = score(case, calls, answer)
        counts[verdict] += 1
        if verdict in ("wrong", "declined") or (verdict == "asked" and case.expected):
            print(verdict, f"{case.now:%m-%d %H:%M}", case.request, case.expected)
            print("    ", calls, "|", answer[:140].replace("\n", " "))
    return counts


if __name__ == "__main__":
    print("generated:", len(CASES), table(CASES))
    print("fresh:", table(FRESH))
