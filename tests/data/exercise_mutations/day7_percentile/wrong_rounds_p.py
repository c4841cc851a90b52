"""Rounds p to two decimals first: p=50.001 is taken as 50, one rank too low."""

import math


def percentile(values, p):
    if not values or not 0 < p <= 100:
        raise ValueError("bad input")
    p = round(p, 2)
    ordered = sorted(values)
    return ordered[max(1, math.ceil(p * len(ordered) / 100)) - 1]


FAILS_AT = "三位小数"
ARGS = (percentile,)
