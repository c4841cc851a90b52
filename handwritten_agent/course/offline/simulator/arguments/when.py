"""Dates and times for one parameter: the strftime format its description or examples ask for.

The dates themselves are read in ``..dates``; this module only decides how a parameter wants them.

A parameter that names a moment and gives no format (就诊时间, "start time of the class") is
written "YYYY-MM-DD HH:MM": a time of day the user gave is never dropped, and one they did not give
is asked for.

Left out: time zones and locale-specific formats.
"""

from __future__ import annotations

import re

from ..text import normalize
from .params import Param, examples_of


def date_format(param: Param) -> str:
    """The strftime format the parameter asks for."""
    source = normalize(param.description) + " " + " ".join(examples_of(param))
    match = re.search(r"YYYY([-/.年]?)MM([-/.月]?)DD(日?)(?:([ T])HH(:?)mm(:ss)?)?", source, re.I)
    if match:
        fmt = f"%Y{match[1]}%m{match[2]}%d{match[3]}"
        if match[4]:
            fmt += f"{match[4]}%H{match[5]}%M" + (f"{match[5]}%S" if match[6] else "")
        return fmt
    example = next(
        (
            e
            for e in examples_of(param)
            if re.fullmatch(r"\d{4}-\d{2}-\d{2}(?:[ T]\d{2}:\d{2}(?::\d{2})?)?", e)
        ),
        None,
    )
    if example:
        fmt = "%Y-%m-%d"
        if len(example) > 10:
            fmt += example[10] + ("%H:%M:%S" if example.count(":") == 2 else "%H:%M")
        return fmt
    if re.search(r"\bHH:mm\b|\bHH:MM\b", source) or param.schema.get("format") == "time":
        return "%H:%M"
    if param.schema.get("format") == "date-time":
        return "%Y-%m-%dT%H:%M:%S"
    if any(re.fullmatch(r"\d{1,2}:\d{2}", e) for e in examples_of(param)):
        return "%H:%M"  # an example such as "15:00": a time of day alone
    if names_a_moment(param):
        return "%Y-%m-%d %H:%M"  # "就诊时间", "start time": the time of day is part of it
    return "%Y-%m-%d"


_SPAN = re.compile(r"时长|时段|时区|duration|period|interval|zone", re.I)
_MOMENT = re.compile(r"时间|时刻|\btimes?\b|datetime", re.I)
_DAY = re.compile(r"日期|\bdates?\b|\bday\b", re.I)


def names_a_moment(param: Param) -> bool:
    """True for a parameter that names a moment with no format given: its name or label says
    time (visit_time, 就诊时间), or its description does and says nothing of a date alone ("start
    time of the class"); not a length, a span or a time zone (时长, duration, 时区)."""
    words = " ".join(re.split(r"[_\W]+|(?<=[a-z])(?=[A-Z])", param.name)).lower()
    description = normalize(param.description)
    if _SPAN.search(f"{words} {description}"):
        return False
    if _MOMENT.search(f"{words} {param.label()}"):
        return True
    return bool(_MOMENT.search(description)) and not _DAY.search(f"{words} {description}")
