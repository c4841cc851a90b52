"""Correct, another way: heapq.nsmallest(rank, values)[-1] without sorting everything, integer ceiling by negated floor division."""

import hashlib
import json
import math
import threading
from handwritten_agent.service.store import IdempotencyConflict

import heapq


def percentile(values, p):
    values = list(values)
    if len(values) == 0 or not (p > 0 and p <= 100):
        raise ValueError("需要至少一个值，并且 0 < p <= 100")
    rank = max(1, -(-p * len(values) // 100))
    return heapq.nsmallest(int(rank), values)[-1]


ARGS = (percentile,)
