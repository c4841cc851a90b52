"""Wrong: fills the budget greedily from the newest round, skipping a big round but keeping older small ones (a gap)."""

from handwritten_agent.memory import ContextTooLong, count_tokens, split_head, split_rounds


def trim(messages, budget):
    head = split_head(messages)[0]
    rounds = split_rounds(messages)
    if not rounds and count_tokens(head) <= budget:
        return list(head)
    if not rounds:
        raise ContextTooLong(f"头部需要 {count_tokens(head)} 个 token", tokens=count_tokens(head), budget=budget)
    if count_tokens(head + rounds[-1]) > budget:
        needed = count_tokens(head + rounds[-1])
        raise ContextTooLong(f"需要 {needed} 个 token，超过了 {budget}", tokens=needed, budget=budget)
    kept = [rounds[-1]]
    for round_ in reversed(rounds[:-1]):
        if count_tokens(head + [m for r in [round_] + kept for m in r]) <= budget:
            kept.insert(0, round_)
    return head + [m for r in kept for m in r]


ARGS = (trim,)
FAILS_AT = "性质检查"
