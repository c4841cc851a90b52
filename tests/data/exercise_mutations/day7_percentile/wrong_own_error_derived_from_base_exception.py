"""Rejects an empty list or a bad p with its own ``BadInput`` derived from ``BaseException``, not
the ``ValueError`` the task names (no ``except Exception`` or ``except ValueError`` catches it)."""

import math


class BadInput(BaseException):
    pass


def percentile(values, p):
    if not values or not 0 < p <= 100:
        raise BadInput(f"算不出：{len(values)} 个值，p={p}")
    ordered = sorted(values)
    return ordered[max(1, math.ceil(p * len(ordered) / 100)) - 1]


ARGS = (percentile,)
