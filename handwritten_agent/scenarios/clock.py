"""A clock tool whose idea of "now" can be injected, so notebooks and tests give the same output
every run.

``make_clock_tool(now)`` builds the tool around a clock: a function returning a ``datetime``, a
fixed ``datetime``, or ``None`` for the real local time. The tool takes no arguments.

Left out: time zones other than the clock's own, calendars, holidays.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from ..tools import Tool, tool

WEEKDAYS = ("星期一", "星期二", "星期三", "星期四", "星期五", "星期六", "星期日")


def make_clock_tool(now: Callable[[], datetime] | datetime | None = None) -> Tool:
    """A ``get_current_time`` tool reading ``now`` (a callable, a fixed datetime, or None for the
    system clock).
    """
    if isinstance(now, datetime):
        fixed = now
        clock: Callable[[], datetime] = lambda: fixed
    elif now is None:
        clock = lambda: datetime.now().astimezone()
    elif callable(now):
        clock = now
    else:
        raise TypeError(
            "make_clock_tool(now=...) 接受一个 datetime、一个返回 datetime 的函数，或者"
            f" None；收到的是 {type(now).__name__}。"
        )

    @tool(name="get_current_time", timeout=None)
    def get_current_time() -> dict[str, Any]:
        """获取当前的日期、时间和星期几。用户问“现在几点了”“今天几号”“今天星期几”时使用，不需要参数。"""
        moment = clock()
        result = {
            "date": moment.strftime("%Y-%m-%d"),
            "time": moment.strftime("%H:%M:%S"),
            "weekday": WEEKDAYS[moment.weekday()],
        }
        if moment.tzname():  # only an aware datetime knows its zone
            result["timezone"] = moment.tzname()
        return result

    return get_current_time
