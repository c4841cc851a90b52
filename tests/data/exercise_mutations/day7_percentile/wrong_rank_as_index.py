"""Uses the rank as the index (off by one): one place too high, and an IndexError at p100."""

import math


def percentile(values, p):
    if not values or not 0 < p <= 100:
        raise ValueError("bad input")
    ordered = sorted(values)
    return ordered[min(math.ceil(p * len(ordered) / 100), len(ordered) - 1)]


FAILS_AT = "p50，偶数"
ARGS = (percentile,)
