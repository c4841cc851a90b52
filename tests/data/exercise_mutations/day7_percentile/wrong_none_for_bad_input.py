"""Returns None for an empty list and clamps p into range instead of raising ValueError."""

import math


def percentile(values, p):
    if not values:
        return None
    if p <= 0:
        p = 1
    p = min(p, 100)
    ordered = sorted(values)
    return ordered[max(1, math.ceil(p * len(ordered) / 100)) - 1]


FAILS_AT = "没有值"
ARGS = (percentile,)
