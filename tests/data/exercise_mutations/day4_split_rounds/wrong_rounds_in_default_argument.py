"""Collects the rounds in a default argument list (``rounds=[]``): made once, so the second
conversation's rounds come after the first conversation's (a shared mutable default)."""


def split_rounds(messages, rounds=[]):
    start = 0
    while start < len(messages) and messages[start]["role"] == "system":
        start += 1
    first = len(rounds)
    for message in messages[start:]:
        if message["role"] == "user" or len(rounds) == first:
            rounds.append([message])
        else:
            rounds[-1].append(message)
    return rounds


ARGS = (split_rounds,)
