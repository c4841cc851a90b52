"""When even the newest round does not fit, raises its own ``TooLong`` derived from
``BaseException`` instead of ``ContextTooLong``: no caller's ``except Exception`` can handle it."""

from handwritten_agent.memory import count_tokens


class TooLong(BaseException):
    pass


def _rounds(messages):
    start = 0
    while start < len(messages) and messages[start]["role"] == "system":
        start += 1
    rounds = []
    for message in messages[start:]:
        if message["role"] == "user" or not rounds:
            rounds.append([message])
        else:
            rounds[-1].append(message)
    return rounds


def trim(messages, budget):
    head = []
    for message in messages:
        if message["role"] != "system":
            break
        head.append(message)
    rounds = _rounds(messages)
    for start in range(len(rounds)):
        kept = head + [m for round_ in rounds[start:] for m in round_]
        if count_tokens(kept) <= budget:
            return kept
    needed = count_tokens(head + (rounds[-1] if rounds else []))
    if not rounds and needed <= budget:
        return list(head)
    raise TooLong(f"需要 {needed} 个 token，超过了预算 {budget}。")


ARGS = (trim,)
