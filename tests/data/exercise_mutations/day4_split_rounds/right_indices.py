"""Correct, another way: find where each round starts, then slice between those positions."""


def split_rounds(messages):
    head = 0
    while head < len(messages) and messages[head]["role"] == "system":
        head += 1
    starts = [i for i in range(head, len(messages)) if messages[i]["role"] == "user"]
    if head < len(messages) and (not starts or starts[0] != head):
        starts.insert(0, head)
    ends = starts[1:] + [len(messages)]
    return [list(messages[a:b]) for a, b in zip(starts, ends)]


ARGS = (split_rounds,)
