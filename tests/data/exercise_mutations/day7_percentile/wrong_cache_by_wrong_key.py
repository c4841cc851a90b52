"""Wrong: caches results under (number of values, p) — the key leaves out the values themselves."""

import math

_cache = {}


def percentile(values, p):
    if not values:
        raise ValueError("没有值")
    if not 0 < p <= 100:
        raise ValueError("p 要在 (0, 100] 里")
    key = (len(values), p)
    if key not in _cache:
        ordered = sorted(values)
        _cache[key] = ordered[max(1, math.ceil(p * len(ordered) / 100)) - 1]
    return _cache[key]


ARGS = (percentile,)
FAILS_AT = "换一组值再算"
