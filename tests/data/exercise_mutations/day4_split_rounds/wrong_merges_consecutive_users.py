"""Wrong: a user message only starts a round when the previous message was not a user message too."""

FAILS_AT = '连续两条 user 消息'


def split_rounds(messages):
    start = 0
    while start < len(messages) and messages[start]["role"] == "system":
        start += 1
    rounds = []
    previous = None
    for message in messages[start:]:
        if (message["role"] == "user" and previous != "user") or not rounds:
            rounds.append([message])
        else:
            rounds[-1].append(message)
        previous = message["role"]
    return rounds


ARGS = (split_rounds,)
