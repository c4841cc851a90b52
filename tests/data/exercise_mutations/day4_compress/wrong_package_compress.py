"""Wrong: calls the package's compress instead of writing the compression."""

from handwritten_agent.memory import compress

FAILS_AT = "课程包"


def compress_history(messages, client, budget):
    return compress(messages, client, budget=budget, keep_last_rounds=2)


ARGS = (compress_history,)
