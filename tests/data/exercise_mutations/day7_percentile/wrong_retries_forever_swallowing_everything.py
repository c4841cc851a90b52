"""Retries "until it works" with a bare except that also swallows the interruption: never ends on bad input."""


def percentile(values, p):
    while True:
        try:
            ordered = sorted(values)
            rank = -(-p * len(ordered) // 100)
            return ordered[max(rank, 1) - 1]
        except BaseException:  # noqa: B036 - the mistake: also swallows the checker's time limit
            continue


ARGS = (percentile,)
FAILS_AT = "秒内没有结束"
