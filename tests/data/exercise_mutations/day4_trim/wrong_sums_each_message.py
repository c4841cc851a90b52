"""Counts each message on its own and adds them up: count_tokens adds the reply's overhead once per call,
so the sum is too big and rounds that fit are dropped."""

from handwritten_agent.memory import ContextTooLong, count_tokens, split_head, split_rounds


def trim(messages, budget):
    head = split_head(messages)[0]
    rounds = split_rounds(messages)

    def size(kept):
        return sum(count_tokens([m]) for m in kept)

    for start in range(len(rounds)):
        kept = head + [m for r in rounds[start:] for m in r]
        if size(kept) <= budget:
            return kept
    needed = size(head + (rounds[-1] if rounds else []))
    if not rounds and needed <= budget:
        return list(head)
    raise ContextTooLong(f"需要 {needed} 个 token，超过了 {budget}", tokens=needed, budget=budget)


ARGS = (trim,)
FAILS_AT = "恰好等于预算"
