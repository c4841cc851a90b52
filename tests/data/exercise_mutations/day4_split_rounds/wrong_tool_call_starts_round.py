"""Wrong: an assistant message with tool_calls starts a new round (the call is split from its question)."""

FAILS_AT = '两个并行调用，结果乱序'


def split_rounds(messages):
    start = 0
    while start < len(messages) and messages[start]["role"] == "system":
        start += 1
    rounds = []
    for message in messages[start:]:
        if message["role"] == "user" or message.get("tool_calls") or not rounds:
            rounds.append([message])
        else:
            rounds[-1].append(message)
    return rounds


ARGS = (split_rounds,)
