"""Sorts the caller's list in place (values.sort()): the right number, but the latencies it was given are reordered."""

import math


def percentile(values, p):
    if not values or not 0 < p <= 100:
        raise ValueError("bad input")
    values.sort()
    return values[max(1, math.ceil(p * len(values) / 100)) - 1]


FAILS_AT = "p50，偶数"
ARGS = (percentile,)
