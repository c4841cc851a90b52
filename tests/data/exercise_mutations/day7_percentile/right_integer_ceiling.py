"""Correct, another way: the rank by integer arithmetic (-(-a // b) is a ceiling) on p in thousandths, heapq for the k smallest."""

import heapq


def percentile(values, p):
    if len(values) == 0:
        raise ValueError("至少要有一个值")
    if p <= 0 or p > 100:
        raise ValueError("p 要在 (0, 100] 里")
    rank = -(-round(p * 1000) * len(values) // 100_000)
    return heapq.nsmallest(max(rank, 1), values)[-1]


ARGS = (percentile,)
