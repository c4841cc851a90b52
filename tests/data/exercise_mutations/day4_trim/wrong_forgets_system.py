"""Wrong: keeps rounds only; the system messages at the head are dropped."""

FAILS_AT = '预算足够：原样返回'

from handwritten_agent.memory import ContextTooLong, count_tokens, split_rounds


def trim(messages, budget):
    rounds = split_rounds(messages)
    for start in range(len(rounds)):
        kept = [m for r in rounds[start:] for m in r]
        if count_tokens(kept) <= budget:
            return kept
    raise ContextTooLong("放不下", tokens=0, budget=budget)


ARGS = (trim,)
