"""Wrong: keeps rounds only; the system messages at the head are dropped."""

from handwritten_agent.memory import ContextTooLong, count_tokens, split_rounds


def trim(messages, max_tokens):
    rounds = split_rounds(messages)
    for start in range(len(rounds)):
        kept = [m for r in rounds[start:] for m in r]
        if count_tokens(kept) <= max_tokens:
            return kept
    raise ContextTooLong("放不下", tokens=0, max_tokens=max_tokens)


ARGS = (trim,)
