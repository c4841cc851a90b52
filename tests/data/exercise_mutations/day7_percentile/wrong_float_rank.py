"""Divides first: p / 100 * n is 7.000000000000001 for p=7, n=100, so the rank rounds up to 8."""

import math


def percentile(values, p):
    if not values or not 0 < p <= 100:
        raise ValueError("bad input")
    ordered = sorted(values)
    return ordered[max(1, math.ceil(p / 100 * len(ordered))) - 1]


FAILS_AT = "p7"
ARGS = (percentile,)
