"""Demo tools for the course, starting with Day 3's four: calculator, clock, weather, exchange rate.

Every tool here works offline on fixed data or pure computation, says so when its data is a
sample, and has a Chinese description with an example in each parameter — the offline simulator,
like a real model, chooses tools and fills arguments from exactly those descriptions.

Left out: tools with side effects (the office-admin and customer-ops tools of Days 5–7 live in their
own modules).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from ..tools import ToolRegistry
from .calculator import calculator
from .clock import make_clock_tool
from .exchange import get_exchange_rate
from .weather import get_weather


def basic_registry(now: Callable[[], datetime] | datetime | None = None) -> ToolRegistry:
    """A registry with the four Day 3 tools; ``now`` fixes the clock (see ``make_clock_tool``)."""
    return ToolRegistry([calculator, make_clock_tool(now), get_weather, get_exchange_rate])


__all__ = ["basic_registry", "calculator", "get_exchange_rate", "get_weather", "make_clock_tool"]
