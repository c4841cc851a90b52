"""Trims correctly, but the ContextTooLong reports the latest round's tokens alone: the system messages must be sent too."""

from handwritten_agent.memory import ContextTooLong, count_tokens, split_head, split_rounds


def trim(messages, budget):
    head, rounds = split_head(messages)[0], split_rounds(messages)
    for start in range(len(rounds)):
        kept = head + [m for r in rounds[start:] for m in r]
        if count_tokens(kept) <= budget:
            return kept
    if not rounds and count_tokens(head) <= budget:
        return list(head)
    needed = count_tokens(rounds[-1] if rounds else head)
    raise ContextTooLong(f"最新的一轮需要 {needed} 个 token，超过了 {budget}", tokens=needed, budget=budget)


ARGS = (trim,)
FAILS_AT = "最新的一轮放不下"
