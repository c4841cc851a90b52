"""Rounds p × n / 100 to two decimals before the ceiling (to dodge 7.000000000000001): a rank of
1.001 becomes 1.0, so the value one place too low comes back."""

import math


def percentile(values, p):
    if not values or not 0 < p <= 100:
        raise ValueError("没有值，或者 p 不在 (0, 100] 里")
    ordered = sorted(values)
    return ordered[max(1, math.ceil(round(p * len(ordered) / 100, 2))) - 1]


FAILS_AT = "秩只比整数大一点"
ARGS = (percentile,)
