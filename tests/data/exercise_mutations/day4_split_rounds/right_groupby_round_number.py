"""Correct, another style: numbers each message after the head with its round (a running count of
user messages) and groups by that number with ``itertools.groupby``."""

import itertools


def split_rounds(messages):
    body = list(itertools.dropwhile(lambda m: m["role"] == "system", messages))
    numbers, count = [], 0
    for position, message in enumerate(body):
        if message["role"] == "user" and position > 0:
            count += 1
        numbers.append(count)
    return [[m for _, m in group] for _, group in itertools.groupby(zip(numbers, body), key=lambda pair: pair[0])]


ARGS = (split_rounds,)
