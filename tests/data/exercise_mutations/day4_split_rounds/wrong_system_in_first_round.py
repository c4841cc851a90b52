"""Wrong: the head's system messages are put into the first round instead of being left out."""

FAILS_AT = '只有 system 消息'


def split_rounds(messages):
    rounds = []
    for message in messages:
        if message["role"] == "user" or not rounds:
            rounds.append([message])
        else:
            rounds[-1].append(message)
    return rounds


ARGS = (split_rounds,)
