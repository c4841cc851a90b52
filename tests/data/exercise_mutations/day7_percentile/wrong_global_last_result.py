"""Wrong: keeps the sorted list in a module global and sorts again only when the length changes,
so a second call with other values of the same length reads the first call's values."""

import math

_sorted = []


def percentile(values, p):
    global _sorted
    if not values:
        raise ValueError("没有值")
    if not 0 < p <= 100:
        raise ValueError("p 要在 (0, 100] 里")
    if len(_sorted) != len(values):
        _sorted = sorted(values)
    return _sorted[max(1, math.ceil(p * len(values) / 100)) - 1]


ARGS = (percentile,)
