"""Wrong: fills the budget greedily from the newest round, skipping a big round but keeping older small ones (a gap)."""

from handwritten_agent.memory import ContextTooLong, count_tokens, split_head, split_rounds


def trim(messages, max_tokens):
    head = split_head(messages)[0]
    rounds = split_rounds(messages)
    if count_tokens(head + rounds[-1]) > max_tokens:
        raise ContextTooLong("放不下", tokens=0, max_tokens=max_tokens)
    kept = [rounds[-1]]
    for round_ in reversed(rounds[:-1]):
        if count_tokens(head + [m for r in [round_] + kept for m in r]) <= max_tokens:
            kept.insert(0, round_)
    return head + [m for r in kept for m in r]


ARGS = (trim,)
