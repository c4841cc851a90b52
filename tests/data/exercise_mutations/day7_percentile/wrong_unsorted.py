"""Forgets to sort: picks by position in the list as given."""

import math


def percentile(values, p):
    if not values or not 0 < p <= 100:
        raise ValueError("bad input")
    return values[max(1, math.ceil(p * len(values) / 100)) - 1]


FAILS_AT = "p50，偶数"
ARGS = (percentile,)
