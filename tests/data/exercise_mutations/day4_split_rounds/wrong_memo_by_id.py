"""Wrong: memoises the rounds on id(messages) — the same list given other messages (or a new list that
reuses a freed list's id) gets the old rounds back."""

_memo = {}


def split_rounds(messages):
    key = id(messages)
    if key in _memo:
        return _memo[key]
    start = 0
    while start < len(messages) and messages[start]["role"] == "system":
        start += 1
    rounds = []
    for message in messages[start:]:
        if message["role"] == "user" or not rounds:
            rounds.append([])
        rounds[-1].append(message)
    _memo[key] = rounds
    return rounds


ARGS = (split_rounds,)
FAILS_AT = "同一个列表换了内容"
