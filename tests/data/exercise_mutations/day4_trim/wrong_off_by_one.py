"""Wrong: uses < instead of <=, so a history exactly at the budget loses a round it could keep."""

FAILS_AT = '恰好等于预算：原样返回'

from handwritten_agent.memory import ContextTooLong, count_tokens, split_head, split_rounds


def trim(messages, budget):
    head = split_head(messages)[0]
    rounds = split_rounds(messages)
    for start in range(len(rounds)):
        kept = head + [m for r in rounds[start:] for m in r]
        if count_tokens(kept) < budget:
            return kept
    raise ContextTooLong("放不下", tokens=0, budget=budget)


ARGS = (trim,)
