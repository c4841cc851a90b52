"""Trims correctly, but the ContextTooLong it raises reports the whole conversation's size, not what is needed
(the head plus the latest round) — the figure a caller would compare with its budget."""

from handwritten_agent.memory import ContextTooLong, count_tokens, split_head, split_rounds


def trim(messages, budget):
    head = split_head(messages)[0]
    rounds = split_rounds(messages)
    for start in range(len(rounds)):
        kept = head + [m for r in rounds[start:] for m in r]
        if count_tokens(kept) <= budget:
            return kept
    if not rounds and count_tokens(head) <= budget:
        return list(head)
    total = count_tokens(messages)
    raise ContextTooLong(f"对话一共 {total} 个 token，超过了 budget={budget}。", tokens=total, budget=budget)


ARGS = (trim,)
FAILS_AT = "最新的一轮放不下"
