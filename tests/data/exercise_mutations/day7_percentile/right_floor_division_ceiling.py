"""Correct, another style: the ceiling as negated floor division, ``-(-(p × n) // 100)``, with the
multiplication first."""


def percentile(values, p):
    if len(values) == 0 or p <= 0 or p > 100:
        raise ValueError(f"需要至少一个值和 0 < p ≤ 100（收到 {len(values)} 个值、p={p}）")
    rank = int(-(-(p * len(values)) // 100))
    return sorted(values)[max(rank, 1) - 1]


ARGS = (percentile,)
