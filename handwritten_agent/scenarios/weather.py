"""A weather tool on fixed sample data — honest about it, so no answer passes it off as a forecast.

The point on Day 3 is the tool's shape (a clear description, an example in every parameter, an
enum, an error that lists what is valid), not meteorology. Every result carries ``note`` saying the
numbers are sample data.

Left out: real forecasts, dates beyond tomorrow, cities not in ``SAMPLE_WEATHER``.
"""

from __future__ import annotations

from typing import Any, Literal

from ..tools import ToolError, tool

SAMPLE_NOTE = "示例数据，不是实时天气预报"

SAMPLE_WEATHER: dict[str, dict[str, dict[str, Any]]] = {
    "北京": {
        "today": {"weather": "晴", "temp_low": 2, "temp_high": 14, "wind": "北风 3 级"},
        "tomorrow": {"weather": "多云", "temp_low": 4, "temp_high": 15, "wind": "南风 2 级"},
    },
    "上海": {
        "today": {"weather": "小雨", "temp_low": 9, "temp_high": 16, "wind": "东风 3 级"},
        "tomorrow": {"weather": "阴", "temp_low": 10, "temp_high": 17, "wind": "东北风 2 级"},
    },
    "广州": {
        "today": {"weather": "多云", "temp_low": 18, "temp_high": 26, "wind": "南风 2 级"},
        "tomorrow": {"weather": "雷阵雨", "temp_low": 19, "temp_high": 25, "wind": "东南风 3 级"},
    },
    "深圳": {
        "today": {"weather": "晴", "temp_low": 19, "temp_high": 27, "wind": "东风 2 级"},
        "tomorrow": {"weather": "多云", "temp_low": 20, "temp_high": 27, "wind": "东风 3 级"},
    },
    "杭州": {
        "today": {"weather": "阴", "temp_low": 8, "temp_high": 15, "wind": "北风 2 级"},
        "tomorrow": {"weather": "小雨", "temp_low": 9, "temp_high": 13, "wind": "北风 3 级"},
    },
    "成都": {
        "today": {"weather": "多云", "temp_low": 10, "temp_high": 17, "wind": "微风"},
        "tomorrow": {"weather": "阴", "temp_low": 11, "temp_high": 16, "wind": "微风"},
    },
}
_ALIASES = {
    "beijing": "北京",
    "shanghai": "上海",
    "guangzhou": "广州",
    "shenzhen": "深圳",
    "hangzhou": "杭州",
    "chengdu": "成都",
}
_DATE_WORDS = {"today": "今天", "tomorrow": "明天"}


def _known_city(city: str) -> str | None:
    name = city.strip()
    name = _ALIASES.get(name.lower(), name)
    if name.endswith("市") and name[:-1] in SAMPLE_WEATHER:
        name = name[:-1]
    return name if name in SAMPLE_WEATHER else None


@tool
def get_weather(city: str, date: Literal["today", "tomorrow"] = "today") -> dict[str, Any]:
    """查询某个城市今天或明天的天气（示例数据），例如“北京明天天气怎么样”。返回天气、最低和最高气温、风力。

    Args:
        city: 城市名，例如：北京、上海、广州
        date: 查询哪一天：today 表示今天，tomorrow 表示明天，例如：tomorrow
    """
    name = _known_city(city)
    if name is None:
        raise ToolError(f"没有“{city}”的天气数据。可查询的城市：{'、'.join(SAMPLE_WEATHER)}。")
    return {
        "city": name,
        "date": _DATE_WORDS[date],
        **SAMPLE_WEATHER[name][date],
        "unit": "摄氏度",
        "note": SAMPLE_NOTE,
    }
