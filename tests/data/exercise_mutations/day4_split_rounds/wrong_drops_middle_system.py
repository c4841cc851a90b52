"""Wrong: removes every system message, also one in the middle of the conversation that belongs to a round."""

FAILS_AT = '对话中间有一条 system 消息'


def split_rounds(messages):
    rounds = []
    for message in messages:
        if message["role"] == "system":
            continue
        if message["role"] == "user" or not rounds:
            rounds.append([message])
        else:
            rounds[-1].append(message)
    return rounds


ARGS = (split_rounds,)
