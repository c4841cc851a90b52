"""Wrong: calls the package's trim_messages, which shortens a huge tool result instead of raising — not what this task asks."""

FAILS_AT = '性质检查：300 段随机对话 × 随机预算（第 1 段）'

from handwritten_agent.memory import trim_messages


def trim(messages, budget):
    return trim_messages(messages, budget)


ARGS = (trim,)
