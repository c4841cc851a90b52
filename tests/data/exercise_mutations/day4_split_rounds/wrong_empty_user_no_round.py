"""Starts a round only at a user message with text (`m["role"] == "user" and m["content"]`): an
empty user message (or one with only spaces) is glued to the previous round."""


def split_rounds(messages):
    head = 0
    while head < len(messages) and messages[head]["role"] == "system":
        head += 1
    rounds = []
    for message in messages[head:]:
        if (message["role"] == "user" and (message.get("content") or "").strip()) or not rounds:
            rounds.append([])
        rounds[-1].append(message)
    return rounds


FAILS_AT = "空的 user"
ARGS = (split_rounds,)
