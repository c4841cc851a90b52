"""Wrong: when the history is over budget it keeps only the latest round, even if older rounds would still fit."""

from handwritten_agent.memory import ContextTooLong, count_tokens, split_head, split_rounds


def trim(messages, max_tokens):
    if count_tokens(messages) <= max_tokens:
        return list(messages)
    head = split_head(messages)[0]
    last = split_rounds(messages)[-1]
    if count_tokens(head + last) > max_tokens:
        raise ContextTooLong("放不下", tokens=count_tokens(head + last), max_tokens=max_tokens)
    return head + last


ARGS = (trim,)
