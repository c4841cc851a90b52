"""Wrong: raises ContextTooLong as soon as the whole history does not fit, instead of dropping old rounds."""

from handwritten_agent.memory import ContextTooLong, count_tokens


def trim(messages, max_tokens):
    if count_tokens(messages) > max_tokens:
        raise ContextTooLong("对话太长了", tokens=count_tokens(messages), max_tokens=max_tokens)
    return list(messages)


ARGS = (trim,)
