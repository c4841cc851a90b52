"""Uses statistics.quantiles (it interpolates): p50 of [1, 2, 3, 4] is 2.5, not a value of the list."""

import statistics


def percentile(values, p):
    if not values or not 0 < p <= 100:
        raise ValueError("bad input")
    if len(values) == 1:
        return values[0]
    return statistics.quantiles(values, n=100, method="inclusive")[min(int(p), 99) - 1] if p < 100 else max(values)


FAILS_AT = "p50，偶数"
ARGS = (percentile,)
