"""Rounds the rank down (int) instead of up: the p95 of 20 values is the 19th — but p50 of 3 values becomes the 1st."""


def percentile(values, p):
    if not values or not 0 < p <= 100:
        raise ValueError("bad input")
    ordered = sorted(values)
    return ordered[max(1, int(p * len(ordered) / 100)) - 1]


FAILS_AT = "p50，奇数"
ARGS = (percentile,)
