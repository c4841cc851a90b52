"""Wrong: when even the latest round does not fit it returns it anyway, silently over the budget."""

FAILS_AT = '最新的一轮放不下 → ContextTooLong，报出需要的 token 数'

from handwritten_agent.memory import count_tokens, split_head, split_rounds


def trim(messages, budget):
    head = split_head(messages)[0]
    rounds = split_rounds(messages)
    while len(rounds) > 1 and count_tokens(head + [m for r in rounds for m in r]) > budget:
        rounds = rounds[1:]
    return head + [m for r in rounds for m in r]


ARGS = (trim,)
