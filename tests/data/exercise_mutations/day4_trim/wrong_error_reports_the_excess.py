"""Trims correctly, but puts how far over the budget it is into ``tokens`` (needed - budget) instead of what is needed."""

from handwritten_agent.memory import ContextTooLong, count_tokens, split_head, split_rounds


def trim(messages, budget):
    head = split_head(messages)[0]
    rounds = split_rounds(messages)
    for start in range(len(rounds)):
        kept = head + [m for r in rounds[start:] for m in r]
        if count_tokens(kept) <= budget:
            return kept
    needed = count_tokens(head + (rounds[-1] if rounds else []))
    if not rounds and needed <= budget:
        return list(head)
    raise ContextTooLong(f"超出了 {needed - budget} 个 token", tokens=needed - budget, budget=budget)


ARGS = (trim,)
FAILS_AT = "最新的一轮放不下"
