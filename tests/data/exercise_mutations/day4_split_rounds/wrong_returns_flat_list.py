"""Wrong: returns the messages after the head as one flat list instead of a list of rounds."""


def split_rounds(messages):
    return [m for m in messages if m["role"] != "system"]


ARGS = (split_rounds,)
