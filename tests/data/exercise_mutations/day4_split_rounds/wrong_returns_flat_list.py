"""Wrong: returns the messages after the head as one flat list instead of a list of rounds."""

FAILS_AT = '两轮，没有工具'


def split_rounds(messages):
    return [m for m in messages if m["role"] != "system"]


ARGS = (split_rounds,)
