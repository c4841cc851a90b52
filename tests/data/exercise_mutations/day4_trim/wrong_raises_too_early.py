"""Wrong: raises ContextTooLong as soon as the whole history does not fit, instead of dropping old rounds."""

FAILS_AT = '差一点：丢掉最早的一轮（带两个并行调用）'

from handwritten_agent.memory import ContextTooLong, count_tokens


def trim(messages, budget):
    if count_tokens(messages) > budget:
        raise ContextTooLong("对话太长了", tokens=count_tokens(messages), budget=budget)
    return list(messages)


ARGS = (trim,)
