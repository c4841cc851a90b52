"""Correct, another way: the rank with decimal.Decimal (p read from its text, so 0.1 is exactly 0.1)
and a ceiling by ROUND_CEILING; the values are returned as they are."""

from decimal import ROUND_CEILING, Decimal


def percentile(values, p):
    if len(values) == 0 or not (0 < p <= 100):
        raise ValueError("需要至少一个值，并且 0 < p ≤ 100")
    ordered = sorted(values)
    exact = Decimal(str(p)) * len(ordered) / 100
    rank = int(exact.to_integral_value(rounding=ROUND_CEILING))
    return ordered[max(rank, 1) - 1]


ARGS = (percentile,)
