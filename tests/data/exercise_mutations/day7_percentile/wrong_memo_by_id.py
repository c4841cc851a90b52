"""Wrong: memoises on id(values) — a new list that reuses a freed list's id (or the same list changed
in place) gets the old answer."""

import math

_memo = {}


def percentile(values, p):
    if not values:
        raise ValueError("没有值")
    if not 0 < p <= 100:
        raise ValueError("p 要在 (0, 100] 里")
    key = (id(values), p)
    if key not in _memo:
        ordered = sorted(values)
        _memo[key] = ordered[max(1, math.ceil(p * len(ordered) / 100)) - 1]
    return _memo[key]


ARGS = (percentile,)
FAILS_AT = "换一组值再算"
