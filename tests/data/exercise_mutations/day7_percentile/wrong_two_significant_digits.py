"""Reports the latency with two significant digits (f"{v:.2g}"): 1.23456 comes back as 1.2."""

import math


def percentile(values, p):
    if not values or not 0 < p <= 100:
        raise ValueError("没有值，或者 p 不在 (0, 100] 里")
    ordered = sorted(values)
    return float(f"{ordered[max(1, math.ceil(p * len(ordered) / 100)) - 1]:.2g}")


FAILS_AT = "有效数字"
ARGS = (percentile,)
