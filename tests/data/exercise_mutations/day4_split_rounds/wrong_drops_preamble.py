"""Wrong: messages before the first user message (a greeting) are thrown away instead of forming their own round."""

FAILS_AT = '第一条 user 之前有一条欢迎语'


def split_rounds(messages):
    rounds = []
    for message in messages:
        if message["role"] == "user":
            rounds.append([message])
        elif rounds:
            rounds[-1].append(message)
    return rounds


ARGS = (split_rounds,)
