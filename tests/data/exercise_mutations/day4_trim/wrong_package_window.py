"""Wrong: calls the package's trim_messages, which shortens a huge tool result instead of raising — not what this task asks."""

from handwritten_agent.memory import trim_messages


def trim(messages, budget):
    return trim_messages(messages, budget)


ARGS = (trim,)
