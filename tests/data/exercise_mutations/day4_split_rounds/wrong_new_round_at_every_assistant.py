"""Wrong: every assistant message starts a new round, so a call's answer lands in another round than its question."""

FAILS_AT = '两轮，没有工具'


def split_rounds(messages):
    body = [m for m in messages if m["role"] != "system"]
    rounds = []
    for message in body:
        if message["role"] in ("user", "assistant") or not rounds:
            rounds.append([message])
        else:
            rounds[-1].append(message)
    return rounds


ARGS = (split_rounds,)
