"""Starts the list with an empty round and appends to the last one: an empty history gives [[]] (one round with nothing
in it) instead of [] (no rounds), and every history gets an empty first round."""


def split_rounds(messages):
    start = 0
    while start < len(messages) and messages[start]["role"] == "system":
        start += 1
    rounds = [[]]
    for message in messages[start:]:
        if message["role"] == "user" and rounds[-1]:
            rounds.append([])
        rounds[-1].append(message)
    return rounds


ARGS = (split_rounds,)
FAILS_AT = "没有任何消息"
