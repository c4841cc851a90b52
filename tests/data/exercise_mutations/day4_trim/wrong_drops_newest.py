"""Wrong: drops rounds from the end, keeping the oldest ones and losing the latest question."""

FAILS_AT = '差一点：丢掉最早的一轮（带两个并行调用）'

from handwritten_agent.memory import ContextTooLong, count_tokens, split_head, split_rounds


def trim(messages, budget):
    head = split_head(messages)[0]
    rounds = split_rounds(messages)
    while rounds and count_tokens(head + [m for r in rounds for m in r]) > budget:
        rounds = rounds[:-1]
    if not rounds:
        raise ContextTooLong("放不下", tokens=0, budget=budget)
    return head + [m for r in rounds for m in r]


ARGS = (trim,)
