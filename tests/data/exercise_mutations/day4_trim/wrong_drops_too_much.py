"""Wrong: when the history is over budget it keeps only the latest round, even if older rounds would still fit."""

FAILS_AT = '差一点：丢掉最早的一轮（带两个并行调用）'

from handwritten_agent.memory import ContextTooLong, count_tokens, split_head, split_rounds


def trim(messages, budget):
    if count_tokens(messages) <= budget:
        return list(messages)
    head = split_head(messages)[0]
    last = split_rounds(messages)[-1]
    if count_tokens(head + last) > budget:
        raise ContextTooLong("放不下", tokens=count_tokens(head + last), budget=budget)
    return head + last


ARGS = (trim,)
