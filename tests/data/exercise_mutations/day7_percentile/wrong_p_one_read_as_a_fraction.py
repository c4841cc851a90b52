"""Reads p ≤ 1 as a fraction (p=1 becomes 100): the 1st percentile comes back as the largest value."""

import hashlib
import json
import math
import threading
from handwritten_agent.service.store import IdempotencyConflict

def percentile(values: list, p: float) -> float:
    '''用最近秩法求 values 的第 p 百分位数（0 < p <= 100）。'''
    if not values:
        raise ValueError("没有值，算不出百分位。")
    if not 0 < p <= 100:
        raise ValueError(f"p 要满足 0 < p ≤ 100，收到的是 {p}。")
    if p <= 1:
        p *= 100  # 0.95 也当作 95
    ordered = sorted(values)
    rank = max(1, math.ceil(p * len(ordered) / 100))
    return ordered[rank - 1]


ARGS = (percentile,)
