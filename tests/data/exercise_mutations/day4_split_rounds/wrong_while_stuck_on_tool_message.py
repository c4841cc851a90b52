"""Walks the messages with an index it advances only on user and assistant messages: the first tool
message keeps the loop going forever."""


def split_rounds(messages):
    i = 0
    while i < len(messages) and messages[i]["role"] == "system":
        i += 1
    rounds = []
    while i < len(messages):
        message = messages[i]
        if message["role"] == "user" or not rounds:
            rounds.append([message])
            i += 1
        elif message["role"] == "assistant":
            rounds[-1].append(message)
            i += 1
        # a "tool" message: forgot to add it and to advance i


    return rounds


ARGS = (split_rounds,)
FAILS_AT = "秒内没有结束"
