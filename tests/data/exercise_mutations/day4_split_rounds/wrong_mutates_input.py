"""Wrong: pops the head off the caller's list, so the conversation loses its system message."""

FAILS_AT = '只有 system 消息'


def split_rounds(messages):
    while messages and messages[0]["role"] == "system":
        messages.pop(0)
    rounds = []
    for message in messages:
        if message["role"] == "user" or not rounds:
            rounds.append([message])
        else:
            rounds[-1].append(message)
    return rounds


ARGS = (split_rounds,)
